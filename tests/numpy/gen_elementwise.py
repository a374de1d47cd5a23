#!/usr/bin/env python3
"""Oracle cases for element-wise operations and reductions, computed by NumPy.

Named cases never ask NumPy to match names: the generator computes NumPy's result
on aligned arrays, then gives the operands names and shuffles the named axes of
one operand (moving its data accordingly). ntensor must undo that by matching
names, and then agree with NumPy.

One case per block of lines:
  promote <dtype> <dtype> <dtype>     (np.result_type of the first two; all 144 pairs)
  case <id> <kind> <op> [<extra>...]
  in <dtype> <rank> <sizes...> <names...> <view> <n> <values...>
  ...
  out <dtype> <rank> <sizes...> <names...> <n> <values...>   |   error <code>
                                                     |   text <repr with \\ and \n escaped>
<view> says how the operand is presented: "plain", "reversed:<axis>" (the data
is stored reversed along axis and read through a negative-stride view) or
"broadcast:<axis>" (stored with size 1 along axis and read through a stride-0
broadcast_to view of the given sizes).
Names are "?" for unnamed. Floats are printed with repr() so they round-trip.
"""
import argparse
import itertools
import random
import sys
import warnings

import numpy as np

warnings.filterwarnings("ignore")  # empty means, invalid values: expected here

# Every element type of ntensor (NT_FOR_EACH_ELEMENT_TYPE), by NumPy name.
DTYPES = {"bool": np.bool_, "int8": np.int8, "int16": np.int16, "int32": np.int32, "int64": np.int64,
          "uint8": np.uint8, "uint16": np.uint16, "uint32": np.uint32, "uint64": np.uint64,
          "float16": np.float16, "float32": np.float32, "float64": np.float64}
INTEGERS = [d for d in DTYPES if d.startswith(("int", "uint"))]
FLOATS = ["float16", "float32", "float64"]
# Lengths of the long-axis reduction sweep: every length up to a few vector widths,
# then around 128 (the pairwise leaf) and a long one; fewer for the other layouts.
LONG_AXIS_LENGTHS = list(range(1, 71)) + [127, 128, 129, 1000]
SOME_AXIS_LENGTHS = [1, 2, 3, 7, 8, 9, 15, 16, 17, 23, 24, 25, 31, 32, 33, 63, 64, 65, 127, 128, 129, 1000]
NAMES = ["N", "C", "H", "W", "D"]

BINARY = {
    "add": np.add, "sub": np.subtract, "mul": np.multiply, "div": np.true_divide,
    "mod": np.mod, "min": np.minimum, "max": np.maximum, "pow": np.power,
    "eq": np.equal, "ne": np.not_equal, "lt": np.less, "le": np.less_equal,
    "gt": np.greater, "ge": np.greater_equal,
    "logical_and": np.logical_and, "logical_or": np.logical_or, "logical_xor": np.logical_xor,
}
UNARY = {
    "abs": np.abs, "neg": np.negative, "exp": np.exp, "log": np.log, "sqrt": np.sqrt,
    "sin": np.sin, "cos": np.cos, "tanh": np.tanh,
    # In the type np.exp gives (float16 for bool and 8-bit integers, ...), computed in
    # double and rounded once. (On 0-d input np.exp returns a NumPy scalar, whose
    # arithmetic would widen: hence the asarray.)
    "sigmoid": lambda x: np.asarray(1 / (1 + np.exp(-x.astype(np.float64)))).astype(np.asarray(np.exp(x)).dtype),
    "logical_not": np.logical_not,
}
FLOAT_UNARY = {"exp", "log", "sqrt", "sin", "cos", "tanh", "sigmoid"}
REDUCTIONS = ["sum", "mean", "min", "max", "prod", "argmax", "argmin", "any", "all"]


def fmt(v, dtype):
    if dtype == "bool":
        return "1" if v else "0"
    if dtype.startswith("float"):
        return repr(float(v))
    return str(int(v))


def random_int(rng, dtype, small):
    info = np.iinfo(DTYPES[dtype])
    lo, hi = int(info.min), int(info.max)
    if small:
        return rng.randint(max(lo, -9), 9)
    r = rng.random()
    if r < 0.1:
        return rng.choice([lo, hi, lo + 1, hi - 1, 0])  # wrap-around at the limits
    if r < 0.3:
        return rng.randint(lo, hi)
    return rng.randint(max(lo, -1000), min(hi, 1000))


def random_values(rng, dtype, shape, small=False, special=True):
    """Values of `dtype`; `small` keeps them in [-9, 9) (products, powers), `special`
    allows inf, NaN and, for float16, values near its range and precision limits."""
    n = int(np.prod(shape)) if shape else 1
    if dtype == "bool":
        data = [rng.random() < 0.5 for _ in range(n)]
    elif dtype in INTEGERS:
        data = [random_int(rng, dtype, small) for _ in range(n)]
    else:
        data = [round(rng.uniform(-4, 4), 3) for _ in range(n)]
        for i in range(n):  # a few special values
            r = rng.random()
            if r < 0.03:
                data[i] = 0.0
            elif r < 0.05:
                data[i] = 1.0
            elif special and not small and r < 0.07:
                data[i] = rng.choice([float("inf"), float("-inf"), float("nan"), -0.0])
            elif special and not small and dtype == "float16" and r < 0.1:
                # large (sums round or overflow), subnormal, finely rounded
                data[i] = rng.choice([65504.0, -60000.0, 3.0e4, 6.0e-8, 1.0e-5, -2.5e-6, 1.0 / 3, 2049.0])
    return np.array(data, dtype=np.float64).astype(DTYPES[dtype]).reshape(shape) if dtype in FLOATS \
        else np.array(data, dtype=DTYPES[dtype]).reshape(shape)


def broadcastable_shapes(rng, k):
    rank = rng.randint(0, 4)
    base = [rng.choice([0, 1, 2, 3, 4, 5]) if rng.random() < 0.1 else rng.choice([1, 2, 3, 4, 5]) for _ in range(rank)]
    shapes = []
    for i in range(k):
        r = rank if i == 0 else rng.randint(0, rank)
        shapes.append([1 if rng.random() < 0.3 else d for d in base[rank - r:]])
    return shapes


class Operand:
    """An operand: what NumPy computes with (aligned), and how ntensor gets it."""

    def __init__(self, array, dtype):
        self.aligned = array                   # as NumPy sees it
        self.dtype = dtype
        self.names = ["?"] * array.ndim
        self.perm = list(range(array.ndim))    # ntensor's axis a = aligned axis perm[a]
        self.view = "plain"

    def lines(self):
        data = np.transpose(self.aligned, self.perm) if self.aligned.ndim else self.aligned
        view = self.view
        stored = data
        if view.startswith("reversed"):
            axis = int(view.split(":")[1])
            stored = np.flip(data, axis)
        elif view.startswith("broadcast"):
            axis = int(view.split(":")[1])
            stored = np.take(data, [0], axis)
        names = [self.names[p] for p in self.perm] if self.aligned.ndim else []
        sizes = list(data.shape)
        vals = [fmt(v, self.dtype) for v in np.ravel(stored)]
        return f"in {self.dtype} {len(sizes)} {' '.join(map(str, sizes))} {' '.join(names)} {view} {len(vals)} {' '.join(vals)}"


def name_operands(rng, operands):
    """Names some trailing axes of every operand consistently (same name for the
    same aligned position from the right), then shuffles one operand's named axes."""
    out_rank = max(o.aligned.ndim for o in operands)
    if out_rank == 0 or rng.random() < 0.4:
        return False
    # Name a random subset of aligned positions (counted from the right).
    positions = [p for p in range(out_rank) if rng.random() < 0.6]
    labels = rng.sample(NAMES, len(positions)) if len(positions) <= len(NAMES) else []
    if not labels:
        return False
    for o in operands:
        for p, label in zip(positions, labels):
            axis = o.aligned.ndim - 1 - p
            if axis >= 0:
                o.names[axis] = label
    # An operand that is not the unique largest gets its named axes shuffled;
    # unnamed axes keep their relative order (they pair right-aligned).
    for o in operands[1:]:
        named = [a for a in range(o.aligned.ndim) if o.names[a] != "?"]
        shuffled = named[:]
        rng.shuffle(shuffled)
        perm = list(range(o.aligned.ndim))
        for a, b in zip(named, shuffled):
            perm[a] = b
        o.perm = perm
    # Named axes of size 1 in a non-host operand are fine; a named axis whose name
    # the host lacks cannot happen: every position exists in the host (operand 0).
    return True


def maybe_reverse(rng, o):
    """Presents some operands through a negative-stride or a stride-0 view."""
    if not o.aligned.ndim:
        return
    r = rng.random()
    if r < 0.2:
        o.view = f"reversed:{rng.randrange(o.aligned.ndim)}"
    elif r < 0.35:
        axis = rng.randrange(o.aligned.ndim)  # in ntensor's axis order
        aligned_axis = o.perm[axis]
        n = o.aligned.shape[aligned_axis]
        if n > 1:
            # The operand's values repeat along the axis, as a broadcast view's do.
            o.aligned = np.repeat(np.take(o.aligned, [0], aligned_axis), n, aligned_axis)
            o.view = f"broadcast:{axis}"


def result_dtype_name(arr):
    return {np.dtype(v): k for k, v in DTYPES.items()}[arr.dtype]


def out_line(result, names):
    dtype = result_dtype_name(result)
    vals = [fmt(v, dtype) for v in np.ravel(result)]
    return f"out {dtype} {result.ndim} {' '.join(map(str, result.shape))} {' '.join(names)} {len(vals)} {' '.join(vals)}"


def binary_case(rng, cid):
    op = rng.choice(list(BINARY))
    da, db = rng.choice(list(DTYPES)), rng.choice(list(DTYPES))
    if op in ("sub", "mod", "pow") and da == db == "bool":
        da = "int32"  # ntensor (like NumPy for -) refuses these on two bools
    if op == "pow":
        da = db = rng.choice(INTEGERS + FLOATS)
    shapes = broadcastable_shapes(rng, 2)
    rng.shuffle(shapes)
    a = Operand(random_values(rng, da, shapes[0], small=op in ("pow", "mul")), da)
    b = Operand(random_values(rng, db, shapes[1], small=op in ("pow", "mul")), db)
    if op == "pow":
        # np.abs of a 0-d array is a NumPy scalar, whose % would change the dtype.
        # NumPy refuses negative integer exponents; ntensor truncates them.
        if da in INTEGERS:
            b.aligned = np.asarray(np.abs(b.aligned) % 4).astype(DTYPES[db])
        else:
            a.aligned = np.asarray(np.abs(a.aligned)).astype(DTYPES[da])
    ops = [a, b] if len(shapes[0]) >= len(shapes[1]) else [b, a]
    named = name_operands(rng, ops)
    for o in (a, b):
        maybe_reverse(rng, o)
    # Tensors promote by type alone; NumPy 1.x would look at the values of 0-d
    # arrays ("value-based casting"), so hand it operands of the common type.
    common = np.promote_types(a.aligned.dtype, b.aligned.dtype)
    with np.errstate(all="ignore"):
        result = BINARY[op](a.aligned.astype(common), b.aligned.astype(common))
    host = ops[0]
    names = host.names if named else ["?"] * result.ndim
    return [f"case {cid} binary {op}", a.lines(), b.lines(), out_line(np.asarray(result), names)]


def unary_case(rng, cid):
    op = rng.choice(list(UNARY))
    dtype = rng.choice(list(DTYPES))
    if op == "neg" and dtype == "bool":
        dtype = "int32"
    shape = broadcastable_shapes(rng, 1)[0]
    a = Operand(random_values(rng, dtype, shape), dtype)
    maybe_reverse(rng, a)
    x = a.aligned
    with np.errstate(all="ignore"):
        result = np.asarray(UNARY[op](x))
    return [f"case {cid} unary {op}", a.lines(), out_line(result, ["?"] * result.ndim)]


def cast_case(rng, cid, src=None, dst=None, shape=None):
    """A cast; NumPy leaves float -> integer undefined out of range (ntensor
    saturates: tested on its own), so float sources stay in range for integer targets."""
    src = src or rng.choice(list(DTYPES))
    dst = dst or rng.choice(list(DTYPES))
    shape = broadcastable_shapes(rng, 1)[0] if shape is None else shape
    to_int = dst in INTEGERS
    a = Operand(random_values(rng, src, shape, special=not to_int), src)
    if src in FLOATS and dst.startswith("uint"):
        a.aligned = np.abs(a.aligned)  # negative float -> unsigned is platform-defined
    maybe_reverse(rng, a)
    result = a.aligned.astype(DTYPES[dst])
    return [f"case {cid} cast {dst}", a.lines(), out_line(result, ["?"] * result.ndim)]


def where_case(rng, cid):
    dtype = rng.choice(list(DTYPES))
    shapes = broadcastable_shapes(rng, 3)
    rng.shuffle(shapes)
    c = Operand(random_values(rng, "bool", shapes[0]), "bool")
    a = Operand(random_values(rng, dtype, shapes[1]), dtype)
    b = Operand(random_values(rng, dtype, shapes[2]), dtype)
    for o in (c, a, b):
        maybe_reverse(rng, o)
    result = np.where(c.aligned, a.aligned, b.aligned).astype(DTYPES[dtype])
    return [f"case {cid} where", c.lines(), a.lines(), b.lines(), out_line(result, ["?"] * result.ndim)]


RANDOM = object()


def reduction_case(rng, cid, op=None, rank=None, axes=RANDOM, keepdims=None, dtype=None, shape=None, view=None):
    """A reduction; op, rank, axes (a tuple, or None for every axis), keepdims, dtype
    and shape are random unless given (the sweeps give them)."""
    op = op or rng.choice(REDUCTIONS)
    dtype = dtype or rng.choice(list(DTYPES))
    if shape is None:
        rank = rng.randint(0, 4) if rank is None else rank
        shape = [rng.choice([1, 2, 3, 4]) for _ in range(rank)]
        if rng.random() < 0.1 and rank:
            shape[rng.randrange(rank)] = 0
    rank = len(shape)
    a = Operand(random_values(rng, dtype, shape, small=(op == "prod")), dtype)
    if view is None:
        maybe_reverse(rng, a)
    else:
        a.view = view
    if axes is RANDOM:
        subsets = [s for k in range(rank + 1) for s in itertools.combinations(range(rank), k)]
        axes = list(rng.choice(subsets)) if subsets else []
        if rng.random() < 0.15:
            axes = None  # every axis
    elif axes is not None:
        axes = list(axes)
    keepdims = rng.random() < 0.4 if keepdims is None else keepdims
    x = a.aligned
    red = tuple(range(rank)) if axes is None else tuple(axes)
    try:
        with np.errstate(all="ignore"):
            if op in ("argmax", "argmin"):
                kept = [d for d in range(rank) if d not in red]
                count = int(np.prod([x.shape[d] for d in red]))
                if count == 0:
                    raise ValueError("argmax of an empty sequence")
                moved = np.transpose(x, kept + list(red))
                flat = moved.reshape([x.shape[d] for d in kept] + [count])
                result = getattr(np, op)(flat, axis=-1)
                if keepdims:
                    result = np.expand_dims(result, tuple(sorted(red)))
            elif op in ("sum", "prod") and dtype in ("int32", "uint32"):
                # NumPy's defaults (int64 / uint64 on 64-bit Linux), spelled out.
                wide = np.int64 if dtype == "int32" else np.uint64
                result = getattr(np, op)(x, axis=red, keepdims=keepdims, dtype=wide)
            elif op in ("sum", "prod") and dtype == "float16":
                # ntensor accumulates float16 in float32 along every axis (NumPy does
                # along the contiguous one only, and rounds to float16 at each step
                # along the others).
                result = getattr(np, op)(x.astype(np.float32), axis=red, keepdims=keepdims).astype(np.float16)
            elif op in ("any", "all"):
                result = getattr(np, op)(x, axis=red, keepdims=keepdims)
            else:
                result = getattr(np, {"min": "amin", "max": "amax"}.get(op, op))(x, axis=red, keepdims=keepdims)
        result = np.asarray(result)
        tail = out_line(result, ["?"] * result.ndim)
    except ValueError:
        tail = "error invalid_argument"  # e.g. min/argmax of an empty axis
    spec = "all" if axes is None else ",".join(map(str, axes)) if axes else "none"
    return [f"case {cid} reduce {op} {spec} {int(keepdims)}", a.lines(), tail]


def print_case(rng, cid, dtype):
    """NumPy's repr of a random array, as ntensor prints it: "tensor(" for "array(",
    true/false for True/False; the text up to the comma before ntensor's shape=."""
    rank = rng.randint(0, 3)
    shape = [rng.choice([1, 2, 3, 5, 12]) for _ in range(rank)]
    if rng.random() < 0.05:
        shape = [rng.choice([1001, 40 * 30])]  # summarised
    a = Operand(random_values(rng, dtype, shape), dtype)
    if rng.random() < 0.3 and dtype in FLOATS:  # values over a wide range: scientific notation
        a.aligned = (a.aligned.astype(np.float64) * 10.0 ** rng.randint(-9, 9)).astype(DTYPES[dtype])
    text = "tensor(" + np.array2string(a.aligned, separator=", ", prefix="tensor(", suffix=",", floatmode="maxprec",
                                       precision=8, max_line_width=75, threshold=1000, edgeitems=3) + ","
    text = text.replace("True", "true").replace("False", "false")
    return [f"case {cid} print {dtype}", a.lines(), "text " + text.replace("\\", "\\\\").replace("\n", "\\n")]


def promotion_lines():
    return [f"promote {a} {b} {np.result_type(DTYPES[a], DTYPES[b]).name}" for a in DTYPES for b in DTYPES]


def sweeps(rng, cid):
    """Every binary and unary operation and every cast over every dtype, and every
    reduction over long contiguous and strided axes of every dtype."""
    for op in BINARY:
        for dtype in DTYPES:
            if op in ("sub", "mod", "pow") and dtype == "bool":
                continue
            small = op in ("pow",)
            shape = [rng.randint(1, 40)]
            a = Operand(random_values(rng, dtype, shape, small=small), dtype)
            b = Operand(random_values(rng, dtype, shape, small=small), dtype)
            if op == "pow":
                if dtype in INTEGERS:
                    b.aligned = (np.abs(b.aligned) % 4).astype(DTYPES[dtype])
                else:
                    a.aligned = np.abs(a.aligned)
            with np.errstate(all="ignore"):
                result = np.asarray(BINARY[op](a.aligned, b.aligned))
            yield [f"case {cid} binary {op}", a.lines(), b.lines(), out_line(result, ["?"])]
            cid += 1
    for op in UNARY:
        for dtype in DTYPES:
            if op == "neg" and dtype == "bool":
                continue
            a = Operand(random_values(rng, dtype, [rng.randint(1, 40)]), dtype)
            with np.errstate(all="ignore"):
                result = np.asarray(UNARY[op](a.aligned))
            yield [f"case {cid} unary {op}", a.lines(), out_line(result, ["?"])]
            cid += 1
    for src in DTYPES:
        for dst in DTYPES:
            yield cast_case(rng, cid, src, dst, [rng.randint(1, 40)])
            cid += 1
    for dtype in DTYPES:
        for _ in range(20):
            yield print_case(rng, cid, dtype)
            cid += 1
    for dtype in DTYPES:
        for op in REDUCTIONS:
            # (n): one contiguous run; (2, n) over its last axis: a run per output;
            # (n, 3) over axis 0: the outer traversal; reversed: negative strides.
            layouts = [([n], None, "plain") for n in LONG_AXIS_LENGTHS]
            for n in SOME_AXIS_LENGTHS:
                layouts += [([2, n], (1,), "plain"), ([n, 3], (0,), "plain"), ([2, n], (1,), "reversed:1")]
            for shape, axes, view in layouts:
                yield reduction_case(rng, cid, op, axes=axes, keepdims=False, dtype=dtype, shape=shape, view=view)
                cid += 1


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--seed", type=int, required=True)
    parser.add_argument("--count", type=int, default=4000)
    parser.add_argument("--out", required=True)
    parser.add_argument("--sweep", action="store_true",
                        help="also the promotion table, every operation and cast over every dtype, every reduction "
                             "over every axis subset of ranks 0 to 4, with and without keepdims, and over long axes")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    makers = [binary_case] * 5 + [unary_case] * 2 + [cast_case, where_case] + [reduction_case] * 3
    with open(args.out, "w") as f:
        if args.sweep:
            for line in promotion_lines():
                f.write(line + "\n")
        for cid in range(args.count):
            for line in rng.choice(makers)(rng, cid):
                f.write(line.rstrip() + "\n")
        swept = 0
        if args.sweep:
            cid = args.count
            for op in REDUCTIONS:
                for rank in range(5):
                    subsets = [s for k in range(rank + 1) for s in itertools.combinations(range(rank), k)] + [None]
                    for axes in subsets:
                        for keepdims in (False, True):
                            for line in reduction_case(rng, cid, op, rank, axes, keepdims):
                                f.write(line.rstrip() + "\n")
                            cid += 1
                            swept += 1
            for case in sweeps(rng, cid):
                for line in case:
                    f.write(line.rstrip() + "\n")
                cid += 1
                swept += 1
    print(f"seed {args.seed}: {args.count} random cases and {swept} swept cases -> {args.out}")


if __name__ == "__main__":
    sys.exit(main())
