#!/usr/bin/env python3
"""Oracle cases for nt/statistics.hpp and nt/sort.hpp: var, stddev (ddof), nansum,
nanmean, nanmin, nanmax, count_nonzero, cumsum, cumprod, median, quantile, sort,
argsort, topk, unique and unique_counts, over random tensors of every element type
(NaN and inf among the floats, zero-size axes, axes by index or by name, keepdims;
float64 variances also of data around 1e8 with noise of 0.1),
and what NumPy gives, or that the call must throw. Run by CTest before
test_stats's [numpy] cases (tests/ops/stats/numpy_statistics.cpp).

Floats are written with repr, NaN as "nan" or "-nan" by its sign bit: the test
compares the signs of sorted zeros and NaNs (a stable sort keeps their order).

Output (line based; a shape is "<rank> <sizes...>", names one token per axis, "?"
for an unnamed axis; an axis is an integer or a name; "-" for every axis):

    # seed <S> count <N>
    case <id> <op> <dtype> <args...>
    input <shape> <names> values <v...>
    out <dtype> <shape> <names> values <v...>     (one line per result)
or  error <code>
    end

Operations and their arguments:
    var|stddev <ddof> <keepdims> <k> <axes...>   np.var / np.std (k = -1: every axis)
    nansum|nanmean|nanmin|nanmax|count_nonzero|median <keepdims> <k> <axes...>
    quantile <q> <keepdims> <k> <axes...>        np.quantile, method "linear"
    cumsum|cumprod|sort|argsort <axis>           (sort, argsort: kind="stable")
    topk <k> <axis>                              the k largest, largest first, NaN largest
    unique | unique_counts                       np.unique(a, return_counts=...)
    one_hot <classes> <pos> <name|->            (expand_dims(a, pos) == arange(classes)), int64
    bincount <minlength>                         np.bincount(a, minlength=...), a 1-D
    bincount_w <minlength>                       the same with weights w[i] = 0.5 * (i % 7) - 1
    histogram <bins> <lo> <hi>                   np.histogram(a as float64, bins, range=(lo, hi))
"""
import math
import warnings

import numpy as np

import oracle

NAMES = ["A", "B", "C", "D"]
DTYPES = {tag: np.dtype(name).type for tag, name in oracle.NUMPY_NAMES.items()}
TAG = {np.dtype(v): k for k, v in DTYPES.items()}
FLOATS = ("f16", "f32", "f64")
REDUCTIONS = ("nansum", "nanmean", "nanmin", "nanmax", "count_nonzero", "median")
ALONG = ("cumsum", "cumprod", "sort", "argsort")



shape_text = oracle.shape_text
names_text = oracle.names_text


def value_text(v):
    return oracle.value_text(v, signed_nan=True)


def rand_values(rng, tag, shape):
    n = int(np.prod(shape)) if shape else 1
    if tag == "b8":
        return np.array([rng.random() < 0.5 for _ in range(n)], dtype=np.bool_).reshape(shape)
    if tag in FLOATS:
        pool = [rng.uniform(-100, 100) for _ in range(n)]
        # Repeated values exercise stable order; NaN and inf the special cases.
        for i in range(n):
            r = rng.random()
            if r < 0.08:
                pool[i] = float("nan")
            elif r < 0.11:
                pool[i] = rng.choice([float("inf"), -float("inf")])
            elif r < 0.3:
                pool[i] = float(rng.randint(-3, 3))
            elif r < 0.33:
                pool[i] = -0.0  # cumsum keeps a leading -0.0, as NumPy's
        return np.array(pool, dtype=np.float64).astype(DTYPES[tag]).reshape(shape)
    info = np.iinfo(DTYPES[tag])
    lo, hi = max(info.min, -50), min(info.max, 50)
    if rng.random() < 0.15:  # values near the limits: wrap-around of cumsum / cumprod
        lo, hi = max(info.min, -(2 ** 62)), min(info.max, 2 ** 62)
    return np.array([rng.randint(lo, hi) for _ in range(n)], dtype=np.int64 if lo < 0 else np.uint64) \
        .astype(DTYPES[tag]).reshape(shape)


def axis_token(rng, a, rank, names):
    if names and rng.random() < 0.5:
        return names[a]
    return str(a - rank if rng.random() < 0.3 else a)


class Case:
    def __init__(self, op, tag, args):
        self.op, self.tag, self.args = op, tag, [str(a) for a in args]
        self.input = None
        self.outs = []
        self.error = None

    def write(self, out, cid):
        out.write(f"case {cid} {self.op} {self.tag} {' '.join(self.args)}\n")
        a, names = self.input
        out.write(f"input {shape_text(a.shape)} {names_text(names, a.ndim)} values "
                  f"{' '.join(value_text(v) for v in a.ravel())}\n")
        if self.error:
            out.write(f"error {self.error}\n")
        for r, rnames in self.outs:
            r = np.asarray(r)
            out.write(f"out {TAG[r.dtype]} {shape_text(r.shape)} {names_text(rnames, r.ndim)} values "
                      f"{' '.join(value_text(v) for v in r.ravel())}\n")
        out.write("end\n")


def reduced_names(names, rank, axes, keepdims):
    if not names:
        return None
    if keepdims:
        return list(names)
    return [names[a] for a in range(rank) if a not in axes]


INTEGERS = ("i8", "i16", "i32", "i64", "u8", "u16", "u32", "u64")


def gen_segmentation_case(rng, op):
    if op == "histogram":
        tag = rng.choice(list(DTYPES))
        rank = rng.randint(0, 3)
        shape = tuple(rng.randint(0, 6) for _ in range(rank))
        a = rand_values(rng, tag, shape)
        bins = rng.randint(1, 6)
        lo = float(rng.randint(-60, 20)) + rng.choice([0.0, 0.5, 0.25])
        hi = lo + rng.choice([1.0, 7.5, 40.0, 100.0, 0.001 * rng.randint(1, 999)])
        c = Case(op, tag, [bins, repr(lo), repr(hi)])
        c.input = (a, None)
        counts, edges = np.histogram(a.astype(np.float64).ravel(), bins, range=(lo, hi))
        c.outs += [(counts.astype(np.int64), None), (edges, None)]
        return c
    tag = rng.choice(INTEGERS)
    signed = tag.startswith("i")
    if op == "one_hot":
        rank = rng.randint(0, 3)
        shape = tuple(rng.randint(0, 4) for _ in range(rank))
        names = rng.sample(NAMES, rank) if rank and rng.random() < 0.5 else None
        classes = rng.randint(1, 5)
        n = int(np.prod(shape)) if shape else 1
        values = [rng.randrange(classes) for _ in range(n)]
        bad = n > 0 and rng.random() < 0.08
        if bad:
            values[rng.randrange(n)] = rng.choice([classes, -1] if signed else [classes])
        a = np.array(values, dtype=np.int64).astype(DTYPES[tag]).reshape(shape)
        pos = rng.randint(-rank - 1, rank)
        new = rng.choice(["K", None]) if names else rng.choice(["K", None, None])
        c = Case(op, tag, [classes, pos, new or "-"])
        c.input = (a, names)
        if bad:
            c.error = "invalid_argument"
            return c
        at = pos if pos >= 0 else pos + rank + 1
        k_shape = [1] * (rank + 1)
        k_shape[at] = classes
        r = (np.expand_dims(a, at).astype(np.int64) == np.arange(classes).reshape(k_shape)).astype(np.int64)
        out_names = None
        if names or new:
            out_names = list(names) if names else ["?"] * rank
            out_names.insert(at, new or "?")
        c.outs.append((r, out_names))
        return c
    n = rng.randint(0, 12)
    values = [rng.randint(0, 9) for _ in range(n)]
    bad = signed and n > 0 and rng.random() < 0.08
    if bad:
        values[rng.randrange(n)] = -rng.randint(1, 5)
    a = np.array(values, dtype=np.int64).astype(DTYPES[tag])
    minlength = rng.randint(0, 12)
    c = Case(op, tag, [minlength])
    c.input = (a, None)
    if bad:
        c.error = "invalid_argument"
        return c
    if op == "bincount":
        c.outs.append((np.bincount(a.astype(np.int64), minlength=minlength).astype(np.int64), None))
    else:
        w = 0.5 * (np.arange(n) % 7) - 1.0
        c.outs.append((np.bincount(a.astype(np.int64), weights=w, minlength=minlength).astype(np.float64), None))
    return c


def gen_case(rng):
    if rng.random() < 0.15:
        return gen_segmentation_case(rng, rng.choice(["one_hot", "bincount", "bincount_w", "histogram"]))
    op = rng.choice(["var", "stddev"] + list(REDUCTIONS) + ["quantile"] + list(ALONG) +
                    ["topk", "unique", "unique_counts"])
    tag = rng.choice(list(DTYPES))
    if op == "quantile" and tag == "b8":
        tag = "u8"  # NumPy's quantile cannot subtract booleans
    rank = rng.randint(0 if op in REDUCTIONS or op in ("var", "stddev", "unique", "unique_counts", "quantile")
                       else 1, 3)
    shape = tuple(rng.randint(1, 5) if rng.random() > 0.06 else 0 for _ in range(rank))
    if op in ("sort", "argsort", "topk") and rng.random() < 0.3:
        # Long rows: the radix sort path, and the packed-key vqsort of argsort and topk
        # (from 256 elements, and from 16384 for 64-bit types).
        shape = (rng.randint(1, 3), rng.randint(256, 2500))
        rank = 2
        if op != "sort" and tag in ("i64", "u64", "f64") and rng.random() < 0.4:
            shape = (rng.randint(16384, 17000),)
            rank = 1
    names = rng.sample(NAMES, rank) if rank and rng.random() < 0.5 else None
    a = rand_values(rng, tag, shape)
    if op in ("var", "stddev") and tag == "f64" and rng.random() < 0.4:
        # A large mean: a one-pass E[x^2] - E[x]^2 loses every digit here.
        a = a / 1000.0 + 1e8

    if op in ("unique", "unique_counts"):
        c = Case(op, tag, [])
        c.input = (a, names)
        if op == "unique":
            c.outs.append((np.unique(a), None))
        else:
            values, counts = np.unique(a, return_counts=True)
            c.outs += [(values, None), (counts.astype(np.int64), None)]
        return c

    if op in ALONG or op == "topk":
        ax = rng.randrange(rank)
        tok = axis_token(rng, ax, rank, names)
        if op == "topk":
            k = rng.randint(0, shape[ax] + 1) if rng.random() > 0.05 else shape[ax] + 1
            c = Case(op, tag, [k, tok])
            c.input = (a, names)
            if k > shape[ax]:
                c.error = "invalid_argument"
                return c
            moved = np.moveaxis(a, ax, -1)
            vals = np.empty(moved.shape[:-1] + (k,), dtype=a.dtype)
            idx = np.empty(moved.shape[:-1] + (k,), dtype=np.int64)
            for pos in np.ndindex(moved.shape[:-1]):
                row = moved[pos]
                def key(i):
                    v = row[i].item()
                    if isinstance(v, float) and math.isnan(v):
                        return (0, 0)
                    return (1, -v)
                order = sorted(range(len(row)), key=key)[:k]
                idx[pos] = order
                vals[pos] = row[order]
            c.outs += [(np.moveaxis(vals, -1, ax), names), (np.moveaxis(idx, -1, ax), names)]
            return c
        c = Case(op, tag, [tok])
        c.input = (a, names)
        if op == "cumsum":
            r = np.cumsum(a, axis=ax)
        elif op == "cumprod":
            r = np.cumprod(a, axis=ax)
        elif op == "sort":
            r = np.sort(a, axis=ax, kind="stable")
        else:
            r = np.argsort(a, axis=ax, kind="stable").astype(np.int64)
        c.outs.append((r, names))
        return c

    keepdims = rng.random() < 0.3
    if rank == 0 or rng.random() < 0.25:
        axes, toks = tuple(range(rank)), None
    else:
        axes = tuple(sorted(rng.sample(range(rank), rng.randint(1, rank))))
        toks = [axis_token(rng, x, rank, names) for x in axes]
        rng.shuffle(toks)
    every = toks is None
    if every:
        keepdims = False
    axis_args = [-1] if every else [len(toks)] + toks
    np_axis = None if every else axes
    if op in ("var", "stddev"):
        ddof = rng.choice([0, 0, 1, 2])
        c = Case(op, tag, [ddof, int(keepdims)] + axis_args)
    elif op == "quantile":
        q = rng.choice([0.0, 1.0, 0.5, 0.25, 0.9, round(rng.random(), 3)])
        c = Case(op, tag, [q, int(keepdims)] + axis_args)
    else:
        c = Case(op, tag, [int(keepdims)] + axis_args)
    c.input = (a, names)
    n = int(np.prod([shape[x] for x in axes])) if axes else 1
    rnames = reduced_names(names, rank, axes if not every else tuple(range(rank)), keepdims)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with np.errstate(all="ignore"):
            if op in ("var", "stddev"):
                fn = np.var if op == "var" else np.std
                if tag == "f16":
                    # ntensor computes half variances in float32 and rounds once;
                    # NumPy's float16 sums of squares overflow past 65504.
                    r = fn(a.astype(np.float32), axis=np_axis, ddof=ddof, keepdims=keepdims).astype(np.float16)
                else:
                    r = fn(a, axis=np_axis, ddof=ddof, keepdims=keepdims)
            elif op in ("nanmin", "nanmax"):
                if n == 0:
                    c.error = "invalid_argument"
                    return c
                x = a
                if tag in FLOATS:
                    r = (np.nanmin if op == "nanmin" else np.nanmax)(x, axis=np_axis, keepdims=keepdims)
                else:
                    r = (np.min if op == "nanmin" else np.max)(x, axis=np_axis, keepdims=keepdims)
            elif op == "nansum":
                r = np.nansum(a, axis=np_axis, keepdims=keepdims)
            elif op == "nanmean":
                r = np.nanmean(a, axis=np_axis, keepdims=keepdims)
            elif op == "count_nonzero":
                r = np.asarray(np.count_nonzero(a, axis=np_axis, keepdims=keepdims)).astype(np.int64)
            elif op == "median":
                r = np.median(a, axis=np_axis, keepdims=keepdims)
            else:
                if n == 0:
                    c.error = "invalid_argument"
                    return c
                if tag not in FLOATS:
                    # NumPy subtracts neighbours in the integer type, which wraps for
                    # values over half its range; ntensor subtracts in float64, as
                    # NumPy does on the array converted to float64.
                    a = a.astype(np.float64)
                if every or len(axes) == rank:
                    # A 0-d result makes NumPy 1.24 keep float16 / float32 (value-based
                    # casting); ntensor always computes in float64, as NumPy does for
                    # arrays: take that path through a (1, n) view.
                    r = np.quantile(a.reshape(1, -1), q, axis=1)[0]
                    if keepdims:
                        r = np.asarray(r).reshape((1,) * rank)
                else:
                    r = np.quantile(a, q, axis=np_axis, keepdims=keepdims)
    c.outs.append((np.asarray(r), rnames))
    return c


def cases(args, rng, out):
    warnings.simplefilter("ignore")  # overflow in integer cumprod, all-NaN slices: expected
    np.seterr(all="ignore")
    for cid in range(args.count):
        while True:
            try:
                case = gen_case(rng)
                break
            except (ValueError, TypeError):
                # NumPy itself refuses a few corners (np.median of a zero-size
                # kept axis); draw another case.
                continue
        case.write(out, cid)
    # Running sums and products of 9 rows (more than one group of eight) along
    # either axis, every row led by -0.0: the result keeps that sign, as NumPy's.
    cid = args.count
    for tag in sorted(FLOATS):
        for op in ("cumsum", "cumprod"):
            for ax in (0, 1):
                a = rand_values(rng, tag, [9, 70])
                np.moveaxis(a, ax, 0)[0] = -0.0
                c = Case(op, tag, [str(ax)])
                c.input = (a, None)
                c.outs.append((np.cumsum(a, axis=ax) if op == "cumsum" else np.cumprod(a, axis=ax), None))
                c.write(out, cid)
                cid += 1
    for c in signed_zero_sorts(rng):
        c.write(out, cid)
        cid += 1


def signed_zero_sorts(rng):
    """sort and argsort of rows full of -0.0 and +0.0 (and NaNs of both signs), for
    every float type and every sort path: rows shorter than 256 (comparison sort),
    from 256 (vqsort for f32 / f64) and from 512 (radix sort for f16), rows already
    ascending or descending (the one-pass path), and with infinities (which the
    vqsort path places itself). A stable sort keeps equal elements in input order, so
    the signs of the sorted zeros are those of the input's zeros, in order."""
    cases = []
    for tag in sorted(FLOATS):
        for n in (7, 60, 300, 700, 2100):
            for layout in ("mixed", "ascending", "descending", "with_nan"):
                pool = []
                for _ in range(2 * n):
                    r = rng.random()
                    if r < 0.4:
                        pool.append(rng.choice([-0.0, 0.0]))
                    elif r < 0.45:
                        pool.append(rng.choice([float("inf"), -float("inf")]))
                    elif r < 0.7:
                        pool.append(float(rng.randint(-3, 3)))
                    else:
                        pool.append(rng.uniform(-100, 100))
                    if layout == "with_nan" and rng.random() < 0.1:
                        pool[-1] = rng.choice([float("nan"), -float("nan")])
                a = np.array(pool, dtype=np.float64).astype(DTYPES[tag]).reshape(2, n)
                if layout in ("ascending", "descending"):
                    # Python's sort is stable: equal values (both zeros) stay in order.
                    for row in a:
                        row[:] = sorted(row.tolist(), reverse=layout == "descending")
                ax = rng.choice([1, -1]) if n > 60 else rng.choice([0, 1])
                for op in ("sort", "argsort"):
                    c = Case(op, tag, [str(ax)])
                    c.input = (a, None)
                    r = np.sort(a, axis=ax, kind="stable") if op == "sort" else \
                        np.argsort(a, axis=ax, kind="stable").astype(np.int64)
                    c.outs.append((r, None))
                    cases.append(c)
    return cases


if __name__ == "__main__":
    oracle.run(cases, count=1000, header_line=True)
