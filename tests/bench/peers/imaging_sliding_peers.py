#!/usr/bin/env python3
"""The peer of tests/bench/bench_imaging_sliding.cpp: MONAI's sliding_window_inference
(constant blending) as MONAI computes it in PyTorch, transcribed here because MONAI is
not a Debian package: the windows' slices of the (padded) input concatenated into a
batch, the predictor, then `output[window] += importance * prediction` and the same
into a count map, and one division at the end. Same volume, window, overlap, batch and
predictor (2 w + 1) as the C++ benchmark, at 1 and 2 threads (torch.set_num_threads),
best of 3 runs; peak resident memory grown during one call (Linux's VmHWM, reset
through /proc/self/clear_refs).

    /usr/bin/python3 tests/bench/peers/imaging_sliding_peers.py [--size 256]
"""
import argparse
import itertools
import time

import torch


def status_mib(field):
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith(field + ":"):
                return int(line.split()[1]) / 1024.0
    return -1.0


def peak_growth(work):
    try:
        with open("/proc/self/clear_refs", "w") as f:
            f.write("5")
    except OSError:
        work()
        return -1.0
    before = status_mib("VmRSS")
    work()
    return status_mib("VmHWM") - before


def starts(n, roi, overlap):
    interval = roi if roi == n else max(int(roi * (1 - overlap)), 1)
    count = next(d + 1 for d in range(-(-n // interval)) if d * interval + roi >= n)
    return [d * interval - max(d * interval + roi - n, 0) for d in range(count)]


def monai_sliding_window(x, roi, overlap, batch, predictor):
    # x: (N, C, D, H, W) with every spatial size >= roi (no padding needed here).
    spatial = x.shape[2:]
    grid = list(itertools.product(*(starts(n, r, overlap) for n, r in zip(spatial, roi))))
    importance = torch.ones(roi, dtype=x.dtype)
    out = None
    count = torch.zeros((1, 1) + tuple(spatial), dtype=x.dtype)
    for first in range(0, len(grid), batch):
        chunk = grid[first:first + batch]
        slices = [(slice(None), slice(None)) + tuple(slice(s, s + r) for s, r in zip(g, roi)) for g in chunk]
        windows = torch.cat([x[s] for s in slices])
        pred = predictor(windows)
        if out is None:
            out = torch.zeros((x.shape[0], pred.shape[1]) + tuple(spatial), dtype=x.dtype)
        for j, s in enumerate(slices):
            out[s] += importance * pred[j:j + 1]
            count[s] += importance
    return out / count


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--size", type=int, default=256)
    args = parser.parse_args()
    d = args.size
    roi = (d // 4,) * 3
    x = torch.sin(torch.arange(d * 2 * d * 2 * d, dtype=torch.float32) * 0.001).reshape(1, 1, d, 2 * d, 2 * d)
    for threads in (1, 2):
        torch.set_num_threads(threads)
        run = lambda: monai_sliding_window(x, roi, 0.25, 4, lambda w: w * 2.0 + 1.0)
        peak = peak_growth(run)
        best = float("inf")
        for _ in range(3):
            t0 = time.perf_counter()
            run()
            best = min(best, time.perf_counter() - t0)
        print(f"MONAI-style sliding window (torch) ({d},{2 * d},{2 * d}) f32 roi {d // 4} overlap 0.25 batch 4 "
              f"threads:{threads}\t{best * 1e3:.1f} ms\tpeak +{peak:.0f} MiB", flush=True)


if __name__ == "__main__":
    main()
