"""Element-wise functions, reductions, structure, contraction and indexing of the
Python module, against NumPy computing the same expression in the test."""
import numpy as np
import pytest
import torch

import ntensor as nt

RNG = np.random.default_rng(43)
X = RNG.random((3, 4, 5)) + 0.1
Y = RNG.random((3, 4, 5)) + 0.1

UNARY = {"abs": np.abs, "exp": np.exp, "log": np.log, "sqrt": np.sqrt, "sin": np.sin, "cos": np.cos,
         "tanh": np.tanh, "floor": np.floor, "ceil": np.ceil, "trunc": np.trunc, "sign": np.sign,
         "square": np.square, "reciprocal": np.reciprocal, "log1p": np.log1p, "expm1": np.expm1,
         "exp2": np.exp2, "log2": np.log2, "log10": np.log10, "isnan": np.isnan, "isfinite": np.isfinite,
         "neg": np.negative, "sigmoid": lambda a: 1 / (1 + np.exp(-a))}


@pytest.mark.parametrize("name", sorted(UNARY))
def test_unary_functions(name):
    got = getattr(nt, name)(nt.asarray(X - 0.5 if name in ("abs", "sign", "neg") else X))
    want = UNARY[name](X - 0.5 if name in ("abs", "sign", "neg") else X)
    np.testing.assert_allclose(np.asarray(got), want, rtol=1e-12)


BINARY = {"add": np.add, "subtract": np.subtract, "multiply": np.multiply, "divide": np.divide,
          "minimum": np.minimum, "maximum": np.maximum, "pow": np.power, "atan2": np.arctan2,
          "hypot": np.hypot, "floor_divide": np.floor_divide, "mod": np.mod, "less": np.less,
          "greater_equal": np.greater_equal, "equal": np.equal, "logical_and": np.logical_and}


@pytest.mark.parametrize("name", sorted(BINARY))
def test_binary_functions_broadcast_and_scalars(name):
    fn, ref = getattr(nt, name), BINARY[name]
    np.testing.assert_allclose(np.asarray(fn(nt.asarray(X), nt.asarray(Y[0, 0]))), ref(X, Y[0, 0]))
    np.testing.assert_allclose(np.asarray(fn(nt.asarray(X), 0.5)), ref(X, 0.5))
    np.testing.assert_allclose(np.asarray(fn(0.5, nt.asarray(X))), ref(0.5, X))


def test_operators_and_in_place():
    a, b = nt.asarray(X.copy()), nt.asarray(Y)
    for got, want in [(a // b, X // Y), (a % b, X % Y), (a ** 2, X ** 2), (2 - a, 2 - X), (abs(-a), X),
                      (a @ b.transpose(), np.matmul(X, np.swapaxes(Y, -1, -2)))]:
        np.testing.assert_allclose(np.asarray(got), want)
    i = nt.asarray(np.arange(12, dtype=np.int32))
    np.testing.assert_array_equal(np.asarray((i & 6) | (i << 1) ^ ~i), (np.arange(12) & 6) | (np.arange(12) << 1) ^ ~np.arange(12))
    before = np.asarray(a)
    a += b
    a *= 2
    np.testing.assert_allclose(before, (X + Y) * 2)   # in place: the same memory


def test_named_operands_match_by_name():
    p = RNG.random((2, 3, 4))
    q = RNG.random((4, 2))
    got = nt.asarray(p, names=("N", "C", "W")) * nt.asarray(q, names=("W", "N"))
    assert got.names == ("N", "C", "W")
    np.testing.assert_allclose(np.asarray(got), p * q.T[:, None, :])


def test_where_clip_nan_to_num_masked_select():
    t = nt.asarray(X)
    np.testing.assert_array_equal(np.asarray(nt.where(t > 0.5, t, 0.0)), np.where(X > 0.5, X, 0.0))
    np.testing.assert_array_equal(np.asarray(nt.where(t > 0.5, 1.0, nt.asarray(Y))), np.where(X > 0.5, 1.0, Y))
    np.testing.assert_array_equal(np.asarray(nt.clip(t, 0.3, 0.7)), np.clip(X, 0.3, 0.7))
    np.testing.assert_array_equal(np.asarray(nt.clip(t, nt.asarray(Y), 0.9)), np.clip(X, Y, 0.9))
    z = np.array([np.nan, np.inf, -np.inf, 1.0])
    np.testing.assert_array_equal(np.asarray(nt.nan_to_num(nt.asarray(z), nan=2.0, posinf=9.0)),
                                  np.nan_to_num(z, nan=2.0, posinf=9.0))
    np.testing.assert_array_equal(np.asarray(nt.masked_select(t, t > 0.5)), X[X > 0.5])


REDUCE = {"sum": np.sum, "mean": np.mean, "min": np.min, "max": np.max, "prod": np.prod,
          "argmax": np.argmax, "argmin": np.argmin, "any": np.any, "all": np.all,
          "median": np.median, "nansum": np.nansum, "count_nonzero": np.count_nonzero}


@pytest.mark.parametrize("name", sorted(REDUCE))
def test_reductions_by_name(name):
    t = nt.asarray(X > 0.5 if name in ("any", "all") else X, names=("D", "H", "W"))
    src = np.asarray(t)
    got = getattr(nt, name)(t, "H")
    assert got.names == ("D", "W")
    np.testing.assert_allclose(np.asarray(got), REDUCE[name](src, axis=1))
    if name not in ("argmax", "argmin"):
        kept = getattr(nt, name)(t, ("D", "W"), keepdims=True)
        assert kept.shape == (1, 4, 1)
        np.testing.assert_allclose(np.asarray(kept).ravel(), REDUCE[name](src, axis=(0, 2)).ravel())
    np.testing.assert_allclose(float(np.asarray(getattr(nt, name)(t))), REDUCE[name](src))


def test_statistics():
    t = nt.asarray(X, names=("D", "H", "W"))
    np.testing.assert_allclose(np.asarray(nt.var(t, "W", ddof=1)), np.var(X, axis=2, ddof=1))
    np.testing.assert_allclose(np.asarray(nt.stddev(t, ("D", "H"))), np.std(X, axis=(0, 1)))
    np.testing.assert_allclose(np.asarray(nt.quantile(t, 0.3, "H")), np.quantile(X, 0.3, axis=1))
    np.testing.assert_allclose(np.asarray(nt.percentile(t, 70)), np.percentile(X, 70))
    np.testing.assert_allclose(np.asarray(nt.cumsum(t, "W")), np.cumsum(X, axis=2))
    np.testing.assert_allclose(np.asarray(nt.cumprod(t, 0)), np.cumprod(X, axis=0))
    np.testing.assert_allclose(np.asarray(t.sum("D")), X.sum(0))
    np.testing.assert_allclose(np.asarray(nt.max(t, nt.asarray(Y, names=("D", "H", "W")))), np.maximum(X, Y))


def test_structure_views():
    t = nt.asarray(X, names=("D", "H", "W"))
    assert t.align_to("W", "D", "H").shape == (5, 3, 4)
    np.testing.assert_array_equal(np.asarray(t.align_to("W", "D", "H")), X.transpose(2, 0, 1))
    np.testing.assert_array_equal(np.asarray(t.permute(2, 0, 1)), X.transpose(2, 0, 1))
    assert t.rename("A", "B", "C").names == ("A", "B", "C")
    assert t.rename(H="Y").names == ("D", "Y", "W")
    np.testing.assert_array_equal(np.asarray(t.transpose("D", "W")), X.swapaxes(0, 2))
    np.testing.assert_array_equal(np.asarray(t.reshape((12, 5))), X.reshape(12, 5))
    np.testing.assert_array_equal(np.asarray(t.flatten("D", "H", name="DH")), X.reshape(12, 5))
    np.testing.assert_array_equal(np.asarray(t.flip("W")), X[:, :, ::-1])
    np.testing.assert_array_equal(np.asarray(t.slice("H", 1, None, 2)), X[:, 1::2])
    np.testing.assert_array_equal(np.asarray(t.unsqueeze(0, "N")), X[None])
    assert t.unsqueeze(0, "N").squeeze("N").names == t.names
    np.testing.assert_array_equal(np.asarray(t.unfold("W", 3, 2)), np.lib.stride_tricks.sliding_window_view(X, 3, axis=2)[:, :, ::2])


def test_structure_new_tensors():
    t, u = nt.asarray(X, names=("D", "H", "W")), nt.asarray(Y, names=("D", "H", "W"))
    np.testing.assert_array_equal(np.asarray(nt.concatenate([t, u], "H")), np.concatenate([X, Y], axis=1))
    s = nt.stack([t, u], 1, name="S")
    assert s.names == ("D", "S", "H", "W")
    np.testing.assert_array_equal(np.asarray(s), np.stack([X, Y], 1))
    for got, want in zip(nt.split(t, "W", [1, 3]), np.split(X, [1, 3], axis=2)):
        np.testing.assert_array_equal(np.asarray(got), want)
    for mode in ("constant", "edge", "reflect", "symmetric", "wrap"):
        kw = {"constant_values": 7} if mode == "constant" else {}
        got = nt.pad(t, {"H": (1, 2), "W": 3}, mode=mode, **({"value": 7} if mode == "constant" else {}))
        np.testing.assert_array_equal(np.asarray(got), np.pad(X, ((0, 0), (1, 2), (3, 3)), mode=mode, **kw))
    np.testing.assert_array_equal(np.asarray(nt.roll(t, 2, "W")), np.roll(X, 2, axis=2))
    np.testing.assert_array_equal(np.asarray(nt.roll(t, -3)), np.roll(X, -3))
    np.testing.assert_array_equal(np.asarray(nt.repeat(t, 2, "D")), np.repeat(X, 2, axis=0))
    np.testing.assert_array_equal(np.asarray(nt.tile(t, (1, 2, 1))), np.tile(X, (1, 2, 1)))


def test_contraction():
    a, b = RNG.random((2, 3, 4)), RNG.random((4, 5))
    np.testing.assert_allclose(np.asarray(nt.matmul(a, b)), a @ b)
    np.testing.assert_allclose(np.asarray(nt.tensordot(a, b, 1)), np.tensordot(a, b, 1))
    np.testing.assert_allclose(np.asarray(nt.tensordot(a, RNG.random(3), ((1,), (0,)))) * 0 + 1, 1)
    x, w = nt.asarray(a, names=("N", "C", "K")), nt.asarray(b, names=("K", "O"))
    got = nt.einsum("N C K, K O -> N O C", x, w)
    assert got.names == ("N", "O", "C")
    np.testing.assert_allclose(np.asarray(got), np.einsum("nck,ko->noc", a, b))
    np.testing.assert_allclose(np.asarray(nt.dot(x, w, "K")), np.einsum("nck,ko->nco", a, b))


@pytest.mark.parametrize("key", [(1,), (slice(None), 2), (Ellipsis, 1), (slice(None, None, -1),),
                                 (slice(3, 0, -2), Ellipsis), (-1, slice(1, None), slice(None, None, -2)),
                                 (0, Ellipsis, slice(1, 4))])
def test_basic_indexing(key):
    t = nt.asarray(X, names=("D", "H", "W"))
    np.testing.assert_array_equal(np.asarray(t[key]), X[key])


def test_spec_repr_numpy():
    t = nt.asarray(np.zeros((2, 3), np.float32), names=("?", "C"))
    assert t.spec == "(2,3 | ?,C)" or "C" in t.spec
    assert "C" in repr(t) and "names=" in repr(t)
    assert np.shares_memory(t.numpy(), np.asarray(t))


def test_errors_name_the_problem():
    t = nt.asarray(X, names=("D", "H", "W"))
    with pytest.raises(nt.Error) as e:
        nt.sum(t, "Q")
    assert e.value.code and "Q" in str(e.value)
    with pytest.raises(nt.Error):
        t[..., ...]
    with pytest.raises(nt.Error):
        nt.pad(t, {"H": 1}, mode="mirror")


def test_sorting_and_segmentation_helpers():
    a = RNG.integers(0, 5, (4, 6))
    t = nt.asarray(a, names=("H", "W"))
    np.testing.assert_array_equal(np.asarray(nt.sort(t, "W")), np.sort(a, axis=1))
    np.testing.assert_array_equal(np.asarray(nt.sort(nt.asarray(X), 0)), np.sort(X, axis=0))
    np.testing.assert_array_equal(np.asarray(nt.argsort(nt.asarray(X[0]), -1)), np.argsort(X[0], axis=-1, kind="stable"))
    values, indices = nt.topk(nt.asarray(X[0]), 2)
    want = torch.topk(torch.tensor(X[0]), 2)
    np.testing.assert_array_equal(np.asarray(values), want.values.numpy())
    np.testing.assert_array_equal(np.asarray(indices), want.indices.numpy())
    u, c = nt.unique_counts(t)
    wu, wc = np.unique(a, return_counts=True)
    np.testing.assert_array_equal(np.asarray(u), wu)
    np.testing.assert_array_equal(np.asarray(c), wc)
    oh = nt.one_hot(t, 5, 0, name="CLASS", dtype="uint8")
    assert oh.names == ("CLASS", "H", "W") and oh.dtype == np.uint8
    np.testing.assert_array_equal(np.asarray(oh), np.moveaxis(np.eye(5, dtype=np.uint8)[a], -1, 0))
    np.testing.assert_array_equal(np.asarray(nt.bincount(a.ravel(), minlength=7)), np.bincount(a.ravel(), minlength=7))
    counts, edges = nt.histogram(X, 4, 0.0, 1.2)
    wcounts, wedges = np.histogram(X, 4, range=(0.0, 1.2))
    np.testing.assert_array_equal(np.asarray(counts), wcounts)
    np.testing.assert_allclose(np.asarray(edges), wedges)


def test_rearrange_and_item():
    x = RNG.random((2, 3, 4, 6))
    t = nt.asarray(x, names=("N", "C", "H", "W"))
    got = nt.rearrange(t, "N C H (W w) -> N (C w) H W", w=2)
    want = x.reshape(2, 3, 4, 3, 2).transpose(0, 1, 4, 2, 3).reshape(2, 6, 4, 3)
    np.testing.assert_array_equal(np.asarray(got), want)
    assert float(nt.sum(t)) == pytest.approx(x.sum())
    assert nt.max(t).item() == x.max()
    with pytest.raises(nt.Error):
        t.item()


@pytest.mark.parametrize("op", ["sum", "mean", "max", "min"])
def test_einops_reduce_matches_numpy(op):
    x = RNG.random((2, 3, 4, 6))
    t = nt.asarray(x, names=("N", "C", "H", "W"))
    got = nt.reduce(t, "N C (H h) (W 2) -> N C H W", op, h=2)
    want = getattr(x.reshape(2, 3, 2, 2, 3, 2), op)(axis=(3, 5))
    assert got.names == ("N", "C", "H", "W")
    np.testing.assert_allclose(np.asarray(got), want, rtol=1e-12)
    # Integers reduce into nt::mean's type (double), as in C++.
    i = nt.asarray(np.arange(24, dtype=np.int16).reshape(4, 6), names=("H", "W"))
    got_int = nt.reduce(i, "H (W 3) -> H W", op)
    assert np.asarray(got_int).dtype == np.float64
    np.testing.assert_allclose(np.asarray(got_int),
                               getattr(np.arange(24).reshape(4, 2, 3), op)(axis=2).astype(np.float64))


def test_einops_repeat_and_numpy_repeat():
    x = RNG.random((4, 5))
    t = nt.asarray(x, names=("H", "W"))
    got = nt.repeat(t, "H W -> H W C", C=3)
    np.testing.assert_array_equal(np.asarray(got), np.repeat(x[:, :, None], 3, axis=2))
    assert got.names == ("H", "W", "C")
    np.testing.assert_array_equal(np.asarray(nt.repeat(t, 2, "W")), np.repeat(x, 2, axis=1))
    with pytest.raises(nt.Error):
        nt.reduce(t, "H W -> H", "median")
    with pytest.raises(nt.Error):
        nt.reduce(t, "H W -> H Q")
