#!/usr/bin/env python3
"""zarr-python and xarray write the stores that test_zarr's [numpy] cases read.

usage: gen_zarr.py --out FOLDER [--seed S]

FOLDER (emptied first) receives:
  read/<id>/            a zarr v2 array written by zarr-python (or xarray: read/<id>.zarr/v)
  read/<id>.raw         its elements as little-endian C-order bytes (the oracle)
  read/<id>.r<k>.raw    the elements of region k (a NumPy slice)
  manifest.txt          per store:
      store <id> <path> <dtype> <order> <sep> <codec> <fill> <rank> <shape...> <chunks...> <names...>
      region <id> <k> <by_name 0|1> <start stop per axis...>
    <codec> is ntensor's codec.str() with spaces as '_'; <fill> 'null', 'nan', 'inf',
    '-inf' or the number; names '?' for unnamed.
Cases: every dtype, every compressor zarr-python and numcodecs offer that ntensor
reads (none, zlib, gzip, zstd, blosc lz4/lz4hc/zstd/zlib/blosclz with no, byte and
bit shuffle, zarr's default), both dimension separators, C and F order, big-endian
dtypes, fill values (0, numbers, NaN, +-Infinity, null), partial last chunks,
chunks deleted on purpose, and xarray datasets with named and dim_<i> dimensions.
"""
import os
import random
import sys

import numcodecs
import numpy as np
import xarray as xr
import zarr

# The shared oracle writer, tests/numpy/oracle.py.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "../../numpy"))
import oracle  # noqa: E402

DTYPES = oracle.NUMPY_NAMES


def codec_text(c, space="_"):
    """The compressor as ntensor names it ("blosc(lz4, level 5, byte shuffle)"), with
    `space` for each blank (the stores' file names take "_"; check_cli_zarr.py " ")."""
    if c is None:
        return "none"
    cfg = c.get_config()
    if cfg["id"] == "blosc":
        shuffle = {0: "no shuffle", 1: "byte shuffle", 2: "bit shuffle"}.get(cfg["shuffle"], "auto shuffle")
        text = f"blosc({cfg['cname']}, level {cfg['clevel']}, {shuffle})"
    else:
        text = f"{cfg['id']}(level {cfg['level']})"
    return text.replace(" ", space)


def values(rng, dt, shape):
    dt = np.dtype(dt)
    if dt.byteorder == ">":
        return values(rng, dt.newbyteorder("="), shape).astype(dt)
    n = int(np.prod(shape, dtype=np.int64))
    a = oracle.random_elements(rng, dt, n, 100)
    if dt.kind == "f":
        a[rng.integers(0, n, max(1, n // 50))] = np.nan  # NaN elements travel too
    return a.reshape(shape)


def raw(a):
    a = np.ascontiguousarray(a)
    return a.astype(a.dtype.newbyteorder("<")).tobytes()


def fill_text(f):
    if f is None:
        return "null"
    if isinstance(f, float) and np.isnan(f):
        return "nan"
    if isinstance(f, float) and np.isinf(f):
        return "inf" if f > 0 else "-inf"
    return repr(int(f)) if float(f).is_integer() else repr(float(f))


def main():
    args = oracle.arguments(seeded=False, seed=20261124)
    oracle.folder(args.out, "read")
    rng = np.random.default_rng(args.seed)
    rand = random.Random(args.seed)
    lines = []

    def emit(sid, path, a, z, names, by_name_ok=True):
        """Writes the oracle files of one store and its regions."""
        full = z[...]
        assert np.array_equal(full, a, equal_nan=a.dtype.kind == "f") or z.fill_value is None
        with open(os.path.join(args.out, "read", sid + ".raw"), "wb") as f:
            f.write(raw(full))
        comp = codec_text(z.compressor)
        shape = " ".join(map(str, z.shape))
        chunks = " ".join(map(str, z.chunks))
        dtype = [k for k, v in DTYPES.items() if np.dtype(v) == z.dtype.newbyteorder("=")][0]
        sep = getattr(z._store, "_dimension_separator", None) or z._dimension_separator or "."
        lines.append(f"store {sid} {path} {dtype} {z.order} {sep} {comp} {fill_text(z.fill_value)} {z.ndim} "
                     f"{shape} {chunks} {' '.join(names)}")
        for k in range(3):
            lo, hi = [], []
            for n in z.shape:
                a0 = rand.randint(0, max(0, n - 1))
                b0 = rand.randint(a0 + (1 if n else 0), n) if n else 0
                lo.append(a0)
                hi.append(b0)
            sel = tuple(slice(l, h) for l, h in zip(lo, hi))
            with open(os.path.join(args.out, "read", f"{sid}.r{k}.raw"), "wb") as f:
                f.write(raw(z[sel]))
            by_name = 1 if (by_name_ok and k % 2 and all(n != "?" for n in names)) else 0
            lines.append(f"region {sid} {k} {by_name} " + " ".join(f"{l} {h}" for l, h in zip(lo, hi)))

    codecs = [None, numcodecs.Zlib(level=3), numcodecs.GZip(level=5), numcodecs.Zstd(level=3),
              zarr.storage.default_compressor]
    for cname in ("lz4", "lz4hc", "zstd", "zlib", "blosclz"):
        for shuffle in (0, 1, 2):
            codecs.append(numcodecs.Blosc(cname, 5, shuffle))
    count = 0
    # Every dtype through a rotation of codecs, orders, separators and fill values.
    for d, (short, name) in enumerate(DTYPES.items()):
        for k in range(4):
            comp = codecs[(d * 4 + k) % len(codecs)]
            order = "CF"[k % 2]
            sep = "./"[(k // 2) % 2]
            shape = [(7, 9, 5), (13,), (4, 6), (3, 1, 4, 5)][k]
            chunks = [(3, 4, 2), (5,), (4, 6), (2, 1, 3, 2)][k]
            dt = np.dtype(name)
            if k == 3 and dt.itemsize > 1:
                dt = dt.newbyteorder(">")
            if dt.kind == "f":
                fill = [0.0, float("nan"), float("inf"), -7.5][k]
            elif dt.kind == "b":
                fill = [False, True, None, False][k]
            else:
                fill = [0, 3, None, 1][k]
            sid = f"{short}_{k}"
            path = os.path.join(args.out, "read", sid)
            a = values(rng, dt, shape)
            z = zarr.open(path, mode="w", shape=shape, chunks=chunks, dtype=dt, compressor=comp, order=order,
                          dimension_separator=sep, fill_value=fill)
            z[...] = a
            if k in (0, 1):  # chunks missing on purpose read as the fill value
                key = ".".join(["0"] * len(shape)) if sep == "." else "/".join(["0"] * len(shape))
                os.remove(os.path.join(path, key))
                if fill is not None:
                    a = a.copy()
                    a[tuple(slice(0, c) for c in chunks)] = fill
            if fill is None:
                # zarr-python leaves missing chunks of a null fill undefined: write them all.
                z[...] = a
            emit(sid, path, a, z, ["?"] * len(shape))
            count += 1
    # Every float fill value on every float type: -Infinity, Infinity, NaN, a number
    # and null, with a missing middle chunk and a partial last chunk on both axes.
    for short in ("f16", "f32", "f64"):
        for j, fill in enumerate((float("-inf"), float("inf"), float("nan"), 2.5, None)):
            sid = f"fill_{short}_{j}"
            path = os.path.join(args.out, "read", sid)
            sep = "./"[j % 2]
            a = values(rng, np.dtype(DTYPES[short]), (9, 7))
            z = zarr.open(path, mode="w", shape=a.shape, chunks=(4, 3), dtype=a.dtype, compressor=codecs[j],
                          order="FC"[j % 2], dimension_separator=sep, fill_value=fill)
            z[...] = a
            if fill is not None:
                os.remove(os.path.join(path, sep.join(("1", "1"))))
                a = a.copy()
                a[4:8, 3:6] = fill
            emit(sid, path, a, z, ["?"] * 2)
            count += 1
    # Edges: numcodecs' AUTOSHUFFLE (-1), chunks larger than the array, one chunk per
    # element, a long 1-D array with many partial-free chunks and a partial last one.
    edges = [("edge_autoshuffle_u8", np.uint8, (11, 13), (4, 5), numcodecs.Blosc("lz4", 5, -1)),
             ("edge_autoshuffle_i32", np.int32, (11, 13), (4, 5), numcodecs.Blosc("zstd", 3, -1)),
             ("edge_big_chunks", np.float64, (3, 5), (10, 10), numcodecs.Zstd(level=1)),
             ("edge_unit_chunks", np.int16, (3, 4, 2), (1, 1, 1), numcodecs.Blosc("lz4", 5, 1)),
             ("edge_long", np.uint32, (1001,), (64,), numcodecs.Blosc("blosclz", 9, 2)),
             ("edge_scalar", np.float32, (), (), numcodecs.Zlib(level=1)),
             ("edge_empty", np.int32, (0, 4), (2, 2), None)]
    for sid, dt, shape, chunks, comp in edges:
        path = os.path.join(args.out, "read", sid)
        a = values(rng, dt, shape)
        z = zarr.open(path, mode="w", shape=shape, chunks=chunks, dtype=dt, compressor=comp)
        z[...] = a
        emit(sid, path, a, z, ["?"] * len(shape))
        count += 1
    # Integer fill values a double does not hold exactly (beyond 2^53) and the types'
    # extremes, with a missing chunk: the missing elements must be exactly the fill.
    big = [("u64", 2**64 - 1), ("u64", 2**53 + 1), ("i64", -2**63), ("i64", 2**62 + 3), ("u32", 2**32 - 1),
           ("i32", -2**31), ("i8", -128), ("u16", 65535)]
    for j, (short, fill) in enumerate(big):
        sid = f"fillint_{short}_{j}"
        path = os.path.join(args.out, "read", sid)
        dt = np.dtype(DTYPES[short])
        a = values(rng, dt, (5, 6))
        z = zarr.open(path, mode="w", shape=a.shape, chunks=(3, 4), dtype=dt, compressor=codecs[j % len(codecs)],
                      fill_value=fill)
        z[...] = a
        os.remove(os.path.join(path, "0.1"))
        a = a.copy()
        a[0:3, 4:6] = fill
        emit(sid, path, a, z, ["?"] * 2)
        count += 1
    # Codecs that the rotation may have missed, on one 3-D uint16 volume each.
    for c, comp in enumerate(codecs):
        sid = f"codec_{c}"
        path = os.path.join(args.out, "read", sid)
        a = values(rng, np.uint16, (10, 12, 9))
        z = zarr.open(path, mode="w", shape=a.shape, chunks=(4, 5, 9), dtype=a.dtype, compressor=comp)
        z[...] = a
        emit(sid, path, a, z, ["?"] * 3)
        count += 1
    # xarray: named dimensions, and a dim_<i> one that reads back unnamed.
    ds = xr.Dataset({"ct": (("Z", "Y", "X"), values(rng, np.int16, (6, 10, 8))),
                     "w": (("dim_0", "X"), values(rng, np.float32, (3, 8)))})
    store = os.path.join(args.out, "read", "xr.zarr")
    ds.to_zarr(store, mode="w", encoding={"ct": {"chunks": (4, 5, 8)}})
    emit("xr_ct", os.path.join(store, "ct"), ds["ct"].values, zarr.open(os.path.join(store, "ct"), "r"),
         ["Z", "Y", "X"])
    emit("xr_w", os.path.join(store, "w"), ds["w"].values, zarr.open(os.path.join(store, "w"), "r"), ["?", "X"],
         by_name_ok=False)
    count += 2
    # xarray writing a Dask-backed variable chunk by chunk, with a coordinate (a 1-D
    # array named after its dimension) and an attribute-carrying uint8 mask.
    import dask.array as da
    vals = values(rng, np.float64, (5, 9, 11))
    ds2 = xr.Dataset({"v": (("T", "Y", "X"), da.from_array(vals, chunks=(2, 4, 11))),
                      "mask": (("Y", "X"), values(rng, np.uint8, (9, 11)), {"units": "1"})},
                     coords={"T": np.arange(5, dtype=np.int64) * 10})
    store2 = os.path.join(args.out, "read", "xr_dask.zarr")
    ds2.to_zarr(store2, mode="w")
    for var, names in (("v", ["T", "Y", "X"]), ("T", ["T"]), ("mask", ["Y", "X"])):
        emit(f"xr_dask_{var}", os.path.join(store2, var), np.asarray(ds2[var].values),
             zarr.open(os.path.join(store2, var), "r"), names)
        count += 1
    oracle.write_lines(os.path.join(args.out, "manifest.txt"), lines)
    print(f"wrote {count} stores")


if __name__ == "__main__":
    main()
