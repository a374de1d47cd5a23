#!/usr/bin/env python3
"""scipy.ndimage's side of tests/bench/bench_imaging_morph.cpp: the same calls on the
same kind of mask (uniform noise smoothed by two box filters of width 7 along each
axis, thresholded at its mean), best of several runs. scipy.ndimage runs on one
thread; torch has none of these operations. Prints one line per figure:
<workload>\\t<seconds per call>.

    /usr/bin/python3 tests/bench/peers/imaging_morph_peers.py [--depth 128] [--repeat 5]
"""
import argparse
import time

import numpy as np
import scipy.ndimage as ndi


def blobs(d, hw, seed=1):
    v = np.random.default_rng(seed).random((d, hw, hw), dtype=np.float32)
    for _ in range(2):
        v = ndi.uniform_filter(v, size=7, mode="nearest")
    return (v > v.mean()).astype(np.uint8)


def best(op, repeat):
    op()
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        op()
        times.append(time.perf_counter() - t0)
    return min(times)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--depth", type=int, default=128)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    d = args.depth
    hw = 256 if d >= 64 else 32
    m = blobs(d, hw)
    size = f"({d},{hw},{hw})"
    s1 = ndi.generate_binary_structure(3, 1)
    s3 = ndi.generate_binary_structure(3, 3)
    rows = [
        (f"label {size} connectivity:1", lambda: ndi.label(m, s1)),
        (f"label {size} connectivity:3", lambda: ndi.label(m, s3)),
        (f"distance_transform_edt {size}", lambda: ndi.distance_transform_edt(m)),
        (f"binary_erosion {size}", lambda: ndi.binary_erosion(m, s1)),
        (f"binary_fill_holes {size}", lambda: ndi.binary_fill_holes(m, s1)),
    ]
    print(f"# scipy.ndimage, one thread; objects: {ndi.label(m, s1)[1]} (connectivity 1)")
    for label, op in rows:
        print(f"{label}\t{best(op, args.repeat):.6f}")


if __name__ == "__main__":
    main()
