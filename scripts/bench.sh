#!/usr/bin/env bash
# Benchmarks: builds Release with the benchmarks, runs them, and prints the table of
# docs/performance.md (ratios to the memcpy of this run and to NumPy on this machine).
# Not part of the test command: timings belong here, never in unit tests.
#   scripts/bench.sh              # bench_ops + NumPy comparison
#   scripts/bench.sh --all        # also bench_match, bench_views, bench_engine
#   scripts/bench.sh --peers      # only the side-by-side table with xtensor, Eigen,
#                                 # libtorch, NumPy and memcpy (installs those packages;
#                                 # tests/bench/peers/, table in build/peers/results/;
#                                 # also a training step and a 50-operation chain with
#                                 # gradients, and the step's peak memory, ntensor
#                                 # against libtorch on 1 and 2 threads)
set -euo pipefail
cd "$(dirname "$0")/.."

if [ "${1:-}" = "--peers" ]; then
    scripts/install-deps.sh --peers
    build=build/peers
    cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DNTENSOR_BUILD_TESTS=OFF \
          -DNTENSOR_BUILD_BENCHMARKS=OFF -DNTENSOR_BUILD_EXAMPLES=OFF -DNTENSOR_BUILD_PEER_BENCHMARKS=ON
    cmake --build "$build" --parallel "$(nproc)"
    out="$build/results"
    mkdir -p "$out"
    bin="$build/tests/bench/peers"
    rm -f "$out"/*.txt
    report="$out/report_peers.md"
    {
        echo "== side by side ($(date -u '+%Y-%m-%d %H:%M UTC'), $(lscpu | sed -n 's/^Model name: *//p'), $(nproc) cores, $(c++ --version | head -1))"
        echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
    } | tee "$report"
    /usr/bin/python3 tests/bench/peers/peers_numpy.py >"$out/numpy.txt"
    for p in peers_xtensor peers_xtensor_native peers_eigen peers_eigen_native peers_torch peers_ntensor; do
        if [ -x "$bin/$p" ]; then "$bin/$p" >"$out/$p.txt"; else echo "($p not built: its library was not found)"; fi
    done
    echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)" | tee -a "$report"
    echo | tee -a "$report"
    /usr/bin/python3 tests/bench/peers/peers_report.py "$out"/*.txt | tee -a "$report"
    # Peak memory of the training step: a process that runs only that step, each side.
    echo | tee -a "$report"
    for p in peers_torch peers_ntensor; do
        if [ -x "$bin/$p" ]; then "$bin/$p" --train-step-memory | tee -a "$report"; fi
    done
    exit 0
fi
scripts/install-deps.sh

build=build/bench
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DNTENSOR_BUILD_TESTS=OFF -DNTENSOR_BUILD_BENCHMARKS=ON
cmake --build "$build" --parallel "$(nproc)"
out="$build/results"
mkdir -p "$out"

"$build/tests/bench/bench_ops" --benchmark_repetitions=3 --benchmark_report_aggregates_only=true \
    --benchmark_min_time=0.2 --benchmark_out="$out/bench_ops.json" --benchmark_out_format=json >/dev/null
/usr/bin/python3 tests/bench/numpy_bench.py >"$out/numpy.json"
/usr/bin/python3 scripts/bench_report.py "$out/bench_ops.json" "$out/numpy.json" | tee "$out/report.md"

echo
echo "== .npy files (bench_io: 1 GiB int16 volume)"
"$build/tests/bench/bench_io" --benchmark_repetitions=3 --benchmark_report_aggregates_only=true \
    --benchmark_out="$out/bench_io.json" --benchmark_out_format=json >/dev/null
/usr/bin/python3 tests/bench/numpy_bench.py --io >"$out/numpy_io.json"
/usr/bin/python3 scripts/bench_report.py --io "$out/bench_io.json" "$out/numpy_io.json" | tee "$out/report_io.md"

echo
echo "== contractions (bench_linalg: OpenBLAS in both; load: $(cut -d' ' -f1-3 /proc/loadavg))"
"$build/tests/bench/bench_linalg" --benchmark_filter="/(128|1024|256|10000)/" --benchmark_repetitions=5 \
    --benchmark_min_time=0.3 --benchmark_out="$out/bench_linalg.json" --benchmark_out_format=json >/dev/null
/usr/bin/python3 tests/bench/numpy_bench.py --linalg-both >"$out/numpy_linalg.json"
/usr/bin/python3 scripts/bench_report.py --linalg "$out/bench_linalg.json" "$out/numpy_linalg.json" | tee "$out/report_linalg.md"

echo
echo "== zarr stores (bench_zarr: a 2 GiB uint16 volume, against zarr-python in the same run)"
/usr/bin/python3 tests/bench/zarr_bench.py "$build/tests/bench/bench_zarr" 1024 | tee "$out/report_zarr.md"

if [ "${1:-}" = "--all" ]; then
    for b in bench_match bench_views bench_engine; do
        echo
        echo "== $b"
        "$build/tests/bench/$b" --benchmark_min_time=0.2
    done
fi
echo
echo "results in $out/"
