#!/usr/bin/env python3
"""Oracle cases for nt/learning.hpp: relu, leaky_relu, gelu (the erf form, with
math.erf), softmax, log_softmax and logsumexp along axes given by index or name
(keepdims; NaN, inf and -inf rows; large values that overflow exp without the
maximum subtracted), mse_loss and l1_loss (the second operand permuted by names or
broadcast), cross_entropy (class axis anywhere, labels of several integer types
permuted by names, class weights, ignore_index) and dice_loss (one-hot targets of
any type, or integer labels), over float16, float32, float64 and integer or bool
inputs, and what NumPy gives, or the error code the call must throw. Run by CTest
before test_ops's [numpy][learning] cases (tests/ops/numpy_learning.cpp).

The layers compute in the floating type nt::exp gives the input (bool and 8-bit
integers: float16, 16-bit: float32, wider: float64); the expected values are
computed in float64 from the inputs converted to that type, then rounded to it.

Output (line based; a shape is "<rank> <sizes...>", names one token per axis, "?"
for an unnamed axis; an axis is an integer or a name):

    # seed <S> count <N>
    case <id> <op> <args...>
    input <dtype> <shape> <names> values <v...>     (one line per operand, in order)
    out <dtype> <shape> <names> values <v...>
or  error <code>
    end

Operations, their arguments and operands:
    relu | gelu                               x
    leaky_relu <slope>                        x
    softmax | log_softmax <axis>              x
    logsumexp <keepdims> <k> <axes...>        x (k = -1: every axis, the one-argument form)
    mse_loss | l1_loss                        a, b
    cross_entropy <class axis> <ignore|-> <w> logits, labels[, weights when w = 1]
    dice_loss <class axis> <eps>              probs, target (one-hot or labels)
"""
import math
import warnings

import numpy as np

import oracle

NAMES = ["A", "B", "C", "D"]
DTYPES = {tag: np.dtype(name).type for tag, name in oracle.NUMPY_NAMES.items()}
TAG = {np.dtype(v): k for k, v in DTYPES.items()}
FLOATS = ("f16", "f32", "f64")
# The input types of the tests (the C++ side dispatches over these).
INPUTS = ("b8", "i8", "u8", "i32", "i64", "f16", "f32", "f64")
LABELS = ("i8", "u8", "i32", "i64")


def layer_type(tag):
    """nt::exp's result type for inputs of `tag` (detail::float_result_t)."""
    if tag in FLOATS:
        return tag
    size = np.dtype(DTYPES[tag]).itemsize
    return {1: "f16", 2: "f32"}.get(size, "f64")



def rand_values(rng, tag, shape, scale=1.0, specials=0.0):
    n = int(np.prod(shape)) if shape else 1
    if tag == "b8":
        return np.array([rng.random() < 0.5 for _ in range(n)], dtype=np.bool_).reshape(shape)
    if tag in FLOATS:
        pool = [rng.gauss(0.0, 1.0) * scale for _ in range(n)]
        for i in range(n):
            r = rng.random()
            if r < specials:
                pool[i] = rng.choice([float("nan"), float("inf"), -float("inf"), -float("inf")])
            elif r < 2 * specials:
                pool[i] = float(rng.randint(-3, 3))
        return np.array(pool, dtype=np.float64).astype(DTYPES[tag]).reshape(shape)
    lo = 0 if tag.startswith("u") else -50
    return np.array([rng.randint(lo, 50) for _ in range(n)], dtype=np.int64).astype(DTYPES[tag]).reshape(shape)


def axis_token(rng, a, rank, names):
    if names and rng.random() < 0.5:
        return names[a]
    return str(a - rank if rng.random() < 0.3 else a)


class Case:
    def __init__(self, op, args):
        self.op, self.args = op, [str(a) for a in args]
        self.inputs = []
        self.out = None
        self.error = None

    def write(self, out, cid):
        out.write(f"case {cid} {self.op} {' '.join(self.args)}".rstrip() + "\n")
        for a, names in self.inputs:
            a = np.asarray(a)
            out.write(f"input {TAG[a.dtype]} {oracle.shape_text(a.shape)} {oracle.names_text(names, a.ndim)} values "
                      f"{' '.join(oracle.value_text(v) for v in a.ravel())}\n")
        if self.error:
            out.write(f"error {self.error}\n")
        else:
            r, rnames = self.out
            r = np.asarray(r)
            out.write(f"out {TAG[r.dtype]} {oracle.shape_text(r.shape)} {oracle.names_text(rnames, r.ndim)} values "
                      f"{' '.join(oracle.value_text(v) for v in r.ravel())}\n")
        out.write("end\n")


def f64(a, tag):
    """The operand as the layer sees it (converted to its layer type), in float64."""
    return np.asarray(a).astype(DTYPES[layer_type(tag)]).astype(np.float64)


def rounded(r, tag):
    return np.asarray(r, dtype=np.float64).astype(DTYPES[tag])


def log_softmax(x, ax):
    if x.size == 0:
        return x.copy()
    z = x - np.max(x, axis=ax, keepdims=True)
    return z - np.log(np.sum(np.exp(z), axis=ax, keepdims=True))


def random_shape(rng, lo_rank, hi_rank, zero=0.0):
    rank = rng.randint(lo_rank, hi_rank)
    return tuple(rng.randint(1, 5) if rng.random() >= zero else 0 for _ in range(rank))


def gen_elementwise(rng, op):
    tag = rng.choice(INPUTS)
    shape = random_shape(rng, 0, 4, 0.05)
    names = rng.sample(NAMES, len(shape)) if shape and rng.random() < 0.5 else None
    ft = layer_type(tag)
    a = rand_values(rng, tag, shape, rng.choice([1.0, 4.0, 30.0]), 0.08)
    x = f64(a, tag)
    if op == "relu":
        c = Case(op, [])
        r = np.where(np.isnan(x), x, np.maximum(x, 0.0))
    elif op == "leaky_relu":
        slope = rng.choice([0.01, 0.2, 0.5, 1.5])
        c = Case(op, [repr(slope)])
        # In the layer type, as the library multiplies: slope rounded to it.
        s = float(np.asarray(slope, dtype=DTYPES[ft]))
        r = np.where(x > 0, x, (x * s).astype(DTYPES[ft]).astype(np.float64))
    else:
        c = Case(op, [])
        r = np.array([0.5 * v * (1.0 + math.erf(v / math.sqrt(2.0))) for v in x.ravel()]).reshape(x.shape)
    c.inputs.append((a, names))
    c.out = (rounded(r, ft), names)
    return c


def gen_softmax(rng, op):
    tag = rng.choice(INPUTS)
    shape = random_shape(rng, 1, 4, 0.05)
    rank = len(shape)
    names = rng.sample(NAMES, rank) if rng.random() < 0.5 else None
    ft = layer_type(tag)
    # Large values: exp overflows (f16 from 11, f32 from 88, f64 from 709) unless the
    # maximum is subtracted first.
    scale = rng.choice([1.0, 5.0, 300.0 if ft == "f16" else 1000.0])
    a = rand_values(rng, tag, shape, scale, 0.06)
    x = f64(a, tag)
    if op == "logsumexp":
        keepdims = rng.random() < 0.4
        if rng.random() < 0.2:
            axes, k, tokens = tuple(range(rank)), -1, []
            keepdims = False
        else:
            k = rng.randint(1, rank)
            axes = tuple(sorted(rng.sample(range(rank), k)))
            tokens = [axis_token(rng, ax, rank, names) for ax in axes]
            rng.shuffle(tokens)
        c = Case(op, ["1" if keepdims else "0", k] + tokens)
        if x.size == 0:
            r = np.log(np.sum(np.exp(x), axis=axes, keepdims=keepdims))
        else:
            m = np.max(x, axis=axes, keepdims=True)
            m = np.where(np.isfinite(m), m, 0.0)
            s = np.sum(np.exp(x - m), axis=axes, keepdims=True)
            r = np.log(s) + m
            if not keepdims:
                r = np.squeeze(r, axis=axes)
        out_names = None
        if names:
            out_names = list(names) if keepdims else [names[i] for i in range(rank) if i not in axes]
        c.inputs.append((a, names))
        c.out = (rounded(r, ft), out_names)
        return c
    ax = rng.randrange(rank)
    c = Case(op, [axis_token(rng, ax, rank, names)])
    if rng.random() < 0.05 and names:
        c.args = ["Z"]  # not an axis of the tensor
        c.inputs.append((a, names))
        c.error = "axis_out_of_range"
        return c
    ls = log_softmax(x, ax)
    r = ls if op == "log_softmax" else np.exp(ls) if x.size == 0 else \
        np.exp(x - np.max(x, axis=ax, keepdims=True)) / np.sum(np.exp(x - np.max(x, axis=ax, keepdims=True)),
                                                                axis=ax, keepdims=True)
    c.inputs.append((a, names))
    c.out = (rounded(r, ft), names)
    return c


def permuted(rng, b, names):
    """b with its axes (and names) in a random order, as the library matches by name."""
    order = list(range(b.ndim))
    rng.shuffle(order)
    return np.transpose(b, order), [names[i] for i in order]


def gen_pointwise(rng, op):
    ta, tb = rng.choice(INPUTS), rng.choice(INPUTS)
    shape = random_shape(rng, 0, 4)
    rank = len(shape)
    names = rng.sample(NAMES, rank) if rank and rng.random() < 0.5 else None
    ft = layer_type(TAG[np.promote_types(DTYPES[ta], DTYPES[tb])])
    small = ft == "f16"
    scale = 3.0 if small else rng.choice([1.0, 100.0])
    a = rand_values(rng, ta, shape, scale)
    b_full = rand_values(rng, tb, shape, scale)
    # b broadcast: one axis of size 1 (named), or leading axes dropped (right-aligned).
    b, b_names, b_oracle = b_full, names, b_full
    if rank and rng.random() < 0.3:
        if names:
            ax = rng.randrange(rank)
            b = np.take(b_full, [0], axis=ax).squeeze(axis=ax)
            b_names = [n for i, n in enumerate(names) if i != ax]
            b_oracle = np.expand_dims(b, ax)
        else:
            drop = rng.randint(1, rank)
            b = b_full[(0,) * drop]
            b_oracle = b
    if names and b.ndim and rng.random() < 0.6:
        b, b_names = permuted(rng, b, b_names)
    x = np.asarray(a).astype(DTYPES[ft]).astype(np.float64)
    y = np.asarray(b_oracle).astype(DTYPES[ft]).astype(np.float64)
    d = x - y
    r = np.mean(d * d) if op == "mse_loss" else np.mean(np.abs(d))
    c = Case(op, [])
    c.inputs += [(a, names), (b, b_names)]
    c.out = (rounded(r, ft), None)
    return c


def class_layout(rng):
    """A random scores shape with its class axis: (shape, names, class position)."""
    shape = list(random_shape(rng, 0, 3))
    at = rng.randint(0, len(shape))
    shape.insert(at, rng.randint(1, 6))
    names = rng.sample(NAMES, len(shape)) if rng.random() < 0.6 else None
    return tuple(shape), names, at


def labels_for(rng, others_shape, classes, tag, ignore=None):
    n = int(np.prod(others_shape)) if others_shape else 1
    values = [rng.randrange(classes) for _ in range(n)]
    if ignore is not None:
        values = [ignore if rng.random() < 0.25 else v for v in values]
    return np.array(values, dtype=np.int64).astype(DTYPES[tag]).reshape(others_shape)


def gen_cross_entropy(rng):
    shape, names, at = class_layout(rng)
    classes = shape[at]
    tag = rng.choice(INPUTS) if rng.random() < 0.2 else rng.choice(FLOATS)
    ft = layer_type(tag)
    scale = rng.choice([1.0, 3.0]) if ft == "f16" else rng.choice([1.0, 10.0, 1000.0])
    logits = rand_values(rng, tag, shape, scale)
    others = tuple(s for i, s in enumerate(shape) if i != at)
    ltag = rng.choice(LABELS)
    ignore = None
    if rng.random() < 0.35:
        ignore = rng.choice([255 if ltag == "u8" else -100, 0, classes - 1])
    y = labels_for(rng, others, classes, ltag, ignore)
    weighted = rng.random() < 0.4
    w = np.array([rng.choice([0.0, rng.uniform(0.1, 3.0)]) if rng.random() < 0.2 else rng.uniform(0.1, 3.0)
                  for _ in range(classes)]).astype(DTYPES[rng.choice(["f32", "f64"])])
    token = axis_token(rng, at, len(shape), names)
    label_names = [n for i, n in enumerate(names) if i != at] if names else None
    c = Case("cross_entropy", [token, "-" if ignore is None else ignore, 1 if weighted else 0])
    y_oracle = y
    if label_names and y.ndim and rng.random() < 0.6:
        y, label_names = permuted(rng, y, label_names)
    c.inputs += [(logits, names), (y, label_names)]
    if weighted:
        c.inputs.append((w, None))
    # Errors: a label out of range, a class axis the logits lack, float labels, a rank mismatch.
    r = rng.random()
    if r < 0.04 and y.size:
        bad = y.copy().ravel()
        bad[rng.randrange(bad.size)] = classes
        c.inputs[1] = (bad.reshape(y.shape), label_names)
        c.error = "index_out_of_range"
        return c
    elif r < 0.06 and names:
        c.args[0] = "Z"
        c.error = "axis_out_of_range"
        return c
    elif r < 0.08:
        c.inputs[1] = (y.astype(np.float32), label_names)
        c.error = "type_mismatch"
        return c
    elif r < 0.10:
        c.inputs[1] = (np.expand_dims(y, 0), None)
        c.error = "invalid_argument"
        return c
    x = np.moveaxis(f64(logits, tag), at, -1).reshape(-1, classes)
    ls = log_softmax(x, 1)
    yy = y_oracle.astype(np.int64).ravel()
    kept = np.ones(yy.shape, dtype=bool) if ignore is None else yy != ignore
    safe = np.where(kept, yy, 0)
    nll = np.where(kept, -ls[np.arange(yy.size), safe], 0.0)
    wy = np.where(kept, w.astype(np.float64)[safe] if weighted else 1.0, 0.0)
    with np.errstate(all="ignore"):
        loss = np.sum(wy * nll) / np.sum(wy)
    c.out = (rounded(loss, ft), None)
    return c


def gen_dice(rng):
    shape, names, at = class_layout(rng)
    classes = shape[at]
    tag = rng.choice(FLOATS) if rng.random() < 0.85 else rng.choice(["u8", "b8", "i32"])
    ft = layer_type(tag)
    if tag in FLOATS:
        p = np.array([rng.random() for _ in range(int(np.prod(shape)))]).reshape(shape).astype(DTYPES[tag])
    else:
        p = rand_values(rng, tag, shape) if tag == "b8" else \
            np.array([rng.randint(0, 1) for _ in range(int(np.prod(shape)))]).reshape(shape).astype(DTYPES[tag])
    eps = rng.choice([1.0, 1e-6, 0.5])
    others = tuple(s for i, s in enumerate(shape) if i != at)
    y = labels_for(rng, others, classes, "i64")
    hot = (np.expand_dims(y, at) == np.arange(classes).reshape([-1 if i == at else 1 for i in range(len(shape))]))
    token = axis_token(rng, at, len(shape), names)
    c = Case("dice_loss", [token, repr(eps)])
    if rng.random() < 0.5:
        ttag = rng.choice(["f32", "f64", "i64", "u8", "b8", "f16"])
        target, tnames = hot.astype(DTYPES[ttag]), names
        if names and rng.random() < 0.6:
            target, tnames = permuted(rng, target, names)
    else:
        ltag = rng.choice(LABELS)
        target = y.astype(DTYPES[ltag])
        tnames = [n for i, n in enumerate(names) if i != at] if names else None
        if tnames and target.ndim and rng.random() < 0.6:
            target, tnames = permuted(rng, target, tnames)
        if rng.random() < 0.05 and target.size:
            bad = target.copy().ravel()
            bad[rng.randrange(bad.size)] = classes
            c.inputs += [(p, names), (bad.reshape(target.shape), tnames)]
            c.error = "index_out_of_range"
            return c
    c.inputs += [(p, names), (target, tnames)]
    x = np.moveaxis(f64(p, tag), at, -1).reshape(-1, classes)
    t = np.moveaxis(hot.astype(np.float64), at, -1).reshape(-1, classes)
    dice = (2 * np.sum(x * t, axis=0) + eps) / (np.sum(x, axis=0) + np.sum(t, axis=0) + eps)
    c.out = (rounded(1.0 - np.mean(dice), ft), None)
    return c


def gen_case(rng):
    op = rng.choice(["relu", "leaky_relu", "gelu", "softmax", "log_softmax", "logsumexp", "logsumexp",
                     "mse_loss", "l1_loss", "cross_entropy", "cross_entropy", "dice_loss", "dice_loss"])
    if op in ("relu", "leaky_relu", "gelu"):
        return gen_elementwise(rng, op)
    if op in ("softmax", "log_softmax", "logsumexp"):
        return gen_softmax(rng, op)
    if op in ("mse_loss", "l1_loss"):
        return gen_pointwise(rng, op)
    if op == "cross_entropy":
        return gen_cross_entropy(rng)
    return gen_dice(rng)


def cases(args, rng, out):
    ops = {}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with np.errstate(all="ignore"):
            for cid in range(args.count):
                c = gen_case(rng)
                ops[c.op] = ops.get(c.op, 0) + 1
                c.write(out, cid)
    return f"{args.count} cases: " + ", ".join(f"{k} {v}" for k, v in sorted(ops.items()))


if __name__ == "__main__":
    oracle.run(cases, count=1000, header_line=True)
