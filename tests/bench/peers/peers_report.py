#!/usr/bin/env python3
"""The table of scripts/bench.sh --peers: reads the lines the peers_* programs print
(<workload>\\t<column>\\t<seconds per call>) from the files named on the command line
and prints one markdown table: a row per workload, a column per library, ntensor on
1 and 2 threads and named, memcpy of the same bytes, and ntensor's 1-thread ratio to
the fastest peer ("peer time / ntensor time": above 1, ntensor is faster). Every peer
column counts for the ratio, the -march=native builds of xtensor and Eigen too. A
column no program printed is left out."""
import sys

PEERS = ["NumPy", "xtensor", "xtensor -march=native", "Eigen", "Eigen -march=native", "libtorch"]
OURS = ["ntensor 1T", "ntensor 2T", "ntensor named", "ntensor named, permuted"]
COLUMNS = PEERS + OURS + ["memcpy"]


def text(seconds):
    if seconds is None:
        return "—"
    if seconds < 1e-6:
        return f"{seconds * 1e9:.0f} ns"
    if seconds < 1e-3:
        return f"{seconds * 1e6:.1f} us"
    return f"{seconds * 1e3:.2f} ms"


def main():
    times, order = {}, []
    for path in sys.argv[1:]:
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
    columns = [c for c in COLUMNS if any(c in row for row in times.values())]
    print("| workload (f32) | " + " | ".join(columns) + " | ntensor 1T vs fastest peer |")
    print("|---" * (len(columns) + 2) + "|")
    for workload in order:
        row = times[workload]
        peers = {c: row[c] for c in PEERS if c in row}
        ratio = "—"
        if peers and "ntensor 1T" in row:
            fastest = min(peers, key=peers.get)
            ratio = f"{peers[fastest] / row['ntensor 1T']:.2f} ({fastest})"
        print(f"| {workload} | " + " | ".join(text(row.get(c)) for c in columns) + f" | {ratio} |")


if __name__ == "__main__":
    main()
