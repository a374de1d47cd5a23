#!/usr/bin/env python3
"""zarr-python, xarray and Dask read the stores test_zarr's [numpy] cases wrote.

usage: check_zarr.py FOLDER      (FOLDER/written from "ntensor writes stores ...")

- zarr-python opens every array of written/all.zarr: dtype, order, separator, fill
  value (numbers, NaN, +-Infinity, null), chunks, the compressor's numcodecs
  config, and the elements against the raw bytes ntensor's test made in memory;
- xarray opens written/all.zarr as a dataset: dims (Z, dim_1, X) per variable;
- a (H,W) tile written by name at Z=2 of a (Z,H,W) array: NumPy's view of it;
- Dask on a distributed LocalCluster of 2 workers: xr.open_zarr(p).mean("Z") of
  ntensor's store equals ntensor's nt::mean saved as .npy.
"""
import os
import sys

import numpy as np
import xarray as xr
import zarr

# The element types' table of tests/numpy/oracle.py.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "../../numpy"))
import oracle  # noqa: E402

NUMPY = oracle.NUMPY_NAMES

folder = os.path.join(sys.argv[1], "written")
failures = []
ds = xr.open_zarr(os.path.join(folder, "all.zarr"), consolidated=False, mask_and_scale=False)
count = 0
for line in open(os.path.join(folder, "manifest.txt")):
    sid, dtype, order, sep, fill, cid, cname, level, shuffle, *chunks = line.split()
    z = zarr.open(os.path.join(folder, "all.zarr", sid), mode="r")
    raw = np.frombuffer(open(os.path.join(folder, sid + ".raw"), "rb").read(), dtype=NUMPY[dtype]).reshape(z.shape)
    a = z[...]
    if z.dtype != np.dtype(NUMPY[dtype]):
        failures.append(f"{sid}: zarr dtype {z.dtype}")
    if z.order != order or (z._dimension_separator or ".") != sep:
        failures.append(f"{sid}: order {z.order} separator {z._dimension_separator}, ntensor wrote {order} {sep}")
    zf = z.fill_value
    if fill == "null":
        if zf is not None:
            failures.append(f"{sid}: fill_value {zf!r}, ntensor wrote null")
    else:
        want = float("nan") if fill == "nan" else float(fill)
        if zf is None or (not (np.isnan(want) and np.isnan(zf)) and float(zf) != want):
            failures.append(f"{sid}: fill_value {zf!r}, ntensor wrote {fill}")
    if list(z.chunks) != [int(c) for c in chunks]:
        failures.append(f"{sid}: chunks {z.chunks}, ntensor wrote {chunks}")
    # The compressor as numcodecs sees it: the same codec and settings ntensor wrote.
    cfg = None if z.compressor is None else z.compressor.get_config()
    if cid == "none":
        if cfg is not None:
            failures.append(f"{sid}: compressor {cfg}, ntensor wrote none")
    elif cfg is None or cfg["id"] != cid:
        failures.append(f"{sid}: compressor {cfg}, ntensor wrote {cid}")
    elif cid == "blosc":
        if (cfg["cname"], cfg["clevel"], cfg["shuffle"]) != (cname, int(level), int(shuffle)):
            failures.append(f"{sid}: blosc {cfg}, ntensor wrote {cname} level {level} shuffle {shuffle}")
    elif cfg.get("level") != int(level):
        failures.append(f"{sid}: {cid} {cfg}, ntensor wrote level {level}")
    if not np.array_equal(a, raw, equal_nan=a.dtype.kind == "f"):
        failures.append(f"{sid}: zarr-python reads other elements than ntensor wrote")
    if ds[sid].dims != ("Z", "dim_1", "X") or not np.array_equal(ds[sid].values, raw, equal_nan=a.dtype.kind == "f"):
        failures.append(f"{sid}: xarray sees dims {ds[sid].dims} (expected ('Z', 'dim_1', 'X')) or other values")
    count += 1
if count != 24:
    failures.append(f"{count} stores listed, expected 24")

tile = np.load(os.path.join(folder, "tile.npy"))
img = xr.open_zarr(os.path.join(folder, "tile.zarr"), consolidated=False, mask_and_scale=False)["img"]
if img.dims != ("Z", "H", "W") or not np.array_equal(img.isel(Z=2).values, tile):
    failures.append(f"tile: xarray dims {img.dims}; Z=2 equal: {np.array_equal(img.isel(Z=2).values, tile)}")
if np.any(img.isel(Z=[0, 1, 3]).values != 0):
    failures.append("tile: the other slices are not the fill value 0")

# A (W,H) tile written by names at Z=1, H 1:5, W 2:7 of an F-order, '/' zstd (Z,H,W)
# array of fill value 9, after a whole (H,W) slice at Z=2.
before = np.load(os.path.join(folder, "tile_f_before.npy"))
tile = np.load(os.path.join(folder, "tile_f_tile.npy"))
zf = zarr.open(os.path.join(folder, "tile_f.zarr", "img"), mode="r")
want = np.full((4, 6, 8), 9, dtype=np.int32)
want[2] = before
want[1, 1:5, 2:7] = tile.T
if zf.order != "F" or zf._dimension_separator != "/" or zf.fill_value != 9 or zf.compressor.codec_id != "zstd":
    failures.append(f"tile_f: order {zf.order}, separator {zf._dimension_separator}, fill {zf.fill_value}, "
                    f"compressor {zf.compressor}")
if not np.array_equal(zf[...], want):
    failures.append(f"tile_f: zarr-python reads other elements: differences at {np.argwhere(zf[...] != want)[:5]}")
img = xr.open_zarr(os.path.join(folder, "tile_f.zarr"), consolidated=False, mask_and_scale=False)["img"]
if img.dims != ("Z", "H", "W") or not np.array_equal(img.transpose("W", "H", "Z").values, want.transpose(2, 1, 0)):
    failures.append(f"tile_f: xarray dims {img.dims} or other values")

# overwrite, whole-axis chunks, attributes, conversion on write.
over = zarr.open(os.path.join(folder, "misc.zarr", "over"), mode="r")
if over.chunks != (3, 6) or over.fill_value != -4 or not np.all(over[...] == -4):
    failures.append(f"over: chunks {over.chunks}, fill {over.fill_value}, values {np.unique(over[...])}: "
                    "expected (3, 6), -4 and only the fill value (no chunk of the replaced array)")
leftover = sorted(f for f in os.listdir(os.path.join(folder, "misc.zarr", "over")) if not f.startswith("."))
if leftover:
    failures.append(f"over: chunk files of the replaced array remain: {leftover}")
misc = xr.open_zarr(os.path.join(folder, "misc.zarr"), consolidated=False, mask_and_scale=False)
if misc["over"].dims != ("A", "B") or misc["over"].attrs.get("units") != "HU" \
        or misc["over"].attrs.get("note") != "set by ntensor":
    failures.append(f"over: xarray dims {misc['over'].dims}, attrs {misc['over'].attrs}")
conv_want = np.load(os.path.join(folder, "conv_source.npy")).astype(np.uint8)
conv = zarr.open(os.path.join(folder, "misc.zarr", "conv"), mode="r")
if conv.dtype != np.uint8 or not np.array_equal(conv[...], conv_want):
    failures.append(f"conv: f64 written into u8: {conv[...].tolist()}, NumPy's astype {conv_want.tolist()}")

# 25 random region writes per store: zarr-python reads the model's elements.
rmw_count = 0
for sid in open(os.path.join(folder, "rmw.txt")).read().split():
    z = zarr.open(os.path.join(folder, "rmw.zarr", sid), mode="r")
    want = np.frombuffer(open(os.path.join(folder, sid + ".raw"), "rb").read(), dtype="<i4").reshape(z.shape)
    if not np.array_equal(z[...], want):
        failures.append(f"{sid}: zarr-python reads other elements than the region writes made in memory")
    rmw_count += 1
if rmw_count != 6:
    failures.append(f"rmw: {rmw_count} stores, expected 6")

# create's defaults: xarray, with its own defaults (mask_and_scale on), opens every
# element type with the same dtype and values, zeros included.
defaults = xr.open_zarr(os.path.join(folder, "defaults.zarr"), consolidated=False)
listed = open(os.path.join(folder, "defaults.txt")).read().split()
for sid in listed:
    raw = np.frombuffer(open(os.path.join(folder, f"defaults_{sid}.raw"), "rb").read(), dtype=NUMPY[sid]).reshape(4, 6)
    v = defaults[sid]
    if v.dtype != raw.dtype or v.dims != ("Y", "X") or not np.array_equal(v.values, raw):
        failures.append(f"defaults {sid}: xarray opens {v.dtype} {v.dims} {v.values.tolist()}, "
                        f"ntensor wrote {raw.dtype} {raw.tolist()}")
if len(listed) != 12:
    failures.append(f"defaults: {len(listed)} stores listed, expected 12")

from dask.distributed import Client, LocalCluster  # noqa: E402  (only the Dask check needs it)

with LocalCluster(n_workers=2, threads_per_worker=1, processes=False, dashboard_address=None) as cluster, \
        Client(cluster):
    mean = xr.open_zarr(os.path.join(folder, "dask.zarr"), consolidated=False)["vol"].mean("Z").compute()
expected = np.load(os.path.join(folder, "dask_mean_z.npy"))
if mean.dims != ("Y", "X") or not np.allclose(mean.values, expected, rtol=1e-6):
    failures.append(f"dask: mean over Z dims {mean.dims}, max difference {np.abs(mean.values - expected).max()}")

if failures:
    print("\n".join(failures))
    sys.exit(1)
print(f"zarr-python, xarray and Dask read {count} ntensor stores, the tile and the volume as ntensor wrote them")
