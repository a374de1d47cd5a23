#!/usr/bin/env python3
"""NumPy's side of scripts/bench.sh --peers: the workloads of peers_timing.hpp, timed
by the same rule (one untimed call, samples of at least 20 ms, the best of 15), one
line per figure: <workload>\\t<column>\\t<seconds per call>."""
import time

import numpy as np
from numpy.lib.stride_tricks import sliding_window_view


def best_of_15(op):
    op()
    calls = 1
    while True:
        t0 = time.perf_counter()
        for _ in range(calls):
            op()
        if time.perf_counter() - t0 >= 0.02:
            break
        calls *= 2
    best = float("inf")
    for _ in range(15):
        t0 = time.perf_counter()
        for _ in range(calls):
            op()
        best = min(best, (time.perf_counter() - t0) / calls)
    return best


def report(workload, seconds):
    print(f"{workload}\tNumPy\t{seconds:.9g}", flush=True)


def add(workload, a_shape, b_shape):
    a = np.full(a_shape, 1.5, dtype=np.float32)
    b = np.full(b_shape, 2.5, dtype=np.float32)
    out = a + b
    report(workload, best_of_15(lambda: np.add(a, b, out=out)))


add("add (10,3,256,384)+(10,1,256,384)", (10, 3, 256, 384), (10, 1, 256, 384))
add("add (20,3,512,512)+(20,1,512,512)", (20, 3, 512, 512), (20, 1, 512, 512))
add("inner broadcast (4096,4096)+(4096,1)", (4096, 4096), (4096, 1))
add("tiny (4,8)+(8) into out", (4, 8), (8,))
ta = np.full((4, 8), 1.5, dtype=np.float32)
tb = np.full((8,), 2.5, dtype=np.float32)
report("tiny (4,8)+(8) fresh", best_of_15(lambda: ta + tb))
t = np.arange(4096 * 4096, dtype=np.float32).reshape(4096, 4096)
report("transpose copy 4096^2", best_of_15(lambda: np.ascontiguousarray(t.T)))
p = np.arange(3 * 256 * 384, dtype=np.float32).reshape(3, 256, 384)
report("permuted copy (3,256,384)->(2,1,0)", best_of_15(lambda: np.ascontiguousarray(p.transpose(2, 1, 0))))
f = np.arange(256 * 384 * 3, dtype=np.float32).reshape(256, 384, 3)
report("Fortran flatten (256,384,3)", best_of_15(lambda: f.reshape(-1, order="F")))
u = np.arange(10_000_000, dtype=np.float32)
report("unfold 1e7 window 8", best_of_15(lambda: np.ascontiguousarray(sliding_window_view(u, 8))))
