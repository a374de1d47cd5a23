#!/usr/bin/env python3
"""Checks the documentation against the tree: its code, its header tables and its paths.

1. Code blocks. Every fenced code block in docs/*.md and README.md is one of:

   - a snippet: the line

         <!-- snippet: guide_basics#creation -->

     before a ```cpp block says that the block is a copy of the region of
     examples/guide_basics.cpp between the two lines that read `// [creation]` (whole
     line, any indentation). The block must equal that region, both dedented (common
     leading whitespace removed), ignoring trailing whitespace and blank lines at either
     end. Marker lines of other regions nested inside the region are left out, so
     regions may overlap. CTest builds and runs every example.
   - an output: the line

         <!-- output: guide_basics -->

     directly before a block says that the block's lines are printed by that example:
     they must appear, in order and contiguous, in examples/guide_basics.expected (the
     output CTest compares the program's with), ignoring trailing whitespace.
   - a Python step: the line

         <!-- python: data-write -->

     directly before a ```python block, whose blocks scripts/run_doc_python.py runs
     (tests registered in tests/io.cmake and tests/zarr.cmake).
   - a transcript: the line

         <!-- transcript -->

     directly before a block of `$ ntensor ...` and `$ cat FILE` lines, each followed
     by what it prints (standard output and error). With --ntensor PATH (the test
     docs_transcripts) each command runs from the project root and must print exactly
     those lines; a last line `...` shows only the beginning of the output, and a line
     `(exit status N)` after the output checks the exit status. Without --ntensor
     transcripts are only counted.
   - an illustration: the line

         <!-- illustration -->

     directly before the opening fence says that no test runs the block (a shell
     command, a JSON fragment, a sketch of a declaration).

   A block with none of these fails the check. A document that contains the line

       <!-- check_docs: every cpp block is a snippet -->

   must moreover use snippets, not illustrations, for its ```cpp blocks.

2. The header tables. docs/reference.md has tables whose first column is `header`;
   together they must have one row per public header (every .hpp under include/nt/ and
   <folder>/include/nt/, nt/detail/ excepted: the union of the folders, whatever they
   hold), and no row for a header that does not exist. A header that <nt/nt.hpp> does
   not reach (directly or through the headers it includes) must say
   "not in `<nt/nt.hpp>`" in its row, and only such a header may say it.

3. Paths. Every mention of a path of the repository (a word starting with src/,
   tests/, include/, matcher/, examples/, scripts/, docs/ or cmake/) in docs/*.md,
   README.md and every README.md of the tree must name a file or folder that exists
   (a glob such as tests/*/*.cpp must match something; a placeholder such as
   examples/<name>.expected is checked up to its folder). A folder's README.md may
   also name paths relative to its own folder. Paths of the build tree (build/...)
   and of a user's machine (/..., ~/..., $HOME/...) are not checked: a match must not
   follow '/', '~' or '$'. A program may be named after its source
   (tests/bench/bench_ops for the program built from tests/bench/bench_ops.cpp).

With --ntensor, only the transcripts are run and reported (the test
docs_transcripts); without it, everything else (the test docs_snippets).

Usage: check_docs.py [PROJECT_ROOT] [--ntensor PATH_OF_THE_NTENSOR_COMMAND]
       (PROJECT_ROOT defaults to the parent of this script's folder)
Exit status: 0 when every check passes, 1 when one does not (each failure is reported
as file:line with what to do), 2 for bad usage. Standard library only, so any python3
runs it.
"""

from __future__ import annotations

import difflib
import os
import re
import shlex
import subprocess
import sys
import textwrap
from pathlib import Path

MARKER = re.compile(r"^\s*<!--\s*snippet:\s*(?P<file>[A-Za-z0-9_./-]+)#(?P<tag>[A-Za-z0-9_.-]+)\s*-->\s*$")
MARKER_LIKE = re.compile(r"<!--\s*snippet\b")
OUTPUT = re.compile(r"^\s*<!--\s*output:\s*(?P<file>[A-Za-z0-9_.-]+)\s*-->\s*$")
OUTPUT_LIKE = re.compile(r"<!--\s*output\b")
PYTHON = re.compile(r"^\s*<!--\s*python:\s*(?P<step>[A-Za-z0-9_.-]+)\s*-->\s*$")
FENCE_OPEN_PYTHON = re.compile(r"^\s*```\s*python\s*$")
TRANSCRIPT = re.compile(r"^\s*<!--\s*transcript\s*-->\s*$")
TRANSCRIPT_LIKE = re.compile(r"<!--\s*transcript\b")
EXIT_STATUS = re.compile(r"^\(exit status (?P<status>\d+)\)$")
TRANSCRIPT_PROGRAMS = ("ntensor", "cat")
ILLUSTRATION = re.compile(r"^\s*<!--\s*illustration\s*-->\s*$")
ILLUSTRATION_LIKE = re.compile(r"<!--\s*illustration\b")
STRICT = "<!-- check_docs: every cpp block is a snippet -->"
FENCE_OPEN_CPP = re.compile(r"^\s*```\s*(cpp|c\+\+)\s*$")
FENCE_OPEN_ANY = re.compile(r"^\s*```")
FENCE_CLOSE = re.compile(r"^\s*```\s*$")
REGION = re.compile(r"^\s*//\s*\[(?P<tag>[A-Za-z0-9_.-]+)\]\s*$")

HEADER_ROW = re.compile(r"^\|\s*`<nt/(?P<name>[A-Za-z0-9_./*]+)>`\s*\|")
NOT_IN_UMBRELLA = "not in `<nt/nt.hpp>`"
INCLUDE = re.compile(r'^\s*#\s*include\s*[<"]nt/(?P<name>[A-Za-z0-9_./]+)[>"]')

PATH_ROOTS = ("src", "tests", "include", "matcher", "examples", "scripts", "docs", "cmake")
PATH = re.compile(r"(?<![\w/.~$-])(?:\./)?(?P<path>(?:" + "|".join(PATH_ROOTS) + r")/[\w.*/+-]*)")


def normalise(lines: list[str]) -> list[str]:
    """Dedented lines without trailing whitespace or blank lines at either end."""
    text = textwrap.dedent("\n".join(line.rstrip() for line in lines))
    out = text.split("\n")
    while out and not out[0].strip():
        out.pop(0)
    while out and not out[-1].strip():
        out.pop()
    return out


def is_build_tree(path: Path) -> bool:
    return path.name.startswith("build") or (path / "CMakeCache.txt").is_file()


class Checker:
    def __init__(self, root: Path) -> None:
        self.root = root
        self.failures: list[str] = []
        self.transcript_failures: list[str] = []
        self.checked = 0
        self.outputs = 0
        self.illustrations = 0
        self.python = 0
        self.transcripts = 0
        self.ntensor: str | None = None  # the command's path: transcripts run only when it is given
        self.paths = 0
        self._examples: dict[Path, list[str]] = {}

    def fail(self, where: str, message: str) -> None:
        self.failures.append(f"{where}: {message}")

    def fail_transcript(self, where: str, message: str) -> None:
        self.transcript_failures.append(f"{where}: {message}")

    def example_lines(self, path: Path) -> list[str] | None:
        if path not in self._examples:
            if not path.is_file():
                return None
            self._examples[path] = path.read_text(encoding="utf-8").split("\n")
        return self._examples[path]

    # -- 1. code blocks -------------------------------------------------------------

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
        pending: tuple[int, str, str] | None = None  # (line index, file, tag) of the last snippet marker
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
            for exact, like, form in ((MARKER, MARKER_LIKE, "<!-- snippet: FILE#TAG -->"),
                                      (OUTPUT, OUTPUT_LIKE, "<!-- output: FILE -->"),
                                      (TRANSCRIPT, TRANSCRIPT_LIKE, "<!-- transcript -->"),
                                      (ILLUSTRATION, ILLUSTRATION_LIKE, "<!-- illustration -->")):
                if like.match(line.strip()) and not exact.match(line):
                    self.fail(f"{rel}:{i + 1}", f"malformed marker {line.strip()!r}; write {form} on a line of its own")
            if FENCE_OPEN_ANY.match(line):
                is_cpp = bool(FENCE_OPEN_CPP.match(line))
                start = i
                before = lines[start - 1] if start > 0 else ""
                i += 1
                while i < len(lines) and not FENCE_CLOSE.match(lines[i]):
                    i += 1
                if i >= len(lines):
                    self.fail(f"{rel}:{start + 1}", "code block is never closed")
                    return
                block = lines[start + 1 : i]
                i += 1
                if is_cpp and pending is not None:
                    marker_line, file, tag = pending
                    pending = None
                    self.compare(f"{rel}:{marker_line + 1}", file, tag, block)
                    continue
                if PYTHON.match(before) and FENCE_OPEN_PYTHON.match(lines[start]):
                    self.python += 1  # run by scripts/run_doc_python.py (tests/io.cmake, tests/zarr.cmake)
                    continue
                if TRANSCRIPT.match(before):
                    self.transcript(f"{rel}:{start + 1}", block)
                    continue
                output = OUTPUT.match(before)
                if output:
                    self.compare_output(f"{rel}:{start}", output.group("file"), block)
                    continue
                if ILLUSTRATION.match(before):
                    if is_cpp and strict:
                        self.fail(f"{rel}:{start + 1}", "```cpp block marked as an illustration in a document whose "
                                  "every cpp block is a snippet: copy the code from an example region and put "
                                  "<!-- snippet: FILE#TAG --> before it")
                    self.illustrations += 1
                    continue
                if is_cpp and strict:
                    self.fail(f"{rel}:{start + 1}", "```cpp block without a snippet marker (this document "
                              "requires one before every cpp block: copy the code from an example region)")
                    continue
                self.fail(f"{rel}:{start + 1}", "code block that no test checks: on the line directly before its "
                          "opening fence, put <!-- snippet: FILE#TAG --> (C++: a region of examples/FILE.cpp), "
                          "<!-- output: FILE --> (lines of examples/FILE.expected), <!-- transcript --> (ntensor "
                          "and cat commands with their output, run by docs_transcripts) or <!-- illustration --> "
                          "(nothing runs it); see docs/README.md, 'Examples are tested'")
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

    def compare_output(self, where: str, file: str, block: list[str]) -> None:
        path = self.root / "examples" / f"{file}.expected"
        lines = self.example_lines(path)
        if lines is None:
            self.fail(where, f"output {file}: examples/{file}.expected does not exist")
            return
        self.outputs += 1
        expected = [line.rstrip() for line in lines]
        actual = [line.rstrip() for line in block]
        while actual and not actual[-1]:
            actual.pop()
        while actual and not actual[0]:
            actual.pop(0)
        n = len(actual)
        if n and any(expected[k : k + n] == actual for k in range(len(expected) - n + 1)):
            return
        first = actual[0] if actual else ""
        hint = ""
        if first in expected:
            k = expected.index(first)
            diff = difflib.unified_diff(expected[k : k + n], actual, fromfile=f"examples/{file}.expected",
                                        tofile=f"{where.split(':')[0]} (the document)", lineterm="")
            hint = ":\n    " + "\n    ".join(diff)
        self.fail(where, f"output {file}: the block's lines are not a run of lines of examples/{file}.expected; "
                  f"copy them from the file (or fix the example){hint}")

    def transcript(self, where: str, block: list[str]) -> None:
        """A shell session: `$ ntensor ...` or `$ cat FILE` lines, each followed by its output."""
        commands: list[tuple[str, list[str]]] = []
        for line in block:
            if line.startswith("$ "):
                commands.append((line[2:], []))
            elif not commands:
                self.fail_transcript(where, "a transcript starts with a command line '$ ...'")
                return
            else:
                commands[-1][1].append(line)
        if not commands:
            self.fail_transcript(where, "an empty transcript")
            return
        self.transcripts += 1
        if self.ntensor is None:
            return
        for command, shown in commands:
            self.run_command(where, command, shown)

    def run_command(self, where: str, command: str, shown: list[str]) -> None:
        try:
            argv = shlex.split(command, comments=True)
        except ValueError as e:
            self.fail_transcript(where, f"transcript command {command!r}: {e}")
            return
        if not argv or argv[0] not in TRANSCRIPT_PROGRAMS:
            self.fail_transcript(where, f"transcript command {command!r}: a transcript runs only "
                      f"{' and '.join(TRANSCRIPT_PROGRAMS)}; mark the block <!-- illustration --> instead")
            return
        if argv[0] == "ntensor":
            argv[0] = self.ntensor
        expected = [line.rstrip() for line in shown]
        while expected and not expected[-1]:
            expected.pop()
        status = None
        if expected and (m := EXIT_STATUS.match(expected[-1])):
            status = int(m.group("status"))
            expected.pop()
        prefix_only = bool(expected) and expected[-1] == "..."
        if prefix_only:
            expected.pop()
        run = subprocess.run(argv, cwd=self.root, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                             text=True, timeout=120)
        actual = [line.rstrip() for line in run.stdout.split("\n")]
        while actual and not actual[-1]:
            actual.pop()
        if prefix_only:
            actual = actual[: len(expected)]
        if actual != expected:
            diff = difflib.unified_diff(expected, actual, fromfile=f"{where.split(':')[0]} (the document)",
                                        tofile=f"$ {command} (the output)", lineterm="")
            self.fail_transcript(where, f"transcript: `{command}` prints something else; copy its output into the "
                      "document (end the output with a line '...' to show only its beginning):\n    "
                      + "\n    ".join(diff))
        if status is not None and run.returncode != status:
            self.fail_transcript(where, f"transcript: `{command}` exits with status {run.returncode}, the document says {status}")

    # -- 2. the header table --------------------------------------------------------

    def public_headers(self) -> dict[str, Path]:
        """nt/<name> -> file, for every public header of the tree (nt/detail/ excepted)."""
        headers: dict[str, Path] = {}
        folders = [self.root / "include" / "nt"] + sorted(self.root.glob("*/include/nt"))
        for folder in folders:
            for path in sorted(folder.rglob("*.hpp")):
                name = path.relative_to(folder).as_posix()
                if name.startswith("detail/"):
                    continue
                if name in headers:
                    self.fail(path.relative_to(self.root).as_posix(), f"header <nt/{name}> also exists as "
                              f"{headers[name].relative_to(self.root).as_posix()}")
                headers[name] = path
        return headers

    def umbrella_reach(self, headers: dict[str, Path]) -> set[str]:
        reached: set[str] = set()
        todo = ["nt.hpp"]
        while todo:
            name = todo.pop()
            if name in reached or name not in headers:
                continue
            reached.add(name)
            for line in headers[name].read_text(encoding="utf-8").split("\n"):
                if (m := INCLUDE.match(line)) and not m.group("name").startswith("detail/"):
                    todo.append(m.group("name"))
        return reached

    def check_header_table(self) -> None:
        doc = self.root / "docs" / "reference.md"
        if not doc.is_file():
            return
        rel = doc.relative_to(self.root).as_posix()
        headers = self.public_headers()
        if "nt.hpp" not in headers:
            self.fail("include/nt/nt.hpp", "the umbrella header is missing")
            return
        reach = self.umbrella_reach(headers)
        lines = doc.read_text(encoding="utf-8").split("\n")
        tables = [i for i, line in enumerate(lines) if re.match(r"^\|\s*header\s*\|", line)]
        if not tables:
            self.fail(rel, "no header table (a table whose first column is 'header')")
            return
        rows: dict[str, int] = {}
        for table_start in tables:
            i = table_start + 2
            while i < len(lines) and lines[i].startswith("|"):
                self.check_header_row(rel, i, lines[i], headers, reach, rows)
                i += 1
        table_start = tables[0]
        for name, path in sorted(headers.items()):
            if name not in rows:
                self.fail(f"{rel}:{table_start + 1}", f"the header table has no row for <nt/{name}> "
                          f"({path.relative_to(self.root).as_posix()}); add | `<nt/{name}>` | what it declares |")

    def check_header_row(self, rel: str, i: int, line: str, headers: dict[str, Path], reach: set[str],
                         rows: dict[str, int]) -> None:
        m = HEADER_ROW.match(line)
        if not m:
            self.fail(f"{rel}:{i + 1}", "header table row does not start with | `<nt/NAME.hpp>` |")
            return
        name = m.group("name")
        if name == "detail/*.hpp":
            return
        if name in rows:
            self.fail(f"{rel}:{i + 1}", f"<nt/{name}> has a second row (first on line {rows[name] + 1})")
            return
        if name not in headers:
            self.fail(f"{rel}:{i + 1}", f"<nt/{name}> is not a public header (none in include/nt/ or "
                      "*/include/nt/); remove the row or fix its name")
            return
        rows[name] = i
        says_not = NOT_IN_UMBRELLA.lower() in line.lower()
        if name not in reach and not says_not:
            self.fail(f"{rel}:{i + 1}", f"<nt/{name}> is not reached from <nt/nt.hpp>; its row must say "
                      f"{NOT_IN_UMBRELLA} (or nt.hpp must include it)")
        if name in reach and says_not:
            self.fail(f"{rel}:{i + 1}", f"<nt/{name}> is reached from <nt/nt.hpp>; its row must not say "
                      f"{NOT_IN_UMBRELLA}")

    # -- 3. paths -------------------------------------------------------------------

    def path_documents(self) -> list[Path]:
        docs = sorted((self.root / "docs").glob("*.md"))
        readme = self.root / "README.md"
        if readme.is_file():
            docs.append(readme)
        for folder, dirs, files in os.walk(self.root):
            here = Path(folder)
            dirs[:] = sorted(d for d in dirs if not d.startswith(".") and not is_build_tree(here / d))
            if here != self.root and "README.md" in files and here != self.root / "docs":
                docs.append(here / "README.md")
        return docs

    def path_exists(self, path: str, base: Path) -> bool:
        path = path.rstrip(".")
        if not path or path.endswith("/.."):
            return True
        if "*" in path:
            return any(True for _ in base.glob(path.rstrip("/")))
        # A program named after its source (tests/bench/bench_ops, built from bench_ops.cpp).
        return (base / path).exists() or (base / (path + ".cpp")).is_file()

    def check_paths(self, doc: Path) -> None:
        rel = doc.relative_to(self.root).as_posix()
        bases = [self.root]
        if doc.parent not in (self.root, self.root / "docs"):
            bases.append(doc.parent)
        for number, line in enumerate(doc.read_text(encoding="utf-8").split("\n"), start=1):
            for m in PATH.finditer(line):
                path = m.group("path").rstrip(".,:;")
                self.paths += 1
                if not any(self.path_exists(path, base) for base in bases):
                    self.fail(f"{rel}:{number}", f"path {path} does not exist in the repository; "
                              "fix the path (or write it so that it does not start with a folder of the tree)")


def main(argv: list[str]) -> int:
    ntensor = None
    if len(argv) >= 3 and argv[-2] == "--ntensor":
        ntensor = str(Path(argv[-1]).resolve())
        argv = argv[:-2]
    if len(argv) > 2 or (len(argv) == 2 and argv[1] in ("-h", "--help")):
        print(__doc__)
        return 2
    root = Path(argv[1]) if len(argv) == 2 else Path(__file__).resolve().parent.parent
    docs = root / "docs"
    if not docs.is_dir():
        print(f"check_docs: no docs/ folder under {root}", file=sys.stderr)
        return 2
    checker = Checker(root.resolve())
    checker.ntensor = ntensor
    documents = sorted(checker.root.joinpath("docs").glob("*.md"))
    if checker.root.joinpath("README.md").is_file():
        documents.append(checker.root / "README.md")
    for doc in documents:
        checker.check_document(doc)
    if ntensor is None:
        checker.check_header_table()
        for doc in checker.path_documents():
            checker.check_paths(doc)
    if ntensor is not None:
        # The test docs_transcripts: the transcripts alone (docs_snippets checks the rest).
        for failure in checker.transcript_failures:
            print(f"check_docs: {failure}", file=sys.stderr)
        if checker.transcript_failures:
            print(f"check_docs: {len(checker.transcript_failures)} problem(s) in "
                  f"{checker.transcripts} transcript(s)", file=sys.stderr)
            return 1
        print(f"check_docs: {checker.transcripts} transcript(s) print what the documents show")
        return 0
    failures = checker.failures + checker.transcript_failures
    summary = (f"{checker.checked} snippet(s) and {checker.outputs} output(s) compared, "
               f"{checker.transcripts} transcript(s) (run by docs_transcripts), "
               f"{checker.python} Python block(s) (run by their tests), "
               f"{checker.illustrations} illustration(s), {checker.paths} path mention(s) checked")
    if failures:
        for failure in failures:
            print(f"check_docs: {failure}", file=sys.stderr)
        print(f"check_docs: {len(failures)} problem(s); {summary}", file=sys.stderr)
        return 1
    print(f"check_docs: all good; {summary}")
    return 0

if __name__ == "__main__":
    sys.exit(main(sys.argv))
