#!/usr/bin/env python3
"""Oracle for convolution by names (include/nt/conv.hpp, tests/imaging/conv.cpp):
torch.nn.functional's conv{1,2,3}d and conv_transpose{1,2,3}d (with groups for
`.keep`, F.pad for the pad modes and asymmetric widths) and torch.autograd for their
gradients; scipy.ndimage's correlate and convolve, every boundary mode, on floating and
integer images.

Each conv case names its axes (x: N [G] C spatial, w: [G] F C kernel, w stored in a
random axis order) or leaves them unnamed (torch's layout); the spatial axes are
listed in a random order, with their per-axis options in that order. correlate and
convolve cases put 0-2 batch axes anywhere; scipy, which treats every axis as
spatial, gets the kernel with size 1 along them. Kernels of the scipy cases are
multiples of 1/8 and images small integers or dyadic values, so that the double sums
are exact in any order and integer results equal scipy's bit for bit.

Writes, per case:
  case <id> <op> <dtype> <key>=<value>...      (oracle.CaseWriter; lists comma-separated)
  x / w / bias <rank> <sizes> <names> values ...
  out ...                                        the result
  seed / grad_x / grad_w / grad_b ...            gradients of sum(out * seed)
"""
import numpy as np
import scipy.ndimage as ndi
import torch
import torch.nn.functional as F

import oracle

SPATIAL = ["D", "H", "W"]
TORCH_PAD = {"constant": "constant", "reflect": "reflect", "edge": "replicate", "wrap": "circular"}
SCIPY_MODES = ["reflect", "constant", "nearest", "mirror", "wrap"]
INT_TYPES = {"u8": np.uint8, "i16": np.int16, "u16": np.uint16, "i32": np.int32}



def torch_pad_widths(widths):
    """F.pad's list (last axis first) from per-axis (before, after) in storage order."""
    out = []
    for before, after in reversed(widths):
        out += [before, after]
    return out


def conv_case(w_out, rng, nprng, transpose):
    k = rng.randint(1, 3)
    dtype = rng.choice(["f32", "f64"])
    npt = np.float32 if dtype == "f32" else np.float64
    tt = torch.float32 if dtype == "f32" else torch.float64
    named = rng.random() < 0.75
    groups = rng.randint(2, 3) if (named and not transpose and rng.random() < 0.3) else 1
    n, c, f = rng.randint(1, 2), rng.randint(1, 3), rng.randint(1, 3)
    # Long rows (the direct kernels: the last output axis fills vectors, with a tail)
    # and enough features for whole blocks of 8 and the remainders.
    long_rows = rng.random() < 0.35
    if long_rows:
        f = rng.randint(1, 11)
    kernel = [rng.randint(1, 4) for _ in range(k)]
    stride = [rng.randint(1, 3) for _ in range(k)]
    dilation = [rng.randint(1, 2) for _ in range(k)]
    sp = SPATIAL[3 - k:]
    listed = list(range(k))
    rng.shuffle(listed)
    params = {"k": k, "named": int(named), "axes": [sp[i] if named else str(2 + (groups > 1) + i) for i in listed]}
    bias = rng.random() < 0.4
    want_grad = rng.random() < 0.5
    if not transpose:
        pad_kind = rng.choice(["valid", "same", "widths", "widths"])
        if pad_kind == "same" and any(s != 1 for s in stride):
            stride = [1] * k
        widths = [(0, 0)] * k
        if pad_kind == "same":
            widths = []
            for i in range(k):
                total = dilation[i] * (kernel[i] - 1)
                widths.append((total // 2, total - total // 2))
        elif pad_kind == "widths":
            widths = [(rng.randint(0, 2), rng.randint(0, 2)) for _ in range(k)]
        mode = rng.choice(list(TORCH_PAD)) if pad_kind != "valid" else "constant"
        # Sizes large enough for the window after padding (and for reflect's pads).
        sizes = []
        for i in range(k):
            span = dilation[i] * (kernel[i] - 1) + 1
            lo = max(span - widths[i][0] - widths[i][1], max(widths[i]) + 1, 1)
            sizes.append(rng.randint(lo, lo + 5))
        if long_rows:
            sizes[-1] += rng.randint(14, 40)
        xshape = [n] + ([groups] if groups > 1 else []) + [c] + sizes
        wshape = ([groups] if groups > 1 else []) + [f, c] + kernel
        x = (nprng.standard_normal(xshape)).astype(npt)
        w = (nprng.standard_normal(wshape) * 0.5).astype(npt)
        b = (nprng.standard_normal(([groups] if groups > 1 else []) + [f])).astype(npt) if bias else None
        tx = torch.tensor(x, dtype=tt, requires_grad=True)
        tw = torch.tensor(w, dtype=tt, requires_grad=True)
        tb = torch.tensor(b, dtype=tt, requires_grad=True) if bias else None
        xx = tx.reshape([n, groups * c] + sizes)
        ww = tw.reshape([groups * f, c] + kernel)
        if any(a or b_ for a, b_ in widths):
            xx = F.pad(xx, torch_pad_widths(widths), mode=TORCH_PAD[mode])
        conv = [F.conv1d, F.conv2d, F.conv3d][k - 1]
        y = conv(xx, ww, tb.reshape(-1) if bias else None, stride=stride, dilation=dilation, groups=groups)
        y = y.reshape([n] + ([groups] if groups > 1 else []) + [f] + list(y.shape[2:]))
        params.update({"stride": [stride[i] for i in listed], "dilation": [dilation[i] for i in listed],
                       "padding": pad_kind, "widths": [f"{widths[i][0]}:{widths[i][1]}" for i in listed],
                       "pad_mode": mode, "keep": int(groups > 1), "bias": int(bias)})
    else:
        padding = [rng.randint(0, max(0, (dilation[i] * (kernel[i] - 1)) // 2)) for i in range(k)]
        out_pad = [rng.randint(0, max(stride[i], dilation[i]) - 1) for i in range(k)]
        sizes = [rng.randint(1, 5) for _ in range(k)]
        if long_rows:
            sizes[-1] += rng.randint(14, 40)
        xshape = [n, c] + sizes
        wshape = [c, f] + kernel
        x = (nprng.standard_normal(xshape)).astype(npt)
        w = (nprng.standard_normal(wshape) * 0.5).astype(npt)
        b = (nprng.standard_normal([f])).astype(npt) if bias else None
        tx = torch.tensor(x, dtype=tt, requires_grad=True)
        tw = torch.tensor(w, dtype=tt, requires_grad=True)
        tb = torch.tensor(b, dtype=tt, requires_grad=True) if bias else None
        convt = [F.conv_transpose1d, F.conv_transpose2d, F.conv_transpose3d][k - 1]
        y = convt(tx, tw, tb, stride=stride, padding=padding, output_padding=out_pad, dilation=dilation)
        params.update({"stride": [stride[i] for i in listed], "dilation": [dilation[i] for i in listed],
                       "padding": [padding[i] for i in listed], "output_padding": [out_pad[i] for i in listed],
                       "bias": int(bias)})
    params["grad"] = int(want_grad)
    w_out.case("conv_transpose" if transpose else "conv", dtype, params)
    if named:
        xnames = ["N"] + (["G"] if groups > 1 else []) + ["C"] + sp
        wnames = (["G"] if groups > 1 else []) + (["F", "C"] if not transpose else ["C", "F"]) + sp
        # w stored in a random axis order: its names place it.
        perm = list(range(len(wshape)))
        rng.shuffle(perm)
        w_stored = np.transpose(w, perm)
        w_stored_names = [wnames[i] for i in perm]
    else:
        xnames, w_stored, w_stored_names, perm = None, w, None, list(range(len(wshape)))
    w_out.tensor("x", x, xnames)
    w_out.tensor("w", w_stored, w_stored_names)
    if bias:
        w_out.tensor("bias", b, (["G", "F"] if groups > 1 else ["F"]) if named else None)
    w_out.tensor("out", y.detach().numpy(), None)
    if want_grad:
        seed = nprng.standard_normal(list(y.shape)).astype(npt)
        (y * torch.tensor(seed, dtype=tt)).sum().backward()
        w_out.tensor("seed", seed, None)
        w_out.tensor("grad_x", tx.grad.numpy(), None)
        w_out.tensor("grad_w", np.transpose(tw.grad.numpy(), perm), None)
        if bias:
            w_out.tensor("grad_b", tb.grad.numpy(), None)


def scipy_case(w_out, rng, nprng, convolution):
    k = rng.randint(1, 3)
    dtype = rng.choice(["f32", "f64", "u8", "i16", "u16", "i32"])
    mode = rng.choice(SCIPY_MODES)
    cval = rng.randint(-16, 16) / 8
    nbatch = rng.randint(0, 2)
    rank = k + nbatch
    spatial_pos = sorted(rng.sample(range(rank), k))
    names = []
    sp_iter = iter(SPATIAL[3 - k:])
    for a in range(rank):
        names.append(next(sp_iter) if a in spatial_pos else ("B" if a == 0 or "B" not in names else "B2"))
    shape = [rng.randint(1, 7) if a in spatial_pos else rng.randint(1, 3) for a in range(rank)]
    if dtype in INT_TYPES:
        info = np.iinfo(INT_TYPES[dtype])
        lo, hi = max(info.min, -300), min(info.max, 300)
        x = nprng.integers(lo, hi, shape, endpoint=True).astype(INT_TYPES[dtype])
    else:
        x = (nprng.integers(-64, 64, shape) / 8).astype(np.float32 if dtype == "f32" else np.float64)
    ksizes = [rng.randint(1, 4) for _ in range(k)]
    kern = nprng.integers(-16, 17, ksizes) / 8.0
    full = kern.reshape([ksizes[spatial_pos.index(a)] if a in spatial_pos else 1 for a in range(rank)])
    fn = ndi.convolve if convolution else ndi.correlate
    if dtype in INT_TYPES and mode == "constant":
        cval = float(int(cval))
    y = fn(x, full, mode=mode, cval=cval)
    listed = list(range(k))
    rng.shuffle(listed)
    sp_names = [names[a] for a in spatial_pos]
    named_kernel = rng.random() < 0.5
    # An unnamed kernel's axes follow the listed axes.
    kern_stored = np.transpose(kern, listed) if not named_kernel else kern
    w_out.case("convolve" if convolution else "correlate", dtype,
               {"mode": mode, "cval": cval, "axes": [sp_names[i] for i in listed]})
    w_out.tensor("x", x, names)
    w_out.tensor("w", kern_stored, sp_names if named_kernel else None)
    w_out.tensor("out", y, None)


def cases(args, rng, out):
    w = oracle.CaseWriter(out)
    nprng = np.random.default_rng(args.seed)
    torch.manual_seed(args.seed)
    for _ in range(args.count):
        r = rng.random()
        if r < 0.4:
            conv_case(w, rng, nprng, False)
        elif r < 0.6:
            conv_case(w, rng, nprng, True)
        else:
            scipy_case(w, rng, nprng, rng.random() < 0.5)
    return f"{w.cid} convolution cases -> {args.out}"


if __name__ == "__main__":
    oracle.run(cases, count=200, header_line=True)
