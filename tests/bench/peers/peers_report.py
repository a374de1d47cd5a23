#!/usr/bin/env python3
"""The table of scripts/bench.sh --peers: reads the lines the peers_* programs print
(<workload>\\t<column>\\t<seconds per call>) from the files named on the command line
and prints one markdown table: a row per workload, a column per library, ntensor on
1 and 2 threads and named, a plain C++ loop ("hand loop", not a peer: a baseline as
memcpy is), memcpy of the same bytes, and ntensor's 1-thread ratio to
the fastest peer ("peer time / ntensor time": above 1, ntensor is faster). Every peer
column counts for the ratio, the -march=native builds of xtensor and Eigen too. The
gradient workloads also time libtorch on 2 threads ("libtorch 2T", not counted in the
1-thread ratio; the last column compares it with ntensor 2T). A column no program
printed is left out.

    peers_report.py --runs DIR...   ntensor's ratio in each run's results directory
                                    (DIR/*.txt), one column per run: the spread."""
import glob
import os
import sys

PEERS = ["NumPy", "xtensor", "xtensor -march=native", "Eigen", "Eigen -march=native", "libtorch"]
OURS = ["ntensor 1T", "ntensor 2T", "ntensor named", "ntensor named, permuted"]
COLUMNS = PEERS + ["libtorch 2T"] + OURS + ["hand loop", "memcpy"]


def text(seconds):
    if seconds is None:
        return "—"
    if seconds < 1e-6:
        return f"{seconds * 1e9:.0f} ns"
    if seconds < 1e-3:
        return f"{seconds * 1e6:.1f} us"
    return f"{seconds * 1e3:.2f} ms"


def load(paths):
    """{workload: {column: seconds}} and the workloads in the order first printed."""
    times, order = {}, []
    for path in paths:
        with open(path) as f:
            for line in f:
                parts = line.rstrip("\n").split("\t")
                if len(parts) != 3:
                    continue
                workload, column, seconds = parts[0], parts[1], float(parts[2])
                if workload not in times:
                    times[workload] = {}
                    order.append(workload)
                times[workload][column] = seconds
    return times, order


def ratio(row):
    """'1.23 (libtorch)': the fastest peer's time over ntensor's 1-thread time."""
    peers = {c: row[c] for c in PEERS if c in row}
    if not peers or "ntensor 1T" not in row:
        return "—"
    fastest = min(peers, key=peers.get)
    return f"{peers[fastest] / row['ntensor 1T']:.2f} ({fastest})"


def ratio_2t(row):
    """libtorch 2T's time over ntensor 2T's."""
    if "libtorch 2T" not in row or "ntensor 2T" not in row:
        return "—"
    return f"{row['libtorch 2T'] / row['ntensor 2T']:.2f}"


def table(paths):
    times, order = load(paths)
    columns = [c for c in COLUMNS if any(c in row for row in times.values())]
    two = any("libtorch 2T" in row for row in times.values())
    extra = " ntensor 2T vs libtorch 2T |" if two else ""
    print("| workload (f32) | " + " | ".join(columns) + " | ntensor 1T vs fastest peer |" + extra)
    print("|---" * (len(columns) + 2 + (1 if two else 0)) + "|")
    for workload in order:
        row = times[workload]
        tail = f" {ratio_2t(row)} |" if two else ""
        print(f"| {workload} | " + " | ".join(text(row.get(c)) for c in columns) + f" | {ratio(row)} |" + tail)


def runs(dirs):
    loaded = [load(sorted(glob.glob(os.path.join(d, "*.txt")))) for d in dirs]
    order = []
    for _, o in loaded:
        order += [w for w in o if w not in order]
    print("| ntensor 1T vs fastest peer | " + " | ".join(f"run {i + 1}" for i in range(len(dirs))) + " |")
    print("|---" * (len(dirs) + 1) + "|")
    for workload in order:
        print(f"| {workload} | " + " | ".join(ratio(t.get(workload, {})) for t, _ in loaded) + " |")


if __name__ == "__main__":
    if sys.argv[1:2] == ["--runs"]:
        runs(sys.argv[2:])
    else:
        table(sys.argv[1:])
