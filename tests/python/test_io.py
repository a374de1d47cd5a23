"""Files, zarr stores, the matcher and pipeline configs from Python; zarr-python and
NumPy are the oracles."""
import json
import pathlib

import numpy as np
import pytest
import zarr

import ntensor as nt

SPECS = pathlib.Path(__file__).resolve().parents[2] / "examples" / "specs"


def test_npy_round_trip(tmp_path):
    a = np.random.default_rng(2).random((3, 4)).astype(np.float32)
    nt.save_npy(str(tmp_path / "a.npy"), nt.asarray(a, names=("H", "W")))
    np.testing.assert_array_equal(np.load(tmp_path / "a.npy"), a)
    t = nt.load_npy(str(tmp_path / "a.npy"), names=("H", "W"))
    assert t.names == ("H", "W")
    np.testing.assert_array_equal(np.asarray(t), a)


def test_zarr_written_by_ntensor_read_by_zarr_python(tmp_path):
    a = np.random.default_rng(3).integers(0, 1000, (20, 30)).astype(np.int16)
    z = nt.zarr.create(str(tmp_path / "s.zarr" / "img"), "int16", (20, 30), (8, 16), names=("Y", "X"))
    z.write(nt.asarray(a, names=("Y", "X")))
    assert z.shape == (20, 30) and z.chunks == (8, 16) and z.names == ("Y", "X")
    np.testing.assert_array_equal(zarr.open(str(tmp_path / "s.zarr" / "img"), mode="r")[...], a)
    back = nt.zarr.open(str(tmp_path / "s.zarr" / "img"))
    np.testing.assert_array_equal(np.asarray(back.read()), a)
    np.testing.assert_array_equal(np.asarray(back.read({"X": slice(5, 25), "Y": 3})), a[3:4, 5:25])
    back.write(nt.asarray(np.zeros((2, 4), np.int16)), {"Y": slice(0, 2), "X": slice(0, 4)})
    a[:2, :4] = 0
    np.testing.assert_array_equal(zarr.open(str(tmp_path / "s.zarr" / "img"), mode="r")[...], a)


def test_zarr_written_by_zarr_python(tmp_path):
    a = np.random.default_rng(4).random((6, 7))
    zarr.open(str(tmp_path / "p.zarr"), mode="w", shape=a.shape, chunks=(4, 4), dtype=a.dtype)[...] = a
    np.testing.assert_array_equal(np.asarray(nt.zarr.open(str(tmp_path / "p.zarr")).read()), a)
    with pytest.raises(nt.Error) as e:
        nt.zarr.open(str(tmp_path / "missing.zarr"))
    assert "missing.zarr" in str(e.value)


def test_matcher_on_specs():
    plan = nt.match(["(2,3,4 | N,C,W)", "(4,2 | W,N)"])
    assert plan.output == "(2,3,4 | N,C,W)"
    assert json.loads(plan.to_json())["shape"] == [2, 3, 4]
    assert "W" in nt.explain(plan)
    with pytest.raises(nt.Error):
        nt.match(["(2 | A)"], policy="nope")


def test_pipeline_config_plan_and_check():
    report = nt.check_config(str(SPECS / "segmentation_pipeline.json"))
    assert report.ok and report.error is None
    assert "overlay" in json.loads(report.to_json())["steps"]
    cfg = nt.load_config(str(SPECS / "segmentation_pipeline.json"))
    image = nt.asarray(np.zeros((2, 3, 16, 20), np.uint8), names=(None, "CHANNEL", "H", "W"))
    cfg.check("image", image)
    assert cfg.size("H") == 16 and cfg.size("N") == 2
    with pytest.raises(nt.Error) as e:
        cfg.check("labels", nt.asarray(np.zeros((2, 17, 20), np.int32)))
    assert e.value.code == "incompatible_sizes"
    assert cfg.spec("prob").startswith("(2,3,16,20")


def test_creation():
    z = nt.zeros((2, 3), "int16", names=("A", "B"))
    assert z.names == ("A", "B") and z.dtype == np.int16 and not np.asarray(z).any()
    np.testing.assert_array_equal(np.asarray(nt.arange(2, 10, 3)), np.arange(2, 10, 3))
    np.testing.assert_array_equal(np.asarray(nt.full((2,), 7.5)), np.full((2,), 7.5, np.float32))


def test_npz_and_map_npy(tmp_path):
    a, b = np.arange(6, dtype=np.int32).reshape(2, 3), np.random.default_rng(5).random(4)
    nt.save_npz(str(tmp_path / "z.npz"), {"a": a, "b": nt.asarray(b)}, compressed=True)
    with np.load(tmp_path / "z.npz") as z:
        np.testing.assert_array_equal(z["a"], a)
        np.testing.assert_array_equal(z["b"], b)
    np.savez(tmp_path / "w.npz", x=a)
    np.testing.assert_array_equal(np.asarray(nt.load_npz(str(tmp_path / "w.npz"))["x"]), a)
    np.save(tmp_path / "m.npy", a)
    m = nt.map_npy(str(tmp_path / "m.npy"), "r+", names=("H", "W"))
    m[0, 0] = 42
    del m
    assert np.load(tmp_path / "m.npy")[0, 0] == 42
    assert not nt.map_npy(str(tmp_path / "m.npy")).writeable


def test_ome_zarr_pyramid_read_by_zarr_python(tmp_path):
    a = np.random.default_rng(6).random((2, 40, 36)).astype(np.float32)
    img = nt.zarr.write_ome(str(tmp_path / "img.zarr"), nt.asarray(a, names=("c", "y", "x")), chunks=(1, 16, 16))
    assert nt.zarr.validate_ome(str(tmp_path / "img.zarr")) == []
    assert [ax[0] for ax in img.axes] == ["c", "y", "x"]
    levels = nt.zarr.open_ome(str(tmp_path / "img.zarr")).levels
    assert len(levels) >= 2
    np.testing.assert_array_equal(zarr.open(str(tmp_path / "img.zarr" / levels[0].path), mode="r")[...], a)
    half = a.reshape(2, 20, 2, 18, 2).mean(axis=(2, 4))
    np.testing.assert_allclose(np.asarray(levels[1].data.read()), half, rtol=1e-6)
    assert levels[1].scale == [1.0, 2.0, 2.0]


def test_map_chunks_with_a_halo_matches_scipy_on_the_whole_array(tmp_path):
    from scipy import ndimage
    x = np.random.default_rng(5).random((20, 18)).astype(np.float32)
    src = zarr.open(str(tmp_path / "in.zarr"), mode="w", shape=x.shape, chunks=(8, 7), dtype=np.float32)
    src[:] = x
    src.attrs["_ARRAY_DIMENSIONS"] = ["H", "W"]
    a = nt.zarr.open(str(tmp_path / "in.zarr"))
    out = nt.zarr.create(str(tmp_path / "out.zarr"), np.float32, a.shape, a.chunks, names=("H", "W"))
    seen = []

    def smooth(c):
        seen.append(c.chunk_index)
        # A 3x3 mean over the chunk and its halo of 1, cut back to the chunk.
        data = np.asarray(c.data)
        return nt.asarray(ndimage.uniform_filter(data, 3, mode="nearest")[c.inner_in_data].copy(),
                          names=("H", "W"))

    nt.zarr.map_chunks(a, out, smooth, halo={"H": 1, "W": 1})
    assert sorted(seen) == [(i, j) for i in range(3) for j in range(3)]
    # With a halo of 1, each chunk's 3x3 mean equals the whole array's except where the
    # array itself ends (mode "nearest" there, as in the reference).
    want = ndimage.uniform_filter(x, 3, mode="nearest")
    np.testing.assert_allclose(zarr.open(str(tmp_path / "out.zarr"))[:], want, rtol=1e-6)

    def wrong(c):
        raise RuntimeError("no")
    with pytest.raises(RuntimeError):
        nt.zarr.map_chunks(a, out, wrong)
