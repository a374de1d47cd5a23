#!/usr/bin/env python3
"""Runs the Python commands a document shows, so the docs cannot drift from them.

A marker line in a Markdown file

    <!-- python: data-write -->

says that the next ```python block belongs to step `data-write`. This script runs,
in order and in one interpreter namespace per call, every block of the given step,
with the working directory set to FOLDER (created if missing).

usage: run_doc_python.py DOCUMENT STEP FOLDER
Exit status: 0 when every block ran, 1 when one raised (its traceback is printed),
2 for bad usage or a step without blocks.
"""

import os
import re
import sys
import traceback

MARKER = re.compile(r"^\s*<!--\s*python:\s*(?P<step>[A-Za-z0-9_.-]+)\s*-->\s*$")
FENCE_OPEN = re.compile(r"^\s*```\s*python\s*$")
FENCE_CLOSE = re.compile(r"^\s*```\s*$")


def blocks(path, step):
    lines = open(path, encoding="utf-8").read().split("\n")
    out = []
    i = 0
    while i < len(lines):
        m = MARKER.match(lines[i])
        i += 1
        if not m or m.group("step") != step:
            continue
        while i < len(lines) and not lines[i].strip():
            i += 1
        if i >= len(lines) or not FENCE_OPEN.match(lines[i]):
            sys.exit(f"{path}:{i + 1}: the marker for step {step!r} is not followed by a ```python block")
        start = i + 1
        i = start
        while i < len(lines) and not FENCE_CLOSE.match(lines[i]):
            i += 1
        out.append((start + 1, "\n".join(lines[start:i])))
    return out


def main():
    if len(sys.argv) != 4:
        print(__doc__, file=sys.stderr)
        return 2
    document, step, folder = sys.argv[1:]
    found = blocks(document, step)
    if not found:
        print(f"{document}: no ```python block for step {step!r}", file=sys.stderr)
        return 2
    os.makedirs(folder, exist_ok=True)
    os.chdir(folder)
    namespace = {"__name__": "__doc__"}
    for line, code in found:
        try:
            exec(compile(code, f"{document}:{line}", "exec"), namespace)
        except Exception:
            traceback.print_exc()
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
