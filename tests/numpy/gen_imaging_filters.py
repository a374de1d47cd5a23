#!/usr/bin/env python3
"""Oracle for nt/filters.hpp: scipy.ndimage 1.10's gaussian_filter, uniform_filter,
median_filter, minimum_filter, maximum_filter, sobel and gaussian_gradient_magnitude
on random named inputs of every dtype scipy accepts, every boundary mode, 1 to 3
spatial axes given in a random order, 0 to 2 batch axes, sizes smaller than the
kernels, even sizes and origins.

scipy treats every axis as spatial; ntensor filters each batch slice on its own, so
the expected result is scipy's on each slice (x[batch index], its spatial axes in the
array's order, the per-axis parameters permuted to that order).

Writes, per case:
  case <id> <fn> mode=<mode> cval=<c> axes=<A,B> <key>=<v,v,...> ...
  input <dtype> <rank> <sizes> <names> values ...
  out <dtype> <rank> <sizes> <names> values ...
"""
import math
import warnings

import numpy as np
import scipy.ndimage as ndi
import scipy.ndimage._filters as ndi_filters

import oracle

MODES = ["reflect", "constant", "nearest", "mirror", "wrap"]
DTYPES = ["b8", "i8", "u8", "i16", "u16", "i32", "u32", "i64", "u64", "f32", "f64"]
NAMES = ["N", "C", "D", "H", "W"]
FUNCTIONS = ["gaussian_filter", "uniform_filter", "median_filter", "minimum_filter", "maximum_filter", "sobel",
             "gaussian_gradient_magnitude"]


SCIPY_KERNEL = ndi_filters._gaussian_kernel1d


def libm_kernel(sigma, order, radius):
    """scipy's Gaussian kernel with the exponential of the C library (ntensor's std::exp)
    in place of NumPy's, which differs in the last bit of a few taps on AVX-512
    machines: integer images truncate results that are whole in exact arithmetic (a
    constant line), and that bit decides which side of the integer they fall on. The
    rest (the normalisation by np.sum, the derivative polynomial) is scipy's."""
    x = np.arange(-radius, radius + 1)
    phi = np.array([math.exp(-0.5 / (sigma * sigma) * float(v * v)) for v in x])
    phi = phi / phi.sum()
    if order == 0:
        return phi
    # The derivative: phi times the polynomial q, q' + q p' applied `order` times.
    powers = np.arange(order + 1)
    step = np.diag(powers[1:], 1) + np.diag(np.ones(order) / -(sigma * sigma), -1)
    q = np.zeros(order + 1)
    q[0] = 1
    for _ in range(order):
        q = step.dot(q)
    return (x[:, None] ** powers).dot(q) * phi


def random_values(gen, dtype, shape):
    dt = np.dtype(oracle.NUMPY_NAMES[dtype])
    if dt.kind == "b":
        return gen.integers(0, 2, shape).astype(bool)
    if dt.kind in "iu":
        info = np.iinfo(dt)
        # The 32- and 64-bit types stay within +-1e6: past it scipy's conversions of
        # an overflowing result differ by platform.
        lo, hi = (max(info.min, -10**6), min(info.max, 10**6)) if dt.itemsize >= 4 else (info.min, info.max)
        return gen.integers(lo, hi, shape, dtype=dt, endpoint=True)
    return (gen.standard_normal(shape) * 10).astype(dt)


def per_slice(x, spatial, fn):
    """fn on each slice of x over the batch axes (those not in `spatial`)."""
    batch = [a for a in range(x.ndim) if a not in spatial]
    out = np.empty_like(x)
    for index in np.ndindex(*[x.shape[a] for a in batch]):
        sel = [slice(None)] * x.ndim
        for a, i in zip(batch, index):
            sel[a] = i
        out[tuple(sel)] = fn(x[tuple(sel)])
    return out


def lst(values):
    return ",".join(str(v) for v in values)


def cases(args, rng, out):
    gen = np.random.default_rng(args.seed)
    written = 0
    for cid in range(args.count):
        fn = FUNCTIONS[cid % len(FUNCTIONS)]
        dtype = DTYPES[(cid // len(FUNCTIONS)) % len(DTYPES)]
        mode = MODES[rng.randrange(len(MODES))]
        cval = rng.choice([0.0, 1.5, -2.25]) if mode == "constant" else 0.0
        n_spatial = rng.randint(1, 3)
        n_batch = rng.randint(0, 2)
        rank = n_spatial + n_batch
        names = rng.sample(NAMES, rank)
        names.sort(key=NAMES.index)
        limit = 9 if n_spatial < 3 else 6
        shape = [rng.randint(1, limit) for _ in range(rank)]
        spatial_pos = sorted(rng.sample(range(rank), n_spatial))
        given = spatial_pos[:]
        rng.shuffle(given)  # the order the call lists the axes in
        axes = [names[a] for a in given]
        x = random_values(gen, dtype, shape)

        def to_array_order(values):
            by_pos = dict(zip(given, values))
            return [by_pos[a] for a in spatial_pos]

        fields = [f"mode={mode}", f"cval={cval!r}", f"axes={lst(axes)}"]
        if fn in ("gaussian_filter", "gaussian_gradient_magnitude"):
            sigma = [rng.choice([0.0, 0.5, 1.0, 1.7, 3.0]) for _ in axes]
            if rng.random() < 0.3:
                sigma = [sigma[0]] * len(axes)
            truncate = rng.choice([4.0, 2.0, 1.3])
            # Derivatives on float images only: on integer ones the negative half wraps
            # to ~1e19, where the last bit of the order-2 kernel (NumPy's dot through
            # the BLAS) shows.
            order = [rng.choice([0, 0, 1, 2]) for _ in axes] if fn == "gaussian_filter" and rng.random() < 0.3 else []
            if np.dtype(oracle.NUMPY_NAMES[dtype]).kind in "biu":
                order = []
            fields += [f"sigma={lst(sigma)}", f"truncate={truncate!r}"]
            if order:
                fields.append(f"order={lst(order)}")
            s_arr, o_arr = to_array_order(sigma), to_array_order(order) if order else 0
            if fn == "gaussian_filter":
                f = lambda a: ndi.gaussian_filter(a, s_arr, order=o_arr, mode=mode, cval=cval, truncate=truncate)
            else:
                f = lambda a: ndi.gaussian_gradient_magnitude(a, s_arr, mode=mode, cval=cval, truncate=truncate)
        elif fn == "sobel":
            axis = rng.choice(axes)
            fields.append(f"axis={axis}")
            sub_axis = spatial_pos.index(names.index(axis))
            f = lambda a: ndi.sobel(a, axis=sub_axis, mode=mode, cval=cval)
        else:
            size = [rng.randint(1, 5) for _ in axes]
            origin = [rng.randint(-(s // 2), (s - 1) // 2) for s in size] if rng.random() < 0.3 else []
            fields.append(f"size={lst(size)}")
            if origin:
                fields.append(f"origin={lst(origin)}")
            z_arr, g_arr = to_array_order(size), to_array_order(origin) if origin else 0
            scipy_fn = getattr(ndi, fn)
            f = lambda a: scipy_fn(a, size=z_arr, mode=mode, cval=cval, origin=g_arr)
        # Float images compare with a tolerance: scipy's own kernel. Integer ones
        # compare exactly: the kernel with the C library's exponential.
        integer = np.dtype(oracle.NUMPY_NAMES[dtype]).kind in "biu"
        ndi_filters._gaussian_kernel1d = libm_kernel if integer else SCIPY_KERNEL
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # numpy's overflow warnings: the wrap is the expected value
            expected = per_slice(x, spatial_pos, f)
        out.write(f"case {cid} {fn} " + " ".join(fields) + "\n")
        shape_names = oracle.shape_text(shape) + " " + oracle.names_text(names, rank)
        out.write(f"input {dtype} {shape_names} values {oracle.values_text(x)}\n")
        out.write(f"out {dtype} {shape_names} values {oracle.values_text(expected)}\n")
        written += 1
    return f"{written} filter cases -> {args.out}"


if __name__ == "__main__":
    oracle.run(cases, count=770, header_line=True)
