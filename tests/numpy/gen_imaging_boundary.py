#!/usr/bin/env python3
"""Oracle for the imaging boundary rule (src/imaging/spatial.hpp, boundary_index):
scipy.ndimage's extension of a line, taken from scipy itself. A 1-D correlation with a
one-hot kernel of width 2w+1 reads position i+k for each output i; with the values
0..n-1 (and cval -1) it returns the positions each mode reads.

Writes, one per line:
  <mode> <n> <offset> <positions of i + offset for i in 0..n-1, -1 for the constant>
"""
import numpy as np
import scipy.ndimage as ndi

import oracle

MODES = ["reflect", "constant", "nearest", "mirror", "wrap"]


def cases(args, rng, out):
    lines = 0
    for mode in MODES:
        for n in (1, 2, 3, 4, 5, 7, 10):
            line = np.arange(n, dtype=np.float64)
            for offset in range(-3 * n - 2, 3 * n + 3):
                w = abs(offset)
                kernel = np.zeros(2 * w + 1)
                kernel[w + offset] = 1.0
                read = ndi.correlate1d(line, kernel, mode=mode, cval=-1.0)
                out.write(f"{mode} {n} {offset} " + " ".join(str(int(v)) for v in read) + "\n")
                lines += 1
    return f"{lines} boundary cases -> {args.out}"


if __name__ == "__main__":
    oracle.run(cases, seeded=False)
