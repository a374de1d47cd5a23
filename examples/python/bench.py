"""ntensor against NumPy in the same run, and against the C++ call: the small call
(4,8) + (8) (unnamed and named), large adds and the named permuted add. Prints
microseconds per call (best of 5 repeats) and the machine's load. With the path of
the C++ benchmark tests/bench/bench_ops as argument, runs its (4,8) + (8) cases too.
Reports only: speed is judged from these figures (docs/performance.md), never by a
timed assertion; the results are checked against NumPy's."""
import os
import re
import subprocess
import sys
import timeit

import numpy as np

import ntensor as nt


def best(stmt, number):
    return min(timeit.repeat(stmt, number=number, repeat=5)) / number * 1e6


def cpp_small_add(binary):
    out = subprocess.run([binary, "--benchmark_filter=BM_add/case:[46]/threads:1/fresh:1",
                          "--benchmark_min_time=0.2"], capture_output=True, text=True, check=True).stdout
    return [(float(m.group(1)) / 1000, m.group(2).strip())
            for m in re.finditer(r"real_time\s+([\d.]+) ns .*bytes_per_second=\S+ (.*)", out)]


def main():
    print(f"load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} cpus")
    rng = np.random.default_rng(0)
    a, b = rng.random((4, 8), dtype=np.float32), rng.random(8, dtype=np.float32)
    ta, tb = nt.asarray(a), nt.asarray(b)
    na, nb = nt.asarray(a, names=("H", "W")), nt.asarray(b, names=("W",))
    small_np, small_nt = best(lambda: a + b, 20000), best(lambda: ta + tb, 20000)
    print(f"small (4,8)+(8):          numpy {small_np:8.2f} us   ntensor {small_nt:8.2f} us")
    print(f"small (4,8|H,W)+(8|W):    numpy {small_np:8.2f} us   ntensor {best(lambda: na + nb, 20000):8.2f} us")
    if len(sys.argv) > 1:
        for us, what in cpp_small_add(sys.argv[1]):
            print(f"C++ {what}: {us:8.3f} us")
    x, y = rng.random((1024, 1024), dtype=np.float32), rng.random((1024, 1024), dtype=np.float32)
    tx, ty = nt.asarray(x), nt.asarray(y)
    print(f"large (1024,1024) add:    numpy {best(lambda: x + y, 50):8.2f} us   ntensor {best(lambda: tx + ty, 50):8.2f} us")
    img, lbl = rng.random((10, 3, 256, 384), dtype=np.float32), rng.random((10, 256, 384), dtype=np.float32)
    timg, tlbl = nt.asarray(img, names=(None, "CHANNEL", "H", "W")), nt.asarray(lbl, names=(None, "H", "W"))
    print(f"named (10,3,256,384)+(10,256,384): numpy {best(lambda: img + lbl[:, None], 10):8.1f} us   "
          f"ntensor {best(lambda: timg + tlbl, 10):8.1f} us")
    p = rng.random((64, 128, 128), dtype=np.float32)
    q = rng.random((128, 128, 64), dtype=np.float32)
    tp, tq = nt.asarray(p, names=("C", "H", "W")), nt.asarray(q, names=("H", "W", "C"))
    print(f"named permuted add:       numpy {best(lambda: p + q.transpose(2, 0, 1), 20):8.1f} us   "
          f"ntensor {best(lambda: tp + tq, 20):8.1f} us")
    np.testing.assert_allclose(np.asarray(tp + tq), p + q.transpose(2, 0, 1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
