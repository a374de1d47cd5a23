"""Imaging operations from Python against scipy.ndimage and torch, computed in the test."""
import numpy as np
import pytest
import torch
from scipy import ndimage

import ntensor as nt

RNG = np.random.default_rng(11)
IMG = RNG.random((2, 3, 12, 10))          # N C H W
NAMES = ("N", "C", "H", "W")


def test_conv_matches_torch():
    w = RNG.random((4, 3, 3, 3))          # O C KH KW
    b = RNG.random(4)
    got = nt.conv(nt.asarray(IMG, names=NAMES), nt.asarray(w, names=("O", "C", "H", "W")), ("H", "W"),
                  stride=2, padding=1, bias=nt.asarray(b, names=("O",)))
    want = torch.nn.functional.conv2d(torch.tensor(IMG), torch.tensor(w), torch.tensor(b), stride=2, padding=1)
    assert got.names == ("N", "O", "H", "W")
    np.testing.assert_allclose(np.asarray(got), want.numpy(), rtol=1e-10)


def test_pooling_and_resize_match_torch():
    t, x = nt.asarray(IMG, names=NAMES), torch.tensor(IMG)
    F = torch.nn.functional
    np.testing.assert_allclose(np.asarray(nt.max_pool(t, ("H", "W"), (2, 2))), F.max_pool2d(x, 2).numpy())
    np.testing.assert_allclose(np.asarray(nt.avg_pool(t, ("H", "W"), (3, 3), stride=(2, 2), padding=(1, 1))),
                               F.avg_pool2d(x, 3, stride=2, padding=1).numpy(), rtol=1e-12)
    np.testing.assert_allclose(np.asarray(nt.resize(t, {"H": 20, "W": 15}, mode="linear")),
                               F.interpolate(x, size=(20, 15), mode="bilinear", align_corners=False).numpy(), rtol=1e-10)


@pytest.mark.parametrize("mode", ["reflect", "constant", "nearest", "mirror", "wrap"])
def test_filters_match_scipy(mode):
    img = IMG[0, 0]
    t = nt.asarray(img, names=("H", "W"))
    np.testing.assert_allclose(np.asarray(nt.gaussian_filter(t, 1.5, ("H", "W"), mode=mode)),
                               ndimage.gaussian_filter(img, 1.5, mode=mode), rtol=1e-10)
    np.testing.assert_allclose(np.asarray(nt.uniform_filter(t, 3, ("H", "W"), mode=mode)),
                               ndimage.uniform_filter(img, 3, mode=mode), rtol=1e-10)
    np.testing.assert_allclose(np.asarray(nt.median_filter(t, (3, 2), ("H", "W"), mode=mode)),
                               ndimage.median_filter(img, (3, 2), mode=mode))
    np.testing.assert_allclose(np.asarray(nt.sobel(t, "W", ("H", "W"), mode=mode)), ndimage.sobel(img, axis=1, mode=mode), rtol=1e-10)


def test_zoom_matches_scipy():
    img = IMG[0, 0]
    np.testing.assert_allclose(np.asarray(nt.zoom(nt.asarray(img, names=("H", "W")), 1.5, ("H", "W"), order=1)),
                               ndimage.zoom(img, 1.5, order=1), rtol=1e-9, atol=1e-12)


def test_morphology_label_distance_match_scipy():
    mask = RNG.random((2, 16, 16)) > 0.55
    t = nt.asarray(mask, names=("N", "H", "W"))
    s = ndimage.generate_binary_structure(2, 1)[None]      # per image: nothing across N
    np.testing.assert_array_equal(np.asarray(nt.binary_erosion(t, ("H", "W"))), ndimage.binary_erosion(mask, s))
    np.testing.assert_array_equal(np.asarray(nt.binary_dilation(t, ("H", "W"), iterations=2)),
                                  ndimage.binary_dilation(mask, s, iterations=2))
    np.testing.assert_array_equal(np.asarray(nt.binary_fill_holes(t, ("H", "W"))), ndimage.binary_fill_holes(mask, s))
    labels, count = nt.label(t[0], ("H", "W"), connectivity=2)
    want, want_count = ndimage.label(mask[0], ndimage.generate_binary_structure(2, 2))
    assert count == want_count
    np.testing.assert_array_equal(np.asarray(labels), want)
    np.testing.assert_allclose(np.asarray(nt.distance_transform_edt(t[1], ("H", "W"), spacing=(1.0, 2.0))),
                               ndimage.distance_transform_edt(mask[1], sampling=(1.0, 2.0)))


def test_sliding_window_runs_a_python_predictor():
    x = nt.asarray(RNG.random((1, 20, 18)).astype(np.float32), names=("C", "H", "W"))
    seen = []

    def predictor(w):
        seen.append(w.shape[0])
        return w * 2.0
    got = nt.sliding_window(x, ("H", "W"), (8, 8), predictor, overlap=0.5, batch=3)
    assert seen and max(seen) <= 3
    np.testing.assert_allclose(np.asarray(got), np.asarray(x) * 2.0, rtol=1e-6)


def test_depthwise_conv_keeps_the_channel_axis_as_torch_groups():
    w = RNG.random((3, 3, 3))             # C KH KW: one kernel per channel
    got = nt.conv(nt.asarray(IMG, names=NAMES), nt.asarray(w, names=("C", "H", "W")), ("H", "W"),
                  padding="same", keep=("C",))
    want = torch.nn.functional.conv2d(torch.tensor(IMG), torch.tensor(w)[:, None], padding="same", groups=3)
    assert got.names == ("N", "C", "H", "W")
    np.testing.assert_allclose(np.asarray(got), want.numpy(), rtol=1e-10)


def test_sliding_window_blends_and_pads():
    # A predictor that returns its windows: any blend of overlapping copies of the same
    # values gives the input back, also where the windows are padded (x smaller than roi).
    x = nt.asarray(RNG.random((1, 6, 18)), names=("C", "H", "W"))
    got = nt.sliding_window(x, ("H", "W"), (8, 8), lambda w: w, overlap=0.5, batch=2, blend="gaussian",
                            sigma_scale=0.25, pad_mode="reflect")
    np.testing.assert_allclose(np.asarray(got), np.asarray(x), rtol=1e-12)
    with pytest.raises(nt.Error):
        nt.sliding_window(x, ("H", "W"), (8, 8), lambda w: w, blend="median")
    with pytest.raises(nt.Error):
        nt.sliding_window(x, ("H", "W"), (8, 8), lambda w: w, pad_mode="mean")


def test_imaging_errors():
    with pytest.raises(nt.Error) as e:
        nt.gaussian_filter(nt.asarray(IMG, names=NAMES), 1.0, ("H", "Q"))
    assert "Q" in str(e.value)
    with pytest.raises(nt.Error):
        nt.resize(nt.asarray(IMG, names=NAMES), {"H": 4}, mode="bilinear")


def test_conv_transpose_and_pool_indices_match_torch():
    w = RNG.random((3, 2, 3, 3))          # C_in C_out KH KW (torch's layout)
    got = nt.conv_transpose(nt.asarray(IMG, names=NAMES), nt.asarray(w, names=("C", "O", "H", "W")), ("H", "W"),
                            stride=2, padding=1, output_padding=1)
    want = torch.nn.functional.conv_transpose2d(torch.tensor(IMG), torch.tensor(w), stride=2, padding=1, output_padding=1)
    np.testing.assert_allclose(np.asarray(got), want.numpy(), rtol=1e-10)
    m, where = nt.max_pool_with_indices(nt.asarray(IMG, names=NAMES), ("H", "W"), (2, 2))
    wm, wi = torch.nn.functional.max_pool2d(torch.tensor(IMG), 2, return_indices=True)
    np.testing.assert_array_equal(np.asarray(m), wm.numpy())
    np.testing.assert_array_equal(np.asarray(where), wi.numpy())


def test_objects_match_scipy():
    mask = RNG.random((14, 12)) > 0.6
    labels, count = ndimage.label(mask)
    values = RNG.random((14, 12))
    tl = nt.asarray(labels.astype(np.int32), names=("H", "W"))
    np.testing.assert_allclose(np.asarray(nt.center_of_mass(nt.asarray(values, names=("H", "W")), tl, ("H", "W"))),
                               np.array(ndimage.center_of_mass(values, labels, range(1, count + 1))), rtol=1e-12)
    assert nt.find_objects(tl, ("H", "W")) == ndimage.find_objects(labels)
    stats = nt.region_stats(nt.asarray(values, names=("H", "W")), tl, ("H", "W"))
    idx = range(1, count + 1)
    np.testing.assert_allclose(np.asarray(stats["mean"])[-count:], ndimage.mean(values, labels, idx))
    np.testing.assert_allclose(np.asarray(stats["max"])[-count:], ndimage.maximum(values, labels, idx))
