#!/usr/bin/env bash
# Builds and runs every test: a Release build of the tests, examples and
# benchmarks (CTest runs the unit tests, the NumPy oracle tests, the command and
# example tests, the packaging tests and a short benchmark smoke run), then the
# test suite again under AddressSanitizer + UBSan. The examples are built and run
# in Release only: they call the library the way the tests do, and compiling and
# linking them a second time took about a minute of the command's 2 cores.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh

jobs=$(nproc)
release=build/release
asan=build/asan

echo "== Release build and tests"
cmake -S . -B "$release" -G Ninja -DCMAKE_BUILD_TYPE=Release \
      -DNTENSOR_BUILD_TESTS=ON -DNTENSOR_BUILD_EXAMPLES=ON -DNTENSOR_BUILD_BENCHMARKS=ON
cmake --build "$release" --parallel "$jobs"
ctest --test-dir "$release" --output-on-failure --parallel "$jobs"

echo "== AddressSanitizer + UBSan build and tests"
cmake -S . -B "$asan" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DNTENSOR_SANITIZE=ON \
      -DNTENSOR_BUILD_TESTS=ON -DNTENSOR_BUILD_EXAMPLES=OFF -DNTENSOR_BUILD_BENCHMARKS=OFF
cmake --build "$asan" --parallel "$jobs"
ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
    ctest --test-dir "$asan" --output-on-failure --parallel "$jobs"
