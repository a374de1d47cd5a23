#!/usr/bin/env python3
"""Oracle cases for the tensor core's structural operations: random chains of
1 to 5 view/reshape operations applied to np.arange(n).reshape(shape) (int64),
and what NumPy gives (shape, values in row-major order, whether the result
shares memory with the arange), or that NumPy rejects the last operation.
Run by CTest before test_tensor's [numpy][structural] cases
(tests/tensor/numpy_structural.cpp).

Output (line based; a shape is written as "<rank> <sizes...>"):

    # seed <S> count <N>
    chain <id> start <shape>
    op <name> <args...>              (one line per operation, see below)
    ok <shape> shares <0|1> overlap <0|1>
                                     (the chain succeeds; shares: np.shares_memory(result,
                                     arange); overlap: two indices reach one element, so
                                     nt makes the view read-only)
    values <v0 v1 ...>               (row-major; the line is "values" alone when empty)
or  error <code>                     (the last operation must throw nt::error with <code>)
    end

Operations and their NumPy meaning (`none` stands for Python's None):

    reshape c|f <shape, sizes may be -1>   a.reshape(s, order='C'|'F')
    transpose                              np.swapaxes(a, -1, -2)
    swap_axes <a> <b>                      np.swapaxes(a, a, b)
    move_axis <from> <to>                  np.moveaxis(a, from, to)
    move_axes <k> <from...> <m> <to...>    np.moveaxis(a, [from], [to])
    permute <k> <axes...>                  np.transpose(a, axes)
    slice <axis> <start|none> <stop|none> <step>
                                           a[:, ..., start:stop:step] on that axis
    index <k> <item...>                    a[item0, ..., itemk-1] (k <= 4), item = an integer,
                                           `all` (:) or <start>:<stop>:<step> (a slice)
    squeeze <axis>                         np.squeeze(a, axis)
    unsqueeze <pos>                        np.expand_dims(a, pos)
    unfold <axis> <size> <step>            sliding_window_view(a, size, axis)[.., ::step on axis]
    broadcast_to <shape>                   np.broadcast_to(a, shape)
    flatten                                a.reshape(-1)
    view <shape>                           a.reshape(s) only when NumPy makes no copy (in-place
                                           shape assignment succeeds), else nt::error not_a_view
    flatten_range <first> <last>           a.reshape(s[:first] + (prod,) + s[last+1:])
    unflatten <axis> <k> <sizes...>        a.reshape(s[:axis] + sizes + s[axis+1:])
    squeeze_all                            np.squeeze(a)
    expand_dims <k> <positions...>         np.expand_dims(a, positions)
    transpose2 <a> <b>                     np.swapaxes(a, a, b)   (nt: t.transpose(a, b))
"""
import math

import numpy as np
from numpy.lib.stride_tricks import sliding_window_view

import oracle

AxisError = getattr(np, "AxisError", None) or np.exceptions.AxisError

MAX_ELEMENTS = 4096
MAX_RANK = 8
SIZES = [1, 1, 2, 2, 3, 3, 4, 5, 7]


def random_size(rng):
    """An axis size: 0 now and then (zero-size tensors are valid), mostly small."""
    return 0 if rng.random() < 0.03 else rng.choice(SIZES)

# Expected nt::errc spelling for each kind of invalid operation (tensor.md,
# matcher/include/nt/error.hpp).
ERROR_CODES = {
    "axis": "axis_out_of_range",        # an axis index outside -rank..rank-1
    "insert_pos": "axis_out_of_range",  # unsqueeze position outside -rank-1..rank
    "index": "index_out_of_range",      # an integer index outside its axis
    "too_many_indices": "invalid_argument",   # more index items than axes
    "reshape_count": "invalid_argument",      # element count differs
    "reshape_two_inferred": "invalid_argument",
    "reshape_inferred_zero": "invalid_argument",  # -1 next to a 0: ambiguous
    "squeeze_not_one": "invalid_argument",
    "slice_step_zero": "invalid_argument",
    "unfold_too_large": "invalid_argument",
    "unfold_step": "invalid_argument",
    "unfold_negative_size": "invalid_argument",
    "permute_not_permutation": "invalid_argument",
    "move_axes_duplicate": "invalid_argument",
    "move_axes_length": "invalid_argument",
    "broadcast_incompatible": "incompatible_sizes",
    "transpose_rank": "invalid_argument",     # transpose() needs rank >= 2
    "not_a_view": "not_a_view",               # view() where NumPy's reshape copies
    "expand_dims_repeated": "invalid_argument",
    "unflatten_count": "invalid_argument",    # sizes do not multiply to the axis size
}


def internal_overlap(a):
    """True when two index tuples of `a` reach one element (by its strides)."""
    offsets = np.zeros((), dtype=np.int64)
    for n, stride in zip(a.shape, a.strides):
        offsets = offsets[..., None] + np.arange(n, dtype=np.int64) * stride
    return bool(offsets.size) and np.unique(offsets).size < offsets.size


def prod(shape):
    return math.prod(shape)


fmt_shape = oracle.shape_text


def opt(v):
    return "none" if v is None else str(v)


def maybe_negative(rng, axis, rank, p=0.3):
    """Axis `axis` (0..rank-1), written negatively with probability p."""
    return axis - rank if rng.random() < p else axis


# ----------------------------------------------------------------- applying ops

MAX_INDEX_ITEMS = 4  # the C++ replay spells index(...) out for up to 4 arguments


def index_item(it):
    if it == "all":
        return slice(None)
    if isinstance(it, tuple):
        return slice(*it)
    return it


def format_item(it):
    if isinstance(it, tuple):
        return ":".join(opt(x) for x in it)
    return str(it)


def apply_op(a, op):
    name, args = op[0], op[1:]
    if name == "reshape":
        order, shape = args
        return a.reshape(tuple(shape), order="C" if order == "c" else "F")
    if name == "transpose":
        return np.swapaxes(a, -1, -2)
    if name == "swap_axes":
        return np.swapaxes(a, args[0], args[1])
    if name == "move_axis":
        return np.moveaxis(a, args[0], args[1])
    if name == "move_axes":
        return np.moveaxis(a, list(args[0]), list(args[1]))
    if name == "permute":
        return np.transpose(a, tuple(args[0]))
    if name == "slice":
        axis, start, stop, step = args
        if not -a.ndim <= axis < a.ndim:
            raise AxisError(axis, a.ndim)
        axis %= a.ndim
        return a[(slice(None),) * axis + (slice(start, stop, step),)]
    if name == "index":
        # The trailing Ellipsis keeps a 0-d result a view (a[1] of a vector is a
        # NumPy scalar, a copy; nt gives a rank-0 view).
        return a[tuple(index_item(it) for it in args[0]) + (Ellipsis,)]
    if name == "squeeze":
        return np.squeeze(a, args[0])
    if name == "unsqueeze":
        return np.expand_dims(a, args[0])
    if name == "unfold":
        axis, size, step = args
        if not -a.ndim <= axis < a.ndim:
            raise AxisError(axis, a.ndim)
        axis %= a.ndim
        w = sliding_window_view(a, size, axis=axis)
        return w[(slice(None),) * axis + (slice(None, None, step),)]
    if name == "broadcast_to":
        return np.broadcast_to(a, tuple(args[0]))
    if name == "flatten":
        return a.reshape(-1)
    if name == "view":
        r = a.view()
        try:
            r.shape = tuple(args[0])
        except AttributeError as e:  # NumPy would have to copy
            raise NotAView(str(e)) from None
        return r
    if name == "flatten_range":
        first, last = (normalize_axis(x, a.ndim) for x in args)
        if first > last:
            raise ValueError("first after last")
        return a.reshape(a.shape[:first] + (prod(a.shape[first:last + 1]),) + a.shape[last + 1:])
    if name == "unflatten":
        axis = normalize_axis(args[0], a.ndim)
        sizes = list(args[1])
        if -1 in sizes:
            others = prod([d for d in sizes if d != -1])
            if others == 0 or a.shape[axis] % others:
                raise ValueError("cannot infer")
            sizes[sizes.index(-1)] = a.shape[axis] // others
        if prod(sizes) != a.shape[axis]:
            raise ValueError("sizes do not multiply to the axis size")
        return a.reshape(a.shape[:axis] + tuple(sizes) + a.shape[axis + 1:])
    if name == "squeeze_all":
        return np.squeeze(a)
    if name == "expand_dims":
        return np.expand_dims(a, tuple(args[0]))
    if name == "transpose2":
        return np.swapaxes(a, args[0], args[1])
    raise AssertionError(name)


class NotAView(ValueError):
    pass


def normalize_axis(axis, rank):
    if not -rank <= axis < rank:
        raise AxisError(axis, rank)
    return axis % rank


def format_op(op):
    name, args = op[0], op[1:]
    if name == "reshape":
        return f"reshape {args[0]} {fmt_shape(args[1])}"
    if name in ("transpose", "flatten", "squeeze_all"):
        return name
    if name in ("swap_axes", "move_axis", "squeeze", "unsqueeze", "unfold", "flatten_range", "transpose2"):
        return " ".join([name] + [str(x) for x in args])
    if name == "move_axes":
        src, dst = args
        return " ".join(["move_axes", str(len(src))] + [str(x) for x in src] + [str(len(dst))] + [str(x) for x in dst])
    if name == "permute":
        return " ".join(["permute", str(len(args[0]))] + [str(x) for x in args[0]])
    if name == "slice":
        axis, start, stop, step = args
        return f"slice {axis} {opt(start)} {opt(stop)} {step}"
    if name == "index":
        return " ".join(["index", str(len(args[0]))] + [format_item(x) for x in args[0]])
    if name in ("broadcast_to", "view"):
        return f"{name} {fmt_shape(args[0])}"
    if name == "unflatten":
        return f"unflatten {args[0]} {fmt_shape(args[1])}"
    if name == "expand_dims":
        return f"expand_dims {fmt_shape(args[0])}"
    raise AssertionError(name)


# ----------------------------------------------------------- random valid ops

def random_factorization(rng, n, rank):
    """A random shape of `rank` axes with `n` elements, or None."""
    if n == 0:
        if rank == 0:
            return None
        shape = [random_size(rng) for _ in range(rank)]
        shape[rng.randrange(rank)] = 0
        return shape
    if rank == 0:
        return [] if n == 1 else None
    dims = []
    rem = n
    for _ in range(rank - 1):
        divisors = [d for d in range(1, min(rem, 64) + 1) if rem % d == 0]
        d = rng.choice(divisors)
        dims.append(d)
        rem //= d
    dims.append(rem)
    rng.shuffle(dims)
    return dims


def nearby_shape(rng, shape):
    """Merge two adjacent axes, split one, insert or drop a 1 (often a view)."""
    shape = list(shape)
    r = rng.random()
    if r < 0.35 and len(shape) >= 2:
        i = rng.randrange(len(shape) - 1)
        return shape[:i] + [shape[i] * shape[i + 1]] + shape[i + 2:]
    if r < 0.7 and shape:
        i = rng.randrange(len(shape))
        d = shape[i]
        divisors = [k for k in range(1, d + 1) if d % k == 0] if d > 0 else [0]
        k = rng.choice(divisors)
        second = d // k if k else rng.choice([0, 1, 2, 3])
        return shape[:i] + [k, second] + shape[i + 1:]
    if r < 0.85 or not shape:
        i = rng.randint(0, len(shape))
        return shape[:i] + [1] + shape[i:]
    ones = [i for i, d in enumerate(shape) if d == 1]
    if ones:
        i = rng.choice(ones)
        return shape[:i] + shape[i + 1:]
    return shape


def with_inferred(rng, shape):
    """Replace one size by -1 when NumPy can infer it back."""
    if not shape or rng.random() < 0.6:
        return shape
    i = rng.randrange(len(shape))
    others = shape[:i] + shape[i + 1:]
    if prod(others) == 0:
        return shape
    return shape[:i] + [-1] + shape[i + 1:]


def random_op(rng, a):
    """A random operation valid for `a`, or None (the caller retries)."""
    shape = list(a.shape)
    rank = len(shape)
    n = a.size
    kind = rng.choice(["reshape", "reshape", "transpose", "swap_axes", "move_axis", "move_axes",
                       "permute", "slice", "slice", "index", "squeeze", "unsqueeze", "unfold",
                       "broadcast_to", "flatten", "view", "view", "flatten_range", "unflatten",
                       "squeeze_all", "expand_dims", "transpose2"])
    if kind == "reshape":
        order = rng.choice(["c", "c", "f"])
        if rng.random() < 0.5:
            target = nearby_shape(rng, shape)
        else:
            target = random_factorization(rng, n, rng.randint(0, 6))
        if target is None or prod(target) != n or len(target) > MAX_RANK:
            return None
        return ("reshape", order, with_inferred(rng, target))
    if kind == "transpose":
        return ("transpose",) if rank >= 2 else None
    if kind == "swap_axes":
        if rank < 1:
            return None
        return ("swap_axes", maybe_negative(rng, rng.randrange(rank), rank),
                maybe_negative(rng, rng.randrange(rank), rank))
    if kind == "move_axis":
        if rank < 1:
            return None
        return ("move_axis", maybe_negative(rng, rng.randrange(rank), rank),
                maybe_negative(rng, rng.randrange(rank), rank))
    if kind == "move_axes":
        k = rng.randint(0, rank)
        src = rng.sample(range(rank), k)
        dst = rng.sample(range(rank), k)
        return ("move_axes", [maybe_negative(rng, x, rank, 0.2) for x in src],
                [maybe_negative(rng, x, rank, 0.2) for x in dst])
    if kind == "permute":
        perm = list(range(rank))
        rng.shuffle(perm)
        return ("permute", [maybe_negative(rng, x, rank, 0.15) for x in perm])
    if kind == "slice":
        if rank < 1:
            return None
        axis = rng.randrange(rank)
        size = shape[axis]

        def bound():
            r = rng.random()
            if r < 0.25:
                return None
            if r < 0.4:  # out of range: clamped by Python slicing
                return rng.choice([-size - 3, -size - 1, size, size + 2])
            return rng.randint(-size, size) if size else 0
        step = rng.choice([1, 1, 1, 2, 3, -1, -1, -2, -3])
        start, stop = bound(), bound()
        if start is not None and stop is not None and rng.random() < 0.6:
            # Mostly non-empty: order the bounds (as positions) along the step.
            def pos(b):
                return b + size if b < 0 else b
            if (pos(start) > pos(stop)) == (step > 0):
                start, stop = stop, start
        return ("slice", maybe_negative(rng, axis, rank), start, stop, step)
    if kind == "index":
        if rank < 1:
            return None
        k = rng.randint(1, min(rank, MAX_INDEX_ITEMS))
        items = []
        for d in shape[:k]:
            r = rng.random()
            if r < 0.25:
                items.append("all")
            elif r < 0.45 or d == 0:
                start = rng.choice([None, rng.randint(-d - 1, d + 1)])
                stop = rng.choice([None, rng.randint(-d - 1, d + 1)])
                items.append((start, stop, rng.choice([1, 1, 2, -1, -2])))
            else:
                items.append(rng.randint(-d, d - 1))
        return ("index", items)
    if kind == "squeeze":
        ones = [i for i, d in enumerate(shape) if d == 1]
        if not ones:
            return None
        return ("squeeze", maybe_negative(rng, rng.choice(ones), rank))
    if kind == "unsqueeze":
        if rank >= MAX_RANK:
            return None
        return ("unsqueeze", rng.randint(-rank - 1, rank))
    if kind == "unfold":
        if rank < 1 or rank >= MAX_RANK:
            return None
        axis = rng.randrange(rank)
        d = shape[axis]
        size = rng.randint(0, d) if rng.random() < 0.1 else rng.randint(min(1, d), d)
        step = rng.choice([1, 1, 2, 3])
        return ("unfold", maybe_negative(rng, axis, rank), size, step)
    if kind == "broadcast_to":
        extra = rng.randint(0, 2)
        if rank + extra > MAX_RANK:
            return None
        target = [random_size(rng) for _ in range(extra)]
        for d in shape:
            target.append(rng.choice([0, 1, 2, 3, 4, 5]) if d == 1 and rng.random() < 0.6 else d)
        return ("broadcast_to", target)
    if kind == "flatten":
        return ("flatten",)
    if kind == "view":
        target = nearby_shape(rng, shape) if rng.random() < 0.6 else random_factorization(rng, n, rng.randint(0, 5))
        if target is None or prod(target) != n or len(target) > MAX_RANK:
            return None
        return ("view", with_inferred(rng, target))
    if kind == "flatten_range":
        if rank < 1:
            return None
        first = rng.randrange(rank)
        last = rng.randrange(first, rank)
        return ("flatten_range", maybe_negative(rng, first, rank), maybe_negative(rng, last, rank))
    if kind == "unflatten":
        if rank < 1:
            return None
        axis = rng.randrange(rank)
        sizes = random_factorization(rng, shape[axis], rng.randint(1, 3))
        if sizes is None or rank - 1 + len(sizes) > MAX_RANK:
            return None
        return ("unflatten", maybe_negative(rng, axis, rank), with_inferred(rng, sizes))
    if kind == "squeeze_all":
        return ("squeeze_all",)
    if kind == "expand_dims":
        k = rng.randint(1, 3)
        out_rank = rank + k
        if out_rank > MAX_RANK:
            return None
        return ("expand_dims", [maybe_negative(rng, p, out_rank) for p in rng.sample(range(out_rank), k)])
    if kind == "transpose2":
        if rank < 1:
            return None
        return ("transpose2", maybe_negative(rng, rng.randrange(rank), rank),
                maybe_negative(rng, rng.randrange(rank), rank))
    raise AssertionError(kind)


# -------------------------------------------------------- random invalid ops

def random_bad_op(rng, a):
    """(error kind, op) that NumPy rejects for `a`, or None."""
    shape = list(a.shape)
    rank = len(shape)
    n = a.size

    def bad_axis():
        return rng.choice([rank, rank + 1, rank + 3, -rank - 1, -rank - 2])

    kind = rng.choice(list(ERROR_CODES) + ["not_a_view"] * 3)  # needs a strided prefix: try more often
    if kind == "axis":
        op = rng.choice(["swap_axes", "move_axis", "squeeze", "slice", "unfold", "permute", "move_axes"])
        good = rng.randrange(rank) if rank else 0
        if op == "swap_axes":
            return kind, ("swap_axes", good, bad_axis()) if rng.random() < 0.5 else ("swap_axes", bad_axis(), good)
        if op == "move_axis":
            return kind, ("move_axis", good, bad_axis()) if rng.random() < 0.5 else ("move_axis", bad_axis(), good)
        if op == "squeeze":
            if rank == 0:
                return None  # NumPy accepts np.squeeze(0-d array, axis=0 or -1)
            return kind, ("squeeze", bad_axis())
        if op == "slice":
            return kind, ("slice", bad_axis(), None, None, 1)
        if op == "unfold":
            return kind, ("unfold", bad_axis(), 1, 1)
        if op == "permute":
            if rank == 0:
                return None
            perm = list(range(rank))
            perm[rng.randrange(rank)] = bad_axis()
            return kind, ("permute", perm)
        if op == "move_axes":
            if rank == 0:
                return None
            return kind, ("move_axes", [bad_axis()], [good])
    if kind == "insert_pos":
        return kind, ("unsqueeze", rng.choice([rank + 1, rank + 2, -rank - 2, -rank - 4]))
    if kind == "index":
        axes = [i for i in range(min(rank, MAX_INDEX_ITEMS))]
        if not axes:
            return None
        i = rng.choice(axes)
        d = shape[i]
        bad = rng.choice([d, d + 2, -d - 1, -d - 3])
        items = ["all"] * i + [bad]
        return kind, ("index", items)
    if kind == "too_many_indices":
        if rank >= MAX_INDEX_ITEMS:
            return None
        items = [0 if d > 0 else "all" for d in shape] + [0]
        return kind, ("index", items)
    if kind == "reshape_count":
        target = random_factorization(rng, n + rng.randint(1, 5), rng.randint(1, 4))
        if target is None or prod(target) == n:
            return None
        return kind, ("reshape", rng.choice(["c", "f"]), target)
    if kind == "reshape_two_inferred":
        return kind, ("reshape", "c", [-1, -1] + ([n] if rng.random() < 0.5 else []))
    if kind == "reshape_inferred_zero":
        if n != 0:
            return None
        return kind, ("reshape", "c", rng.choice([[0, -1], [-1, 0], [2, 0, -1]]))
    if kind == "squeeze_not_one":
        axes = [i for i, d in enumerate(shape) if d != 1]
        if not axes:
            return None
        return kind, ("squeeze", maybe_negative(rng, rng.choice(axes), rank))
    if kind == "slice_step_zero":
        if rank == 0:
            return None
        return kind, ("slice", rng.randrange(rank), None, None, 0)
    if kind == "unfold_too_large":
        if rank == 0:
            return None
        axis = rng.randrange(rank)
        return kind, ("unfold", axis, shape[axis] + rng.randint(1, 3), 1)
    if kind == "unfold_step":
        if rank == 0:
            return None
        axis = rng.randrange(rank)
        return kind, ("unfold", axis, min(1, shape[axis]), 0)
    if kind == "unfold_negative_size":
        if rank == 0:
            return None
        return kind, ("unfold", rng.randrange(rank), -1, 1)
    if kind == "permute_not_permutation":
        if rank == 0:
            return None
        r = rng.random()
        if r < 0.4:
            perm = list(range(rank)) + [0]          # too long
        elif r < 0.7 and rank >= 2:
            perm = list(range(rank))
            perm[0] = perm[1]                        # repeated axis
        else:
            perm = list(range(rank))[:-1]           # too short
        return kind, ("permute", perm)
    if kind == "move_axes_duplicate":
        if rank < 2:
            return None
        if rng.random() < 0.5:
            return kind, ("move_axes", [0, 0], [0, 1])
        return kind, ("move_axes", [0, 1], [1, 1 - rank])
    if kind == "move_axes_length":
        if rank < 2:
            return None
        return kind, ("move_axes", [0, 1], [1])
    if kind == "broadcast_incompatible":
        axes = [i for i, d in enumerate(shape) if d != 1]
        if not axes:
            return None
        i = rng.choice(axes)
        target = list(shape)
        target[i] = shape[i] + rng.choice([1, 2]) if shape[i] != 0 else 3
        return kind, ("broadcast_to", target)
    if kind == "transpose_rank":
        if rank >= 2:
            return None
        return kind, ("transpose",)
    if kind == "not_a_view":
        for _ in range(20):
            target = nearby_shape(rng, shape) if rng.random() < 0.5 else random_factorization(rng, n, rng.randint(1, 4))
            if target is None or prod(target) != n:
                continue
            try:
                apply_op(a, ("view", target))
            except NotAView:
                return kind, ("view", target)
        return None
    if kind == "expand_dims_repeated":
        if rank + 2 > MAX_RANK:
            return None
        p = rng.randrange(rank + 2)
        return kind, ("expand_dims", [p, p - (rank + 2) if rng.random() < 0.5 else p])
    if kind == "unflatten_count":
        if rank < 1:
            return None
        axis = rng.randrange(rank)
        sizes = [shape[axis] + 1, 1] if rng.random() < 0.5 else [2, shape[axis] + 1]
        return kind, ("unflatten", axis, sizes)
    raise AssertionError(kind)


# ---------------------------------------------------------------- the chains

def random_start(rng):
    while True:
        rank = rng.randint(0, 6)
        shape = [random_size(rng) for _ in range(rank)]
        if prod(shape) <= MAX_ELEMENTS:
            return shape


def valid_chain(rng, a, length):
    ops = []
    while len(ops) < length:
        for _ in range(100):
            op = random_op(rng, a)
            if op is None:
                continue
            try:
                r = apply_op(a, op)  # a valid op never raises; let it crash otherwise
            except NotAView:
                continue  # view() of a layout that needs a copy: an error case
            if r.size <= MAX_ELEMENTS and r.ndim <= MAX_RANK:
                ops.append(op)
                a = r
                break
        else:
            break
    return ops, a


def error_fraction_option(parser):
    parser.add_argument("--error-fraction", type=float, default=0.12)


def cases(args, rng, f):
    ok_count = errors = 0
    for cid in range(args.count):
        start = random_start(rng)
        base = np.arange(prod(start), dtype=np.int64)
        a = base.reshape(start)
        lines = [f"chain {cid} start {fmt_shape(start)}"]
        if rng.random() < args.error_fraction:
            ops, a = valid_chain(rng, a, rng.randint(0, 3))
            for _ in range(200):
                bad = random_bad_op(rng, a)
                if bad is not None:
                    break
            else:
                raise AssertionError("no invalid op found")
            kind, op = bad
            try:
                apply_op(a, op)
            except (ValueError, IndexError, TypeError):  # np.AxisError is both
                pass
            else:
                raise AssertionError(f"NumPy accepted {format_op(op)} on {a.shape} ({kind})")
            lines += ["op " + format_op(o) for o in ops + [op]]
            lines.append(f"error {ERROR_CODES[kind]}")
            errors += 1
        else:
            ops, a = valid_chain(rng, a, rng.randint(1, 5))
            lines += ["op " + format_op(o) for o in ops]
            shares = int(np.shares_memory(a, base))
            overlap = int(internal_overlap(a))
            lines.append(f"ok {fmt_shape(a.shape)} shares {shares} overlap {overlap}")
            lines.append(" ".join(["values"] + [str(int(v)) for v in a.ravel(order="C")]))
            ok_count += 1
        lines.append("end")
        f.write("\n".join(lines) + "\n")
    return f"seed {args.seed}: {args.count} chains ({ok_count} valid, {errors} expected errors) -> {args.out}"


if __name__ == "__main__":
    oracle.run(cases, count=2000, header_line=True, options=error_fraction_option)
