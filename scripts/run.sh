#!/usr/bin/env bash
# The main job: install what is missing, build (Release), check the segmentation
# shape configs (one broadcast, and the whole pipeline) with `ntensor plan`, then
# run the example programs (scripts/run_examples.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh

build=build/release
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DNTENSOR_BUILD_TESTS=OFF -DNTENSOR_BUILD_BENCHMARKS=OFF
cmake --build "$build" --parallel "$(nproc)"

echo
echo "== ntensor plan examples/specs/segmentation.json"
"$build/src/cli/ntensor" plan examples/specs/segmentation.json
echo
echo "== ntensor plan --json examples/specs/segmentation.json"
"$build/src/cli/ntensor" plan --json examples/specs/segmentation.json
echo
echo "== ntensor plan examples/specs/segmentation_pipeline.json"
"$build/src/cli/ntensor" plan examples/specs/segmentation_pipeline.json

scripts/run_examples.sh "$build"

# The Python module (built above when pybind11 is there): installed into Debian's
# interpreter's site-packages, then a short example.
if ls "$build"/src/python/package/ntensor/_ntensor*.so >/dev/null 2>&1; then
    echo
    echo "== Python: cmake --install (component python), examples/python/first_look.py"
    # Into the system interpreter's site-packages: root's, through sudo otherwise.
    if [ "$(id -u)" -eq 0 ]; then
        cmake --install "$build" --component python
    else
        sudo cmake --install "$build" --component python
    fi
    /usr/bin/python3 examples/python/first_look.py
fi
