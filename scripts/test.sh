#!/usr/bin/env bash
# Builds and runs every test: a Release build of the tests, examples and
# benchmarks (CTest runs the unit tests, the NumPy oracle tests, the command and
# example tests, the packaging tests and a short benchmark smoke run), then the
# test suite again under AddressSanitizer + UBSan. The examples are built and run
# in Release only: they call the library the way the tests do, and compiling and
# linking them a second time costs the command time and finds nothing new (figures:
# docs/performance.md, "Build time of the test command"). Last, the library is
# compiled by clang 14, so that it keeps compiling there.
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
# where it refuses code, in a fraction of a Release build's CPU time. Tests, examples
# and the CLI are left to GCC (they compiled with clang 14 when this step was added),
# which keeps the step a small part of the script's time (figures: docs/performance.md,
# "Build time of the test command").
echo "== clang 14: the library compiles"
cmake -S . -B "$clang" -G Ninja -DCMAKE_BUILD_TYPE= -DCMAKE_CXX_COMPILER=clang++-14 \
      -DNTENSOR_BUILD_TESTS=OFF -DNTENSOR_BUILD_EXAMPLES=OFF -DNTENSOR_BUILD_BENCHMARKS=OFF
cmake --build "$clang" --parallel "$jobs" --target ntensor
