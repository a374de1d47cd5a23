#!/usr/bin/python3
"""Command tests for `ntensor`: exit statuses, JSON output, stdin, the table, errors.

usage: check_cli.py NTENSOR SOURCE_DIR

Runs the command on every example config (examples/specs) and every failing
config (tests/cli/configs, named <code>[.<variant>].json), parses the JSON output
back and checks it against spec/config.md and the worked examples of
spec/matching.md. Prints one line per failed check; exits 1 if any failed.
"""
import json
import os
import subprocess
import sys
import tempfile

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


def check_examples(ntensor, specs_dir):
    for name in sorted(os.listdir(specs_dir)):
        if not name.endswith(".json"):
            continue
        path = os.path.join(specs_dir, name)
        check(name in EXPECTED_PLANS or name in EXPECTED_ERRORS, f"{name}: example without an expectation here")
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
        # The table for people: the same plan, exit status and no JSON.
        status_text, table, _ = run(ntensor, ["plan", path])
        check(status_text == status, f"{name}: table exit status {status_text}, JSON {status}")
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
            if ".typo." in name:  # a name one edit away from a host name
                check("(did you mean 'DEPTH'?)" in out["error"]["message"], f"{name}: no suggestion in {out}")
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
            "plan --json without a file": ["plan", "--json"],
            "unknown option": ["plan", "--jsn", "x.json"],
            "two files": ["plan", "a.json", "b.json"],
            "missing file": ["plan", os.path.join(tmp, "missing.json")],
            "missing file with --json": ["plan", "--json", os.path.join(tmp, "missing.json")],
            "a directory": ["plan", tmp],
        }
        for what, args in usage_errors.items():
            status, stdout, stderr = run(ntensor, args)
            check(status == 2, f"{what}: exit status {status}, expected 2")
            check(stdout == "", f"{what}: stdout {stdout!r}, expected nothing")
            check(stderr.startswith("ntensor: ") and stderr.count("\n") == 1,
                  f"{what}: stderr is not one line: {stderr!r}")


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    ntensor, source_dir = sys.argv[1], sys.argv[2]
    check_examples(ntensor, os.path.join(source_dir, "examples", "specs"))
    check_error_configs(ntensor, os.path.join(source_dir, "tests", "cli", "configs"))
    check_stdin(ntensor, os.path.join(source_dir, "examples", "specs"))
    check_command_line(ntensor)
    for failure in failures:
        print("FAILED:", failure)
    print(f"check_cli: {len(failures)} failed checks")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
