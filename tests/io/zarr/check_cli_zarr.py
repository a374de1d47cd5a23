#!/usr/bin/env python3
"""`ntensor info` and `ntensor check` on zarr stores that zarr-python and xarray write.

usage: check_cli_zarr.py NTENSOR FOLDER
zarr-python writes arrays (several dtypes, compressors, orders, separators, fill
values), xarray a dataset with named dims; `ntensor info --json` must report what
zarr-python reports, and a pipeline config with "zarr" tensors must take their
shapes and names (`ntensor check --json`), and name the store in its errors.
"""
import json
import os
import shutil
import subprocess
import sys

import numpy as np
import numcodecs
import xarray as xr
import zarr

from gen_zarr import codec_text  # this folder: the script's own

ntensor, folder = sys.argv[1], sys.argv[2]
shutil.rmtree(folder, ignore_errors=True)
os.makedirs(folder)
os.chdir(folder)
failures = []


def run(*args, status=None):
    # A timeout: a FIFO named as a file used to block the command forever.
    try:
        r = subprocess.run([ntensor, *args], capture_output=True, text=True, timeout=60)
    except subprocess.TimeoutExpired:
        failures.append(f"{args}: did not finish within 60 s")
        return subprocess.CompletedProcess(args, -1, "", "")
    if status is not None and r.returncode != status:
        failures.append(f"{args}: exit {r.returncode}, expected {status}: {r.stdout}{r.stderr}")
    return r


cases = [
    ("uint16", (40, 30), (16, 16), zarr.storage.default_compressor, "C", ".", 0),
    ("int16", (5, 6, 7), (2, 3, 7), numcodecs.Zstd(level=3), "F", "/", -1024),
    ("float32", (9,), (4,), numcodecs.Blosc("zstd", 5, numcodecs.Blosc.BITSHUFFLE), "C", ".", np.nan),
    ("bool", (3, 3), (2, 2), numcodecs.GZip(6), "C", ".", None),
    ("float64", (2, 2, 2, 2), (1, 2, 1, 2), None, "C", "/", np.inf),
]
for i, (dt, shape, chunks, comp, order, sep, fill) in enumerate(cases):
    path = f"a{i}"
    z = zarr.open(path, mode="w", shape=shape, chunks=chunks, dtype=dt, compressor=comp, order=order,
                  dimension_separator=sep, fill_value=fill)
    r = run("info", "--json", path, status=0)
    got = json.loads(r.stdout)["files"][0]
    want = {"format": "zarr", "dtype": {"uint16": "u16", "int16": "i16", "float32": "f32", "bool": "b8",
                                        "float64": "f64"}[dt],
            "shape": list(z.shape), "chunks": list(z.chunks), "compressor": codec_text(z.compressor, space=" "),
            "order": z.order, "chunk_count": int(z.nchunks)}
    for k, v in want.items():
        if got.get(k) != v:
            failures.append(f"{path}: info {k} = {got.get(k)!r}, zarr-python says {v!r}")

# xarray: a dataset of two named variables; info on the group lists both.
ds = xr.Dataset({"ct": (("Z", "Y", "X"), np.zeros((4, 8, 6), np.int16)),
                 "seg": (("Z", "Y", "X"), np.zeros((4, 8, 6), np.uint8))})
ds.to_zarr("scan.zarr", mode="w")
r = run("info", "--json", "scan.zarr", status=0)
group = json.loads(r.stdout)["files"][0]
names = {a["name"]: a for a in group.get("arrays", [])}
for var in ("ct", "seg"):
    if var not in names or names[var]["names"] != list(ds[var].dims) or names[var]["shape"] != list(ds[var].shape):
        failures.append(f"info scan.zarr: {var} reported as {names.get(var)}, xarray has {ds[var].dims} {ds[var].shape}")
r = run("info", "scan.zarr/ct", status=0)
if "i16 (4,8,6 | Z,Y,X)" not in r.stdout:
    failures.append(f"info text: {r.stdout!r}")

# A pipeline config: shapes and names from the stores.
config = {"tensors": {"ct": {"zarr": "scan.zarr/ct", "dtype": "i16"},
                      "seg": {"zarr": "scan.zarr/seg"},
                      "w": {"shape": ["X"], "names": "X"}},
          "steps": [{"name": "weighted", "broadcast": ["ct", "w"]}, {"name": "masked", "broadcast": ["ct", "seg"]}]}
with open("pipeline.json", "w") as f:
    json.dump(config, f)
r = run("check", "--json", "pipeline.json", status=0)
report = json.loads(r.stdout)
masked = report["steps"]["masked"]
if masked["shape"] != [4, 8, 6] or masked["names"] != ["Z", "Y", "X"]:
    failures.append(f"check: the step's output is {masked['shape']} {masked['names']}, the stores are (4,8,6) Z,Y,X")
config["tensors"]["ct"]["dtype"] = "u16"
with open("bad_dtype.json", "w") as f:
    json.dump(config, f)
r = run("check", "bad_dtype.json", status=1)
if "scan.zarr/ct holds i16" not in r.stdout + r.stderr:
    failures.append(f"check bad dtype: {r.stdout}{r.stderr}")
config["tensors"]["ct"] = {"zarr": "scan.zarr/ct", "names": "Z H W"}
with open("bad_names.json", "w") as f:
    json.dump(config, f)
r = run("check", "bad_names.json", status=1)
if "names axis 1 'Y'" not in r.stdout + r.stderr:
    failures.append(f"check bad names: {r.stdout}{r.stderr}")
config["tensors"]["ct"] = {"zarr": "missing.zarr/ct"}
with open("missing.json", "w") as f:
    json.dump(config, f)
r = run("check", "missing.json", status=1)
if "missing.zarr/ct" not in r.stdout + r.stderr:
    failures.append(f"check missing store: {r.stdout}{r.stderr}")

# A group with one damaged array: the others are still described, the damaged one
# is reported in its place, and the exit status says that something failed.
ds.to_zarr("damaged.zarr", mode="w")
with open("damaged.zarr/ct/.zarray", "w") as f:
    f.write('{"zarr_format": 2, "shape": [4, ')
r = run("info", "--json", "damaged.zarr", status=1)
group = json.loads(r.stdout)["files"][0] if r.stdout else {}
names = {a["name"]: a for a in group.get("arrays", [])}
if names.get("seg", {}).get("shape") != [4, 8, 6]:
    failures.append(f"info damaged.zarr: the intact array seg is not described: {r.stdout}")
if names.get("ct", {}).get("error", {}).get("code") != "format_error":
    failures.append(f"info damaged.zarr: the damaged array ct is not reported as format_error: {r.stdout}")
r = run("info", "damaged.zarr", status=1)
if "seg: u8 (4,8,6 | Z,Y,X)" not in r.stdout or "ct: error [format_error]" not in r.stdout:
    failures.append(f"info damaged.zarr (text): {r.stdout}")

# FIFOs named as files are refused at once (the command used to block on them).
os.mkfifo("pipe.npy")
r = run("info", "pipe.npy", status=1)
if "FIFO" not in r.stdout:
    failures.append(f"info on a FIFO: {r.stdout}{r.stderr}")
os.mkfifo("pipe.json")
r = run("plan", "pipe.json", status=2)
if "FIFO" not in r.stderr:
    failures.append(f"plan on a FIFO: {r.stdout}{r.stderr}")
os.makedirs("fifo.zarr")
os.mkfifo("fifo.zarr/.zarray")
r = run("info", "fifo.zarr", status=1)
if "FIFO" not in r.stdout:
    failures.append(f"info on a store whose .zarray is a FIFO: {r.stdout}{r.stderr}")

if failures:
    print("\n".join(failures))
    sys.exit(1)
print(f"ntensor info/check agree with zarr-python and xarray on {len(cases) + 1} stores")
