#!/usr/bin/env bash
# The programs that scripts/run.sh (the README's main command) runs from its build
# folder must exist in a build: a target moved to src/cli/ once left it calling a
# path that no build makes. Usage: scripts/check_run_paths.sh <build folder>
set -euo pipefail
build=$1
status=0
for p in $(grep -o '"\$build/[^"]*"' "$(dirname "$0")/run.sh" | sed 's/^"\$build\///; s/"$//' | sort -u); do
    if [ ! -e "$build/$p" ]; then
        echo "scripts/run.sh runs \$build/$p, which $build does not have: fix the path in scripts/run.sh"
        status=1
    fi
done
exit $status
