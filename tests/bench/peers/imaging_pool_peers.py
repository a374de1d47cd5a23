#!/usr/bin/env python3
"""torch's side of tests/bench/bench_imaging_pool.cpp: the same workloads, same labels,
best of several runs, at 1 and 2 threads (torch.set_num_threads).
    /usr/bin/python3 tests/bench/peers/imaging_pool_peers.py [--repeat 5]
"""
import argparse
import time

import torch
import torch.nn.functional as F


def best(fn, repeat):
    fn()
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return min(times) * 1e3


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--repeat", type=int, default=5)
    args = p.parse_args()
    x = torch.full((1, 4, 64, 256, 256), 0.5, dtype=torch.float32)
    v = torch.full((1, 16, 64, 128, 128), 0.5, dtype=torch.float32)
    for threads in (1, 2):
        torch.set_num_threads(threads)
        ms = best(lambda: F.interpolate(x, size=(128, 512, 512), mode="trilinear", align_corners=False), args.repeat)
        print(f"torch  resize linear (1,4,64,256,256) x2 f32 threads:{threads}  {ms:9.1f} ms")
        ms = best(lambda: F.max_pool3d(v, 2), args.repeat)
        print(f"torch  max_pool 2x2x2 (1,16,64,128,128) f32 threads:{threads}  {ms:9.1f} ms")


if __name__ == "__main__":
    main()
