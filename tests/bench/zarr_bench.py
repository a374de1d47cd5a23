#!/usr/bin/env python3
"""ntensor's zarr stores against zarr-python on the same stores, in one run.

usage: zarr_bench.py BENCH_ZARR [SLICES]     (SLICES of 1024x1024 uint16; 1024 = 2 GiB)

Runs tests/bench/bench_zarr (BENCH_ZARR) on the volume, which writes the stores
(blosc-lz4 and zstd, 128^3 chunks) and times ntensor's writes and reads on 1 and 2
threads and the map_chunks filter; then times zarr-python 2 on the same stores,
single-threaded (numcodecs' blosc threads off): reading each store whole, and
writing the same volume with the same codec and chunks. Prints a Markdown table of
throughputs and ratios, best of the repetitions, with the machine's load.
"""
import json
import os
import subprocess
import sys
import tempfile
import time

import numcodecs
import numcodecs.blosc
import zarr

bench = sys.argv[1]
slices = int(sys.argv[2]) if len(sys.argv) > 2 else 1024
folder = os.environ.get("NT_BENCH_DIR") or tempfile.mkdtemp(prefix="ntensor_bench_zarr_")
env = dict(os.environ, NT_BENCH_ZARR_SLICES=str(slices), NT_BENCH_DIR=folder)
load = open("/proc/loadavg").read().split()[:3]

out = subprocess.run([bench, "--benchmark_format=json", "--benchmark_repetitions=3"], env=env,
                     capture_output=True, text=True, check=True).stdout
runs = json.loads(out)["benchmarks"]


def best(prefix):
    """Highest bytes/s over the repetitions of the runs named prefix/..."""
    rates = [r["bytes_per_second"] for r in runs
             if r["name"].startswith(prefix + "/") and r.get("run_type") == "iteration"]
    return max(rates) if rates else float("nan")


def seconds(prefix):
    times = [r["real_time"] for r in runs if r["name"].startswith(prefix + "/") and r.get("run_type") == "iteration"]
    return min(times) if times else float("nan")


numcodecs.blosc.use_threads = False
codecs = {"blosc-lz4": (0, numcodecs.Blosc("lz4", 5, numcodecs.Blosc.SHUFFLE)), "zstd": (1, numcodecs.Zstd(level=1))}
python = {}
for name, (_, codec) in codecs.items():
    path = os.path.join(folder, f"volume_{name}.zarr")
    src = zarr.open(path, mode="r")
    nbytes = src.nbytes
    reads, writes = [], []
    volume = None
    for _ in range(3):
        t = time.perf_counter()
        volume = src[:]
        reads.append(time.perf_counter() - t)
    for _ in range(2):
        dst = zarr.open(os.path.join(folder, f"python_{name}.zarr"), mode="w", shape=volume.shape,
                        chunks=(128, 128, 128), dtype=volume.dtype, compressor=codec)
        t = time.perf_counter()
        dst[:] = volume
        writes.append(time.perf_counter() - t)
    python[name] = (nbytes / min(reads), nbytes / min(writes))
    del volume

gb = 1e9
print(f"zarr, {slices}x1024x1024 uint16 ({slices * 2 / 1024:.1f} GiB), 128^3 chunks; "
      f"load {' '.join(load)}; zarr-python {zarr.__version__}, single-threaded\n")
print("| store | zarr-python | ntensor 1T | ntensor 2T | 1T / zarr-python | 2T / 1T |")
print("|---|---|---|---|---|---|")
for name, (cid, _) in codecs.items():
    for op, index in (("read", 0), ("write", 1)):
        py = python[name][index]
        one, two = best(f"BM_zarr_{op}/{cid}/1"), best(f"BM_zarr_{op}/{cid}/2")
        print(f"| {op} {name} | {py / gb:.2f} GB/s | {one / gb:.2f} GB/s | {two / gb:.2f} GB/s | "
              f"{one / py:.2f}x | {two / one:.2f}x |")
print()
print("| 3x3x3 mean, 256 slices f32, halo 1 | in memory | map_chunks, uncompressed stores | ratio | "
      "map_chunks, blosc-lz4 stores | ratio |")
print("|---|---|---|---|---|---|")
for threads in (1, 2):
    mem = seconds(f"BM_mean3_in_memory/{threads}")
    raw, lz4 = seconds(f"BM_mean3_map_chunks/{threads}/0"), seconds(f"BM_mean3_map_chunks/{threads}/1")
    print(f"| {threads} thread{'s' if threads > 1 else ''} | {mem:.0f} ms | {raw:.0f} ms | {raw / mem:.2f}x | "
          f"{lz4:.0f} ms | {lz4 / mem:.2f}x |")
