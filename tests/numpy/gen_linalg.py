#!/usr/bin/env python3
"""Oracle cases for nt/linalg.hpp: einsum, dot, matmul and tensordot on random
shapes (size 1, size 0 and broadcast axes included) and element types, and what
NumPy gives (np.einsum, np.matmul, np.tensordot) or that the call must throw. Run
by CTest before test_linalg's [numpy] cases (tests/ops/linalg/numpy_linalg.cpp).

Output (line based; a shape is "<rank> <sizes...>", names one token per axis, "?"
for an unnamed axis):

    # seed <S> count <N>
    case <id> <op> <args...>
    input <dtype> <shape> <names> values <v...>     (one line per operand, row-major)
    out <dtype> <exact|byname> <tol> <shape> <names> values <v...>
or  error <code>
    end

dtype is NumPy's name (float32, int8, bool, ...); bool values are 0/1. `exact`: the
result's axes must be in this order with these names; `byname`: in the matcher's
order, compared after align_to("...", named axes) (unnamed axes first, here in
NumPy's broadcast order). `tol` is the absolute tolerance for floating results (0
for integers and bool): a multiple of the type's epsilon times the largest sum of
|products| (the same contraction of |a| and |b| in float64).

Operations:
    einsum : <subscripts...>          np.einsum over the canonical operands; named
                                      operands come permuted, their subscripts too;
                                      or with '...' and '?' for unnamed axes
    dot <k> <names...>                np.einsum with '...' for the unnamed axes
    matmul                            np.matmul
    tensordot_n <n>                   np.tensordot(a, b, n)
    tensordot_axes <k> <a axes...> <b axes...>   np.tensordot(a, b, (a_axes, b_axes))
"""
import math

import numpy as np

import oracle

DTYPES = ["float32", "float64", "int32", "int64", "uint8", "float16", "bool", "int8", "uint16"]
FLOATS = {"float16", "float32", "float64"}
EPS = {"float16": 4e-3, "float32": 4e-6, "float64": 1e-13}
LABELS = ["N", "C", "Hh", "W2", "K_1", "D", "E", "F"]
LETTERS = "abcdefghijklmnopqrstuvwxyz"


def rand_array(rng, shape, dtype):
    n = math.prod(shape)
    if dtype in FLOATS:
        vals = [rng.uniform(-1, 1) for _ in range(n)]
    elif dtype == "bool":
        vals = [rng.random() < 0.5 for _ in range(n)]
    else:
        info = np.iinfo(dtype)
        # Wide values for the wide types, so that products wrap.
        lo, hi = max(int(info.min), -(1 << 40)), min(int(info.max), 1 << 40)
        vals = [rng.randint(lo, hi) if rng.random() < 0.5 else rng.randint(max(lo, -9), min(hi, 9)) for _ in range(n)]
    return np.array(vals, dtype=np.float64 if dtype in FLOATS else None).astype(dtype).reshape(shape)


fmt_shape = oracle.shape_text




class Case:
    def __init__(self, op, args):
        self.op, self.args = op, [str(a) for a in args]
        self.inputs = []  # (array, names)
        self.out = None   # (array, names, order, tol)
        self.error = None

    def write(self, f, cid):
        f.write(f"case {cid} {self.op} {' '.join(self.args)}\n")
        for a, names in self.inputs:
            f.write(f"input {a.dtype.name} {fmt_shape(a.shape)} {' '.join(names)} values {oracle.values_text(a)}\n")
        if self.error:
            f.write(f"error {self.error}\n")
        else:
            a, names, order, tol = self.out
            f.write(f"out {a.dtype.name} {order} {tol!r} {fmt_shape(a.shape)} {' '.join(names)} values {oracle.values_text(a)}\n")
        f.write("end\n")


def tolerance(dtype, magnitude):
    if dtype.name not in FLOATS:
        return 0.0
    return EPS[dtype.name] * (float(np.max(magnitude)) if np.size(magnitude) else 0.0) + 1e-30


def promoted(arrays):
    """The operands converted to their promoted type, folded from the left as
    ntensor folds it. By dtype only: NumPy 1.x would otherwise apply value-based
    casting to 0-d operands (a 0-d uint8 with int8 giving int8), which NEP 50 and
    ntensor do not."""
    t = arrays[0].dtype
    for a in arrays[1:]:
        t = np.promote_types(t, a.dtype)
    return [a.astype(t) for a in arrays]


def pick_dtypes(rng, k):
    if rng.random() < 0.5:
        d = rng.choice(DTYPES)
        return [d] * k
    return [rng.choice(DTYPES) for _ in range(k)]


def label_sizes(rng, labels):
    return {l: (0 if rng.random() < 0.05 else rng.randint(1, 5)) for l in labels}


def permute_named(rng, a, names):
    """A random permutation of the named axes; unnamed axes keep their relative order."""
    rank = a.ndim
    named_pos = [i for i in range(rank) if names[i] != "?"]
    shuffled = named_pos[:]
    rng.shuffle(shuffled)
    perm = list(range(rank))
    for src, dst in zip(named_pos, shuffled):
        perm[src] = dst
    # perm[i]: which canonical axis goes to position i; unnamed stay put.
    return np.ascontiguousarray(np.transpose(a, perm)), [names[p] for p in perm], perm


# ------------------------------------------------------------------------- einsum

def gen_einsum(rng):
    nops = rng.choice([1, 2, 2, 2, 2, 3])
    pool = rng.sample(LABELS, rng.randint(1, 5))
    sizes = label_sizes(rng, pool)
    dtypes = pick_dtypes(rng, nops) if nops < 3 else [rng.choice(DTYPES)] * nops
    subs, arrays, named = [], [], []
    for i in range(nops):
        labs = rng.sample(pool, rng.randint(0, min(4, len(pool))))
        if labs and rng.random() < 0.1:
            labs.insert(rng.randrange(len(labs) + 1), rng.choice(labs))  # a diagonal
        shape = []
        for l in labs:
            s = sizes[l]
            if rng.random() < 0.1 and labs.count(l) == 1:
                s = 1  # broadcast against the others
            shape.append(s)
        subs.append(labs)
        arrays.append(rand_array(rng, shape, dtypes[i]))
        named.append(rng.random() < 0.6 and len(set(labs)) == len(labs))
    present = sorted({l for s in subs for l in s})
    out = rng.sample(present, rng.randint(0, len(present))) if present else []
    error = None
    # Ask NumPy (on letters: its subscripts are single characters).
    letter = {l: LETTERS[i] for i, l in enumerate(LABELS)}
    np_subs = ",".join("".join(letter[l] for l in s) for s in subs) + "->" + "".join(letter[l] for l in out)
    try:
        r = np.einsum(np_subs, *promoted(arrays))
        mag = np.einsum(np_subs, *[np.abs(a.astype(np.float64)) for a in arrays])
    except ValueError:
        error = "incompatible_sizes"
    # What the operands look like to ntensor: named ones permuted (with their
    # subscripts), some axes left unnamed; now and then a wrong name or count.
    inputs, text_parts = [], []
    for a, labs, is_named in zip(arrays, subs, named):
        if is_named and a.ndim:
            names = [l if rng.random() < 0.85 else "?" for l in labs]
            a2, names2, perm = permute_named(rng, a, names)
            labs2 = [labs[p] for p in perm]
            inputs.append((a2, names2))
            text_parts.append(labs2)
        else:
            inputs.append((a, ["?"] * a.ndim))
            text_parts.append(list(labs))
    if error is None and rng.random() < 0.06:
        i = rng.randrange(nops)
        a, names = inputs[i]
        if a.ndim and rng.random() < 0.5:
            d = rng.randrange(a.ndim)
            names = list(names)
            wrong = [l for l in LABELS if l not in text_parts[i]]
            names[d] = rng.choice(wrong)
            inputs[i] = (a, names)
            error = "name_mismatch"
        else:
            text_parts[i] = text_parts[i] + [rng.choice([l for l in LABELS if l not in text_parts[i]])]
            error = "invalid_argument"
    text = ", ".join(" ".join(p) for p in text_parts) + " -> " + " ".join(out)
    c = Case("einsum", [":", text])
    c.inputs = inputs
    if error:
        c.error = error
    else:
        r = np.asarray(r)
        c.out = (r, out, "exact", tolerance(r.dtype, mag))
    return c


def gen_einsum_unnamed(rng):
    """Subscripts with '...' (NumPy's ellipsis: broadcast, right-aligned) and '?'
    (the k-th '?' of every operand and of the right side is one axis), whose axes
    are unnamed in the operands and in the result. NumPy sees '...' as itself and
    the k-th '?' as one more letter."""
    nops = rng.choice([1, 2, 2, 3])
    pool = rng.sample(LABELS, rng.randint(0, 3))
    sizes = label_sizes(rng, pool)
    ell = [rng.randint(1, 4) if rng.random() > 0.05 else 0 for _ in range(rng.randint(0, 3))]
    qsizes = [rng.randint(1, 4) for _ in range(rng.randint(0, 2))]
    dtypes = pick_dtypes(rng, nops) if nops < 3 else [rng.choice(DTYPES)] * nops
    letter = {l: LETTERS[i] for i, l in enumerate(LABELS)}
    qletter = ["Q", "R"]
    parts, np_parts, arrays, names_of = [], [], [], []
    widths = []
    for i in range(nops):
        labs = rng.sample(pool, rng.randint(0, len(pool)))
        nq = rng.randint(0, len(qsizes))
        has_ell = rng.random() < 0.7
        m = rng.randint(0, len(ell)) if has_ell else 0
        toks = [("n", l) for l in labs] + [("q", k) for k in range(nq)]
        rng.shuffle(toks)
        # '?' tokens keep their order (the k-th '?' is the k-th from the left).
        qpos = [j for j, t in enumerate(toks) if t[0] == "q"]
        for k, j in enumerate(qpos):
            toks[j] = ("q", k)
        if has_ell:
            toks.insert(rng.randint(0, len(toks)), ("e", m))
        shape, names, words, np_word = [], [], [], ""
        for kind, v in toks:
            if kind == "n":
                shape.append(1 if rng.random() < 0.1 else sizes[v])
                names.append(v if rng.random() < 0.5 else "?")
                words.append(v)
                np_word += letter[v]
            elif kind == "q":
                shape.append(1 if rng.random() < 0.1 else qsizes[v])
                names.append("?")
                words.append("?")
                np_word += qletter[v]
            else:
                dims = ell[len(ell) - v:]
                shape += [1 if rng.random() < 0.15 else d for d in dims]
                names += ["?"] * v
                words.append("...")
                np_word += "..."
        widths.append(m)
        parts.append(words)
        np_parts.append(np_word)
        arrays.append(rand_array(rng, shape, dtypes[i]))
        names_of.append(names)
    present = sorted({w for p in parts for w in p if w not in ("?", "...")})
    out = [("n", l) for l in rng.sample(present, rng.randint(0, len(present)))]
    max_q = max(p.count("?") for p in parts)
    out += [("q", k) for k in range(rng.randint(0, max_q))]
    rng.shuffle(out)
    qpos = [j for j, t in enumerate(out) if t[0] == "q"]
    for k, j in enumerate(qpos):
        out[j] = ("q", k)
    any_ell = any("..." in p for p in parts)
    # Now and then no '...' on the right, which NumPy refuses when '...' covers axes.
    if any_ell and rng.random() < 0.9:
        out.insert(rng.randint(0, len(out)), ("e", 0))
    out_words = ["..." if k == "e" else "?" if k == "q" else v for k, v in out]
    np_out = "".join("..." if k == "e" else qletter[v] if k == "q" else letter[v] for k, v in out)
    np_subs = ",".join(np_parts) + "->" + np_out
    text = ", ".join(" ".join(p) for p in parts) + " -> " + " ".join(out_words)
    c = Case("einsum", [":", text])
    c.inputs = [(a, n) for a, n in zip(arrays, names_of)]
    try:
        r = np.asarray(np.einsum(np_subs, *promoted(arrays)))
        mag = np.einsum(np_subs, *[np.abs(a.astype(np.float64)) for a in arrays])
    except ValueError as e:
        c.error = "invalid_argument" if "ellipsis" in str(e) else "incompatible_sizes"
        return c
    # The result's names: the named identifiers on the right, '?' for the rest.
    rn = []
    for k, v in out:
        rn += ["?"] * (r.ndim - len(out) + 1) if k == "e" else ["?"] if k == "q" else [v]
    if rng.random() < 0.05:
        # A named axis where the subscripts say '?' or '...'.
        pos = [j for j, w in enumerate(expand(parts[0], arrays[0].ndim)) if w in ("?", "...")]
        if pos:
            names = list(names_of[0])
            names[rng.choice(pos)] = "Zz"
            c.inputs[0] = (arrays[0], names)
            c.error = "name_mismatch"
            return c
    c.out = (r, rn, "exact", tolerance(r.dtype, mag))
    return c


def expand(words, rank):
    """One word per axis: '...' repeated over the axes it covers."""
    explicit = sum(1 for w in words if w != "...")
    out = []
    for w in words:
        out += ["..."] * (rank - explicit) if w == "..." else [w]
    return out


# ------------------------------------------------------------------------- dot

def gen_dot(rng):
    pool = rng.sample(LABELS, rng.randint(1, 5))
    sizes = label_sizes(rng, pool)
    a_labs = rng.sample(pool, rng.randint(0, len(pool)))
    b_labs = rng.sample(pool, rng.randint(0, len(pool)))
    both = [l for l in a_labs if l in b_labs]
    summed = rng.sample(both, rng.randint(0, len(both))) if both else []
    error = None
    if rng.random() < 0.08:
        # A contracted name one operand lacks.
        extra = [l for l in LABELS if l not in a_labs or l not in b_labs]
        summed = summed + [rng.choice(extra)]
        error = "axis_out_of_range"
    # Unnamed leading axes, NumPy-broadcastable.
    common = [rng.randint(1, 3) for _ in range(rng.randint(0, 2))]
    ua = common[len(common) - rng.randint(0, len(common)):] if common else []
    ub = common[len(common) - rng.randint(0, len(common)):] if common else []
    ua = [1 if rng.random() < 0.2 else s for s in ua]
    ub = [1 if rng.random() < 0.2 else s for s in ub]
    a_shape = ua + [sizes[l] if not (l not in summed and rng.random() < 0.1) else 1 for l in a_labs]
    b_shape = ub + [sizes[l] if not (l not in summed and rng.random() < 0.1) else 1 for l in b_labs]
    if error is None and summed and rng.random() < 0.08:
        l = rng.choice(summed)
        b_shape[len(ub) + b_labs.index(l)] = sizes[l] + 1
        error = "incompatible_sizes"
    dts = pick_dtypes(rng, 2)
    a = rand_array(rng, a_shape, dts[0])
    b = rand_array(rng, b_shape, dts[1])
    c = Case("dot", [len(summed)] + summed)
    a_names = ["?"] * len(ua) + a_labs
    b_names = ["?"] * len(ub) + b_labs
    if error is None:
        letter = {l: LETTERS[i] for i, l in enumerate(LABELS)}
        kept = sorted(set(a_labs + b_labs) - set(summed))
        subs = ("..." + "".join(letter[l] for l in a_labs) + ",..." + "".join(letter[l] for l in b_labs) +
                "->..." + "".join(letter[l] for l in kept))
        try:
            r = np.asarray(np.einsum(subs, *promoted([a, b])))
            mag = np.einsum(subs, np.abs(a.astype(np.float64)), np.abs(b.astype(np.float64)))
            c.out = (r, ["?"] * (r.ndim - len(kept)) + kept, "byname", tolerance(r.dtype, mag))
        except ValueError:
            error = "incompatible_sizes"
    c.error = error
    for arr, names in ((a, a_names), (b, b_names)):
        if arr.ndim:
            arr, names, _ = permute_named(rng, arr, names)
        c.inputs.append((arr, names))
    return c


# ------------------------------------------------------------------------- matmul, tensordot

def gen_matmul(rng):
    ra, rb = rng.choice([1, 2, 2, 3, 4]), rng.choice([1, 2, 2, 3, 4])
    n, k, m = (rng.randint(0, 5) if rng.random() < 0.1 else rng.randint(1, 6) for _ in range(3))
    if rng.random() < 0.2:  # past the small-product loop (m*n*k > 512): the BLAS
        n, k, m = rng.randint(9, 24), rng.randint(9, 24), rng.randint(9, 24)
    batch = [rng.randint(1, 4) for _ in range(max(ra, rb) - 2)] if max(ra, rb) > 2 else []
    ba = [1 if rng.random() < 0.25 else s for s in batch[len(batch) - max(ra - 2, 0):]]
    bb = [1 if rng.random() < 0.25 else s for s in batch[len(batch) - max(rb - 2, 0):]]
    a_shape = [k] if ra == 1 else ba + [n, k]
    b_shape = [k] if rb == 1 else bb + [k, m]
    if rng.random() < 0.07:
        b_shape[0 if rb == 1 else -2] = k + 1  # inner sizes differ
    if ba and bb and rng.random() < 0.05:
        a_shape[len(ba) - 1] = bb[-1] + 1 if bb[-1] > 1 else 2
        b_shape[len(bb) - 1] = 3 if bb[-1] == 1 else bb[-1]
    dts = pick_dtypes(rng, 2)
    a, b = rand_array(rng, a_shape, dts[0]), rand_array(rng, b_shape, dts[1])
    c = Case("matmul", [])
    c.inputs = [(a, ["?"] * a.ndim), (b, ["?"] * b.ndim)]
    try:
        r = np.asarray(np.matmul(*promoted([a, b])))
        mag = np.matmul(np.abs(a.astype(np.float64)), np.abs(b.astype(np.float64)))
        c.out = (r, ["?"] * r.ndim, "exact", tolerance(r.dtype, mag))
    except ValueError:
        c.error = "incompatible_sizes"
    return c


def gen_tensordot(rng):
    ra, rb = rng.randint(0, 4), rng.randint(0, 4)
    a_shape = [rng.randint(0, 4) if rng.random() < 0.08 else rng.randint(1, 5) for _ in range(ra)]
    b_shape = [rng.randint(1, 5) for _ in range(rb)]
    dts = pick_dtypes(rng, 2)
    if rng.random() < 0.5:
        nmax = min(ra, rb)
        n = rng.randint(0, nmax)
        for i in range(n):
            b_shape[i] = a_shape[ra - n + i]
        if n and rng.random() < 0.07:
            b_shape[0] += 1
        a, b = rand_array(rng, a_shape, dts[0]), rand_array(rng, b_shape, dts[1])
        c = Case("tensordot_n", [n])
        axes = n
    else:
        k = rng.randint(0, min(ra, rb))
        aa = rng.sample(range(ra), k)
        bb = rng.sample(range(rb), k)
        for x, y in zip(aa, bb):
            b_shape[y] = a_shape[x]
        if k and rng.random() < 0.07:
            b_shape[bb[0]] += 1
        a, b = rand_array(rng, a_shape, dts[0]), rand_array(rng, b_shape, dts[1])
        toks_a = [x - ra if rng.random() < 0.3 else x for x in aa]
        c = Case("tensordot_axes", [k] + toks_a + bb)
        axes = (aa, bb)
    c.inputs = [(a, ["?"] * a.ndim), (b, ["?"] * b.ndim)]
    try:
        r = np.asarray(np.tensordot(*promoted([a, b]), axes))
        mag = np.tensordot(np.abs(a.astype(np.float64)), np.abs(b.astype(np.float64)), axes)
        c.out = (r, ["?"] * r.ndim, "exact", tolerance(r.dtype, mag))
    except ValueError:
        c.error = "incompatible_sizes"
    return c


def cases(args, rng, out):
    gens = [gen_einsum, gen_einsum, gen_einsum_unnamed, gen_dot, gen_dot, gen_matmul, gen_tensordot]
    with np.errstate(all="ignore"):
        for cid in range(args.count):
            gens[cid % len(gens)](rng).write(out, cid)


if __name__ == "__main__":
    oracle.run(cases, count=1000, header_line=True)
