#!/usr/bin/env python3
"""Checks that the code shown in docs/*.md is the code CTest builds and runs.

A marker line in a Markdown file

    <!-- snippet: guide_basics#creation -->

says that the next ```cpp block is a copy of the region of examples/guide_basics.cpp
between the two lines that read `// [creation]` (whole line, any indentation).
The block must equal that region, both dedented (common leading whitespace removed),
ignoring trailing whitespace and blank lines at either end. Marker lines of other
regions nested inside the region are left out, so regions may overlap.

A document that contains the line

    <!-- check_docs: every cpp block is a snippet -->

must also put a marker before each of its ```cpp blocks.

Usage: check_docs.py [PROJECT_ROOT]   (default: the parent of this script's folder)
Exit status: 0 when every snippet matches, 1 when one does not (each failure is
reported with the document, line, example file, tag and a diff), 2 for bad usage.
Standard library only, so any python3 runs it.
"""

from __future__ import annotations

import difflib
import re
import sys
import textwrap
from pathlib import Path

MARKER = re.compile(r"^\s*<!--\s*snippet:\s*(?P<file>[A-Za-z0-9_./-]+)#(?P<tag>[A-Za-z0-9_.-]+)\s*-->\s*$")
MARKER_LIKE = re.compile(r"<!--\s*snippet\b")
STRICT = "<!-- check_docs: every cpp block is a snippet -->"
FENCE_OPEN_CPP = re.compile(r"^\s*```\s*(cpp|c\+\+)\s*$")
FENCE_OPEN_ANY = re.compile(r"^\s*```")
FENCE_CLOSE = re.compile(r"^\s*```\s*$")
REGION = re.compile(r"^\s*//\s*\[(?P<tag>[A-Za-z0-9_.-]+)\]\s*$")


def normalise(lines: list[str]) -> list[str]:
    """Dedented lines without trailing whitespace or blank lines at either end."""
    text = textwrap.dedent("\n".join(line.rstrip() for line in lines))
    out = text.split("\n")
    while out and not out[0].strip():
        out.pop(0)
    while out and not out[-1].strip():
        out.pop()
    return out


class Checker:
    def __init__(self, root: Path) -> None:
        self.root = root
        self.failures: list[str] = []
        self.checked = 0
        self._examples: dict[Path, list[str]] = {}

    def fail(self, where: str, message: str) -> None:
        self.failures.append(f"{where}: {message}")

    def example_lines(self, path: Path) -> list[str] | None:
        if path not in self._examples:
            if not path.is_file():
                return None
            self._examples[path] = path.read_text(encoding="utf-8").split("\n")
        return self._examples[path]

    def region(self, where: str, file: str, tag: str) -> list[str] | None:
        """The lines of region `tag` in examples/<file>.cpp, or None after reporting why not."""
        name = file if file.endswith((".cpp", ".hpp", ".h")) else file + ".cpp"
        path = self.root / "examples" / name
        lines = self.example_lines(path)
        if lines is None:
            self.fail(where, f"snippet {file}#{tag}: the example file examples/{name} does not exist")
            return None
        marks = [i for i, line in enumerate(lines) if (m := REGION.match(line)) and m.group("tag") == tag]
        if not marks:
            self.fail(where, f"snippet {file}#{tag}: examples/{name} has no region '// [{tag}]'")
            return None
        if len(marks) != 2:
            self.fail(where, f"snippet {file}#{tag}: examples/{name} has {len(marks)} lines '// [{tag}]' "
                             f"(lines {', '.join(str(i + 1) for i in marks)}); a region needs exactly two")
            return None
        body = lines[marks[0] + 1 : marks[1]]
        return [line for line in body if not REGION.match(line)]

    def check_document(self, doc: Path) -> None:
        rel = doc.relative_to(self.root).as_posix()
        lines = doc.read_text(encoding="utf-8").split("\n")
        strict = any(line.strip() == STRICT for line in lines)
        pending: tuple[int, str, str] | None = None  # (line index, file, tag) of the last marker
        i = 0
        while i < len(lines):
            line = lines[i]
            marker = MARKER.match(line)
            if marker:
                if pending:
                    self.fail(f"{rel}:{pending[0] + 1}", f"snippet {pending[1]}#{pending[2]} is not followed by a "
                              f"```cpp block before the next marker (line {i + 1})")
                pending = (i, marker.group("file"), marker.group("tag"))
                i += 1
                continue
            if MARKER_LIKE.search(line):
                self.fail(f"{rel}:{i + 1}", f"malformed snippet marker {line.strip()!r}; "
                          "write <!-- snippet: FILE#TAG --> on a line of its own")
                i += 1
                continue
            if FENCE_OPEN_ANY.match(line):
                is_cpp = bool(FENCE_OPEN_CPP.match(line))
                start = i
                i += 1
                while i < len(lines) and not FENCE_CLOSE.match(lines[i]):
                    i += 1
                if i >= len(lines):
                    self.fail(f"{rel}:{start + 1}", "code block is never closed")
                    return
                block = lines[start + 1 : i]
                i += 1
                if not is_cpp:
                    continue
                if pending is None:
                    if strict:
                        self.fail(f"{rel}:{start + 1}", "```cpp block without a snippet marker (this document "
                                  "requires one before every cpp block: copy the code from an example region)")
                    continue
                marker_line, file, tag = pending
                pending = None
                self.compare(f"{rel}:{marker_line + 1}", file, tag, block)
                continue
            i += 1
        if pending:
            self.fail(f"{rel}:{pending[0] + 1}", f"snippet {pending[1]}#{pending[2]} is not followed by a ```cpp block")

    def compare(self, where: str, file: str, tag: str, block: list[str]) -> None:
        region = self.region(where, file, tag)
        if region is None:
            return
        self.checked += 1
        expected = normalise(region)
        actual = normalise(block)
        if expected == actual:
            return
        diff = difflib.unified_diff(expected, actual, fromfile=f"examples/{file}.cpp#{tag} (the source)",
                                    tofile=f"{where.split(':')[0]} (the document)", lineterm="")
        self.fail(where, f"snippet {file}#{tag} differs from its region in examples/{file}.cpp; "
                  "copy the region into the document (or fix the example):\n    "
                  + "\n    ".join(diff))


def main(argv: list[str]) -> int:
    if len(argv) > 2 or (len(argv) == 2 and argv[1] in ("-h", "--help")):
        print(__doc__)
        return 2
    root = Path(argv[1]) if len(argv) == 2 else Path(__file__).resolve().parent.parent
    docs = root / "docs"
    if not docs.is_dir():
        print(f"check_docs: no docs/ folder under {root}", file=sys.stderr)
        return 2
    checker = Checker(root)
    for doc in sorted(docs.glob("*.md")):
        checker.check_document(doc)
    if checker.failures:
        for failure in checker.failures:
            print(f"check_docs: {failure}", file=sys.stderr)
        print(f"check_docs: {len(checker.failures)} problem(s); {checker.checked} snippet(s) compared",
              file=sys.stderr)
        return 1
    print(f"check_docs: {checker.checked} snippet(s) match their example regions")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
