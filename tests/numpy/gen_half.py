#!/usr/bin/env python3
"""Oracle for nt::half: NumPy's float16 conversions.

Writes, one per line:
  to_float <half bits> <float32 bits>      for all 65536 bit patterns (hex)
  from_float <float32 bits> <half bits>    for many floats: random, ties (to even),
                                           around the overflow (65504, 65520), the
                                           subnormal range and its rounding, zeros, inf, NaN
  from_double <float64 bits> <half bits>   the same from double (rounded once)
"""
import numpy as np

import oracle


def cases(args, rng, out):
    lines = []
    halves = np.arange(65536, dtype=np.uint32).astype(np.uint16)
    floats = halves.view(np.float16).astype(np.float32).view(np.uint32)
    lines += [f"to_float {h:04x} {f:08x}" for h, f in zip(halves.tolist(), floats.tolist())]

    # Floats: every half value, the midpoints between neighbours (ties: to even) and
    # one float ulp either side, random bit patterns and random magnitudes.
    values = halves.view(np.float16).astype(np.float64)
    finite = np.sort(np.unique(values[np.isfinite(values)]))
    mids = (finite[:-1] + finite[1:]) / 2  # exact in float32: a half has 11 bits
    f32 = [np.float32(v) for v in finite] + [np.float32(v) for v in mids]
    f32 += [np.nextafter(np.float32(m), np.float32(np.inf)) for m in mids[::7]]
    f32 += [np.nextafter(np.float32(m), np.float32(-np.inf)) for m in mids[::7]]
    f32 += [np.float32(x) for x in (65504, 65519, 65519.996, 65520, 65521, 1e5, 1e30, -65520, -65519.996,
                                     2.0**-24, 2.0**-25, 2.0**-25 * 1.0000001, 2.0**-26, 2.0**-14, 2.0**-14 * 0.99999,
                                     1e-40, -1e-40, 0.0, -0.0, np.inf, -np.inf, np.nan)]
    f32 += [np.uint32(rng.getrandbits(32)).view(np.float32) for _ in range(20000)]
    f32 += [np.float32(rng.uniform(-1, 1) * 2.0 ** rng.uniform(-30, 20)) for _ in range(20000)]
    arr = np.array(f32, dtype=np.float32)
    with np.errstate(all="ignore"):
        conv = arr.astype(np.float16)
    lines += [f"from_float {f:08x} {h:04x}" for f, h in zip(arr.view(np.uint32).tolist(), conv.view(np.uint16).tolist())]

    # Doubles: the same points, plus values just off the float16 ties by less than a
    # float32 ulp (a detour through float would round them to the tie).
    f64 = [float(v) for v in finite] + [float(m) for m in mids]
    f64 += [m + abs(m) * 2.0**-40 for m in mids[::3]] + [m - abs(m) * 2.0**-40 for m in mids[::3]]
    f64 += [np.uint64(rng.getrandbits(64)).view(np.float64) for _ in range(10000)]
    f64 += [rng.uniform(-1, 1) * 2.0 ** rng.uniform(-30, 20) for _ in range(10000)]
    f64 += [65519.99999999, 65520.0, 2.0**-25, 2.0**-25 * (1 + 2.0**-40), 1e-300, np.inf, -np.inf, np.nan]
    arr = np.array(f64, dtype=np.float64)
    with np.errstate(all="ignore"):
        conv = arr.astype(np.float16)
    lines += [f"from_double {d:016x} {h:04x}" for d, h in zip(arr.view(np.uint64).tolist(), conv.view(np.uint16).tolist())]
    out.write("\n".join(lines) + "\n")
    return f"{len(lines)} float16 conversion cases -> {args.out}"


if __name__ == "__main__":
    oracle.run(cases, seeded=False)
