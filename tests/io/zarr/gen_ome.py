#!/usr/bin/env python3
"""A hand-written OME-Zarr (NGFF 0.4) image for test_zarr's [ome] cases, and the
checker of what nt::zarr::write_ome writes.

usage: gen_ome.py --out FOLDER          writes FOLDER/image.ome.zarr and expected.json
       gen_ome.py --check FOLDER        checks FOLDER/written.ome.zarr (write_ome's output)

The image has axes t, c, z, y, x (time in seconds, space in micrometers), three
levels with a scale and a translation each, and a multiscale-level scale; its
metadata follows the specification's text (sections 3.3 and 3.4), written here with
zarr-python and json, not with any OME library. expected.json holds, per level, the
path, the composed scale and translation, the shape, and the sum of its elements.
The checker opens write_ome's image with zarr-python, applies NGFF 0.4's rules, and
recomputes each level from level 0 in NumPy (the mean of 2 per spatial axis, the
last odd element alone, truncated to the dtype as astype does).
"""
import argparse
import json
import os
import sys

import numpy as np
import zarr

# The shared oracle writer, tests/numpy/oracle.py.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "../../numpy"))
import oracle  # noqa: E402


def write(out):
    oracle.folder(out)
    rng = np.random.default_rng(5)
    root = zarr.open_group(os.path.join(out, "image.ome.zarr"), mode="w")
    base = rng.integers(0, 4000, (2, 3, 9, 20, 22)).astype(np.uint16)
    levels = [base, base[:, :, :, ::2, ::2], base[:, :, :, ::4, ::4]]
    datasets, expected = [], []
    for i, a in enumerate(levels):
        root.create_dataset(str(i), data=a, chunks=(1, 1, 9, 10, 11))
        scale = [1.5, 1.0, 2.0, 0.25 * 2 ** i, 0.25 * 2 ** i]
        shift = [0.0, 0.0, 0.0, 0.125 * (2 ** i - 1), 0.125 * (2 ** i - 1)]
        datasets.append({"path": str(i), "coordinateTransformations": [
            {"type": "scale", "scale": scale}, {"type": "translation", "translation": shift}]})
        # The multiscale's own scale (t doubled) applies after each level's.
        expected.append({"path": str(i), "scale": [scale[0] * 2] + scale[1:],
                         "translation": [shift[0] * 2] + shift[1:], "shape": list(a.shape),
                         "sum": int(a.astype(np.int64).sum())})
    root.attrs["multiscales"] = [{
        "version": "0.4",
        "name": "cells",
        "axes": [{"name": "t", "type": "time", "unit": "second"}, {"name": "c", "type": "channel"},
                 {"name": "z", "type": "space", "unit": "micrometer"},
                 {"name": "y", "type": "space", "unit": "micrometer"},
                 {"name": "x", "type": "space", "unit": "micrometer"}],
        "datasets": datasets,
        "coordinateTransformations": [{"type": "scale", "scale": [2.0, 1.0, 1.0, 1.0, 1.0]}],
        "type": "every 2nd pixel",
    }]
    with oracle.text_file(os.path.join(out, "expected.json")) as f:
        json.dump({"name": "cells", "axes": [["t", "time", "second"], ["c", "channel", ""],
                                             ["z", "space", "micrometer"], ["y", "space", "micrometer"],
                                             ["x", "space", "micrometer"]], "levels": expected}, f)
    print("wrote image.ome.zarr")


def rules(meta, group):
    """NGFF 0.4 section 3.4 and 3.3, as the checker reads them."""
    broken = []
    ms = meta.get("multiscales")
    if not isinstance(ms, list) or not ms:
        return ["multiscales must be a non-empty list"]
    m = ms[0]
    if m.get("version") != "0.4":
        broken.append("version")
    axes = m.get("axes", [])
    types = [a.get("type") for a in axes]
    if not 2 <= len(axes) <= 5:
        broken.append("2 to 5 axes")
    if types.count("space") not in (2, 3):
        broken.append("2 or 3 space axes")
    order = [0 if t == "time" else 2 if t == "space" else 1 for t in types]
    if order != sorted(order):
        broken.append("axes ordered time, channel, space")
    if len({a["name"] for a in axes}) != len(axes):
        broken.append("unique axis names")
    previous = None
    for d in m.get("datasets", []):
        tr = d.get("coordinateTransformations", [])
        kinds = [t["type"] for t in tr]
        if kinds.count("scale") != 1 or kinds[0] != "scale" or len(kinds) > 2:
            broken.append(f"dataset {d['path']}: one scale first, at most one translation")
        for t in tr:
            if len(t[t["type"]]) != len(axes):
                broken.append(f"dataset {d['path']}: one value per axis")
        shape = group[d["path"]].shape
        if len(shape) != len(axes):
            broken.append(f"dataset {d['path']}: rank")
        if previous is not None and any(s > p for s, p in zip(shape, previous)):
            broken.append("datasets from highest to lowest resolution")
        previous = shape
    return broken


def check(folder):
    path = os.path.join(folder, "written.ome.zarr")
    group = zarr.open_group(path, mode="r")
    meta = dict(group.attrs)
    failures = rules(meta, group)
    m = meta["multiscales"][0]
    spatial = [i for i, a in enumerate(m["axes"]) if a["type"] == "space"]
    level = group["0"][...]
    dtype = level.dtype
    for k, d in enumerate(m["datasets"]):
        got = group[d["path"]][...]
        if k > 0:
            nxt = level.astype(np.float64)
            for ax in spatial:
                n = nxt.shape[ax]
                if n == 1:
                    continue
                even = np.take(nxt, range(0, n, 2), axis=ax)
                odd = np.take(nxt, range(1, n, 2), axis=ax)
                if odd.shape[ax] < even.shape[ax]:
                    odd = np.concatenate([odd, np.take(even, [-1], axis=ax)], axis=ax)
                nxt = (even + odd) * 0.5
            level = nxt.astype(dtype)
            scale = d["coordinateTransformations"][0]["scale"]
            prev = m["datasets"][k - 1]["coordinateTransformations"][0]["scale"]
            for i in range(len(scale)):
                want = prev[i] * 2 if i in spatial and group[m["datasets"][k - 1]["path"]].shape[i] > 1 else prev[i]
                if scale[i] != want:
                    failures.append(f"level {k}: scale {scale}, expected {want} on axis {i}")
        if got.shape != level.shape or not np.array_equal(got, level):
            failures.append(f"level {k}: shape {got.shape}, expected {level.shape}, or other values than NumPy's pyramid")
        chunks = group[d["path"]].chunks
        last = k == len(m["datasets"]) - 1
        fits = all(got.shape[i] <= chunks[i] for i in spatial)
        if fits != last:
            failures.append(f"level {k}: fits one chunk = {fits}, but it is {'' if last else 'not '}the last level")
        dims = group[d["path"]].attrs.get("_ARRAY_DIMENSIONS")
        if dims != [a["name"] for a in m["axes"]]:
            failures.append(f"level {k}: _ARRAY_DIMENSIONS {dims}")
    if failures:
        print("\n".join(failures))
        sys.exit(1)
    print(f"write_ome's {len(m['datasets'])} levels follow NGFF 0.4 and NumPy's pyramid")


if __name__ == "__main__":
    p = argparse.ArgumentParser()
    p.add_argument("--out")
    p.add_argument("--check")
    args = p.parse_args()
    if args.out:
        write(args.out)
    if args.check:
        check(args.check)
