#!/usr/bin/env python3
"""Oracle cases for element-wise operations and reductions, computed by NumPy.

Named cases never ask NumPy to match names: the generator computes NumPy's result
on aligned arrays, then gives the operands names and shuffles the named axes of
one operand (moving its data accordingly). ntensor must undo that by matching
names, and then agree with NumPy.

One case per block of lines:
  promote <dtype> <dtype> <dtype>     (np.result_type of the first two; all 144 pairs)
  case <id> <kind> <op> [<extra>...]
     kinds: binary, unary, cast, where, reduce, print, and (the math and mask
     operations) clip <lo> <hi>, where_scalar <form> <scalar>..., nan_to_num <nan>
     <posinf> <neginf>, masked_fill <value>, assign_where, masked_select. A scalar is
     <kind>:<value> with kind int (std::int64_t), float (double) or bool; a bound
     "tensor" is an `in` line. Operations ntensor refuses for a type (floor_divide,
     shifts and sign on bool, bitwise operations on floating types) end in
     "error type_mismatch" and are replayed through nt::any_tensor.
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
import itertools
import math
import warnings

import numpy as np

import oracle

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
    "floor_divide": np.floor_divide, "atan2": np.arctan2, "hypot": np.hypot,
    "bitwise_and": np.bitwise_and, "bitwise_or": np.bitwise_or, "bitwise_xor": np.bitwise_xor,
    "left_shift": np.left_shift, "right_shift": np.right_shift,
}
# Float math: each operand goes to its own floating type first (NumPy's loop choice:
# arctan2(uint8, int8) is float16, not the float type of their common int16).
FLOAT_BINARY = {"atan2", "hypot"}
BITWISE = {"bitwise_and", "bitwise_or", "bitwise_xor"}
SHIFTS = {"left_shift", "right_shift"}
DIVISIONS = {"mod", "floor_divide"}
UNARY = {
    "abs": np.abs, "neg": np.negative, "exp": np.exp, "log": np.log, "sqrt": np.sqrt,
    "sin": np.sin, "cos": np.cos, "tanh": np.tanh,
    # In the type np.exp gives (float16 for bool and 8-bit integers, ...), computed in
    # double and rounded once. (On 0-d input np.exp returns a NumPy scalar, whose
    # arithmetic would widen: hence the asarray.)
    "sigmoid": lambda x: np.asarray(1 / (1 + np.exp(-x.astype(np.float64)))).astype(np.asarray(np.exp(x)).dtype),
    "logical_not": np.logical_not,
    "floor": np.floor, "ceil": np.ceil, "round": np.round, "trunc": np.trunc, "sign": np.sign,
    "isnan": np.isnan, "isinf": np.isinf, "isfinite": np.isfinite, "square": np.square,
    "reciprocal": np.reciprocal, "log1p": np.log1p, "expm1": np.expm1, "exp2": np.exp2, "log2": np.log2,
    "log10": np.log10, "bitwise_not": np.invert,
    # NumPy has no erf: math.erf in double, rounded once to np.exp's type, as sigmoid.
    "erf": lambda x: np.asarray(np.vectorize(math.erf, otypes=[np.float64])(x.astype(np.float64))).astype(
        np.asarray(np.exp(x)).dtype),
}
SIMD_MATH = ["sqrt", "floor", "ceil", "trunc", "round", "exp", "expm1", "log", "log1p", "tanh", "sigmoid", "sin", "cos"]
FLOAT_UNARY = {"exp", "log", "sqrt", "sin", "cos", "tanh", "sigmoid", "log1p", "expm1", "exp2", "log2", "log10", "erf"}
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


def float_of(dtype):
    """The floating type float math gives for dtype (np.sqrt's result type)."""
    return np.sqrt(np.ones(1, dtype=DTYPES[dtype])).dtype


def computation_type(op, da, db):
    """The type ntensor computes a binary op in (detail::binary_operand_t)."""
    if op in FLOAT_BINARY:
        return np.promote_types(float_of(da), float_of(db))
    return np.promote_types(DTYPES[da], DTYPES[db])


def refused_binary(op, common):
    """ntensor's type rule (detail::binary_accepts_v): True when it refuses op on the
    computation type (NumPy raises for the floating ones; for bool it computes in
    int8, ntensor asks for a cast)."""
    kind = common.kind
    if op == "floor_divide":
        return kind == "b"
    if op in BITWISE:
        return kind == "f"
    if op in SHIFTS:
        return kind in "bf"
    return False


def refused_unary(op, dtype):
    if op == "sign":
        return dtype == "bool"
    if op == "bitwise_not":
        return dtype in FLOATS
    return False


def shift_amounts(rng, dtype, shape):
    """Shift counts around the bit width: negative, in range, at and beyond it."""
    bits = 8 * np.dtype(DTYPES[dtype]).itemsize
    lo = -3 if dtype.startswith("int") else 0
    n = int(np.prod(shape)) if shape else 1
    return np.array([rng.randint(lo, min(bits + 3, 100)) for _ in range(n)], dtype=DTYPES[dtype]).reshape(shape)


def divisors(rng, dtype, shape):
    """Divisors with zero, -1 and small values of both signs (floor division and
    floor modulo of negatives and by zero); floating ones keep NaN and inf."""
    values = random_values(rng, dtype, shape, small=dtype in INTEGERS)
    if dtype in INTEGERS and values.size and rng.random() < 0.5:
        flat = values.reshape(-1)
        flat[rng.randrange(flat.size)] = 0
        if dtype.startswith("int"):
            flat[rng.randrange(flat.size)] = -1
    return values


def prepare_operands(op, a, b, rng):
    """Inputs shaped for op: shift counts, divisors, exponents."""
    if op in SHIFTS and b.dtype in INTEGERS:
        b.aligned = shift_amounts(rng, b.dtype, list(b.aligned.shape))
    elif op in DIVISIONS and b.dtype != "bool":
        b.aligned = divisors(rng, b.dtype, list(b.aligned.shape))


def binary_result(op, a, b):
    """NumPy's result for ntensor's binary op on arrays a, b of dtypes da, db, or None
    when ntensor refuses the types."""
    common = computation_type(op, a.dtype, b.dtype)
    if refused_binary(op, common):
        return None
    with np.errstate(all="ignore"):
        return np.asarray(BINARY[op](a.aligned.astype(common), b.aligned.astype(common)))


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
    prepare_operands(op, a, b, rng)
    ops = [a, b] if len(shapes[0]) >= len(shapes[1]) else [b, a]
    named = name_operands(rng, ops)
    for o in (a, b):
        maybe_reverse(rng, o)
    # Tensors promote by type alone; NumPy 1.x would look at the values of 0-d
    # arrays ("value-based casting"), so hand it operands of the computation type.
    result = binary_result(op, a, b)
    if result is None:
        return [f"case {cid} binary {op}", a.lines(), b.lines(), "error type_mismatch"]
    host = ops[0]
    names = host.names if named else ["?"] * result.ndim
    return [f"case {cid} binary {op}", a.lines(), b.lines(), out_line(result, names)]


def unary_case(rng, cid):
    op = rng.choice(list(UNARY))
    dtype = rng.choice(list(DTYPES))
    if op == "neg" and dtype == "bool":
        dtype = "int32"
    shape = broadcastable_shapes(rng, 1)[0]
    a = unary_operand(rng, op, dtype, shape)
    maybe_reverse(rng, a)
    return [f"case {cid} unary {op}", a.lines(), unary_tail(op, a)]


def unary_operand(rng, op, dtype, shape):
    a = Operand(random_values(rng, dtype, shape), dtype)
    if op == "reciprocal" and dtype in INTEGERS:
        # NumPy's integer 1 / 0 casts inf to the type: undefined (ntensor gives 0,
        # tested by hand in tests/ops/math.cpp).
        a.aligned = np.where(a.aligned == 0, 1, a.aligned).astype(DTYPES[dtype])
    return a


def unary_tail(op, a):
    if refused_unary(op, a.dtype):
        return "error type_mismatch"
    with np.errstate(all="ignore"):
        result = np.asarray(UNARY[op](a.aligned))
    return out_line(result, ["?"] * result.ndim)


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


# --- math with scalars, and masks --------------------------------------------------

SCALAR_KINDS = ["int", "float", "bool"]
SCALAR_TYPES = {"int": np.int64, "float": np.float64, "bool": np.bool_}


def weak_type(dtype, kind):
    """The type of a tensor of `dtype` with a scalar of `kind` (nt::promote_scalar_t:
    NumPy 2's weak Python scalars)."""
    d = np.dtype(dtype)
    if kind == "float":
        return d if d.kind == "f" else np.dtype(np.float64)
    if kind == "int" and d.kind == "b":
        return np.dtype(np.int64)
    return d


def random_scalar(rng, kind, dtype=None):
    """(text, python value) of a scalar of `kind`; int scalars go beyond small types'
    ranges now and then."""
    if kind == "bool":
        v = rng.random() < 0.5
        return ("1" if v else "0"), v
    if kind == "int":
        v = rng.choice([rng.randint(-9, 9), rng.randint(-300, 300), rng.choice([-2**40, 2**40, 70000, -70000])])
        return str(v), v
    v = rng.choice([round(rng.uniform(-4, 4), 3), 0.5, -0.5, 2.5, float("nan"), float("inf"), 1e6])
    return repr(float(v)), v


def scalar_as(value, kind, dtype, saturate_ints=False):
    """A scalar in `dtype` as ntensor converts scalar operands (static_cast; for clip
    bounds, integers saturate at an integer type's limits)."""
    d = np.dtype(dtype)
    if kind == "int" and d.kind in "iu":
        if saturate_ints:
            info = np.iinfo(d)
            return np.asarray(min(max(value, int(info.min)), int(info.max)), dtype=d)
        return np.asarray(value, dtype=np.int64).astype(d)  # wraps, as static_cast
    return np.asarray(value).astype(d)


def clip_case(rng, cid, dtype=None):
    dtype = dtype or rng.choice(list(DTYPES))
    forms = ["tensor", rng.choice(SCALAR_KINDS)]
    lo_form, hi_form = rng.choice(forms), rng.choice(forms)
    bound_dtype = rng.choice(list(DTYPES))
    if lo_form == "tensor" and hi_form == "tensor":
        pass  # lo and hi share bound_dtype (the replay visits t and lo, hi follows lo)
    elif "tensor" in (lo_form, hi_form):
        bound_dtype = dtype  # one tensor bound: t's type
    shapes = broadcastable_shapes(rng, 3)
    t = Operand(random_values(rng, dtype, shapes[0]), dtype)
    tensors, head = [t], []
    bounds = {}
    for which, form, shape in (("lo", lo_form, shapes[1]), ("hi", hi_form, shapes[2])):
        if form == "tensor":
            o = Operand(random_values(rng, bound_dtype, shape), bound_dtype)
            tensors.append(o)
            bounds[which] = o
            head.append("tensor")
        else:
            text, value = random_scalar(rng, form)
            bounds[which] = (form, value)
            head.append(f"{form}:{text}")
    named = name_operands(rng, tensors)
    for o in tensors:
        maybe_reverse(rng, o)
    common = np.dtype(DTYPES[dtype])
    for o in tensors[1:]:
        common = np.promote_types(common, DTYPES[o.dtype])
    for which in ("lo", "hi"):
        if not isinstance(bounds[which], Operand):
            common = weak_type(common, bounds[which][0])
    args = [t.aligned.astype(common)]
    for which in ("lo", "hi"):
        b = bounds[which]
        args.append(b.aligned.astype(common) if isinstance(b, Operand) else scalar_as(b[1], b[0], common, True))
    # The clip ufunc itself: np.clip in NumPy 1.x reads a 0-d NaN bound as "no bound"
    # (deprecated since 1.17); the ufunc, like ntensor, propagates NaN.
    with np.errstate(all="ignore"):
        result = np.asarray(np.core.umath.clip(*args))
    names = t.names if named else ["?"] * result.ndim
    return [f"case {cid} clip {head[0]} {head[1]}"] + [o.lines() for o in tensors] + [out_line(result, names)]


def where_scalar_case(rng, cid, dtype=None):
    dtype = dtype or rng.choice(list(DTYPES))
    form = rng.choice(["sa", "as", "ss"])
    shapes = broadcastable_shapes(rng, 2)
    rng.shuffle(shapes)
    c = Operand(random_values(rng, "bool", shapes[0]), "bool")
    kinds = [rng.choice(SCALAR_KINDS) for _ in range(2)]
    scalars = [random_scalar(rng, k) for k in kinds]
    if form == "ss":
        for o in (c,):
            maybe_reverse(rng, o)
        common = np.result_type(SCALAR_TYPES[kinds[0]], SCALAR_TYPES[kinds[1]])
        a = scalar_as(scalars[0][1], kinds[0], common)
        b = scalar_as(scalars[1][1], kinds[1], common)
        result = np.asarray(np.where(c.aligned, a, b)).astype(common)
        head = f"case {cid} where_scalar ss {kinds[0]}:{scalars[0][0]} {kinds[1]}:{scalars[1][0]}"
        return [head, c.lines(), out_line(result, ["?"] * result.ndim)]
    t = Operand(random_values(rng, dtype, shapes[1]), dtype)
    ops = [c, t] if len(shapes[0]) >= len(shapes[1]) else [t, c]
    named = name_operands(rng, ops)
    for o in (c, t):
        maybe_reverse(rng, o)
    common = weak_type(DTYPES[dtype], kinds[0])
    v = scalar_as(scalars[0][1], kinds[0], common)
    x = t.aligned.astype(common)
    result = np.asarray(np.where(c.aligned, v, x) if form == "sa" else np.where(c.aligned, x, v)).astype(common)
    names = ops[0].names if named else ["?"] * result.ndim
    head = f"case {cid} where_scalar {form} {kinds[0]}:{scalars[0][0]}"
    return [head, c.lines(), t.lines(), out_line(result, names)]


def nan_to_num_case(rng, cid, dtype=None):
    dtype = dtype or rng.choice(list(DTYPES))
    a = Operand(random_values(rng, dtype, broadcastable_shapes(rng, 1)[0]), dtype)
    maybe_reverse(rng, a)
    nan = rng.choice([0.0, -1.0, 2.5, 1e6])
    posinf = rng.choice([None, 1e3, 7e4])
    neginf = rng.choice([None, -1e3, -7e4])
    with np.errstate(all="ignore"):
        result = np.asarray(np.nan_to_num(a.aligned, nan=nan, posinf=posinf, neginf=neginf))
    text = " ".join("none" if v is None else repr(float(v)) for v in (nan, posinf, neginf))
    return [f"case {cid} nan_to_num {text}", a.lines(), out_line(result, ["?"] * result.ndim)]


def destination_and_mask(rng, dtype, extra=None):
    """A writable destination t (the host: highest rank) and a bool mask that
    broadcasts to it, named consistently; `extra` is the dtype of a third operand
    (assign_where's source) that also broadcasts to t."""
    shapes = broadcastable_shapes(rng, 3 if extra else 2)
    shapes[0] = list(np.broadcast_shapes(*map(tuple, shapes)))  # the destination holds every axis
    t = Operand(random_values(rng, dtype, shapes[0]), dtype)
    m = Operand(random_values(rng, "bool", shapes[1]), "bool")
    ops = [t, m]
    if extra:
        ops.append(Operand(random_values(rng, extra, shapes[2]), extra))
    named = name_operands(rng, ops)
    for o in ops:
        maybe_reverse(rng, o)
    if t.view.startswith("broadcast"):
        t.view = "plain"  # a broadcast view is read-only (tested by hand)
    return ops, named


def broadcast_to_host(o, host):
    """o's aligned array broadcast to the host's aligned shape (right-aligned)."""
    return np.broadcast_to(o.aligned, host.aligned.shape)


def masked_fill_case(rng, cid, dtype=None):
    dtype = dtype or rng.choice(list(DTYPES))
    (t, m), named = destination_and_mask(rng, dtype)
    value = random_values(rng, dtype, [1]).reshape(-1)[0]
    result = t.aligned.copy()
    result[broadcast_to_host(m, t)] = value
    names = t.names if named else ["?"] * result.ndim
    return [f"case {cid} masked_fill {fmt(value, dtype)}", t.lines(), m.lines(), out_line(np.asarray(result), names)]


def assign_where_case(rng, cid, dtype=None):
    dtype = dtype or rng.choice(list(DTYPES))
    # Sources of a type that converts to t's exactly (NumPy leaves out-of-range float
    # to integer casts undefined; ntensor's saturation is tested by hand).
    sources = [d for d in DTYPES if np.can_cast(DTYPES[d], DTYPES[dtype], "safe")]
    (t, m, src), named = destination_and_mask(rng, dtype, rng.choice(sources))
    result = np.where(broadcast_to_host(m, t), broadcast_to_host(src, t).astype(DTYPES[dtype]), t.aligned)
    names = t.names if named else ["?"] * result.ndim
    return [f"case {cid} assign_where", t.lines(), m.lines(), src.lines(), out_line(np.asarray(result), names)]


def masked_select_case(rng, cid, dtype=None):
    dtype = dtype or rng.choice(list(DTYPES))
    (t, m), _ = destination_and_mask(rng, dtype)
    result = np.asarray(t.aligned[broadcast_to_host(m, t)])
    return [f"case {cid} masked_select", t.lines(), m.lines(), out_line(result, ["?"])]


def in_place_case(rng, cid, dtype=None):
    """t op= src for the bitwise operators and shifts: NumPy's t op src in the
    common type, stored back into t's type (wrapping, as np.ndarray.astype does).
    Sources are integers or bool: a float source makes the common type floating,
    which these operators refuse (the error case)."""
    dtype = dtype or rng.choice(list(DTYPES))
    op = rng.choice(sorted(BITWISE | SHIFTS))
    source = rng.choice([d for d in DTYPES if d in INTEGERS or d == "bool"] + ["float32"])
    (t, src), named = destination_and_mask(rng, dtype)
    # The mask's shape, names and view, with the source's values.
    src.aligned = random_values(rng, source, list(src.aligned.shape))
    src.dtype = source
    if src.view.startswith("broadcast"):
        src.view = "plain"  # a broadcast view stores one slice: new values break that
    if op in SHIFTS and source in INTEGERS:
        src.aligned = shift_amounts(rng, source, list(src.aligned.shape))
    common = computation_type(op, dtype, source)
    head = f"case {cid} in_place {op}"
    if refused_binary(op, common):
        return [head, t.lines(), src.lines(), "error type_mismatch"]
    with np.errstate(all="ignore"):
        r = BINARY[op](t.aligned.astype(common), broadcast_to_host(src, t).astype(common))
    result = np.asarray(r).astype(DTYPES[dtype])
    names = t.names if named else ["?"] * result.ndim
    return [head, t.lines(), src.lines(), out_line(result, names)]


MATH_AND_MASKS = [clip_case, where_scalar_case, nan_to_num_case, masked_fill_case, assign_where_case,
                  masked_select_case, in_place_case]

RANDOM = object()


def reduction_case(rng, cid, op=None, rank=None, axes=RANDOM, keepdims=None, dtype=None, shape=None, view=None,
                   special=True):
    """A reduction; op, rank, axes (a tuple, or None for every axis), keepdims, dtype
    and shape are random unless given (the sweeps give them); `special` as for
    random_values."""
    op = op or rng.choice(REDUCTIONS)
    dtype = dtype or rng.choice(list(DTYPES))
    if shape is None:
        rank = rng.randint(0, 4) if rank is None else rank
        shape = [rng.choice([1, 2, 3, 4]) for _ in range(rank)]
        if rng.random() < 0.1 and rank:
            shape[rng.randrange(rank)] = 0
    rank = len(shape)
    a = Operand(random_values(rng, dtype, shape, small=(op == "prod"), special=special), dtype)
    if op == "mean" and dtype in ("int64", "uint64"):
        # Means of 64-bit integers are sums in double: with values up to 2^63 the
        # sum rounds and cancels differently in each summation order. Below 2^40 every
        # partial sum is exact, so any order gives NumPy's result.
        a.aligned = (a.aligned % (1 << 40)).astype(DTYPES[dtype])
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


# Operands of other types than the computation's are converted piece by piece as the
# kernel reads them, into a buffer of 8 KiB per operand (2048 float32, 1024 float64,
# 4096 16-bit elements), so these layouts cross the pieces' edges: rows longer than a
# piece, many short rows per piece, one value per row, a broadcast row, a transposed
# operand and a rank-0 one, and a case large enough to be split among threads.
CONVERTING_PAIRS = [("uint16", "float32"), ("int16", "float32"), ("float16", "float32"), ("uint8", "float64"),
                    ("int32", "float64"), ("uint8", "float16"), ("bool", "int32"), ("int8", "uint8")]
CONVERTING_OPS = ["add", "sub", "div", "lt", "mul", "max", "ge", "min"]
CONVERT_BUFFER_BYTES = 8192


def converting_cases(rng, cid):
    def operand(dtype, shape, small=False):
        return Operand(random_values(rng, dtype, shape, small=small), dtype)

    def layouts(da, db):
        # (a, b) aligned to the output, in NumPy's order; ntensor's views as set.
        piece = CONVERT_BUFFER_BYTES // np.promote_types(DTYPES[da], DTYPES[db]).itemsize
        a, b = operand(da, [3, piece + 3]), operand(db, [piece + 3])   # long rows; b one run for every row
        yield a, b
        rows = piece * 3 // 10
        a, b = operand(da, [rows, 5]), operand(db, [rows, 1])          # short rows; b one value per row
        a.view = "reversed:0"
        yield a, b
        a, b = operand(da, [2, piece + 5]), operand(db, [2, piece + 5])  # b broadcast along the rows
        b.aligned = np.repeat(b.aligned[:1], 2, 0)
        b.view = "broadcast:0"
        yield a, b
        yield operand(da, []), operand(db, [5, 300])                   # a rank-0 operand
        a, b = operand(da, [40, 50]), operand(db, [40, 50])            # b stored transposed: tiles
        a.names, b.names = ["H", "W"], ["H", "W"]
        b.perm = [1, 0]
        yield a, b

    for i, (da, db) in enumerate(CONVERTING_PAIRS):
        for j, (a, b) in enumerate(layouts(da, db)):
            op = CONVERTING_OPS[(i + j) % len(CONVERTING_OPS)]
            x, y = (a, b) if j % 2 == 0 else (b, a)
            prepare_operands(op, x, y, rng)
            names = x.names if x.aligned.ndim >= y.aligned.ndim else y.names
            yield [f"case {cid} binary {op}", x.lines(), y.lines(), out_line(binary_result(op, x, y), names)]
            cid += 1
    # Over 2^17 elements: the work is split among the pool's threads.
    a, b = operand("uint8", [2, 65600], small=True), operand("int8", [65600], small=True)
    yield [f"case {cid} binary sub", a.lines(), b.lines(), out_line(binary_result("sub", a, b), ["?", "?"])]


def operand_line(dtype, shape, names, view, values):
    """An operand's `in` line: its stored shape and axis names, the view the test takes of
    it, and its values in the order the view reads them back (`values`)."""
    return (f"in {dtype} {len(shape)} {' '.join(map(str, shape))} {' '.join(names)} {view} "
            f"{int(np.prod(shape))} {' '.join(fmt(v, dtype) for v in np.ravel(values))}")


def named_binary_case(cid, op, dtype, host, host_names, other_line, aligned, other_first):
    """A named binary case: `host` (plain, named host_names) with the other operand given
    by its line and, for NumPy, by `aligned` (host's axes, size 1 where it has none)."""
    host_line = operand_line(dtype, host.shape, host_names, "plain", host)
    with np.errstate(all="ignore"):
        result = np.asarray(BINARY[op](aligned, host) if other_first else BINARY[op](host, aligned))
    lines = [other_line, host_line] if other_first else [host_line, other_line]
    return [f"case {cid} binary {op}"] + lines + [out_line(result, list(host_names))]

def reordered_cases(rng, cid):
    """Named binary operations of 2^15 elements and more whose operand stored in another
    axis order, and broadcast over an axis, is copied into the output's order first
    (run_reordered in src/engine/strided_copy.cpp): a slice of the outermost axis at a time, or
    whole when the operand is broadcast along that axis too; read through a negative
    stride; first or second operand; results of another element size than the operands'
    (a comparison's bool, an integer division's double). Small integer values keep the
    data short."""
    layouts = [
        # op, dtype, host (N,C,H,W) sizes, the other's axes as stored, its reversed axis, other first
        ("add", "uint8", (2, 3, 80, 72), "NWH", None, False),
        ("sub", "float32", (2, 3, 80, 72), "NWH", None, True),
        ("mul", "float64", (4, 2, 64, 64), "WH", None, False),
        ("max", "int16", (2, 3, 72, 80), "NWH", 1, False),
        ("add", "int64", (4, 2, 64, 64), "CWH", None, False),
        # Results of another element size than the operands': bool, and double.
        ("lt", "int32", (2, 3, 80, 72), "NWH", None, False),
        ("div", "int16", (2, 3, 72, 80), "NWH", None, True),
    ]
    for op, dtype, sizes, stored_axes, reversed_axis, other_first in layouts:
        host = np.array([rng.randint(-9, 9) for _ in range(int(np.prod(sizes)))]).astype(DTYPES[dtype])
        host = host.reshape(sizes)
        full = dict(zip("NCHW", sizes))
        # The other operand over all four axes for NumPy, size 1 where it has no axis.
        aligned_shape = [full[a] if a in stored_axes else 1 for a in "NCHW"]
        aligned = np.array([rng.randint(-9, 9) for _ in range(int(np.prod(aligned_shape)))]).astype(DTYPES[dtype])
        aligned = aligned.reshape(aligned_shape)
        stored = np.transpose(aligned.reshape([full[a] for a in "NCHW" if a in stored_axes]),
                              ["NCHW".index(a) - sum(1 for b in "NCHW"[:"NCHW".index(a)] if b not in stored_axes)
                               for a in stored_axes])
        view = "plain"
        if reversed_axis is not None:
            view = f"reversed:{reversed_axis}"
            kept = np.flip(stored, reversed_axis)
        else:
            kept = stored
        other_line = operand_line(dtype, stored.shape, stored_axes, view, kept)
        yield named_binary_case(cid, op, dtype, host, "NCHW", other_line, aligned, other_first)
        cid += 1


def chunked_cases(rng, cid):
    """Binary operations whose operand is read again for every row of long rows (stride
    0 across the rows, contiguous or reversed along them): the engine walks such rows
    16 KiB of that operand at a time, every row of a chunk before the next (make_loop_plan,
    step 6). Rows of one to four chunks and a partial one, 1- to 8-byte elements, the
    reused operand first or second, a bool result, and enough elements for two threads."""
    layouts = [
        # op, dtype, host sizes and names, the reused operand's names, its reversed axis, it first
        ("add", "float32", (2, 3, 9000), "NCW", "NW", None, False),
        ("sub", "uint8", (3, 33000), "CW", "W", None, True),
        ("mul", "float64", (2, 4, 5000), "NCW", "NW", 1, False),
        ("max", "int16", (3, 20000), "CW", "W", None, False),
        ("add", "int32", (2, 8, 9000), "NCW", "NW", None, False),
        ("lt", "float32", (2, 3, 9000), "NCW", "NW", None, True),
    ]
    for op, dtype, sizes, names, reused_names, reversed_axis, reused_first in layouts:
        host = np.array([rng.randint(-9, 9) for _ in range(int(np.prod(sizes)))]).astype(DTYPES[dtype])
        host = host.reshape(sizes)
        full = dict(zip(names, sizes))
        stored = np.array([rng.randint(-9, 9) for _ in range(int(np.prod([full[a] for a in reused_names])))])
        stored = stored.astype(DTYPES[dtype]).reshape([full[a] for a in reused_names])
        aligned = stored.reshape([full[a] if a in reused_names else 1 for a in names])
        view, kept = "plain", stored
        if reversed_axis is not None:
            view, kept = f"reversed:{reversed_axis}", np.flip(stored, reversed_axis)
        reused_line = operand_line(dtype, stored.shape, reused_names, view, kept)
        yield named_binary_case(cid, op, dtype, host, names, reused_line, aligned, reused_first)
        cid += 1


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
            prepare_operands(op, a, b, rng)
            result = binary_result(op, a, b)
            tail = "error type_mismatch" if result is None else out_line(result, ["?"])
            yield [f"case {cid} binary {op}", a.lines(), b.lines(), tail]
            cid += 1
    for op in UNARY:
        for dtype in DTYPES:
            if op == "neg" and dtype == "bool":
                continue
            for shape in ([rng.randint(1, 40)], [0]):  # and zero-size
                a = unary_operand(rng, op, dtype, shape)
                yield [f"case {cid} unary {op}", a.lines(), unary_tail(op, a)]
                cid += 1
    # Rows long enough for the SIMD float functions (src/engine/simd/simd_unary.cpp), whole and
    # partial vectors, values over many binades: exp's overflow and subnormal results,
    # log's subnormal arguments, sin's and cos's large ones.
    for op in SIMD_MATH:
        # Integers compute in float32 (16-bit) or float64 (32-bit), converted in pieces.
        for dtype in ("float32", "float64") + (("int16", "uint16", "int32") if op != "round" else ()):
            a = unary_operand(rng, op, dtype, [3, 67])
            powers = [rng.choice([-40, -20, -8, -3, 0, 0, 0, 1, 1, 2, 2, 3]) for _ in range(a.aligned.size)]
            scale = 10.0 ** np.array(powers, dtype=np.float64)
            a.aligned = (a.aligned.astype(np.float64) * scale.reshape(a.aligned.shape)).astype(DTYPES[dtype])
            yield [f"case {cid} unary {op}", a.lines(), unary_tail(op, a)]
            cid += 1
    # Float to small integer casts on the SIMD rows: values across the target's range up
    # to just past its limits (in C's range, so NumPy's result is defined), and NaN-free.
    for src in ("float32", "float64"):
        for dst in ("int8", "uint8", "int16", "uint16") + (("int32",) if src == "float64" else ()):
            info = np.iinfo(DTYPES[dst])
            values = [rng.uniform(float(info.min) - 0.99, float(info.max) + 0.99) for _ in range(3 * 67)]
            values[:6] = [float(info.min), float(info.max), -0.5, 0.5, float(info.max) + 0.5, float(info.min) - 0.5]
            a = Operand(np.array(values, dtype=np.float64).astype(DTYPES[src]).reshape(3, 67), src)
            # float32 may round a limit +- 0.5 past the C range: keep those in it.
            a.aligned = np.clip(a.aligned, np.nextafter(DTYPES[src](info.min) - 1, 0),
                                np.nextafter(DTYPES[src](info.max) + 1, 0)).astype(DTYPES[src])
            result = a.aligned.astype(DTYPES[dst])
            yield [f"case {cid} cast {dst}", a.lines(), out_line(result, ["?", "?"])]
            cid += 1
    for dtype in DTYPES:
        for maker in MATH_AND_MASKS:
            for _ in range(6):
                yield maker(rng, cid, dtype)
                cid += 1
    for dtype in INTEGERS:
        # Every shift count from -3 (signed) past the bit width, on the extremes.
        info = np.iinfo(DTYPES[dtype])
        bits = 8 * np.dtype(DTYPES[dtype]).itemsize
        counts = list(range(-3 if dtype.startswith("int") else 0, bits + 4))
        for op in sorted(SHIFTS):
            for value in sorted({int(info.min), -1 if info.min < 0 else 0, 1, 5, int(info.max)}):
                a = Operand(np.full(len(counts), value, dtype=DTYPES[dtype]), dtype)
                b = Operand(np.array(counts, dtype=DTYPES[dtype]), dtype)
                yield [f"case {cid} binary {op}", a.lines(), b.lines(), out_line(binary_result(op, a, b), ["?"])]
                cid += 1
        # Every pair of dividends and divisors around zero and the limits.
        edges = sorted(v for v in {int(info.min), int(info.min) + 1, -7, -3, -1, 0, 1, 3, 7, int(info.max) - 1,
                                   int(info.max)} if info.min <= v <= info.max)
        pairs = [(x, y) for x in edges for y in edges]
        for op in sorted(DIVISIONS):
            a = Operand(np.array([x for x, _ in pairs], dtype=DTYPES[dtype]), dtype)
            b = Operand(np.array([y for _, y in pairs], dtype=DTYPES[dtype]), dtype)
            yield [f"case {cid} binary {op}", a.lines(), b.lines(), out_line(binary_result(op, a, b), ["?"])]
            cid += 1
    for dtype in FLOATS:
        # Floor division and modulo of every pair of special floating values.
        edges = [0.0, -0.0, 1.0, -1.0, 7.5, -7.5, 0.3, float("inf"), float("-inf"), float("nan")]
        pairs = [(x, y) for x in edges for y in edges]
        for op in sorted(DIVISIONS):
            a = Operand(np.array([x for x, _ in pairs]).astype(DTYPES[dtype]), dtype)
            b = Operand(np.array([y for _, y in pairs]).astype(DTYPES[dtype]), dtype)
            yield [f"case {cid} binary {op}", a.lines(), b.lines(), out_line(binary_result(op, a, b), ["?"])]
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
            # The SIMD folds (src/engine/simd/simd_reduce.cpp, the outer traversal's row kernels)
            # and argmax's tiles: kept rows wider than a tile, reduced axes that merge,
            # and long runs without NaN (a NaN sends a run of min or max to the loop).
            if op not in ("min", "max", "any", "sum", "argmax") or dtype in ("int64", "uint64", "float16"):
                continue
            for shape, axes, special in [([3, 300], (0,), True), ([3, 9, 40], (1,), True),
                                         ([4, 3, 5, 12], (0, 2), True), ([700], None, False),
                                         ([2, 300], (1,), False), ([9, 100], (0,), False)]:
                yield reduction_case(rng, cid, op, axes=axes, keepdims=False, dtype=dtype, shape=shape, view="plain",
                                     special=special)
                cid += 1


def sweep_option(parser):
    parser.add_argument("--sweep", action="store_true",
                        help="also the promotion table, every operation and cast over every dtype, every reduction "
                             "over every axis subset of ranks 0 to 4, with and without keepdims, and over long axes")


def cases(args, rng, f):
    makers = [binary_case] * 5 + [unary_case] * 2 + [cast_case, where_case] + [reduction_case] * 3 + MATH_AND_MASKS
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
        for case in itertools.chain(sweeps(rng, cid), converting_cases(rng, cid + 100000),
                                    reordered_cases(rng, cid + 200000), chunked_cases(rng, cid + 300000)):
            for line in case:
                f.write(line.rstrip() + "\n")
            cid += 1
            swept += 1
    return f"seed {args.seed}: {args.count} random cases and {swept} swept cases -> {args.out}"


if __name__ == "__main__":
    oracle.run(cases, count=4000, options=sweep_option)
