#!/usr/bin/env python3
"""Peers of tests/bench/bench_imaging_filters.cpp: scipy.ndimage (single-threaded) on
the same volumes, best of several runs; and, with --bench, ntensor's benchmark run in
the same session, so that the ratios printed are measured under the same load.

    /usr/bin/python3 tests/bench/peers/imaging_filters_peers.py \
        --bench build/bench/tests/bench/bench_imaging_filters

torch has no gaussian_filter; as a reference, the same separable 17-tap smoothing as
three conv3d passes (padding 'replicate', not scipy's 'reflect') at 1 and 2 threads.
"""
import argparse
import json
import os
import subprocess
import time

import numpy as np
import scipy.ndimage as ndi


def volume(d, h, w):
    return np.sin(np.arange(d * h * w, dtype=np.float32).reshape(d, h, w) * np.float32(0.37))


def best_of(fn, runs):
    best = float("inf")
    for _ in range(runs):
        t0 = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t0)
    return best * 1e3


def torch_gaussian(x, threads, runs):
    try:
        import torch
        import torch.nn.functional as F
    except ImportError:
        return None
    torch.set_num_threads(threads)
    sigma, radius = 2.0, 8
    k = torch.exp(-0.5 * (torch.arange(-radius, radius + 1, dtype=torch.float32) / sigma) ** 2)
    k = k / k.sum()
    t = torch.from_numpy(x)[None, None]
    kernels = [k.view(1, 1, -1, 1, 1), k.view(1, 1, 1, -1, 1), k.view(1, 1, 1, 1, -1)]
    pads = [(0, 0, 0, 0, radius, radius), (0, 0, radius, radius, 0, 0), (radius, radius, 0, 0, 0, 0)]

    def run():
        y = t
        with torch.no_grad():
            for kern, pad in zip(kernels, pads):
                y = F.conv3d(F.pad(y, pad, mode="replicate"), kern)
        return y

    return best_of(run, runs)


def ours(bench, runs):
    """ntensor's best real time (ms) of `runs` repetitions, by the benchmark's label."""
    out = subprocess.run([bench, "--benchmark_filter=/128/|/64/64/64", "--benchmark_format=json",
                          f"--benchmark_repetitions={runs}"], check=True, capture_output=True, text=True).stdout
    figures = {}
    for b in json.loads(out)["benchmarks"]:
        if b.get("run_type") == "iteration":
            figures[b["label"]] = min(figures.get(b["label"], float("inf")), b["real_time"])
    return figures


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--bench", help="the bench_imaging_filters binary, for ratios in the same run")
    args = parser.parse_args()
    print("load:", os.getloadavg())
    big = volume(128, 256, 256)
    small = volume(64, 64, 64)
    peers = {
        "gaussian_filter sigma 2 (128,256,256) f32": best_of(lambda: ndi.gaussian_filter(big, 2.0), args.runs),
        "uniform_filter 5 (128,256,256) f32": best_of(lambda: ndi.uniform_filter(big, 5), args.runs),
        "median_filter 3 (64,64,64) f32": best_of(lambda: ndi.median_filter(small, 3), args.runs),
    }
    for label, ms in peers.items():
        print(f"scipy  {label}: {ms:.1f} ms")
    for threads in (1, 2):
        ms = torch_gaussian(big, threads, min(args.runs, 2))  # seconds per run: two are enough
        if ms is not None:
            print(f"torch  separable conv3d 17 taps (128,256,256) f32 threads:{threads}: {ms:.1f} ms")
    if args.bench:
        for label, ms in sorted(ours(args.bench, args.runs).items()):
            base = label.rsplit(" threads:", 1)[0]
            ratio = f"  scipy / ntensor = {peers[base] / ms:.2f}x" if base in peers else ""
            print(f"ntensor {label}: {ms:.1f} ms{ratio}")
    print("load:", os.getloadavg())


if __name__ == "__main__":
    main()
