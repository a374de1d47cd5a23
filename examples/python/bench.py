"""ntensor against NumPy in the same run: the small call (4,8) + (8), large adds and
the named permuted add. Prints microseconds per call (best of 5 repeats)."""
import timeit

import numpy as np

import ntensor as nt


def best(stmt, number):
    return min(timeit.repeat(stmt, number=number, repeat=5)) / number * 1e6


def main():
    rng = np.random.default_rng(0)
    a, b = rng.random((4, 8), dtype=np.float32), rng.random(8, dtype=np.float32)
    ta, tb = nt.asarray(a), nt.asarray(b)
    print(f"small (4,8)+(8):      numpy {best(lambda: a + b, 20000):8.2f} us   ntensor {best(lambda: ta + tb, 20000):8.2f} us")
    x, y = rng.random((1024, 1024), dtype=np.float32), rng.random((1024, 1024), dtype=np.float32)
    tx, ty = nt.asarray(x), nt.asarray(y)
    print(f"large (1024,1024) add: numpy {best(lambda: x + y, 50):8.2f} us   ntensor {best(lambda: tx + ty, 50):8.2f} us")
    p = rng.random((64, 128, 128), dtype=np.float32)
    q = rng.random((128, 128, 64), dtype=np.float32)
    tp, tq = nt.asarray(p, names=("C", "H", "W")), nt.asarray(q, names=("H", "W", "C"))
    print(f"named permuted add:   numpy {best(lambda: p + q.transpose(2, 0, 1), 20):8.2f} us   ntensor {best(lambda: tp + tq, 20):8.2f} us")


if __name__ == "__main__":
    main()
