#!/usr/bin/env python3
"""NumPy writes the .npy / .npz files that test_io reads ([numpy] cases).

Everything goes under --out (a folder, emptied first):
  npy/<id>.npy   written by NumPy (np.save or np.lib.format.write_array)
  npy/<id>.raw   the same elements, C order, little-endian bytes (the oracle)
  manifest.txt   one line per file:
      npy <id> <version> <byteorder < > |> <dtype> <order C|F> <rank> <sizes...>
      npz <file> <compressed 0|1> <count>        followed by <count> lines
      entry <name> <dtype> <order> <rank> <sizes...>   (raw: npz/<file>.<name>.raw)
  rw.npy, cow.npy   files that test_io maps read_write / copy_on_write and writes
                    into; check_written.py then checks them with NumPy.
  cow.sha256        the hash of cow.npy as written here (it must never change).
  written/          test_io's outputs, listed in written.txt

After test_io has run, check_written.py reads what ntensor wrote back.
"""
import hashlib
import os
import random
import struct
import sys
import zipfile

import numpy as np

# The shared oracle writer, tests/numpy/oracle.py.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "../numpy"))
import oracle  # noqa: E402

NUMPY = oracle.NUMPY_NAMES
DTYPES = list(NUMPY)
SHAPES = [(), (5,), (3, 4), (2, 3, 4), (2, 1, 3, 2), (1, 2, 2, 3, 2), (0,), (3, 0, 2), (4, 1), (1,)]


def values(rng, dtype, shape):
    dt = np.dtype(NUMPY[dtype])
    n = int(np.prod(shape, dtype=np.int64))
    a = oracle.random_elements(rng, dt, n, 1000)
    if dt.kind == "f" and n >= 3:
        a[0], a[1], a[2] = np.nan, np.inf, -0.0
    return a.reshape(shape)


def write(path, arr, version):
    with open(path, "wb") as f:
        np.lib.format.write_array(f, arr, version=version, allow_pickle=False)


def raw(arr):
    return np.ascontiguousarray(arr).astype(arr.dtype.newbyteorder("<")).tobytes(order="C")


shape_text = oracle.shape_text


def rewrite_zip64(src, dst):
    """Copies an archive with every central record in zip64 form (sizes and offsets
    0xffffffff plus a zip64 extra field) and a zip64 end record and locator, which
    Python's zipfile only writes past 4 GiB or 65535 members."""
    with zipfile.ZipFile(src) as z:
        infos = z.infolist()
    data = open(src, "rb").read()
    end = data.rfind(b"PK\x05\x06")
    cd_offset = struct.unpack_from("<I", data, end + 16)[0]
    out = bytearray(data[:cd_offset])
    cd_start = len(out)
    for info in infos:
        name = info.filename.encode()
        extra = struct.pack("<HHQQQ", 1, 24, info.file_size, info.compress_size, info.header_offset)
        out += struct.pack("<IHHHHHHIIIHHHHHII", 0x02014B50, (3 << 8) | 45, 45, 0, info.compress_type,
                           0, 0x21, info.CRC, 0xFFFFFFFF, 0xFFFFFFFF, len(name), len(extra), 0, 0, 0,
                           0o100644 << 16, 0xFFFFFFFF)
        out += name + extra
    cd_size = len(out) - cd_start
    rec = len(out)
    out += struct.pack("<IQHHIIQQQQ", 0x06064B50, 44, (3 << 8) | 45, 45, 0, 0, len(infos), len(infos),
                       cd_size, cd_start)
    out += struct.pack("<IIQI", 0x07064B50, 0, rec, 1)
    out += struct.pack("<IHHHHIIH", 0x06054B50, 0, 0, 0xFFFF, 0xFFFF, 0xFFFFFFFF, 0xFFFFFFFF, 0)
    open(dst, "wb").write(bytes(out))


def main():
    args = oracle.arguments(seeded=False)
    rng = np.random.default_rng(args.seed)
    pick = random.Random(args.seed)

    oracle.folder(args.out, "npy", "npz", "written")
    lines = []

    def add_npy(dtype, shape, order, version, byteorder):
        ident = f"{len(lines):04d}_{dtype}_{'be' if byteorder == '>' else 'le'}_{order}_v{version}"
        a = values(rng, dtype, shape)
        if byteorder == ">":
            a = a.astype(a.dtype.newbyteorder(">"))
        if order == "F":
            a = np.asfortranarray(a)
        write(os.path.join(args.out, "npy", ident + ".npy"), a, (version, 0))
        open(os.path.join(args.out, "npy", ident + ".raw"), "wb").write(raw(a))
        bo = "|" if a.dtype.itemsize == 1 else byteorder
        # NumPy writes fortran_order only when the array is F- but not C-contiguous.
        f = "F" if a.flags.f_contiguous and not a.flags.c_contiguous else "C"
        lines.append(f"npy {ident} {version}.0 {bo} {dtype} {f} {shape_text(a.shape)}")

    # Every dtype, byte order, order and version on one 2-d shape ...
    for dtype in DTYPES:
        for byteorder in ("<", ">") if np.dtype(NUMPY[dtype]).itemsize > 1 else ("<",):
            for order in ("C", "F"):
                for version in (1, 2, 3):
                    add_npy(dtype, (3, 4), order, version, byteorder)
    # ... and every rank 0..5 and zero-size shape, order and version picked at random.
    for dtype in DTYPES:
        for byteorder in ("<", ">") if np.dtype(NUMPY[dtype]).itemsize > 1 else ("<",):
            for shape in SHAPES:
                add_npy(dtype, shape, pick.choice("CF"), pick.choice((1, 2, 3)), byteorder)

    # Archives: stored, compressed, and the stored one rewritten with zip64 records.
    entries = {}
    for i in range(40):
        dtype = DTYPES[i % len(DTYPES)]
        shape = SHAPES[pick.randrange(len(SHAPES))]
        a = values(rng, dtype, shape)
        if i % 5 == 1:
            a = np.asfortranarray(a)
        if i % 7 == 2 and a.dtype.itemsize > 1:
            a = a.astype(a.dtype.newbyteorder(">"))
        entries[f"arr_{i}_{dtype}"] = a
    np.savez(os.path.join(args.out, "npz", "stored.npz"), **entries)
    np.savez_compressed(os.path.join(args.out, "npz", "deflate.npz"), **entries)
    rewrite_zip64(os.path.join(args.out, "npz", "stored.npz"), os.path.join(args.out, "npz", "zip64.npz"))
    for file in ("stored.npz", "deflate.npz", "zip64.npz"):
        with np.load(os.path.join(args.out, "npz", file)) as z:  # NumPy reads its own and the rewritten one
            assert list(z.files) == list(entries), file
            for k in entries:
                assert raw(z[k]) == raw(entries[k]), (file, k)
        lines.append(f"npz {file} {int(file == 'deflate.npz')} {len(entries)}")
        for k, a in entries.items():
            order = "F" if a.flags.f_contiguous and not a.flags.c_contiguous else "C"
            lines.append(f"entry {k} {[d for d in DTYPES if np.dtype(NUMPY[d]) == a.dtype.newbyteorder('=')][0]} "
                         f"{order} {shape_text(a.shape)}")
    for k, a in entries.items():
        open(os.path.join(args.out, "npz", k + ".raw"), "wb").write(raw(a))

    # Files that test_io maps and writes into.
    np.save(os.path.join(args.out, "rw.npy"), np.arange(24, dtype=np.int32).reshape(4, 6))
    np.save(os.path.join(args.out, "cow.npy"), np.arange(24, dtype=np.float64).reshape(4, 6))
    digest = hashlib.sha256(open(os.path.join(args.out, "cow.npy"), "rb").read()).hexdigest()
    open(os.path.join(args.out, "cow.sha256"), "w").write(digest + "\n")

    oracle.write_lines(os.path.join(args.out, "manifest.txt"), lines)


if __name__ == "__main__":
    main()
