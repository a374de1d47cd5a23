#!/usr/bin/env python3
"""Turns bench_ops' JSON (and numpy_bench.py's) into the table of docs/performance.md.

For each workload: time per call, effective GB/s (bytes read + written / time), the
ratio to the memcpy of the nearest byte count measured in the same run, and the ratio
of NumPy's time to ours (> 1: ntensor is faster).
usage: bench_report.py BENCH_OPS_JSON [NUMPY_JSON]
       bench_report.py --io BENCH_IO_JSON [NUMPY_IO_JSON]   (bench_io's table)
       bench_report.py --linalg BENCH_LINALG_JSON [NUMPY_JSON]   (bench_linalg's table)
"""
import json
import sys


def main():
    ours = json.load(open(sys.argv[1]))["benchmarks"]
    numpy = json.load(open(sys.argv[2])) if len(sys.argv) > 2 else {}
    rows = [b for b in ours if b.get("run_type", "iteration") == "aggregate" and b["aggregate_name"] == "median"] \
        or [b for b in ours if b.get("run_type", "iteration") == "iteration"]
    memcpy = {}
    for b in rows:
        if b["name"].startswith("BM_memcpy"):
            memcpy[int(b["bytes"])] = b["bytes_per_second"]
    print("| workload | threads | result | time | GB/s | / memcpy | NumPy time | NumPy / ntensor |")
    print("|---|---|---|---|---|---|---|---|")
    for b in rows:
        name = b["name"]
        if not name.startswith(("BM_add", "BM_copy", "BM_transpose_naive", "BM_normalize", "BM_sum", "BM_mixed",
                                "BM_in_place", "BM_compare", "BM_unary", "BM_cast", "BM_reduce")):
            continue
        label = b.get("label", "naive transpose loop (4096,4096)")
        threads = "1" if "BM_transpose_naive" in name else name.split("threads:")[1].split("/")[0]
        fresh = "fresh" if ("fresh:1" in name or name.startswith(("BM_copy", "BM_normalize", "BM_add_int"))) \
            else ("out=" if "fresh:0" in name else "")
        seconds = b["real_time"] * {"ns": 1e-9, "us": 1e-6, "ms": 1e-3, "s": 1.0}[b["time_unit"]]
        gbs = b["bytes_per_second"] / 1e9
        nearest = min(memcpy, key=lambda n: abs(n - int(b["bytes"]))) if memcpy else None
        ratio = f"{b['bytes_per_second'] / memcpy[nearest]:.2f}" if nearest else ""
        time = f"{seconds * 1e9:.0f} ns" if seconds < 1e-5 else f"{seconds * 1e3:.3f} ms"
        key = label.replace(" fresh", "").replace(" out=", "")
        np_key = label if name.startswith("BM_add") and not name.startswith("BM_add_int") else key
        np_time = numpy.get(np_key)
        np_text = "" if np_time is None else (f"{np_time * 1e9:.0f} ns" if np_time < 1e-5 else f"{np_time * 1e3:.3f} ms")
        speedup = "" if np_time is None else f"{np_time / seconds:.2f}"
        print(f"| {key} | {threads} | {fresh} | {time} | {gbs:.1f} | {ratio} | {np_text} | {speedup} |")


def io_report(ours, numpy):
    """bench_io's rows: time, GB/s, ratio to the memcpy of the volume, NumPy's time."""
    rows = [b for b in ours if b.get("run_type", "iteration") == "aggregate" and b["aggregate_name"] == "median"] \
        or [b for b in ours if b.get("run_type", "iteration") == "iteration"]
    memcpy = next((b for b in rows if b["name"].startswith("BM_memcpy_volume")), None)
    print("| workload | time | GB/s | / memcpy | NumPy time | NumPy / ntensor |")
    print("|---|---|---|---|---|---|")
    for b in rows:
        seconds = b["real_time"] * {"ns": 1e-9, "us": 1e-6, "ms": 1e-3, "s": 1.0}[b["time_unit"]]
        gbs = f"{b['bytes_per_second'] / 1e9:.2f}" if "bytes_per_second" in b else ""
        ratio = f"{b['bytes_per_second'] / memcpy['bytes_per_second']:.2f}" if memcpy and "bytes_per_second" in b else ""
        label = b.get("label", b["name"])
        time = f"{seconds * 1e6:.1f} us" if seconds < 1e-3 else f"{seconds * 1e3:.1f} ms"
        np_time = numpy.get(label)
        np_text = "" if np_time is None else (f"{np_time * 1e6:.1f} us" if np_time < 1e-3 else f"{np_time * 1e3:.1f} ms")
        speedup = "" if np_time is None else f"{np_time / seconds:.2f}"
        print(f"| {label} | {time} | {gbs} | {ratio} | {np_text} | {speedup} |")


def linalg_report(ours, numpy):
    """bench_linalg's rows: best and median time of the repetitions, GFLOP/s, NumPy's
    time under the same label and the ratio (> 1: ntensor is faster)."""
    runs = {}
    for b in ours:
        if b.get("run_type", "iteration") != "iteration":
            continue
        seconds = b["real_time"] * {"ns": 1e-9, "us": 1e-6, "ms": 1e-3, "s": 1.0}[b["time_unit"]]
        runs.setdefault(b.get("label", b["name"]), []).append((seconds, b.get("FLOP/s", 0.0)))
    print("| workload | best | median | GFLOP/s (best) | NumPy | NumPy / ntensor (best) |")
    print("|---|---|---|---|---|---|")
    for label, rs in runs.items():
        times = sorted(t for t, _ in rs)
        best, median = times[0], times[len(times) // 2]
        flops = max(f for _, f in rs) / 1e9
        np_time = numpy.get(label)
        np_text = "" if np_time is None else f"{np_time * 1e3:.2f} ms"
        ratio = "" if np_time is None else f"{np_time / best:.2f}"
        print(f"| {label} | {best * 1e3:.2f} ms | {median * 1e3:.2f} ms | {flops:.1f} | {np_text} | {ratio} |")


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] == "--linalg":
        linalg_report(json.load(open(sys.argv[2]))["benchmarks"], json.load(open(sys.argv[3])) if len(sys.argv) > 3 else {})
        sys.exit(0)
    if len(sys.argv) > 1 and sys.argv[1] == "--io":
        io_report(json.load(open(sys.argv[2]))["benchmarks"], json.load(open(sys.argv[3])) if len(sys.argv) > 3 else {})
    else:
        main()
