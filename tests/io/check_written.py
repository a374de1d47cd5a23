#!/usr/bin/env python3
"""NumPy reads what test_io wrote (after its [numpy] cases ran).

<dir>/written.txt lists one output per line:
  npy <written.npy> <numpy's source .npy> <same|view>
      np.load and np.load(mmap_mode='r') of the written file must equal the source
      (view: source.transpose()[::-1]) in dtype (little-endian), shape and bytes.
  npz <written.npz> <numpy's source .npz> <stored|deflate>
      same arrays, same names, same order, the expected zip method.
  many <written.npz> <count>   entry e<i> is np.array([i, -i], int32)
  rw <file>    mapped read_write: row 1 set to -7 and [3, 5] to 99 through the mapping
  cow <file> <sha256 file>     mapped copy_on_write and written: unchanged on disk
Prints one line per failure and exits 1 if any.
"""
import hashlib
import sys
import zipfile

import numpy as np

failures = []


def fail(msg):
    failures.append(msg)
    print("FAIL:", msg)


def le(a):
    return np.ascontiguousarray(a).astype(a.dtype.newbyteorder("<"))


def same(label, got, want):
    if got.dtype != want.dtype.newbyteorder("<") and got.dtype != want.dtype.newbyteorder("="):
        return fail(f"{label}: dtype {got.dtype.str}, expected {want.dtype.str} (little-endian)")
    if got.shape != want.shape:
        return fail(f"{label}: shape {got.shape}, expected {want.shape}")
    if le(got).tobytes() != le(want).tobytes():
        fail(f"{label}: values differ")


def main():
    folder = sys.argv[1]
    lines = [l.split() for l in open(f"{folder}/written.txt") if l.strip()]
    if not lines:
        fail("written.txt is empty: test_io wrote nothing")
    for words in lines:
        kind = words[0]
        if kind == "npy":
            path, source, how = words[1:4]
            want = np.load(source)
            if how == "view":
                want = want.transpose()[::-1]
            same(path, np.load(path), want)
            same(path + " (mmap)", np.load(path, mmap_mode="r"), want)
        elif kind == "npz":
            path, source, method = words[1:4]
            with zipfile.ZipFile(path) as z:
                types = {i.compress_type for i in z.infolist()}
                expected = zipfile.ZIP_DEFLATED if method == "deflate" else zipfile.ZIP_STORED
                if types != {expected}:
                    fail(f"{path}: zip methods {types}, expected {expected}")
                if z.testzip() is not None:
                    fail(f"{path}: CRC error in {z.testzip()}")
            with np.load(path) as got, np.load(source) as want:
                if list(got.files) != list(want.files):
                    fail(f"{path}: entries {got.files}, expected {want.files}")
                    continue
                for k in want.files:
                    same(f"{path}[{k}]", got[k], want[k])
        elif kind == "many":
            path, count = words[1], int(words[2])
            with np.load(path) as got:
                if len(got.files) != count:
                    fail(f"{path}: {len(got.files)} entries, expected {count}")
                for i in (0, 1, count // 2, count - 1):
                    same(f"{path}[e{i}]", got[f"e{i}"], np.array([i, -i], np.int32))
        elif kind == "rw":
            want = np.arange(24, dtype=np.int32).reshape(4, 6)
            want[1, :] = -7
            want[3, 5] = 99
            same(words[1], np.load(words[1]), want)
        elif kind == "cow":
            digest = hashlib.sha256(open(words[1], "rb").read()).hexdigest()
            if digest != open(words[2]).read().strip():
                fail(f"{words[1]}: changed on disk by a copy_on_write mapping")
        else:
            fail(f"unknown line {words}")
    print(f"checked {len(lines)} outputs, {len(failures)} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
