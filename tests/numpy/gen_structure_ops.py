#!/usr/bin/env python3
"""Oracle cases for nt/structure.hpp: concatenate, stack, split, array_split,
chunk, pad (all 5 modes), flip, roll, repeat, tile, multi-axis unfold and fold,
on random float64 tensors with small integer values, and what NumPy gives (or
that the call must throw). Run by CTest before test_structure's [numpy] cases
(tests/ops/structure/numpy_structure_ops.cpp).

Output (line based; a shape is "<rank> <sizes...>", names are one token per axis,
"?" for an unnamed axis; an axis argument is an integer or a name):

    # seed <S> count <N>
    case <id> <op> <args...>
    input <shape> <names> values <v...>      (one line per input, row-major values)
    out <shape> <names> shares <0|1> values <v...>
                                             (one line per result; shares is
                                             np.shares_memory(result, input 0))
or  error <code>
    end

Operations (NumPy meaning):
    concatenate <axis>                 np.concatenate(aligned inputs, axis)
    stack <pos> <name>                 np.stack(aligned inputs, pos)
    split_n <axis> <n>                 np.split(a, n, axis)
    split_at <axis> <k> <indices...>   np.split(a, indices, axis)
    array_split <axis> <n>             np.array_split(a, n, axis)
    chunk <n> <axis>                   np.split at multiples of ceil(size / n) (torch.chunk)
    pad <mode> <value> <k> (<axis> <before> <after>)*    np.pad
    flip <k> <axes...>                 np.flip(a, axes)
    roll <shift> <axis>                np.roll(a, shift, axis)
    roll_flat <shift>                  np.roll(a, shift)
    repeat <n> <axis>                  np.repeat(a, n, axis)
    tile <k> <reps...>                 np.tile(a, reps)
    unfold <k> (<axis> <size> <step>)*  sliding_window_view on each axis, ::step, windows last
    fold <none|average> <k> (<axis> <out> <step>)*     overlap-add written with loops
    fold_counts <k> (<axis> <out> <step>)*              windows covering each element
    pattern <rearrange|reduce|repeat> <sum|mean|max|min|-> <k> (<id> <size>)* : <pattern words...>
                                       einops patterns, written in NumPy as
                                       reshape / transpose / reductions / np.repeat

Named cases: the inputs of concatenate and stack carry names, the later ones in
another axis order (NumPy sees them transposed back to input 0's order).
"""
import itertools
import math

import numpy as np
from numpy.lib.stride_tricks import sliding_window_view

import oracle

NAMES = ["A", "B", "C", "D", "E"]
NUMPY_VERSION = tuple(int(x) for x in np.__version__.split(".")[:2])
MODES = ["constant", "edge", "reflect", "symmetric", "wrap"]


def rand_shape(rng, rank, lo=0, hi=5):
    return [rng.randint(lo, hi) if rng.random() > 0.04 else 0 for _ in range(rank)]


def rand_array(rng, shape):
    n = math.prod(shape)
    return np.array([rng.randint(-50, 50) for _ in range(n)], dtype=np.float64).reshape(shape)


fmt_shape = oracle.shape_text
fmt_names = oracle.names_text


def fmt_values(a):
    return " ".join(repr(float(v)) for v in np.asarray(a).reshape(-1))


def axis_token(rng, axis, rank, names):
    """An axis as written in a case: its name (when named, half the time), else an
    index, negative now and then."""
    if names and names[axis] != "?" and rng.random() < 0.5:
        return names[axis]
    return str(axis - rank if rng.random() < 0.3 else axis)


class Case:
    def __init__(self, op, args):
        self.op, self.args = op, [str(a) for a in args]
        self.inputs = []  # (array as passed, names)
        self.outs = []    # (array, names, shares)
        self.error = None

    def write(self, out, cid):
        out.write(f"case {cid} {self.op} {' '.join(self.args)}\n")
        for a, names in self.inputs:
            out.write(f"input {fmt_shape(a.shape)} {fmt_names(names, a.ndim)} values {fmt_values(a)}\n")
        if self.error:
            out.write(f"error {self.error}\n")
        for a, names, shares in self.outs:
            out.write(f"out {fmt_shape(a.shape)} {fmt_names(names, a.ndim)} shares {int(shares)} "
                      f"values {fmt_values(a)}\n")
        out.write("end\n")


def shares(result, a):
    return bool(np.shares_memory(result, a))


# ------------------------------------------------------------------------- joining

def gen_join(rng, op):
    rank = rng.randint(1, 4)
    base = rand_shape(rng, rank, 1, 5)
    named = rng.random() < 0.5
    names = rng.sample(NAMES, rank) if named else None
    k = rng.randint(1, 4)
    axis = rng.randrange(rank)
    aligned = []
    for _ in range(k):
        s = list(base)
        if op == "concatenate":
            s[axis] = rng.randint(0, 4)
        aligned.append(rand_array(rng, s))
    bad = None
    if k > 1 and rng.random() < 0.15:
        # A size that differs off the joined axis: NumPy refuses.
        others = [d for d in range(rank) if d != axis or op == "stack"]
        if others:
            d = rng.choice(others)
            s = list(aligned[-1].shape)
            s[d] += 1
            aligned[-1] = rand_array(rng, s)
            bad = "incompatible_sizes"
    if op == "concatenate":
        c = Case(op, [axis_token(rng, axis, rank, names)])
    else:
        pos = rng.randint(-rank - 1, rank)
        c = Case(op, [pos, rng.choice(["N", "?"]) if named else "?"])
    for i, a in enumerate(aligned):
        if named and i > 0:
            perm = list(range(rank))
            rng.shuffle(perm)
            c.inputs.append((np.transpose(a, perm).copy(), [names[p] for p in perm]))
        else:
            c.inputs.append((a, names))
    if bad:
        c.error = bad
        return c
    if op == "concatenate":
        c.outs.append((np.concatenate(aligned, axis), names, False))
    else:
        pos = int(c.args[0])
        new = c.args[1]
        r = np.stack(aligned, pos)
        out_names = None
        if names:
            out_names = list(names)
            out_names.insert(pos if pos >= 0 else pos + rank + 1, new)
        c.outs.append((r, out_names, False))
    return c


# ------------------------------------------------------------------------- splitting

def gen_split(rng):
    rank = rng.randint(1, 3)
    shape = rand_shape(rng, rank, 0, 8)
    names = rng.sample(NAMES, rank) if rng.random() < 0.4 else None
    a = rand_array(rng, shape)
    axis = rng.randrange(rank)
    tok = axis_token(rng, axis, rank, names)
    n = shape[axis]
    kind = rng.choice(["split_n", "split_at", "array_split", "chunk"])
    if kind == "split_n":
        sections = rng.randint(1, 4)
        c = Case(kind, [tok, sections])
        c.inputs.append((a, names))
        if n % sections:
            c.error = "invalid_argument"
            return c
        parts = np.split(a, sections, axis)
    elif kind == "split_at":
        idx = sorted(rng.randint(-3, n + 2) for _ in range(rng.randint(0, 3)))
        c = Case(kind, [tok, len(idx)] + idx)
        c.inputs.append((a, names))
        parts = np.split(a, idx, axis)
    elif kind == "array_split":
        sections = rng.randint(1, 5)
        c = Case(kind, [tok, sections])
        c.inputs.append((a, names))
        parts = np.array_split(a, sections, axis)
    else:
        chunks = rng.randint(1, 5)
        c = Case(kind, [chunks, tok])
        c.inputs.append((a, names))
        each = max(1, -(-n // chunks))
        parts = np.split(a, list(range(each, n, each)), axis)
    for p in parts:
        c.outs.append((p, names, shares(p, a) or p.size == 0))
    return c


# ------------------------------------------------------------------------- pad

def gen_pad(rng):
    rank = rng.randint(1, 3)
    # Empty axes one time in five: zero widths on them work in every mode, wider
    # ones only in constant mode.
    shape = [0 if rng.random() < 0.2 else rng.randint(1, 5) for _ in range(rank)]
    names = rng.sample(NAMES, rank) if rng.random() < 0.4 else None
    a = rand_array(rng, shape)
    mode = rng.choice(MODES)
    axes = rng.sample(range(rank), rng.randint(1, rank))
    widths = [(0, 0)] * rank
    # Widths up to three times the axis: NumPy reflects (and wraps) repeatedly.
    wide = rng.random() < 0.5
    for ax in axes:
        hi = 3 * shape[ax] + 2 if wide else 3
        widths[ax] = (rng.randint(0, hi), rng.randint(0, hi))
    value = rng.randint(-9, 9)
    args = [mode, value, len(axes)]
    for ax in axes:
        args += [axis_token(rng, ax, rank, names), widths[ax][0], widths[ax][1]]
    c = Case("pad", args)
    c.inputs.append((a, names))
    kw = {"constant_values": value} if mode == "constant" else {}
    try:
        if mode == "wrap" and a.size and NUMPY_VERSION < (1, 25):
            # NumPy 1.25 made wide wrap padding periodic (before, pads wider than the
            # axis on both sides took chunks of the other pad); nt follows 1.25+.
            r = a
            for ax in range(rank):
                idx = (np.arange(shape[ax] + sum(widths[ax])) - widths[ax][0]) % shape[ax]
                r = np.take(r, idx, axis=ax)
            c.outs.append((r, names, False))
        else:
            c.outs.append((np.pad(a, widths, mode=mode, **kw), names, False))
    except ValueError:  # "can't extend empty axis" with a non-constant mode
        c.error = "invalid_argument"
    return c


# ------------------------------------------------------------------------- flip, roll, repeat, tile

def gen_misc(rng):
    rank = rng.randint(1, 4)
    shape = rand_shape(rng, rank, 0, 5)
    names = rng.sample(NAMES, rank) if rng.random() < 0.4 else None
    a = rand_array(rng, shape)
    kind = rng.choice(["flip", "roll", "roll_flat", "repeat", "tile"])
    axis = rng.randrange(rank)
    tok = axis_token(rng, axis, rank, names)
    if kind == "flip":
        axes = rng.sample(range(rank), rng.randint(0, rank))
        c = Case(kind, [len(axes)] + [axis_token(rng, x, rank, names) for x in axes])
        c.inputs.append((a, names))
        r = np.flip(a, axes) if axes else a
        c.outs.append((r, names, True))
    elif kind == "roll":
        shift = rng.randint(-12, 12)
        c = Case(kind, [shift, tok])
        c.inputs.append((a, names))
        c.outs.append((np.roll(a, shift, axis), names, False))
    elif kind == "roll_flat":
        shift = rng.randint(-12, 12)
        c = Case(kind, [shift])
        c.inputs.append((a, names))
        c.outs.append((np.roll(a, shift), names, False))
    elif kind == "repeat":
        n = rng.randint(0, 3)
        c = Case(kind, [n, tok])
        c.inputs.append((a, names))
        c.outs.append((np.repeat(a, n, axis), names, False))
    else:
        reps = [rng.randint(0, 3) for _ in range(rng.randint(0, rank + 2))]
        c = Case(kind, [len(reps)] + reps)
        c.inputs.append((a, names))
        r = np.tile(a, reps)
        out_names = None
        if names:
            out_names = ["?"] * (r.ndim - rank) + names
        c.outs.append((r, out_names, False))
    return c


# ------------------------------------------------------------------------- windows

def unfold_numpy(a, axes, sizes, steps):
    v = a
    for ax, size, step in zip(axes, sizes, steps):
        v = sliding_window_view(v, size, axis=ax)  # window axis appended last
        sl = [slice(None)] * v.ndim
        sl[ax] = slice(None, None, step)
        v = v[tuple(sl)]
    return v


def window_plan(rng, rank):
    shape = [rng.randint(1, 9) for _ in range(rank)]
    axes = rng.sample(range(rank), rng.randint(1, min(rank, 3)))
    sizes, steps = [], []
    for ax in axes:
        sizes.append(rng.randint(1, shape[ax]))
        steps.append(rng.randint(1, 4))
    return shape, axes, sizes, steps


def gen_unfold(rng):
    rank = rng.randint(1, 3)
    shape, axes, sizes, steps = window_plan(rng, rank)
    names = rng.sample(NAMES, rank) if rng.random() < 0.4 else None
    a = rand_array(rng, shape)
    args = [len(axes)]
    for ax, s, st in zip(axes, sizes, steps):
        args += [axis_token(rng, ax, rank, names), s, st]
    c = Case("unfold", args)
    c.inputs.append((a, names))
    r = unfold_numpy(a, axes, sizes, steps)
    out_names = (names + ["?"] * len(axes)) if names else None
    c.outs.append((r, out_names, True))
    return c


def overlap_add(patches, lead, axes, out_sizes, steps):
    """Independent fold: loops over every window and adds it at its place."""
    k = len(axes)
    shape = list(patches.shape[:lead])
    for ax, n in zip(axes, out_sizes):
        shape[ax] = n
    out = np.zeros(shape)
    counts = np.zeros(shape)
    sizes = patches.shape[lead:]
    for w in itertools.product(*[range(patches.shape[ax]) for ax in axes]):
        src = [slice(None)] * patches.ndim
        dst = [slice(None)] * lead
        for i, ax in enumerate(axes):
            src[ax] = w[i]
            dst[ax] = slice(w[i] * steps[i], w[i] * steps[i] + sizes[i])
        # patches[src] has the folded axes dropped and the window axes last, in the
        # listed order; move them to the folded axes' places.
        piece = patches[tuple(src)]
        kept = [d for d in range(lead) if d not in axes]
        order = sorted(range(lead), key=lambda d: d)
        # piece axes: kept axes (in order) then window axes (listed order)
        pos = {d: i for i, d in enumerate(kept)}
        for i, ax in enumerate(axes):
            pos[ax] = len(kept) + i
        piece = np.transpose(piece, [pos[d] for d in order])
        out[tuple(dst)] += piece
        counts[tuple(dst)] += 1
    return out, counts


def gen_fold(rng):
    rank = rng.randint(1, 3)
    shape, axes, sizes, steps = window_plan(rng, rank)
    names = rng.sample(NAMES, rank) if rng.random() < 0.4 else None
    # Patches shaped as unfold makes them, random values (not an unfold of anything).
    pshape = list(shape)
    for ax, s, st in zip(axes, sizes, steps):
        pshape[ax] = (shape[ax] - s) // st + 1
    pshape += sizes
    patches = rand_array(rng, pshape)
    kind = rng.choice(["fold", "fold", "fold_counts"])
    norm = rng.choice(["none", "average"])
    args = ([norm] if kind == "fold" else []) + [len(axes)]
    bad = None
    out_sizes = list(shape)
    if rng.random() < 0.1:
        out_sizes[axes[0]] += steps[0]  # one window too many for these patches
        bad = "invalid_argument"
    for ax, st in zip(axes, steps):
        args += [axis_token(rng, ax, rank, names), out_sizes[ax], st]
    c = Case(kind, args)
    c.inputs.append((patches, (names + ["?"] * len(axes)) if names else None))
    if bad:
        c.error = bad
        return c
    out, counts = overlap_add(patches, rank, axes, [shape[ax] for ax in axes], steps)
    if kind == "fold_counts":
        sl = [slice(None) if d in axes else slice(0, 1) for d in range(rank)]
        c.outs.append((counts[tuple(sl)], names, False))
    else:
        if norm == "average":
            out = np.where(counts > 0, out / np.maximum(counts, 1), 0.0)
        c.outs.append((out, names, False))
    return c


# ------------------------------------------------------------------------- einops patterns

REDUCERS = {"sum": np.sum, "mean": np.mean, "max": np.max, "min": np.min}


def gen_pattern(rng):
    """One of a few einops patterns with random sizes, the NumPy spelling beside it."""
    n, c, h, w = (rng.randint(1, 3), rng.randint(1, 4), rng.randint(1, 4), rng.randint(1, 4))
    family = rng.randrange(8)
    named = rng.random() < 0.5
    sizes = []
    op = "-"
    if family == 0:
        ph, pw = rng.randint(1, 3), rng.randint(1, 3)
        x = rand_array(rng, [n, c, h * ph, w * pw])
        kind, pattern = "rearrange", "N C (H ph) (W pw) -> N (C ph pw) H W"
        sizes = [("ph", ph), ("pw", pw)]
        r = x.reshape(n, c, h, ph, w, pw).transpose(0, 1, 3, 5, 2, 4).reshape(n, c * ph * pw, h, w)
        out_names = ["N", "?", "H", "W"]
    elif family == 1:
        x = rand_array(rng, [n, c, h, w])
        kind, pattern = "rearrange", "N C H W -> N H W C"
        r = x.transpose(0, 2, 3, 1)
        out_names = ["N", "H", "W", "C"]
    elif family == 2:
        x = rand_array(rng, [n, h, c][: rng.randint(1, 3)] + [c])
        kind, pattern = "rearrange", "... C -> C ..."
        r = np.moveaxis(x, -1, 0)
        out_names = ["C"] + ["?"] * (x.ndim - 1)
    elif family == 3:
        x = rand_array(rng, [n, h, w])
        kind, pattern = "rearrange", "N H W -> N (H W):HW"
        r = x.reshape(n, h * w)
        out_names = ["N", "HW"]
    elif family == 4:
        x = rand_array(rng, [n, c, 2 * h, 2 * w])
        kind, pattern = "reduce", "N C (H 2) (W 2) -> N C H W"
        op = rng.choice(list(REDUCERS))
        r = REDUCERS[op](x.reshape(n, c, h, 2, w, 2), axis=(3, 5))
        out_names = ["N", "C", "H", "W"]
    elif family == 5:
        x = rand_array(rng, [n, c, h, w])
        kind, pattern = "reduce", "N C H W -> N C"
        op = rng.choice(list(REDUCERS))
        r = REDUCERS[op](x, axis=(2, 3))
        out_names = ["N", "C"]
    elif family == 6:
        x = rand_array(rng, [h, w])
        k = rng.randint(1, 4)
        kind, pattern = "repeat", "H W -> H W C"
        sizes = [("C", k)]
        r = np.repeat(x[..., None], k, axis=-1)
        out_names = ["H", "W", "C"]
    else:
        x = rand_array(rng, [h, w])
        kind, pattern = "repeat", "H W -> (H 2) W"
        r = np.repeat(x, 2, axis=0)
        out_names = ["?", "W"]
    args = [kind, op, len(sizes)]
    for ident, size in sizes:
        args += [ident, size]
    c_ = Case("pattern", args + [":", pattern])
    in_names = None
    if named and family != 2:
        in_names = pattern.split("->")[0].replace("(", " ").replace(")", " ").split()
        in_names = [t for t in in_names if not t.isdigit()]
        if len(in_names) != x.ndim or any(len(t) < 1 for t in in_names):
            in_names = None
        # a group such as (H ph) names its axis H
        left = pattern.split("->")[0]
        groups = []
        depth = 0
        for tok in left.replace("(", " ( ").replace(")", " ) ").split():
            if tok == "(":
                depth, groups = 1, groups + [[]]
            elif tok == ")":
                depth = 0
            elif depth:
                groups[-1].append(tok)
            else:
                groups.append([tok])
        in_names = [g[0] for g in groups] if len(groups) == x.ndim else None
    c_.inputs.append((x, in_names))
    if not named or family == 2:
        # Unnamed input: a one-identifier group on the right still names its axis.
        pass
    shares_ = shares(r, x) if kind == "rearrange" else False
    c_.outs.append((r, out_names, shares_))
    return c_


def cases(args, rng, out):
    gens = [lambda r: gen_join(r, "concatenate"), lambda r: gen_join(r, "stack"), gen_split, gen_pad, gen_pad,
            gen_misc, gen_unfold, gen_fold, gen_pattern]
    for cid in range(args.count):
        c = gens[cid % len(gens)](rng)
        c.write(out, cid)


if __name__ == "__main__":
    oracle.run(cases, count=1000, header_line=True)
