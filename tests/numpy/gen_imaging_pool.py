#!/usr/bin/env python3
"""Oracle for pooling and resampling (include/nt/pooling.hpp, tests/imaging/pool.cpp):
torch.nn.functional's max_pool{1,2,3}d (with indices), avg_pool{1,2,3}d and
interpolate, and scipy.ndimage.zoom, on the same random inputs; torch.autograd for the
gradients. Inputs are (N, C, spatial...) as torch takes them; the spatial axes are
listed in a random order, with their per-axis options in that order. zoom runs on each
(N, C) slice, scipy treating every axis as spatial.

Writes, per case:
  case <id> <op> <dtype> <key>=<value>...       (lists comma-separated)
  input <rank> <sizes> <names> values ...
  then out/indices (the result), or seed and grad (the gradient of sum(out * seed)),
  or error (torch or scipy refused the arguments: nt must throw).
"""
import numpy as np
import scipy.ndimage as ndi
import torch
import torch.nn.functional as F

import oracle

SPATIAL = ["D", "H", "W"]
NP = {"f16": np.float16, "f32": np.float32, "f64": np.float64, "u8": np.uint8, "i16": np.int16,
      "u16": np.uint16, "i32": np.int32}
MODES = ["reflect", "constant", "nearest", "mirror", "wrap"]



def names_of(k):
    return ["N", "C"] + SPATIAL[3 - k:]


def listed_order(rng, k):
    order = list(range(k))
    rng.shuffle(order)
    return order


def spatial_input(rng, nprng, k, dtype, lo=3, hi=7, ties=False):
    shape = [rng.randint(1, 2), rng.randint(1, 3)] + [rng.randint(lo, hi) for _ in range(k)]
    if ties:
        return nprng.integers(-3, 4, shape).astype(NP[dtype])
    if dtype in ("u8", "i16", "u16", "i32"):
        info = np.iinfo(NP[dtype])
        lo_v, hi_v = max(info.min, -1000), min(info.max, 1000)
        if dtype == "u8":
            lo_v, hi_v = 0, 255
        return nprng.integers(lo_v, hi_v, shape, endpoint=True).astype(NP[dtype])
    return nprng.standard_normal(shape).astype(NP[dtype])


def pool_cases(w, rng, nprng, count):
    for i in range(count):
        k = rng.choice([1, 2, 3])
        op = rng.choice(["max_pool", "max_pool", "max_pool_with_indices", "avg_pool"])
        dtype = rng.choice(["f32", "f64"] if op == "avg_pool" else ["f32", "f64", "f64", "i16", "u8", "f16"])
        ties = op != "avg_pool" and rng.random() < 0.3
        x = spatial_input(rng, nprng, k, dtype, 1 if rng.random() < 0.15 else 3, 9, ties)
        size = [rng.randint(1, 4) for _ in range(k)]
        stride = [rng.randint(1, 3) for _ in range(k)] if rng.random() < 0.6 else []
        dil = [rng.randint(1, 2) for _ in range(k)] if op != "avg_pool" and rng.random() < 0.4 else []
        pad = [rng.randint(0, s // 2) for s in size] if rng.random() < 0.5 else []
        if rng.random() < 0.08:
            pad = [s // 2 + 1 for s in size]  # over half the window: torch refuses
        ceil = int(rng.random() < 0.3)
        cip = int(rng.random() < 0.7)
        order = listed_order(rng, k)
        names = names_of(k)
        params = {"axes": [names[2 + j] for j in order], "size": [size[j] for j in order]}
        if stride:
            params["stride"] = [stride[j] for j in order]
        if pad:
            params["padding"] = [pad[j] for j in order]
        if dil:
            params["dilation"] = [dil[j] for j in order]
        params["ceil"] = ceil
        if op == "avg_pool":
            params["cip"] = cip
        xt = torch.from_numpy(x.astype(np.float64))
        try:
            if op == "avg_pool":
                fn = [F.avg_pool1d, F.avg_pool2d, F.avg_pool3d][k - 1]
                y = fn(xt, size, stride or None, pad or 0, bool(ceil), bool(cip))
                idx = None
            else:
                fn = [F.max_pool1d, F.max_pool2d, F.max_pool3d][k - 1]
                y, idx = fn(xt, size, stride or None, pad or 0, dil or 1, bool(ceil), return_indices=True)
        except RuntimeError:
            w.case(op, dtype, params)
            w.tensor("input", x, names)
            w.out.write("error\n")
            continue
        w.case(op, dtype, params)
        w.tensor("input", x, names)
        w.tensor("out", y.numpy().astype(NP[dtype]), names)
        if op == "max_pool_with_indices":
            w.tensor("indices", idx.numpy(), names)
        # The gradient, in f64, of sum(out * seed).
        if dtype == "f64" and rng.random() < 0.5:
            xg = torch.from_numpy(x.copy()).requires_grad_(True)
            if op == "avg_pool":
                yg = fn(xg, size, stride or None, pad or 0, bool(ceil), bool(cip))
            else:
                yg = fn(xg, size, stride or None, pad or 0, dil or 1, bool(ceil))
            seed = torch.from_numpy(nprng.standard_normal(tuple(yg.shape)))
            (g,) = torch.autograd.grad(yg, xg, seed)
            w.tensor("seed", seed.numpy(), names)
            w.tensor("grad", g.numpy(), names)


def resize_cases(w, rng, nprng, count):
    for i in range(count):
        mode = rng.choice(["nearest", "linear", "linear", "cubic"])
        k = 2 if mode == "cubic" else rng.choice([1, 2, 3])
        dtype = rng.choice(["f32", "f64", "u8"] if mode == "nearest" else ["f32", "f64"])
        x = spatial_input(rng, nprng, k, dtype, 1 if rng.random() < 0.15 else 2, 8)
        names = names_of(k)
        order = listed_order(rng, k)
        align = int(mode != "nearest" and rng.random() < 0.4)
        params = {"mode": mode, "align": align, "axes": [names[2 + j] for j in order]}
        tmode = {"nearest": "nearest", "cubic": "bicubic"}.get(mode, ["linear", "bilinear", "trilinear"][k - 1])
        xt = torch.from_numpy(x)
        kw = {} if mode == "nearest" else {"align_corners": bool(align)}
        if rng.random() < 0.3:
            scale = [rng.choice([0.5, 1.5, 2.0, 3.0, 0.75, 1.7]) for _ in range(k)]
            params["scale"] = [scale[j] for j in order]
            fn = lambda t: F.interpolate(t, scale_factor=scale, mode=tmode, **kw)
        else:
            size = [rng.randint(1, 11) for _ in range(k)]
            params["size"] = [size[j] for j in order]
            fn = lambda t: F.interpolate(t, size=size, mode=tmode, **kw)
        w.case("resize", dtype, params)
        w.tensor("input", x, names)
        try:
            y = fn(xt)
        except RuntimeError:
            w.out.write("error\n")
            continue
        w.tensor("out", y.numpy(), names)
        if dtype == "f64" and rng.random() < 0.5:
            xg = torch.from_numpy(x.copy()).requires_grad_(True)
            yg = fn(xg)
            seed = torch.from_numpy(nprng.standard_normal(tuple(yg.shape)))
            (g,) = torch.autograd.grad(yg, xg, seed)
            w.tensor("seed", seed.numpy(), names)
            w.tensor("grad", g.numpy(), names)


def zoom_cases(w, rng, nprng, count):
    for i in range(count):
        k = rng.choice([1, 2, 3])
        dtype = rng.choice(["f32", "f64", "f64", "u8", "i16", "u16"])
        x = spatial_input(rng, nprng, k, dtype, 1 if rng.random() < 0.1 else 2, 8)
        names = names_of(k)
        order = listed_order(rng, k)
        zoom_order = rng.choice([0, 1, 3, 3])
        mode = rng.choice(MODES)
        cval = rng.choice([0.0, 0.0, 1.5])
        factors = [rng.choice([0.5, 0.7, 1.0, 1.3, 1.5, 2.0, 2.5, 3.0]) for _ in range(k)]
        params = {"axes": [names[2 + j] for j in order], "factors": [factors[j] for j in order],
                  "order": zoom_order, "bmode": mode, "cval": cval}
        y = np.stack([np.stack([ndi.zoom(x[n, c], factors, order=zoom_order, mode=mode, cval=cval)
                                for c in range(x.shape[1])]) for n in range(x.shape[0])])
        w.case("zoom", dtype, params)
        w.tensor("input", x, names)
        w.tensor("out", y, names)


def cases(args, rng, out):
    nprng = np.random.default_rng(args.seed)
    w = oracle.CaseWriter(out)
    pool_cases(w, rng, nprng, 400)
    resize_cases(w, rng, nprng, 300)
    zoom_cases(w, rng, nprng, 400)
    return f"{w.cid} pooling and resampling cases -> {args.out}"


if __name__ == "__main__":
    oracle.run(cases, seeded=False)
