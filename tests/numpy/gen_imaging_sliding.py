#!/usr/bin/env python3
"""Oracle for nt::sliding_window (src/imaging/sliding_window.cpp): MONAI's
sliding_window_inference, written here in NumPy after MONAI's algorithm (MONAI is not
a Debian package): the input padded evenly where it is smaller than the window
(np.pad, the extra element after), window starts every int(roi * (1 - overlap)) (at
least 1, the whole padded axis when it equals the window) with the last window moved
back flush with the end (monai.data.utils.dense_patch_slices), windows in C order over
the spatial axes, batches of `batch` windows stacked on a new leading axis, the
Gaussian importance map exp(-u^2 / (2 sigma^2)) with u measured from the window's
centre ((roi - 1) / 2) and sigma = sigma_scale * roi per axis, clamped below at
max(its minimum, 1e-3) (monai.data.utils.compute_importance_map), and the result
sum(prediction * weight) / sum(weight), cropped back to the input's sizes.

The predictor, which both sides compute: each window w (leading axis dropped) becomes
2 w + 1 + mean(w) in float64, then cast to the prediction type; the mean makes each
window's prediction differ from its neighbour's, so the blending weights matter.

Writes, per case:
  case <id> <blend> <overlap> <batch> <sigma_scale> <pad_mode> <pad_value> <pred dtype> <k> <axes...> <roi...>
  input <dtype> <rank> <sizes> <names> values ...
  out <dtype> <rank> <sizes> <names> values ...
"""
import itertools

import numpy as np

import oracle

PAD_MODES = ["constant", "edge", "reflect", "symmetric", "wrap"]


def predictor(windows, pred_dtype):
    w = windows.astype(np.float64)
    mean = w.reshape(w.shape[0], -1).mean(axis=1).reshape((w.shape[0],) + (1,) * (w.ndim - 1))
    return (2.0 * w + 1.0 + mean).astype(pred_dtype)


def window_starts(n, roi, overlap):
    image = max(n, roi)
    interval = roi if roi == image else max(int(roi * (1 - overlap)), 1)
    num = -(-image // interval)
    count = next((d + 1 for d in range(num) if d * interval + roi >= image), 1)
    return [d * interval - max(d * interval + roi - image, 0) for d in range(count)]


def importance_map(roi, blend, sigma_scale):
    if blend == "constant":
        return np.ones(roi)
    m = np.ones(())
    for r in roi:
        u = np.arange(r) - (r - 1) / 2.0
        g = np.exp(u ** 2 / (-2.0 * (sigma_scale * r) ** 2))
        m = m[..., None] * g
    return np.maximum(m, max(m.min(), 1e-3))


def sliding_window(x, positions, roi, overlap, batch, blend, sigma_scale, pad_mode, pad_value, pred_dtype):
    widths = [(0, 0)] * x.ndim
    for p, r in zip(positions, roi):
        diff = max(r - x.shape[p], 0)
        widths[p] = (diff // 2, diff - diff // 2)
    kw = {"constant_values": pad_value} if pad_mode == "constant" else {}
    xp = np.pad(x, widths, mode=pad_mode, **kw)
    starts = [window_starts(x.shape[p], r, overlap) for p, r in zip(positions, roi)]
    grid = list(itertools.product(*starts))
    # The map over the spatial axes in x's order, broadcast over the others.
    order = np.argsort(positions)
    weight = np.transpose(importance_map(roi, blend, sigma_scale), order)
    wshape = [1] * x.ndim
    for p, r in zip(positions, roi):
        wshape[p] = r
    weight = weight.reshape(wshape)
    out = None
    wsum = np.zeros([xp.shape[p] if p in positions else 1 for p in range(x.ndim)])

    def region(start):
        idx = [slice(None)] * x.ndim
        for p, s, r in zip(positions, start, roi):
            idx[p] = slice(s, s + r)
        return tuple(idx)

    for first in range(0, len(grid), batch):
        chunk = grid[first:first + batch]
        windows = np.stack([xp[region(s)] for s in chunk])
        pred = predictor(windows, pred_dtype).astype(np.float64)
        if out is None:
            shape = list(pred.shape[1:])
            for p in positions:
                shape[p] = xp.shape[p]
            out = np.zeros(shape)
        for j, s in enumerate(chunk):
            out[region(s)] += pred[j] * weight
            wsum[region(s)] += weight
    out = out / wsum
    crop = [slice(None)] * x.ndim
    for p in positions:
        crop[p] = slice(widths[p][0], widths[p][0] + x.shape[p])
    return out[tuple(crop)].astype(pred_dtype)


def values_text(a):
    if a.dtype.kind == "f":
        return " ".join(repr(float(v)) for v in a.ravel())
    return " ".join(str(int(v)) for v in a.ravel())


def cases(args, rng, out):
    nrng = np.random.default_rng(args.seed)
    written = 0
    for cid in range(args.count):
        k = rng.choice([1, 2, 2, 3, 3])
        spatial_names = ["D", "H", "W"][3 - k:]
        lead = rng.choice([[], ["C"], ["N", "C"]])
        names = lead + spatial_names
        sizes = [rng.randint(1, 3) for _ in lead] + [rng.randint(1, 13 if k < 3 else 9) for _ in spatial_names]
        roi = [rng.randint(1, 8 if k < 3 else 6) for _ in spatial_names]
        # Some windows larger than x on an axis (x padded there).
        if rng.random() < 0.4:
            i = rng.randrange(k)
            roi[i] = sizes[len(lead) + i] + rng.randint(1, 4)
        positions = list(range(len(lead), len(names)))
        # The axes in another order than stored, sometimes.
        perm = list(range(k))
        rng.shuffle(perm)
        positions = [positions[i] for i in perm]
        roi = [roi[i] for i in perm]
        unnamed = rng.random() < 0.25
        axes = [str(p - len(names)) for p in positions] if unnamed else [names[p] for p in positions]
        dtype = rng.choice(["f32", "f64", "u8"])
        np_dtype = oracle.NUMPY_NAMES[dtype]
        if dtype == "u8":
            x = nrng.integers(0, 256, size=sizes).astype(np.uint8)
        else:
            x = nrng.standard_normal(sizes).astype(np_dtype)
        blend = rng.choice(["constant", "gaussian"])
        overlap = rng.choice([0.0, 0.25, 0.5, 0.6, 0.75, 0.9])
        batch = rng.choice([1, 2, 3, 4, 7])
        sigma_scale = rng.choice([0.05, 0.125, 0.25, 0.5])
        pad_mode = rng.choice(PAD_MODES)
        pad_value = float(rng.randint(0, 9)) if dtype == "u8" else rng.choice([0.0, 0.5, -1.25])
        pred_dtype = rng.choice(["f32", "f64"])
        result = sliding_window(x, positions, roi, overlap, batch, blend, sigma_scale, pad_mode, pad_value,
                                oracle.NUMPY_NAMES[pred_dtype])
        shown_names = ["?"] * len(names) if unnamed else names
        out.write(f"case {cid} {blend} {overlap!r} {batch} {sigma_scale!r} {pad_mode} {pad_value!r} {pred_dtype} {k} "
                  + " ".join(axes) + " " + " ".join(str(r) for r in roi) + "\n")
        out.write(f"input {dtype} {oracle.shape_text(x.shape)} {oracle.names_text(shown_names, x.ndim)} values "
                  + values_text(x) + "\n")
        out.write(f"out {pred_dtype} {oracle.shape_text(result.shape)} "
                  f"{oracle.names_text(shown_names, result.ndim)} values " + values_text(result) + "\n")
        written += 1
    return f"{written} sliding_window cases -> {args.out}"


if __name__ == "__main__":
    oracle.run(cases, count=120, header_line=True)
