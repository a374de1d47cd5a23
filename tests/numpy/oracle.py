"""The oracle writer: what every generator of expected results for the C++ tests
shares (tests/numpy/gen_*.py, tests/io/gen_npy.py, tests/io/zarr/gen_*.py): the
command line, the seed, writing the files, and the spellings the C++ readers share.

A generator of a text oracle is one function, run by oracle.run:

    def cases(args, rng, out):
        # args: the parsed command line (args.seed, args.count, args.out, options);
        # rng: random.Random(args.seed); out: the open output file.
        for cid in range(args.count):
            out.write(f"case {cid} ...\\n")
        return "a summary line to print"          # or None

    if __name__ == "__main__":
        oracle.run(cases, count=1000, header_line=True)

and the C++ side is a test case tagged [numpy] that reads NT_TEST_DATA_DIR's file;
tests/CMakeLists.txt registers the pair with nt_add_oracle(). A seeded oracle
(seeded=True, the default) takes --seed S --count N --out FILE: CTest runs it once
with the fixed seed and once with a fresh one (numpy/run_fresh_seed.cmake). The file
is written whole or not at all (FILE.tmp, then renamed), so a reader never sees half
of one.

Generators that write folders of files (.npy files, zarr stores) take the same
command line (arguments) and use folder() and write_lines() for their manifests.

Run a generator by hand with the Python CTest uses:
    /usr/bin/python3 tests/numpy/gen_linalg.py --seed 1 --count 100 --out /tmp/linalg.txt
"""
import argparse
import contextlib
import math
import os
import random
import shutil

# The fixed seed of every oracle (the fresh seed changes on each run).
FIXED_SEED = 20261123

# The element types, in NT_FOR_EACH_ELEMENT_TYPE's order: ntensor's short spelling and
# NumPy's name (the one table of the oracles; a generator derives what it needs).
NUMPY_NAMES = {"b8": "bool", "i8": "int8", "i16": "int16", "i32": "int32", "i64": "int64",
               "u8": "uint8", "u16": "uint16", "u32": "uint32", "u64": "uint64",
               "f16": "float16", "f32": "float32", "f64": "float64"}


def arguments(*, seeded=True, count=None, seed=FIXED_SEED, options=None, description=None):
    """The parsed command line: --out (required); a seeded oracle's --seed (required)
    and --count (default `count`); else --seed with the default `seed`. `options`, if
    given, adds the generator's own options to the argparse parser."""
    parser = argparse.ArgumentParser(description=description)
    if seeded:
        parser.add_argument("--seed", type=int, required=True)
        parser.add_argument("--count", type=int, default=count)
    else:
        parser.add_argument("--seed", type=int, default=seed)
    parser.add_argument("--out", required=True)
    if options is not None:
        options(parser)
    return parser.parse_args()


@contextlib.contextmanager
def text_file(path):
    """An output text file, in place only once complete (written to path.tmp, then renamed)."""
    tmp = path + ".tmp"
    with open(tmp, "w") as f:
        yield f
    os.replace(tmp, path)


def write_lines(path, lines):
    """A text file of lines, each ended by a newline (a manifest, a list of cases)."""
    with text_file(path) as f:
        f.write("\n".join(lines) + "\n")


def folder(path, *subfolders, empty=True):
    """The output folder (emptied first unless empty=False) and its subfolders."""
    if empty:
        shutil.rmtree(path, ignore_errors=True)
    os.makedirs(path, exist_ok=True)
    for sub in subfolders:
        os.makedirs(os.path.join(path, sub), exist_ok=True)
    return path


def header(seed, count):
    """The first line of the seeded oracles whose readers print it on failure."""
    return f"# seed {seed} count {count}\n"


def shape_text(shape):
    """A shape as the readers take it: "<rank> <sizes...>"."""
    return " ".join([str(len(shape))] + [str(int(s)) for s in shape])


def names_text(names, rank):
    """Axis names, one token per axis; "?" for an unnamed axis, all "?" for no names."""
    return " ".join(names if names else ["?"] * rank)


def run(generate, *, seeded=True, count=None, header_line=False, options=None, description=None):
    """Runs a text oracle: parses the command line, seeds random.Random, calls
    generate(args, rng, out) with the output file open (after the "# seed S count N"
    line when header_line), and prints what generate returns."""
    args = arguments(seeded=seeded, count=count, options=options, description=description)
    rng = random.Random(args.seed)
    with text_file(args.out) as out:
        if header_line:
            out.write(header(args.seed, args.count))
        summary = generate(args, rng, out)
    if summary:
        print(summary)


def random_elements(rng, dtype, n, float_scale):
    """n random elements of a NumPy dtype, drawn with the numpy Generator `rng`: bools,
    integers over the type's whole range, normal floats times `float_scale`. The one
    home of the values the file oracles (.npy, zarr) write; each adds its own special
    values (NaN, inf, -0.0) after."""
    import numpy as np

    dt = np.dtype(dtype)
    if dt.kind == "b":
        return rng.integers(0, 2, n).astype(bool)
    if dt.kind in "iu":
        info = np.iinfo(dt)
        return rng.integers(info.min, info.max, n, dtype=dt, endpoint=True)
    return (rng.standard_normal(n) * float_scale).astype(dt)


def value_text(v, signed_nan=False):
    """One element as the C++ readers take it (nt::test::oracle_value): bools as 1/0,
    integers exactly, floats by repr ("nan", "inf", "-inf"); with `signed_nan`, a NaN
    whose sign bit is set as "-nan"."""
    if isinstance(v, bool) or type(v).__name__ == "bool_":
        return "1" if v else "0"
    if isinstance(v, int) or hasattr(v, "dtype") and v.dtype.kind in "iu":
        return str(int(v))
    v = float(v)
    if math.isnan(v):
        return "-nan" if signed_nan and math.copysign(1.0, v) < 0 else "nan"
    return repr(v)


def values_text(a, signed_nan=False):
    """The elements of an array in row-major order, each as value_text writes it."""
    import numpy as np

    return " ".join(value_text(v, signed_nan) for v in np.asarray(a).reshape(-1))


class CaseWriter:
    """Writes cases as the imaging oracles' C++ readers take them:
        case <id> <op> <dtype> <key>=<value>...     (list values comma-separated)
        <word> <rank> <sizes> <names> values ...   (tensors of the case)"""

    def __init__(self, out):
        self.out = out
        self.cid = 0

    def case(self, op, dtype, params):
        fields = [f"{k}={','.join(str(v) for v in val) if isinstance(val, (list, tuple)) else val}"
                  for k, val in params.items()]
        self.out.write(f"case {self.cid} {op} {dtype} " + " ".join(fields) + "\n")
        self.cid += 1

    def tensor(self, word, a, names=None):
        import numpy as np

        a = np.asarray(a)
        self.out.write(f"{word} {shape_text(a.shape)} {names_text(names, a.ndim)} values {values_text(a)}\n")
