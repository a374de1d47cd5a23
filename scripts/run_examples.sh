#!/usr/bin/env bash
# Runs every example program of a build, from the repository's root (they read
# examples/specs/*.json by that path). examples/guide_data needs NumPy's files first
# (and examples/guide_zarr zarr-python's, from docs/zarr.md the same way):
# the guide's own Python (docs/guide.md, step data-write) writes them into a scratch
# folder, and step data-read checks what the program saved.
#   scripts/run_examples.sh BUILD_DIR
# Used by scripts/run.sh, and by CTest (test run_examples) so that the main job
# cannot break unnoticed.
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:?usage: scripts/run_examples.sh BUILD_DIR}
python=/usr/bin/python3
[ -x "$python" ] || python=python3

scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT

for program in "$build"/examples/example_*; do
    [ -x "$program" ] || continue
    name=$(basename "$program")
    echo
    echo "== $name"
    if [ "$name" = example_guide_data ]; then
        "$python" scripts/run_doc_python.py docs/guide.md data-write "$scratch"
        "$program" "$scratch"
        "$python" scripts/run_doc_python.py docs/guide.md data-read "$scratch"
    elif [ "$name" = example_guide_zarr ]; then
        "$python" scripts/run_doc_python.py docs/zarr.md zarr-write "$scratch"
        "$program" "$scratch"
        "$python" scripts/run_doc_python.py docs/zarr.md zarr-read "$scratch"
    else
        "$program"
    fi
done
