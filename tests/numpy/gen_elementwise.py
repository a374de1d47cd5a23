#!/usr/bin/env python3
"""Oracle cases for element-wise operations and reductions, computed by NumPy.

Named cases never ask NumPy to match names: the generator computes NumPy's result
on aligned arrays, then gives the operands names and shuffles the named axes of
one operand (moving its data accordingly). ntensor must undo that by matching
names, and then agree with NumPy.

One case per block of lines:
  case <id> <kind> <op> [<extra>...]
  in <dtype> <rank> <sizes...> <names...> <view> <n> <values...>
  ...
  out <dtype> <rank> <sizes...> <names...> <n> <values...>   |   error <code>
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

DTYPES = {"bool": np.bool_, "uint8": np.uint8, "int32": np.int32, "int64": np.int64,
          "float32": np.float32, "float64": np.float64}
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
    # On 0-d input np.exp returns a NumPy scalar, and scalar arithmetic would widen.
    "sigmoid": lambda x: np.asarray(1 / (1 + np.exp(-x))).astype(np.asarray(np.exp(-x)).dtype),
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


def random_values(rng, dtype, shape, small=False):
    n = int(np.prod(shape)) if shape else 1
    if dtype == "bool":
        data = [rng.random() < 0.5 for _ in range(n)]
    elif dtype == "uint8":
        data = [rng.randint(0, 9 if small else 200) for _ in range(n)]
    elif dtype in ("int32", "int64"):
        data = [rng.randint(-9, 9) if small else rng.randint(-1000, 1000) for _ in range(n)]
    else:
        data = [round(rng.uniform(-4, 4), 3) for _ in range(n)]
        for i in range(n):  # a few special values
            r = rng.random()
            if r < 0.03:
                data[i] = 0.0
            elif r < 0.05:
                data[i] = 1.0
    return np.array(data, dtype=DTYPES[dtype]).reshape(shape)


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
    if op in ("sub", "mod") and da == db == "bool":
        da = "int32"  # ntensor (like NumPy for -) refuses these on two bools
    if op == "pow":
        da = db = rng.choice(["int32", "int64", "float32", "float64"])
    shapes = broadcastable_shapes(rng, 2)
    rng.shuffle(shapes)
    a = Operand(random_values(rng, da, shapes[0], small=op in ("pow", "mul")), da)
    b = Operand(random_values(rng, db, shapes[1], small=op in ("pow", "mul")), db)
    if op == "pow":
        # np.abs of a 0-d array is a NumPy scalar, whose % would change the dtype.
        if da.startswith("int"):
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
    if op in FLOAT_UNARY and dtype in ("bool", "uint8"):
        x = x.astype(np.float32)  # ntensor: float32 where NumPy would use float16
    with np.errstate(all="ignore"):
        result = np.asarray(UNARY[op](x))
    return [f"case {cid} unary {op}", a.lines(), out_line(result, ["?"] * result.ndim)]


def cast_case(rng, cid):
    src, dst = rng.choice(list(DTYPES)), rng.choice(list(DTYPES))
    shape = broadcastable_shapes(rng, 1)[0]
    a = Operand(random_values(rng, src, shape), src)
    if src.startswith("float") and dst in ("uint8",):
        a.aligned = np.abs(a.aligned)  # negative float -> uint8 is platform-defined
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


def reduction_case(rng, cid, op=None, rank=None, axes=RANDOM, keepdims=None):
    """A reduction; op, rank, axes (a tuple, or None for every axis) and keepdims are
    random unless given (the sweep gives them all)."""
    op = op or rng.choice(REDUCTIONS)
    dtype = rng.choice(list(DTYPES))
    rank = rng.randint(0, 4) if rank is None else rank
    shape = [rng.choice([1, 2, 3, 4]) for _ in range(rank)]
    if rng.random() < 0.1 and rank:
        shape[rng.randrange(rank)] = 0
    a = Operand(random_values(rng, dtype, shape, small=(op == "prod")), dtype)
    maybe_reverse(rng, a)
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
            elif op == "mean" and dtype != "float32":
                result = np.mean(x, axis=red, keepdims=keepdims, dtype=np.float64)
            elif op in ("sum", "prod") and dtype in ("bool", "uint8", "int32"):
                result = getattr(np, op)(x, axis=red, keepdims=keepdims, dtype=np.int64)
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


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--seed", type=int, required=True)
    parser.add_argument("--count", type=int, default=4000)
    parser.add_argument("--out", required=True)
    parser.add_argument("--sweep", action="store_true",
                        help="also every reduction over every axis subset of ranks 0 to 4, with and without keepdims")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    makers = [binary_case] * 5 + [unary_case] * 2 + [cast_case, where_case] + [reduction_case] * 3
    with open(args.out, "w") as f:
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
    print(f"seed {args.seed}: {args.count} element-wise cases and {swept} swept reductions -> {args.out}")


if __name__ == "__main__":
    sys.exit(main())
