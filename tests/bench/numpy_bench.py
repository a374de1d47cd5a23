#!/usr/bin/env python3
"""NumPy's time for the workloads of bench_ops, bench_structure and bench_linalg
(or, with --io, of bench_io; with --linalg-both, of bench_linalg alone), on this
machine, in this run.

Prints JSON: {case label: seconds per call (median of repeats)}. The labels are the
ones bench_ops / bench_io put on their results, so scripts/bench_report.py can pair
them. NumPy runs element-wise work on one thread; compare with ntensor's threads:1
rows. --io writes its files under $NT_BENCH_DIR (default: the temp folder).
"""
import json
import os
import sys
import tempfile
import timeit

import numpy as np
from numpy.lib.stride_tricks import sliding_window_view


def median_time(fn, min_seconds=0.2):
    fn()  # warm: caches, page faults of a reused result
    number = 1
    while True:
        t = timeit.timeit(fn, number=number)
        if t >= min_seconds / 5 or number >= 1 << 20:
            break
        number *= 4
    runs = sorted(timeit.repeat(fn, number=number, repeat=5))
    return runs[len(runs) // 2] / number


def spec_text(shape, names=None):
    text = "(" + ",".join(str(n) for n in shape)
    if names and any(n != "?" for n in names):
        text += " | " + ",".join(names)
    return text + ")"


def io_results():
    """np.save / np.load of bench_io's 1 GiB int16 volume, and np.load(mmap_mode='r')."""
    results = {}
    folder = os.path.join(os.environ.get("NT_BENCH_DIR", tempfile.gettempdir()), "ntensor_bench_io_numpy")
    os.makedirs(folder, exist_ok=True)
    shape = (512, 1024, 1024)
    v = (np.arange(np.prod(shape), dtype=np.int64) * 7 % 4001 - 2000).astype(np.int16).reshape(shape)
    path = os.path.join(folder, "volume.npy")

    def save():
        if os.path.exists(path):  # a new file each time, as bench_io does
            os.remove(path)
        np.save(path, v)
    results["save_npy (512,1024,1024) i16"] = median_time(save, min_seconds=2)
    results["load_npy (512,1024,1024) i16"] = median_time(lambda: np.load(path), min_seconds=2)
    results["map_npy open, 1 GiB file"] = median_time(lambda: np.load(path, mmap_mode="r"))
    os.remove(path)
    return results


def linalg_results():
    """The workloads of bench_linalg, on the OpenBLAS thread count of this process
    (OPENBLAS_NUM_THREADS, set by linalg_cases)."""
    threads = os.environ.get("OPENBLAS_NUM_THREADS", "?")
    results = {}
    x = np.full((8, 64, 128, 128), 0.5, dtype=np.float32)
    w = np.full((64, 64), 0.25, dtype=np.float32)
    label = f"einsum N C H W, C K -> N K H W (8,64,128,128) f32 threads:{threads}"
    # optimize=True is NumPy's BLAS route (tensordot, then a transposed view);
    # the default einsum loops without BLAS.
    results[label] = median_time(lambda: np.einsum("nchw,ck->nkhw", x, w, optimize=True))
    if threads == "1":
        results[label + " optimize=False"] = median_time(lambda: np.einsum("nchw,ck->nkhw", x, w), min_seconds=1)
    for n in (1024,):
        a = np.full((n, n), 0.5, dtype=np.float32)
        b = np.full((n, n), 0.25, dtype=np.float32)
        results[f"matmul ({n},{n}) f32 threads:{threads}"] = median_time(lambda: a @ b)
    a = np.full((256, 256), 3, dtype=np.int32)
    b = np.full((256, 256), 5, dtype=np.int32)
    results[f"matmul (256,256) i32 threads:{threads}"] = median_time(lambda: a @ b)
    a = np.full((10000, 4, 4), 0.5, dtype=np.float32)
    b = np.full((10000, 4, 4), 0.25, dtype=np.float32)
    results[f"matmul (10000,4,4) f32 threads:{threads}"] = median_time(lambda: a @ b)
    return results


def linalg_cases(results):
    """linalg_results on 1 and 2 OpenBLAS threads, each in a fresh interpreter (the
    thread count is read when OpenBLAS loads)."""
    import subprocess
    for threads in ("1", "2"):
        env = dict(os.environ, OPENBLAS_NUM_THREADS=threads)
        out = subprocess.run([sys.executable, __file__, "--linalg"], env=env, check=True,
                             capture_output=True, text=True).stdout
        results.update(json.loads(out))


def main():
    if "--linalg" in sys.argv[1:]:
        json.dump(linalg_results(), sys.stdout, indent=1)
        print()
        return
    if "--linalg-both" in sys.argv[1:]:
        results = {}
        linalg_cases(results)
        json.dump(results, sys.stdout, indent=1)
        print()
        return
    if "--io" in sys.argv[1:]:
        json.dump(io_results(), sys.stdout, indent=1)
        print()
        return
    results = {}
    adds = [
        ((10, 3, 256, 384), (10, 1, 256, 384)),
        ((20, 3, 512, 512), (20, 1, 512, 512)),
        ((4096, 4096), (4096, 1)),
        ((64, 32, 8, 5), (32, 8, 1)),
        ((4, 8), (8,)),
    ]
    for a_shape, b_shape in adds:
        a = np.full(a_shape, 1.5, dtype=np.float32)
        b = np.full(b_shape, 1.5, dtype=np.float32)
        out = a + b
        label = spec_text(a_shape) + " + " + spec_text(b_shape)
        results[label + " fresh"] = median_time(lambda: np.add(a, b))
        results[label + " out="] = median_time(lambda: np.add(a, b, out=out))
    # The named case, as NumPy users must write it: insert the singleton by hand.
    img = np.full((10, 3, 256, 384), 1.5, dtype=np.float32)
    lbl = np.full((10, 256, 384), 1.5, dtype=np.float32)
    out = img + lbl[:, None]
    label = spec_text(img.shape, ["?", "CHANNEL", "H", "W"]) + " + " + spec_text(lbl.shape, ["?", "H", "W"])
    results[label + " fresh"] = median_time(lambda: np.add(img, lbl[:, None]))
    results[label + " out="] = median_time(lambda: np.add(img, lbl[:, None], out=out))
    # The tiny named case: NumPy's plain broadcast already pairs W with W.
    small, row = np.full((4, 8), 1.5, dtype=np.float32), np.full((8,), 1.5, dtype=np.float32)
    small_out = small + row
    label = spec_text(small.shape, ["H", "W"]) + " + " + spec_text(row.shape, ["W"])
    results[label + " fresh"] = median_time(lambda: np.add(small, row))
    results[label + " out="] = median_time(lambda: np.add(small, row, out=small_out))

    x = np.arange(3 * 256 * 384, dtype=np.float32).reshape(3, 256, 384)
    results["(3,256,384).permute(2,1,0).contiguous()"] = median_time(
        lambda: np.ascontiguousarray(x.transpose(2, 1, 0)))
    t = np.arange(4096 * 4096, dtype=np.float32).reshape(4096, 4096)
    results["(4096,4096).transpose().contiguous()"] = median_time(lambda: np.ascontiguousarray(t.T))
    f = np.arange(256 * 384 * 3, dtype=np.float32).reshape(256, 384, 3)
    results["(256,384,3).reshape(-1, fortran)"] = median_time(lambda: f.reshape(-1, order="F"))
    u = np.arange(10_000_000, dtype=np.float32)
    results["unfold(1e7, 8, 1).contiguous()"] = median_time(lambda: np.ascontiguousarray(sliding_window_view(u, 8)))

    # The typed workloads of bench_ops: a (32,512,512) volume of 0 .. 4095.
    shape = (32, 512, 512)
    base = (np.arange(np.prod(shape), dtype=np.int32) % 4096).reshape(shape)
    mean, std = np.float32(2047.5), np.float32(1182.4)
    for name, dtype in (("u16", np.uint16), ("i16", np.int16), ("f16", np.float16)):
        ct = base.astype(dtype)
        # astype first: NumPy 1.x would keep float16 for an f16 array with a float32 scalar.
        results[f"(ct - mean) / std, {name} {spec_text(shape)} -> f32"] = median_time(
            lambda: (ct.astype(np.float32) - mean) / std)
    for name, dtype in (("u16", np.uint16), ("i16", np.int16), ("u8", np.uint8)):
        a = base.astype(dtype)
        b = base.astype(dtype)
        results[f"{name} {spec_text(shape)} + {name} {spec_text(shape)}"] = median_time(lambda: np.add(a, b))
    ct = base.astype(np.uint16)
    results[f"sum u16 {spec_text(shape)}"] = median_time(lambda: np.sum(ct))
    # bench_ops' BM_mixed: two element types, NumPy's buffered casting loops.
    acc = np.zeros(shape, dtype=np.float32)
    results[f"f32 {spec_text(shape)} += u16 {spec_text(shape)}"] = median_time(lambda: np.add(acc, ct, out=acc))
    x = ct.astype(np.float32)
    results[f"f32 {spec_text(shape)} += f32 {spec_text(shape)}"] = median_time(lambda: np.add(acc, x, out=acc))
    scale = np.float32(0.25)
    results[f"u16 {spec_text(shape)} * f32 () fresh"] = median_time(lambda: np.multiply(ct, scale, dtype=np.float32))
    # bench_ops' BM_compare: thresholds into masks.
    f = ct.astype(np.float32) * np.float32(1 / 4096)
    g = f * np.float32(0.75) + np.float32(0.1)
    piece = np.ascontiguousarray(ct[0, :256, :256])
    results["u16 (32,512,512) > 1000"] = median_time(lambda: ct > 1000)
    results["f32 (32,512,512) > 0.5"] = median_time(lambda: f > np.float32(0.5))
    results["f32 (32,512,512) < f32 (32,512,512)"] = median_time(lambda: f < g)
    results["u16 (256,256) > 1000"] = median_time(lambda: piece > 1000)
    # bench_ops' BM_unary: float functions (floor of x * 8, as there).
    x = f + np.float32(1 / 8192)
    for name, fn in (("exp", np.exp), ("log", np.log), ("sqrt", np.sqrt), ("tanh", np.tanh), ("round", np.rint),
                     ("sin", np.sin), ("floor", lambda v: np.floor(v * np.float32(8))),
                     ("sigmoid", lambda v: 1 / (1 + np.exp(-v)))):
        results[f"{name} f32 {spec_text(shape)}"] = median_time(lambda fn=fn: fn(x))
    results[f"sqrt u16 {spec_text(shape)}"] = median_time(lambda: np.sqrt(ct))
    results[f"log1p u16 {spec_text(shape)}"] = median_time(lambda: np.log1p(ct))
    # bench_ops' BM_cast: a f32 volume stored as integers.
    y = ct.astype(np.float32) * np.float32(1.0001)
    y64 = y.astype(np.float64)
    results["f32 (32,512,512) astype u16"] = median_time(lambda: y.astype(np.uint16))
    results["f32 (32,512,512) astype i16"] = median_time(lambda: y.astype(np.int16))
    results["f32 (32,512,512) astype u8"] = median_time(lambda: np.clip(y, 0, 255).astype(np.uint8))
    results["f64 (32,512,512) astype i32"] = median_time(lambda: y64.astype(np.int32))
    small, row = np.full((4, 8), 3, dtype=np.uint16), np.full((8,), 1.5, dtype=np.float32)
    results[f"u16 {spec_text(small.shape)} + f32 {spec_text(row.shape)} fresh"] = median_time(lambda: small + row)
    # bench_ops' BM_reduce: extremes, a sum over slices, max and argmax over classes, masks.
    prob = f.reshape(16, 8, 256, 256)
    i16 = base.astype(np.int16)
    mask = f > np.float32(0.5)
    results["max f32 (32,512,512)"] = median_time(lambda: f.max())
    results["min i16 (32,512,512)"] = median_time(lambda: i16.min())
    results["sum f32 (32,512,512) axis 0"] = median_time(lambda: f.sum(0))
    results["max f32 (16,8,256,256) axis 1"] = median_time(lambda: prob.max(1))
    results["argmax f32 (16,8,256,256) axis 1"] = median_time(lambda: prob.argmax(1))
    results["any bool (32,512,512)"] = median_time(lambda: mask.any())
    results["logical_and bool (32,512,512)"] = median_time(lambda: np.logical_and(mask, mask))
    # bench_ops' BM_layers: softmax, log_softmax and cross entropy over the 8 classes.
    labels = prob.argmax(1)

    def softmax():
        e = np.exp(prob - prob.max(1, keepdims=True))
        return e / e.sum(1, keepdims=True)

    def log_softmax():
        shifted = prob - prob.max(1, keepdims=True)
        return shifted - np.log(np.exp(shifted).sum(1, keepdims=True))

    def cross_entropy():
        return -np.take_along_axis(log_softmax(), labels[:, None], 1).mean()

    results["softmax f32 (16,8,256,256) axis 1"] = median_time(softmax)
    results["log_softmax f32 (16,8,256,256) axis 1"] = median_time(log_softmax)
    results["cross_entropy f32 (16,8,256,256) axis 1"] = median_time(cross_entropy)
    structure_cases(results)
    linalg_cases(results)
    stats_cases(results)
    json.dump(results, sys.stdout, indent=1)
    print()


def stats_cases(results):
    """The workloads of bench_stats, under its labels."""
    rng = np.random.default_rng(7)
    x = rng.uniform(-1000, 1000, (4, 8, 32, 64, 64)).astype(np.float32)
    results["stddev (4,8,32,64,64) over ?,D,H,W"] = median_time(lambda: np.std(x, axis=(0, 2, 3, 4)))
    c = rng.uniform(-1000, 1000, (1024, 4096)).astype(np.float32)
    results["cumsum (1024,4096) f32 along W"] = median_time(lambda: np.cumsum(c, axis=1))
    results["cumsum (1024,4096) f32 along H"] = median_time(lambda: np.cumsum(c, axis=0))
    s = rng.uniform(-1000, 1000, 10_000_000).astype(np.float32)
    results["sort 1e7 f32"] = median_time(lambda: np.sort(s))
    results["argsort 1e7 f32"] = median_time(lambda: np.argsort(s, kind="stable"))
    rows = rng.uniform(-1000, 1000, (4096, 1024)).astype(np.float32)

    def topk():
        part = np.argpartition(-rows, 10, axis=1)[:, :10]
        order = np.argsort(-np.take_along_axis(rows, part, 1), axis=1, kind="stable")
        return np.take_along_axis(part, order, 1)
    results["topk 10 of (4096,1024) f32 rows"] = median_time(topk)
    labels = rng.integers(0, 4, 10_000_000).astype(np.uint8)
    results["unique_counts 1e7 u8"] = median_time(lambda: np.unique(labels, return_counts=True))
    results["one_hot 1e7 u8 into 4 classes"] = median_time(
        lambda: (labels[:, None] == np.arange(4, dtype=np.uint8)).astype(np.int64))
    results["bincount 1e7 u8"] = median_time(lambda: np.bincount(labels))


def structure_cases(results):
    """The workloads of bench_structure, under its labels."""
    vols = [np.full((128, 128, 128), float(i), dtype=np.float32) for i in range(8)]
    results["concatenate 8x(128,128,128) D"] = median_time(lambda: np.concatenate(vols, 0))
    img = np.ones((512, 512, 64), dtype=np.float32)
    results["pad reflect (512,512,64) H,W by 16"] = median_time(
        lambda: np.pad(img, ((16, 16), (16, 16), (0, 0)), mode="reflect"))
    n, size, step = 128, 8, 6
    patches = np.ascontiguousarray(sliding_window_view(np.ones((n, n, n), dtype=np.float32), (size,) * 3)[::step, ::step, ::step])

    def fold():
        # The usual NumPy spelling: one add per window offset (size^3 adds of strided views).
        out = np.zeros((n, n, n), dtype=np.float32)
        w = patches.shape[0]
        for i in range(size):
            for j in range(size):
                for k in range(size):
                    out[i:i + step * (w - 1) + 1:step, j:j + step * (w - 1) + 1:step,
                        k:k + step * (w - 1) + 1:step] += patches[:, :, :, i, j, k]
        return out
    results["fold 8^3 step 6 over (128,128,128)"] = median_time(fold)
    x = np.ones((8, 16, 256, 256), dtype=np.float32)
    results["rearrange space-to-depth (8,16,256,256)"] = median_time(
        lambda: x.reshape(8, 16, 128, 2, 128, 2).transpose(0, 1, 3, 5, 2, 4).reshape(8, 64, 128, 128))
    for name, dtype in (("u8", np.uint8), ("u16", np.uint16), ("f32", np.float32)):
        chw, hwc = np.ones((3, 1024, 1024), dtype=dtype), np.ones((1024, 1024, 3), dtype=dtype)
        results[f"channels last (3,1024,1024) {name}"] = median_time(
            lambda: np.ascontiguousarray(chw.transpose(1, 2, 0)))
        results[f"channels first (1024,1024,3) {name}"] = median_time(
            lambda: np.ascontiguousarray(hwc.transpose(2, 0, 1)))
        if name != "u16":
            crop = hwc[112:912, 62:962]
            results[f"channels first, crop (800,900) of (1024,1024,3) {name}"] = median_time(
                lambda: np.ascontiguousarray(crop.transpose(2, 0, 1)))
    for name, dtype in (("u8", np.uint8), ("i16", np.int16)):
        square, volume = np.ones((4096, 4096), dtype=dtype), np.ones((64, 256, 256), dtype=dtype)
        results[f"transpose (4096,4096) {name}"] = median_time(lambda: np.ascontiguousarray(square.T))
        results[f"reorient (64,256,256) {name}"] = median_time(
            lambda: np.ascontiguousarray(volume.transpose(2, 1, 0)))
    for name, dtype in (("f32", np.float32), ("u8", np.uint8), ("f64", np.float64)):
        chw, hwc = np.ones((3, 256, 384), dtype=dtype), np.ones((256, 384, 3), dtype=dtype)
        results[f"permute (3,256,384) (2,1,0) {name}"] = median_time(
            lambda: np.ascontiguousarray(chw.transpose(2, 1, 0)))
        results[f"fortran flatten (256,384,3) {name}"] = median_time(lambda: hwc.reshape(-1, order="F"))


if __name__ == "__main__":
    main()
