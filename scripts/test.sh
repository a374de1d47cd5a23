#!/usr/bin/env bash
# Builds and runs every test: a Release build of the tests, examples and
# benchmarks (CTest runs the unit tests, the NumPy oracle tests, the command and
# example tests, the packaging tests and a short benchmark smoke run), then the
# test suite again under AddressSanitizer + UBSan. The examples are built and run
# in Release only: they call the library the way the tests do, and compiling and
# linking them a second time took about a minute of the command's 2 cores. Last,
# the library is compiled by clang 14, so that it keeps compiling there.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh

jobs=$(nproc)
release=build/release
asan=build/asan
clang=build/clang14

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

# clang rejects what GCC accepts (clang 14: __builtin_cpu_supports("f16c"), a lambda
# capturing a structured binding, two types in one `auto` declaration). The library
# target only, without optimisation: clang's front end and code generation, which is
# where it refuses code, in a quarter of a Release build's CPU time (106 against 410
# CPU-s). Tests, examples and the CLI are left to GCC (they compiled with clang 14
# when this step was added). The step added 112 s to the script's ~23 min on its
# 2-core machine, shared with other builds at the time (load 1.3-2.7), so about a
# minute on 2 idle cores.
echo "== clang 14: the library compiles"
cmake -S . -B "$clang" -G Ninja -DCMAKE_BUILD_TYPE= -DCMAKE_CXX_COMPILER=clang++-14 \
      -DNTENSOR_BUILD_TESTS=OFF -DNTENSOR_BUILD_EXAMPLES=OFF -DNTENSOR_BUILD_BENCHMARKS=OFF
cmake --build "$clang" --parallel "$jobs" --target ntensor
