#!/usr/bin/env python3
"""Oracle cases for the matcher: random sets of unnamed shapes and what NumPy's
np.broadcast_shapes says about them (the common shape, or that they do not
broadcast). Run by CTest before test_matcher's [numpy] cases.

Output, one case per line:  <k> (<rank> <sizes...>){k} ok <rank> <sizes...>
                       or:  <k> (<rank> <sizes...>){k} error
"""
import numpy as np

import oracle


def random_case(rng):
    k = rng.randint(1, 4)
    out_rank = rng.randint(0, 6)
    base = [rng.choice([0, 1, 2, 3, 4, 5, 7]) for _ in range(out_rank)]
    shapes = []
    for _ in range(k):
        rank = rng.randint(0, out_rank)
        shape = []
        for size in base[out_rank - rank:]:
            r = rng.random()
            # Mostly compatible sizes (equal or 1), sometimes a clash.
            shape.append(size if r < 0.6 else 1 if r < 0.9 else rng.choice([0, 2, 3, 6]))
        shapes.append(shape)
    return shapes


def cases(args, rng, out):
    ok = 0
    for _ in range(args.count):
        shapes = random_case(rng)
        fields = [str(len(shapes))] + [oracle.shape_text(s) for s in shapes]
        try:
            result = np.broadcast_shapes(*[tuple(s) for s in shapes])
            fields += ["ok", oracle.shape_text(result)]
            ok += 1
        except ValueError:
            fields.append("error")
        out.write(" ".join(fields) + "\n")
    return f"seed {args.seed}: {args.count} cases, {ok} broadcastable -> {args.out}"


if __name__ == "__main__":
    oracle.run(cases, count=3000)
