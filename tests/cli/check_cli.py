#!/usr/bin/python3
"""Command tests for `ntensor`: exit statuses, JSON output, stdin, the table, errors.

usage: check_cli.py NTENSOR SOURCE_DIR

Runs the command on every example config (examples/specs) and every failing
config (tests/cli/configs, named <code>[.<variant>].json), parses the JSON output
back and checks it against spec/config.md and the worked examples of
spec/matching.md. `ntensor check` reads .npy files that NumPy writes here.
Prints one line per failed check; exits 1 if any failed.
"""
import json
import os
import subprocess
import sys
import tempfile

import numpy as np

NULL = None

# Worked examples of spec/matching.md, as the example configs spell them.
EXPECTED_PLANS = {
    "segmentation.json": {
        "shape": [10, 3, 256, 384],
        "names": [NULL, "CHANNEL", "H", "W"],
        "inputs": {"image": [0, 1, 2, 3], "labels": [0, NULL, 1, 2]},
    },
    "truth_prob.json": {
        "shape": [20, 3, 512, 512],
        "names": [NULL, "CLASS", "H", "W"],
        "inputs": {"truth": [0, NULL, 1, 2], "prob": [0, 1, 2, 3]},
    },
    "truth_prob_pred_union.json": {
        "shape": [20, 1, 17, 15, 3, 512, 512],
        "names": [NULL, "SCALE1", "SCALE2", "SCALE3", "CLASS", "H", "W"],
        "inputs": {
            "truth": [0, NULL, NULL, NULL, NULL, 1, 2],
            "prob": [0, NULL, NULL, NULL, 1, 2, 3],
            "pred": [0, 1, 2, 3, NULL, 4, 5],
        },
    },
    "broadcast_to.json": {
        "shape": [10, 3, 256, 384],
        "names": [NULL, "CHANNEL", "H", "W"],
        "inputs": {"bias": [NULL, 0, NULL, NULL]},
    },
    "search.json": {
        "shape": [64, 32, 8, 5],
        "names": [NULL, NULL, NULL, NULL],
        "inputs": {"features": [0, 1, 2, 3], "weights": [0, 1, 2, NULL]},
    },
}
EXPECTED_ERRORS = {"prob_pred_no_union.json": "no_counterpart"}

# Pipelines: the resolved sizes and, per step, shape, names and source maps.
EXPECTED_PIPELINES = {
    "segmentation_pipeline.json": {
        "sizes": {"K": 3, "N": NULL, "H": NULL, "W": NULL},
        "steps": {
            "overlay": {"shape": ["N", 3, "H", "W"], "names": [NULL, "CHANNEL", "H", "W"],
                        "inputs": {"image": [0, 1, 2, 3], "labels": [0, NULL, 1, 2]}},
            "class_ids": {"shape": ["N", 3, "H", "W"], "names": [NULL, "CLASS", "H", "W"],
                          "inputs": {"classes": [NULL, 0, NULL, NULL], "prob": [0, 1, 2, 3]}},
            "one_hot": {"shape": ["N", 3, "H", "W"], "names": [NULL, "CLASS", "H", "W"],
                        "inputs": {"ids": [0, 1, 2, 3], "labels": [0, NULL, 1, 2]}},
            "score": {"shape": ["N", 3, "H", "W"], "names": [NULL, "CLASS", "H", "W"],
                      "inputs": {"prob": [0, 1, 2, 3], "onehot": [0, 1, 2, 3]}},
            "with_image": {"shape": ["N", 3, 3, "H", "W"], "names": [NULL, "CLASS", "CHANNEL", "H", "W"],
                           "inputs": {"scored": [0, 1, NULL, 2, 3], "image": [0, NULL, 1, 2, 3]}},
            "normalize_tiles": {"shape": ["N", 3, "(H - 8) / 6 + 1", "(W - 8) / 6 + 1", 8, 8],
                                "names": [NULL, "CHANNEL", "TY", "TX", "PY", "PX"],
                                "inputs": {"tiles": [0, 1, 2, 3, 4, 5], "mean": [NULL, 0, NULL, NULL, NULL, NULL]}},
        },
    },
}

# Failing configs whose messages must name these (the step, the symbol, ...).
EXPECTED_MESSAGES = {
    "incompatible_sizes.step.json": ["steps.overlay: ", "size 10", "size 12", "Symbols: N = 10 (from \"sizes\")."],
    "no_counterpart.step.json": ["steps.one_hot: input 0 'classes' (3 | CLASS)"],
    "no_counterpart.typo.json": ["(did you mean 'DEPTH'?)"],  # a name one edit away from a host name
    "invalid_spec.not_exact.json": ["tensors.tiles.shape[2]: (H - 8) / 6 + 1 with H = 21", "13 / 6 does not divide"],
    "invalid_spec.unknown_symbol.json": ["steps.resize.to.shape[2]: unknown symbol \"Hh\" (did you mean \"H\"?)"],
    "invalid_spec.as_cycle.json": ["steps.score.broadcast[1]: \"scored\" is this step's own output", "a cycle"],
    "invalid_spec.as_forward.json": ["steps.report.broadcast[0]: \"scored\" is the output of a later step, \"score\""],
    "invalid_spec.malformed_expression.json": ["tensors.tiles.shape[1]: malformed size expression at character 14",
                                               "\n    (H - 8) / 6 +\n                 ^"],
}

ERROR_CODES = {"parse_error", "invalid_spec", "duplicate_name", "unknown_tensor",
               "incompatible_sizes", "no_counterpart", "name_mismatch", "ambiguous"}

failures = []


def check(condition, what):
    if not condition:
        failures.append(what)
    return condition


def run(ntensor, args, stdin_text=None):
    result = subprocess.run([ntensor] + args, input=stdin_text, capture_output=True, text=True,
                            timeout=60)
    return result.returncode, result.stdout, result.stderr


def parse_json(text, what):
    try:
        return json.loads(text)
    except ValueError as e:
        failures.append(f"{what}: output is not JSON ({e}): {text!r}")
        return None


def error_code(stdout):
    """The code of an error JSON object, or None."""
    try:
        return json.loads(stdout)["error"]["code"]
    except (ValueError, KeyError, TypeError):
        return None


def check_plan(name, out, expected):
    if not check(isinstance(out, dict) and all(k in out for k in ("shape", "names", "inputs")),
                 f"{name}: not a plan: {out!r}"):
        return
    check(list(out)[:3] == ["shape", "names", "inputs"], f"{name}: first keys are {list(out)[:3]}")
    check(out["shape"] == expected["shape"], f"{name}: shape {out['shape']}")
    check(out["names"] == expected["names"], f"{name}: names {out['names']}")
    check(list(out["inputs"]) == list(expected["inputs"]), f"{name}: inputs {list(out['inputs'])}")
    for label, source_axes in expected["inputs"].items():
        got = out["inputs"].get(label, {}).get("source_axes")
        check(got == source_axes, f"{name}: {label}.source_axes {got}, expected {source_axes}")
    # Law: every input axis feeds exactly one output axis, and sizes broadcast.
    for label, entry in out["inputs"].items():
        axes = [a for a in entry["source_axes"] if a is not None]
        check(sorted(axes) == list(range(len(axes))), f"{name}: {label} source_axes not a permutation")


def check_pipeline(name, out, expected):
    if not check(isinstance(out, dict) and list(out) == ["sizes", "steps"], f"{name}: not a pipeline: {out!r}"):
        return
    check(out["sizes"] == expected["sizes"], f"{name}: sizes {out['sizes']}")
    check(list(out["steps"]) == list(expected["steps"]), f"{name}: steps {list(out['steps'])}")
    for step, plan in expected["steps"].items():
        got = out["steps"].get(step, {})
        check_plan(f"{name} step {step}", got, plan)


def check_pipeline_table(name, table, out):
    lines = table.splitlines()
    check(lines[0].startswith("sizes: "), f"{name}: the table does not start with the sizes: {lines[0]!r}")
    titles = [line for line in lines if line.startswith("step ")]
    check(len(titles) == len(out["steps"]), f"{name}: {len(titles)} step titles for {len(out['steps'])} steps")
    for step, title in zip(out["steps"], titles):
        check(title.startswith(f'step "{step}": broadcast '), f"{name}: step title {title!r}")


def check_examples(ntensor, specs_dir):
    for name in sorted(os.listdir(specs_dir)):
        if not name.endswith(".json"):
            continue
        path = os.path.join(specs_dir, name)
        check(name in EXPECTED_PLANS or name in EXPECTED_ERRORS or name in EXPECTED_PIPELINES,
              f"{name}: example without an expectation here")
        status, stdout, stderr = run(ntensor, ["plan", "--json", path])
        out = parse_json(stdout, name)
        if out is None:
            continue
        check(stderr == "", f"{name}: unexpected stderr {stderr!r}")
        if name in EXPECTED_ERRORS:
            check(status == 1, f"{name}: exit status {status}, expected 1")
            check(error_code(stdout) == EXPECTED_ERRORS[name], f"{name}: error {out}")
        elif name in EXPECTED_PLANS and check(status == 0, f"{name}: exit status {status}, expected 0"):
            check_plan(name, out, EXPECTED_PLANS[name])
        elif name in EXPECTED_PIPELINES and check(status == 0, f"{name}: exit status {status}, expected 0"):
            check_pipeline(name, out, EXPECTED_PIPELINES[name])
        # The table for people: the same plan, exit status and no JSON.
        status_text, table, _ = run(ntensor, ["plan", path])
        check(status_text == status, f"{name}: table exit status {status_text}, JSON {status}")
        if status == 0 and "steps" in out:
            check_pipeline_table(name, table, out)
        if status == 0 and "shape" in out:
            check(table.startswith("output ("), f"{name}: table does not start with the output spec: {table!r}")
            rows = [line for line in table.splitlines()[2:] if line.strip()]
            check(len(rows) == len(out["shape"]), f"{name}: {len(rows)} table rows for rank {len(out['shape'])}")
            for label in out["inputs"]:
                check(label in table.splitlines()[1], f"{name}: no column for {label}")


def check_error_configs(ntensor, configs_dir):
    seen = set()
    for name in sorted(os.listdir(configs_dir)):
        if not name.endswith(".json"):
            continue
        code = name.split(".")[0]
        seen.add(code)
        path = os.path.join(configs_dir, name)
        check(code in ERROR_CODES, f"{name}: file name does not start with an error code")
        status, stdout, stderr = run(ntensor, ["plan", "--json", path])
        check(status == 1, f"{name}: exit status {status}, expected 1 ({stderr})")
        out = parse_json(stdout, name)
        if out is not None and check(list(out) == ["error"] and list(out["error"]) == ["code", "message"],
                                     f"{name}: error JSON keys {out}"):
            check(out["error"]["code"] == code, f"{name}: code {out['error']['code']}, expected {code}")
            check(len(out["error"]["message"]) > 20, f"{name}: message too short")
            for part in EXPECTED_MESSAGES.get(name, []):
                check(part in out["error"]["message"], f"{name}: message lacks {part!r}: {out['error']['message']!r}")
        # Without --json: the message alone, prefixed by the code.
        status, stdout, _ = run(ntensor, ["plan", path])
        check(status == 1, f"{name}: exit status {status} without --json")
        check(stdout.startswith(f"error [{code}]: "), f"{name}: plain error output {stdout!r}")
    check(seen == ERROR_CODES, f"error codes without a failing config: {sorted(ERROR_CODES - seen)}")


def check_stdin(ntensor, specs_dir):
    with open(os.path.join(specs_dir, "segmentation.json")) as f:
        text = f.read()
    status, stdout, _ = run(ntensor, ["plan", "--json", "-"], text)
    check(status == 0, f"stdin: exit status {status}")
    out = parse_json(stdout, "stdin")
    if out is not None:
        check_plan("stdin", out, EXPECTED_PLANS["segmentation.json"])
    # --json after the file, too.
    status, stdout2, _ = run(ntensor, ["plan", "-", "--json"], text)
    check(status == 0 and stdout2 == stdout, "stdin: '--json' after FILE differs")
    status, stdout, _ = run(ntensor, ["plan", "--json", "-"], "{not json")
    check(status == 1 and error_code(stdout) == "parse_error",
          f"stdin: malformed input gives {status} {stdout!r}")
    status, stdout, _ = run(ntensor, ["plan", "-"], "")
    check(status == 1 and stdout.startswith("error [parse_error]"), f"stdin: empty input gives {status} {stdout!r}")


def check_command_line(ntensor):
    status, stdout, _ = run(ntensor, ["--help"])
    check(status == 0 and "usage: ntensor plan" in stdout, f"--help: {status} {stdout!r}")
    status, stdout, _ = run(ntensor, ["plan", "--help"])
    check(status == 0 and "usage: ntensor plan" in stdout, f"plan --help: {status} {stdout!r}")
    status, stdout, _ = run(ntensor, ["--version"])
    check(status == 0 and stdout.startswith("ntensor ") and stdout.count(".") == 2, f"--version: {stdout!r}")
    with tempfile.TemporaryDirectory() as tmp:
        usage_errors = {
            "no arguments": [],
            "unknown command": ["explain"],
            "arguments after --version": ["--version", "x"],
            "plan without a file": ["plan"],
            "check without a file": ["check"],
            "check with two files": ["check", "a.json", "b.json"],
            "plan --json without a file": ["plan", "--json"],
            "unknown option": ["plan", "--jsn", "x.json"],
            "two files": ["plan", "a.json", "b.json"],
            "missing file": ["plan", os.path.join(tmp, "missing.json")],
            "missing file with --json": ["plan", "--json", os.path.join(tmp, "missing.json")],
            "a directory": ["plan", tmp],
            "header without a file": ["header"],
            "header --type without a value": ["header", "--type"],
            "header --json": ["header", "--json", "a.json"],
            "header with a type that is not C++": ["header", "--type", "float;", "a.json"],
        }
        for what, args in usage_errors.items():
            status, stdout, stderr = run(ntensor, args)
            check(status == 2, f"{what}: exit status {status}, expected 2")
            check(stdout == "", f"{what}: stdout {stdout!r}, expected nothing")
            check(stderr.startswith("ntensor: ") and stderr.count("\n") == 1,
                  f"{what}: stderr is not one line: {stderr!r}")


def write_config(folder, name, tensors, steps):
    path = os.path.join(folder, name)
    with open(path, "w") as f:
        json.dump({"tensors": tensors, "steps": steps}, f)
    return path


def check_files(ntensor, specs_dir):
    """`ntensor check` reads the headers of .npy files (written here by NumPy),
    binds their sizes and reports every file and step; `plan` never reads them."""
    with tempfile.TemporaryDirectory() as tmp:
        os.makedirs(os.path.join(tmp, "data"))
        np.save(os.path.join(tmp, "data", "image.npy"), np.zeros((2, 3, 20, 26), dtype=np.uint8))
        np.save(os.path.join(tmp, "data", "labels.npy"), np.zeros((2, 20, 26), dtype=np.int32))
        np.save(os.path.join(tmp, "data", "labels_n3.npy"), np.zeros((3, 20, 26), dtype=np.int32))
        np.save(os.path.join(tmp, "data", "big_endian.npy"), np.zeros((4, 5), dtype=">f8"))
        image = {"npy": "data/image.npy", "shape": ["N", 3, "H", "W"], "names": "? C H W", "dtype": "u8"}
        steps = [{"name": "overlay", "broadcast": ["image", "labels"], "as": "over"},
                 {"name": "again", "broadcast": ["over"]}]

        def labels(npy, dtype="i32"):
            return {"npy": npy, "shape": ["N", "H", "W"], "names": "? H W", "dtype": dtype}

        ok = write_config(tmp, "ok.json", {"image": image, "labels": labels("data/labels.npy"),
                                           "table": {"npy": "data/big_endian.npy", "names": "A B"}}, steps)
        status, stdout, stderr = run(ntensor, ["check", "--json", ok])
        out = parse_json(stdout, "check ok.json")
        if check(status == 0 and out is not None, f"check ok.json: exit status {status}, {stdout!r} {stderr!r}"):
            check(list(out) == ["sizes", "steps", "files"], f"check ok.json: keys {list(out)}")
            check(out["sizes"] == {"N": 2, "H": 20, "W": 26}, f"check ok.json: sizes {out['sizes']}")
            check(out["steps"]["overlay"]["shape"] == [2, 3, 20, 26], f"check ok.json: {out['steps']['overlay']}")
            check(out["steps"]["again"]["shape"] == [2, 3, 20, 26], f"check ok.json: {out['steps']['again']}")
            check(out["files"]["image"] == {"path": os.path.join(tmp, "data/image.npy"), "shape": [2, 3, 20, 26],
                                            "dtype": "u8"}, f"check ok.json: files {out['files']}")
            check(out["files"]["table"]["dtype"] == "f64", f"check ok.json: big-endian file {out['files']['table']}")
        # plan does not read the files: the sizes stay symbols.
        status, stdout, _ = run(ntensor, ["plan", "--json", ok])
        out = parse_json(stdout, "plan ok.json")
        check(status == 0 and out is not None and out["sizes"]["N"] is None, f"plan ok.json: {stdout!r}")
        status, table, _ = run(ntensor, ["check", ok])
        check(status == 0 and "files:\n  image  " in table and "(2,3,20,26) u8" in table, f"check table: {table!r}")

        failing = {
            "missing.json": ({"image": image, "labels": labels("data/none.npy")}, "labels", "io_error",
                             ["tensors.labels.npy: ", "none.npy", "No such file"]),
            "dtype.json": ({"image": image, "labels": labels("data/labels.npy", "u8")}, "labels", "type_mismatch",
                           ["tensors.labels.npy: data/labels.npy holds i32 (descr '<i4'), but \"dtype\" says u8"]),
            "conflict.json": ({"image": image, "labels": labels("data/labels_n3.npy")}, "labels", "incompatible_sizes",
                              ["symbol N is 3 at axis 0 of 'labels' (data/labels_n3.npy), but N = 2 from axis 0 of "
                               "'image' (data/image.npy)"]),
        }
        for name, (tensors, key, code, parts) in failing.items():
            path = write_config(tmp, name, tensors, steps)
            status, stdout, _ = run(ntensor, ["check", "--json", path])
            out = parse_json(stdout, f"check {name}")
            if not check(status == 1 and out is not None and "files" in out, f"check {name}: {status} {stdout!r}"):
                continue
            error = out["files"][key].get("error", {})
            check(error.get("code") == code, f"check {name}: {out['files'][key]}")
            for part in parts:
                check(part in error.get("message", ""), f"check {name}: message lacks {part!r}: {error}")
            # Every step is still reported.
            check(list(out["steps"]) == ["overlay", "again"], f"check {name}: steps {list(out['steps'])}")
            status, table, _ = run(ntensor, ["check", path])
            check(status == 1 and f"error [{code}]: " in table, f"check {name} table: {table!r}")
            status, _, _ = run(ntensor, ["plan", path])
            check(status == 0, f"plan {name}: exit status {status}; plan reads no file")
        # A one-step config: check prints what plan prints.
        seg = os.path.join(specs_dir, "segmentation.json")
        check(run(ntensor, ["check", "--json", seg])[1] == run(ntensor, ["plan", "--json", seg])[1],
              "check and plan differ on a one-step config")


NUMPY_SHORT = {"bool": "b8", "int8": "i8", "int16": "i16", "int32": "i32", "int64": "i64", "uint8": "u8",
               "uint16": "u16", "uint32": "u32", "uint64": "u64", "float16": "f16", "float32": "f32",
               "float64": "f64"}


def numpy_header(f):
    """What NumPy itself reads from a .npy header: (descr, fortran_order, shape, version)."""
    import numpy as np
    version = np.lib.format.read_magic(f)
    shape, fortran, dtype = np.lib.format._read_array_header(f, version)
    return dtype, fortran, list(shape), f"{version[0]}.{version[1]}"


def check_info_entry(what, got, header):
    dtype, fortran, shape, version = header
    check(got.get("dtype") == NUMPY_SHORT[dtype.name], f"{what}: dtype {got.get('dtype')} for {dtype}")
    check(got.get("descr") == dtype.str, f"{what}: descr {got.get('descr')}, expected {dtype.str}")
    check(got.get("shape") == shape, f"{what}: shape {got.get('shape')}, expected {shape}")
    check(got.get("order") == ("F" if fortran else "C"), f"{what}: order {got.get('order')}")
    check(got.get("version") == version, f"{what}: version {got.get('version')}, expected {version}")


def check_info(ntensor):
    """`ntensor info` against NumPy's own reading of the headers it wrote."""
    import zipfile
    import numpy as np
    with tempfile.TemporaryDirectory() as tmp:
        files = []
        for i, (dtype, shape) in enumerate([("int16", (30, 512, 512)), ("<f4", ()), (">u2", (0, 3)),
                                            ("bool", (7,)), ("float16", (2, 3, 4, 5, 6))]):
            a = np.zeros(shape, dtype=dtype)
            if i == 2:
                a = np.asfortranarray(a)
            path = os.path.join(tmp, f"a{i}.npy")
            with open(path, "wb") as f:
                np.lib.format.write_array(f, a, version=(1 + i % 3, 0))
            files.append(path)
        f_path = os.path.join(tmp, "f.npy")
        np.save(f_path, np.asfortranarray(np.zeros((4, 5), np.int64)))
        files.append(f_path)
        arrays = {"img": np.zeros((2, 3), np.float32), "lbl": np.asfortranarray(np.ones((3, 4), np.uint8))}
        np.savez(os.path.join(tmp, "s.npz"), **arrays)
        np.savez_compressed(os.path.join(tmp, "c.npz"), **arrays)
        archives = [os.path.join(tmp, "s.npz"), os.path.join(tmp, "c.npz")]

        status, stdout, stderr = run(ntensor, ["info", "--json"] + files + archives)
        check(status == 0, f"info: exit status {status} ({stderr})")
        out = parse_json(stdout, "info --json")
        if out is not None and check(len(out.get("files", [])) == len(files) + 2, f"info: {out}"):
            for path, got in zip(files, out["files"]):
                check(got.get("path") == path and got.get("format") == "npy", f"info {path}: {got}")
                with open(path, "rb") as f:
                    check_info_entry(f"info {path}", got, numpy_header(f))
            for path, got in zip(archives, out["files"][len(files):]):
                check(got.get("format") == "npz", f"info {path}: {got}")
                entries = got.get("entries", [])
                check([e.get("name") for e in entries] == list(arrays), f"info {path}: entries {entries}")
                with zipfile.ZipFile(path) as z:
                    for e in entries:
                        with z.open(e["name"] + ".npy") as f:
                            check_info_entry(f"info {path}[{e['name']}]", e, numpy_header(f))
        # The text form: one line per file, each archive member indented below it.
        status, stdout, _ = run(ntensor, ["info"] + files[:1] + archives[:1])
        lines = stdout.splitlines()
        check(status == 0 and len(lines) == 4, f"info text: {status} {stdout!r}")
        check(lines and lines[0] == f"{files[0]}: i16 (30,512,512) order C, format 1.0 ('<i2')", f"info text: {lines}")
        check(len(lines) == 4 and lines[2].startswith("  img: f32 (2,3)"), f"info text: {lines}")

        # File-level errors: an error object per bad file, the others still described.
        bad = os.path.join(tmp, "bad.npy")
        with open(bad, "wb") as f:
            f.write(b"not a numpy file")
        complex_file = os.path.join(tmp, "c.npy")
        np.save(complex_file, np.zeros(3, np.complex64))
        truncated = os.path.join(tmp, "t.npz")
        with open(archives[0], "rb") as f:
            data = f.read()
        with open(truncated, "wb") as f:
            f.write(data[: len(data) // 2])
        cases = {bad: "format_error", complex_file: "unsupported_dtype", truncated: "format_error",
                 os.path.join(tmp, "missing.npy"): "io_error", tmp: "io_error"}
        status, stdout, _ = run(ntensor, ["info", "--json", files[0]] + list(cases))
        check(status == 1, f"info with bad files: exit status {status}, expected 1")
        out = parse_json(stdout, "info --json with bad files")
        if out is not None:
            got = out.get("files", [])
            check(len(got) == 1 + len(cases) and "dtype" in got[0], f"info with bad files: {out}")
            for entry, (path, code) in zip(got[1:], cases.items()):
                error = entry.get("error", {})
                check(entry.get("path") == path and error.get("code") == code,
                      f"info {path}: {entry}, expected {code}")
                check(path in error.get("message", ""), f"info {path}: the message does not name the file")
        status, stdout, _ = run(ntensor, ["info", bad])
        check(status == 1 and stdout.startswith(f"{bad}: error [format_error]: "), f"info text error: {stdout!r}")
        for what, args in {"info without files": ["info"], "info --json without files": ["info", "--json"],
                           "info with an unknown option": ["info", "--jsn", files[0]]}.items():
            status, stdout, stderr = run(ntensor, args)
            check(status == 2 and stdout == "" and stderr.startswith("ntensor: "), f"{what}: {status} {stderr!r}")


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    ntensor, source_dir = sys.argv[1], sys.argv[2]
    check_examples(ntensor, os.path.join(source_dir, "examples", "specs"))
    check_error_configs(ntensor, os.path.join(source_dir, "tests", "cli", "configs"))
    check_stdin(ntensor, os.path.join(source_dir, "examples", "specs"))
    check_command_line(ntensor)
    check_files(ntensor, os.path.join(source_dir, "examples", "specs"))
    check_info(ntensor)
    for failure in failures:
        print("FAILED:", failure)
    print(f"check_cli: {len(failures)} failed checks")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
