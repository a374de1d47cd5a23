#!/usr/bin/env python3
"""torch's side of tests/bench/bench_imaging_conv.cpp: the same workloads, same labels,
best of several runs, at 1 and 2 threads (torch.set_num_threads).
    /usr/bin/python3 tests/bench/peers/imaging_conv_peers.py [--repeat 5]
"""
import argparse
import time

import torch
import torch.nn.functional as F


def best(fn, repeat, setup=None):
    times = []
    for _ in range(repeat + 1):
        state = setup() if setup else None
        t0 = time.perf_counter()
        fn(state)
        times.append(time.perf_counter() - t0)
    return min(times[1:]) * 1e3


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--repeat", type=int, default=5)
    args = p.parse_args()
    x = torch.sin(torch.arange(16 * 64 * 128 * 128, dtype=torch.float32) * 0.001).reshape(1, 16, 64, 128, 128)
    w = torch.cos(torch.arange(16 * 16 * 27, dtype=torch.float32)).reshape(16, 16, 3, 3, 3)
    seed = torch.ones(1, 16, 64, 128, 128)

    def forward_graph():
        xg = x.clone().requires_grad_()
        wg = w.clone().requires_grad_()
        return xg, wg, F.conv3d(xg, wg, padding=1)

    for threads in (1, 2):
        torch.set_num_threads(threads)
        ms = best(lambda _: F.conv3d(x, w, padding=1), args.repeat)
        print(f"torch  conv 3x3x3 same (1,16,64,128,128) -> 16 f32 threads:{threads}  {ms:9.1f} ms")
        ms = best(lambda s: s[2].backward(seed), args.repeat, forward_graph)
        print(f"torch  conv 3x3x3 backward (1,16,64,128,128) f32 threads:{threads}  {ms:9.1f} ms")


if __name__ == "__main__":
    main()
