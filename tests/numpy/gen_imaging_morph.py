#!/usr/bin/env python3
"""Oracle for the mask and object operations (include/nt/morphology.hpp) from
scipy.ndimage 1.10: binary_erosion / dilation / opening / closing / fill_holes with
generate_binary_structure(len(axes), connectivity), label, distance_transform_edt,
center_of_mass, find_objects and sum / mean / minimum / maximum per label.

Random masks of several densities (empty and full included), 1-D to 3-D, odd and tiny
sizes, every connectivity, masks of every element type (scipy computes float16 masks
as their bool, nonzero, which is the rule nt applies to every type); some cases carry batch axes (before, between or after the spatial ones) and
name the spatial axes in another order than stored. A batch case's expected result is
scipy's on each slice (label: scipy.ndimage.label with a structure of size 1 along the
batch axes, whose raster numbering is nt::label's rule).

Each case is lines:
  case <op> <connectivity> <iterations> <count of spacings> <spacings> <count of axes> <axes>
  x <operand: dtype rank sizes names values ...>
  [lab <operand>]                     (the labels of center_of_mass / objects / stats)
  [count <n>]                         (label's count)
  want <operand>                      (the expected tensor)
objects: want is int64 (n, 1 + 2 * len(axes)): present, begins, ends (axes order given).
stats: want is float64 (n, 5): count, sum, mean, min, max.
"""
import numpy as np
import scipy.ndimage as ndi

import oracle

MASK_TYPES = ["b8", "u8", "i16", "u16", "f32", "f64", "i8", "i32", "i64", "u32", "u64", "f16"]
NAMES = ["D", "H", "W"]
BATCH_NAMES = ["N", "C"]


def operand(prefix, a, dtype, names):
    a = np.asarray(a)
    return f"{prefix} {dtype} {oracle.shape_text(a.shape)} {oracle.names_text(names, a.ndim)} values " \
           f"{oracle.values_text(a)}\n"


def random_mask(nrng, shape, density, dtype):
    m = nrng.random(shape) < density
    if dtype == "b8":
        return m
    # nonzero values of the type (not just 1) to check that any nonzero is true
    vals = nrng.integers(1, 5, shape)
    if dtype in ("f16", "f32", "f64"):
        vals = vals * 0.25
    return np.where(m, vals, 0).astype(oracle.NUMPY_NAMES[dtype])


def layout(rng, r_sp):
    """Stored names, spatial axes as the call gives them, batch positions."""
    sp = NAMES[3 - r_sp:]
    nb = rng.choice([0, 0, 0, 1, 2])
    names = list(sp)
    for b in BATCH_NAMES[:nb]:
        names.insert(rng.randint(0, len(names)), b)
    given = list(sp)
    if rng.random() < 0.4:
        rng.shuffle(given)
    return names, given


def per_slice(f, a, names, sp_sorted):
    """f applied to each slice over the batch axes (axes not in sp_sorted)."""
    batch = [i for i, n in enumerate(names) if n not in sp_sorted]
    spatial = [i for i, n in enumerate(names) if n in sp_sorted]
    moved = np.transpose(a, batch + spatial)
    out = None
    for idx in np.ndindex(*moved.shape[:len(batch)]):
        r = np.asarray(f(moved[idx]))
        if out is None:
            out = np.empty(moved.shape[:len(batch)] + r.shape, r.dtype)
        out[idx] = r
    if out is None:
        out = np.zeros(moved.shape, bool)
    return np.transpose(out, np.argsort(batch + spatial))


def morph_case(rng, nrng, out, op, r_sp):
    names, given = layout(rng, r_sp)
    sizes = {n: rng.choice([1, 2, 3, 4, 5, 7, 9, 12]) for n in NAMES}
    sizes.update({b: rng.choice([1, 2, 3]) for b in BATCH_NAMES})
    shape = tuple(sizes[n] for n in names)
    dtype = rng.choice(MASK_TYPES)
    density = rng.choice([0.0, 0.2, 0.5, 0.7, 0.9, 1.0])
    conn = rng.randint(1, r_sp)
    iters = rng.choice([1, 1, 2, 3, 0, -1]) if op != "fill" else 1
    mask = random_mask(nrng, shape, density, dtype)
    m = mask != 0 if dtype == "f16" else mask
    sp_sorted = [n for n in names if n in given]
    structure = ndi.generate_binary_structure(r_sp, conn)
    fn = {"erosion": ndi.binary_erosion, "dilation": ndi.binary_dilation,
          "opening": ndi.binary_opening, "closing": ndi.binary_closing}
    if op == "fill":
        want = per_slice(lambda s: ndi.binary_fill_holes(s, structure), m, names, sp_sorted)
    else:
        want = per_slice(lambda s: fn[op](s, structure, iterations=iters), m, names, sp_sorted)
    out.write(f"case {op} {conn} {iters} 0 {len(given)} {' '.join(given)}\n")
    out.write(operand("x", mask, dtype, names))
    out.write(operand("want", want.astype(bool), "b8", names))


def label_case(rng, nrng, out, r_sp):
    names, given = layout(rng, r_sp)
    sizes = {n: rng.choice([1, 2, 3, 5, 8, 11, 16]) for n in NAMES}
    sizes.update({b: rng.choice([1, 2, 3]) for b in BATCH_NAMES})
    shape = tuple(sizes[n] for n in names)
    dtype = rng.choice(MASK_TYPES)
    density = rng.choice([0.0, 0.3, 0.45, 0.55, 0.7, 1.0])
    conn = rng.randint(1, r_sp)
    mask = random_mask(nrng, shape, density, dtype)
    s = ndi.generate_binary_structure(r_sp, conn)
    # nothing but the centre along the batch axes: slices never connect
    full = np.zeros([3] * len(names), bool)
    full[tuple(slice(None) if n in given else 1 for n in names)] = s
    s = full
    labels, count = ndi.label(mask != 0 if dtype == "f16" else mask, s)
    out.write(f"case label {conn} 1 0 {len(given)} {' '.join(given)}\n")
    out.write(operand("x", mask, dtype, names))
    out.write(f"count {count}\n")
    out.write(operand("want", labels.astype(np.int32), "i32", names))


def edt_case(rng, nrng, out, r_sp):
    names, given = layout(rng, r_sp)
    sizes = {n: rng.choice([1, 2, 3, 5, 8, 13, 20]) for n in NAMES}
    sizes.update({b: rng.choice([1, 2, 3]) for b in BATCH_NAMES})
    shape = tuple(sizes[n] for n in names)
    dtype = rng.choice(MASK_TYPES)
    density = rng.choice([0.0, 0.5, 0.8, 0.95, 0.99, 1.0])
    mask = random_mask(nrng, shape, density, dtype)
    kind = rng.choice(["none", "one", "each"])
    spacing = [] if kind == "none" else [round(rng.uniform(0.3, 3.0), 3)] if kind == "one" else \
        [round(rng.uniform(0.3, 3.0), 3) for _ in given]
    sp_sorted = [n for n in names if n in given]
    if kind == "each":
        sampling = [spacing[given.index(n)] for n in sp_sorted]
    elif kind == "one":
        sampling = spacing[0]
    else:
        sampling = None
    want = per_slice(lambda s: ndi.distance_transform_edt(s, sampling=sampling), mask != 0 if dtype == "f16" else mask, names, sp_sorted)
    out.write(f"case edt 1 1 {len(spacing)} {' '.join(map(str, spacing))} {len(given)} {' '.join(given)}\n")
    out.write(operand("x", mask, dtype, names))
    out.write(operand("want", want.astype(np.float64), "f64", names))


def measure_case(rng, nrng, out, op, r_sp):
    names, given = layout(rng, r_sp)
    sizes = {n: rng.choice([1, 3, 5, 8, 11]) for n in NAMES}
    sizes.update({b: rng.choice([1, 2, 3]) for b in BATCH_NAMES})
    shape = tuple(sizes[n] for n in names)
    labels, n = ndi.label(nrng.random(shape) < rng.choice([0.0, 0.3, 0.6]))
    if n > 2 and rng.random() < 0.5:
        labels[labels == 2] = 0  # a missing label in the middle
    label_type = rng.choice(["i32", "i64", "u8", "i16", "u16"]) if n < 250 else "i32"
    vtype = rng.choice(["f64", "f32", "f16", "u8", "i8", "i16", "u16", "i32", "u32", "i64", "u64", "b8"])
    if vtype in ("f64", "f32", "f16"):
        values = nrng.standard_normal(shape).astype(oracle.NUMPY_NAMES[vtype])
        if op == "com":
            values = np.abs(values) + 0.5  # centroids of weights bounded away from 0
    else:
        signed = vtype in ("i8", "i16", "i32", "i64") and op != "com"
        values = nrng.integers(-50 if signed else 0, 2 if vtype == "b8" else 100, shape)
        if op == "com":
            values = values + 1  # positive weights (bool: all ones)
        values = values.astype(oracle.NUMPY_NAMES[vtype])
    n = int(labels.max())
    index = list(range(1, n + 1))
    axis_of = [names.index(g) for g in given]
    if op == "com":
        com = ndi.center_of_mass(values.astype(np.float64), labels, index) if n else []
        want = np.array([[c[a] for a in axis_of] for c in com], np.float64).reshape(n, len(given))
        wtype = "f64"
    elif op == "objects":
        objs = ndi.find_objects(labels, max_label=n)
        rows = []
        for o in objs:
            if o is None:
                rows.append([0] + [0] * (2 * len(given)))
            else:
                rows.append([1] + [o[a].start for a in axis_of] + [o[a].stop for a in axis_of])
        want = np.array(rows, np.int64).reshape(n, 1 + 2 * len(given))
        wtype = "i64"
    else:
        v = values.astype(np.float64)
        cols = [ndi.sum(np.ones_like(v), labels, index), ndi.sum(v, labels, index), ndi.mean(v, labels, index),
                ndi.minimum(v, labels, index), ndi.maximum(v, labels, index)] if n else [[]] * 5
        want = np.array(cols, np.float64).reshape(5, n).T
        wtype = "f64"
        check_regionprops(labels, v, want)
    out.write(f"case {op} 1 1 0 {len(given)} {' '.join(given)}\n")
    out.write(operand("x", values, vtype, names))
    out.write(operand("lab", labels.astype(oracle.NUMPY_NAMES[label_type]), label_type, names))
    out.write(operand("want", want, wtype, []))


def blob_cases(rng, nrng, out):
    """Realistic masks: smoothed noise thresholded, objects of many elements with
    holes and bays (the label scan's runs, fill_holes, morphology, long EDT lines)."""
    shape = (rng.randint(4, 9), rng.randint(15, 31), rng.randint(15, 31))
    v = ndi.uniform_filter(nrng.random(shape), size=rng.choice([3, 5]), mode="nearest")
    mask = (v > np.quantile(v, rng.uniform(0.3, 0.7))).astype(np.uint8)
    names, given = list(NAMES), list(NAMES)
    conn = rng.randint(1, 3)
    s = ndi.generate_binary_structure(3, conn)
    labels, count = ndi.label(mask, s)
    out.write(f"case label {conn} 1 0 3 {' '.join(given)}\n")
    out.write(operand("x", mask, "u8", names))
    out.write(f"count {count}\n")
    out.write(operand("want", labels.astype(np.int32), "i32", names))
    out.write(f"case fill {conn} 1 0 3 {' '.join(given)}\n")
    out.write(operand("x", mask, "u8", names))
    out.write(operand("want", ndi.binary_fill_holes(mask, s), "b8", names))
    iters = rng.choice([1, 2, 3])
    for op, fn in (("erosion", ndi.binary_erosion), ("closing", ndi.binary_closing)):
        out.write(f"case {op} {conn} {iters} 0 3 {' '.join(given)}\n")
        out.write(operand("x", mask, "u8", names))
        out.write(operand("want", fn(mask, s, iterations=iters), "b8", names))
    out.write(f"case edt 1 1 3 2.5 0.7 0.9 3 {' '.join(given)}\n")
    out.write(operand("x", mask, "u8", names))
    out.write(operand("want", ndi.distance_transform_edt(mask, sampling=[2.5, 0.7, 0.9]), "f64", names))


def check_regionprops(labels, v, want):
    """skimage.measure.regionprops agrees with scipy on the labels present (a second
    anchor for region_stats; skimage lists only the labels that occur)."""
    import skimage.measure
    if labels.ndim not in (2, 3) or labels.max() == 0:
        return
    for p in skimage.measure.regionprops(labels, intensity_image=v):
        row = want[p.label - 1]
        assert p.area == row[0], (p.label, p.area, row)
        assert np.isclose(p.intensity_mean, row[2]), (p.label, p.intensity_mean, row)
        assert p.intensity_min == row[3] and p.intensity_max == row[4], (p.label, row)


def cases(args, rng, out):
    import warnings
    warnings.simplefilter("ignore")
    nrng = np.random.default_rng(args.seed)
    written = 0
    for _ in range(args.count):
        for r_sp in (1, 2, 3):
            for op in ("erosion", "dilation", "opening", "closing", "fill"):
                morph_case(rng, nrng, out, op, r_sp)
            label_case(rng, nrng, out, r_sp)
            edt_case(rng, nrng, out, r_sp)
            for op in ("com", "objects", "stats"):
                measure_case(rng, nrng, out, op, r_sp)
            written += 10
        blob_cases(rng, nrng, out)
        written += 5
    return f"{written} morphology cases -> {args.out}"


if __name__ == "__main__":
    oracle.run(cases, count=30, header_line=True)
