"""The Python module against NumPy as the oracle (issue 43)."""
import gc
import pickle

import numpy as np
import pytest

import ntensor as nt

DTYPES = ["bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32",
          "uint64", "float16", "float32", "float64"]


@pytest.mark.parametrize("dtype", DTYPES)
def test_zero_copy_both_ways_every_dtype(dtype):
    rng = np.random.default_rng(1)
    a = (rng.random((3, 4)) * 10).astype(dtype)
    t = nt.asarray(a, names=("H", "W"))
    assert t.shape == (3, 4) and t.names == ("H", "W") and t.dtype == a.dtype
    b = np.asarray(t)
    assert b.dtype == a.dtype and np.shares_memory(a, b)
    np.testing.assert_array_equal(b, a)
    a[1, 2] = a[0, 0] if dtype == "bool" else 7
    assert b[1, 2] == a[1, 2]          # a write into NumPy is seen through the tensor


def test_writes_from_tensor_seen_by_numpy():
    a = np.zeros((2, 3), np.float32)
    t = nt.asarray(a)
    t[1, 2] = 5.0
    assert a[1, 2] == 5.0


@pytest.mark.parametrize("view", [lambda a: a[::-1], lambda a: a[:, ::-2], lambda a: a.T,
                                  lambda a: np.broadcast_to(a[:1], (4, 6))])
def test_strides_kept(view):
    a = np.arange(24, dtype=np.float64).reshape(4, 6)
    v = view(a)
    t = nt.asarray(v)
    b = np.asarray(t)
    assert b.strides == v.strides and np.shares_memory(a, b)
    np.testing.assert_array_equal(b, v)


def test_read_only_exactly_when_numpy_is():
    a = np.arange(6.0)
    a.flags.writeable = False
    t = nt.asarray(a)
    assert not np.asarray(t).flags.writeable
    with pytest.raises(nt.Error) as e:
        t[0] = 1.0
    assert e.value.code == "read_only"
    assert np.asarray(nt.asarray(np.arange(3.0))).flags.writeable


def test_lifetimes_both_ways():
    a = np.arange(1000, dtype=np.int32)
    t = nt.asarray(a)
    del a
    gc.collect()
    np.testing.assert_array_equal(np.asarray(t), np.arange(1000, dtype=np.int32))
    b = np.asarray(nt.asarray(np.arange(5.0)) + 1)
    gc.collect()
    np.testing.assert_array_equal(b, np.arange(5.0) + 1)


def test_named_matching_like_cpp():
    rng = np.random.default_rng(2)
    x = rng.random((2, 3, 4))
    y = rng.random((4, 3))
    t = nt.asarray(x, names=("?", "C", "W")) + nt.asarray(y, names=("W", "C"))
    np.testing.assert_allclose(np.asarray(t), x + y.T)
    assert t.names == (None, "C", "W")
    small = nt.asarray(rng.random((4, 8))) + nt.asarray(rng.random(8))
    assert small.shape == (4, 8)


def test_scalars_reductions_and_views():
    x = np.arange(24, dtype=np.float32).reshape(2, 3, 4)
    t = nt.asarray(x, names=("N", "H", "W"))
    np.testing.assert_allclose(np.asarray(t * 2 + 1), x * 2 + 1)
    np.testing.assert_allclose(np.asarray(1 - t), 1 - x)
    np.testing.assert_allclose(np.asarray(nt.sum(t, "H")), x.sum(1))
    np.testing.assert_allclose(np.asarray(nt.mean(t, ("N", "W"))), x.mean((0, 2)), rtol=1e-6)
    np.testing.assert_array_equal(np.asarray(t > 5), x > 5)
    a = t.align_to("W", "N", "H")
    assert a.names == ("W", "N", "H")
    np.testing.assert_array_equal(np.asarray(a), x.transpose(2, 0, 1))
    np.testing.assert_array_equal(np.asarray(t[1, 0:2]), x[1, 0:2])
    assert "N" in repr(t)


def test_errors_are_value_errors_with_code_and_message():
    with pytest.raises(ValueError) as e:
        nt.asarray(np.zeros((2, 3))) + nt.asarray(np.zeros((4,)))
    assert isinstance(e.value, nt.Error)
    assert e.value.code == "incompatible_sizes"
    assert "3" in str(e.value) and "4" in str(e.value)
    with pytest.raises(nt.Error) as e:
        nt.asarray(np.zeros(3, np.complex64))
    assert e.value.code == "unsupported_dtype"
    with pytest.raises(nt.Error) as e:
        nt.asarray(np.zeros((2, 2)), names=("A", "A"))
    assert e.value.code == "duplicate_name"
    with pytest.raises(nt.Error) as e:
        nt.sum(nt.asarray(np.zeros((2, 2)), names=("A", "B")), "Z")
    assert e.value.code == "axis_out_of_range"
    with pytest.raises(nt.Error) as e:
        nt.match(["(2,3 | N,C)", "(4 | C)"])
    assert e.value.code == "incompatible_sizes"


def test_matcher_on_specs():
    p = nt.match(["(10,3,256,384 | ?,CHANNEL,H,W)", "(10,256,384 | ?,H,W)"])
    assert "CHANNEL" in p.output
    assert '"shape"' in p.to_json()
    assert "H" in nt.explain(p)


def test_pickle_keeps_names():
    t = nt.asarray(np.arange(6, dtype=np.int16).reshape(2, 3), names=("H", "W"))
    u = pickle.loads(pickle.dumps(t))
    assert u.names == ("H", "W") and u.dtype == np.int16
    np.testing.assert_array_equal(np.asarray(u), np.asarray(t))


def test_npy_round_trip(tmp_path):
    x = np.arange(12, dtype=np.float32).reshape(3, 4)
    nt.save_npy(str(tmp_path / "x.npy"), nt.asarray(x))
    np.testing.assert_array_equal(np.load(tmp_path / "x.npy"), x)
    t = nt.load_npy(str(tmp_path / "x.npy"), names=("H", "W"))
    assert t.names == ("H", "W")


def test_dask_cluster_example():
    import os
    import subprocess
    import sys
    here = os.path.dirname(os.path.abspath(__file__))
    example = os.path.join(here, "..", "..", "examples", "python", "dask_cluster.py")
    r = subprocess.run([sys.executable, example], capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    assert "match NumPy" in r.stdout


def test_gil_released_threads():
    import threading
    x = nt.asarray(np.ones((256, 256)))
    out = []
    threads = [threading.Thread(target=lambda: out.append(np.asarray(nt.sum(x + x)))) for _ in range(4)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    assert all(float(o) == 2 * 256 * 256 for o in out)


def test_every_python_block_of_the_guide_is_run():
    """docs/python.md: each ```python block carries the marker that makes the
    python_docs test run it, so no example goes unchecked."""
    import pathlib
    import re
    lines = (pathlib.Path(__file__).resolve().parents[2] / "docs" / "python.md").read_text().split("\n")
    for i, line in enumerate(lines):
        if line.strip() == "```python":
            before = [x for x in lines[:i] if x.strip()][-1]
            assert re.match(r"<!--\s*python:\s*python-guide\s*-->", before.strip()), f"line {i + 1}: no marker"
