#!/usr/bin/env python3
"""One rule, two evaluations: writes C++ files of static_asserts over spec pairs and
triples (ranks 0-6, named, unnamed and mixed, every outcome of docs/matching.md's
policies `names` and `positional` for names known while compiling, refusals
included). The expected plans come from this file's own reading of the rule; each
case is also recorded for a run-time test that compares the compile-time plan with
nt::match on the same specs (tests/static/rule_support.hpp).

    gen_rule_cases.py --out DIR [--count N] [--files K] [--seed S]
"""
import argparse
import os
import random

POOL = ["A", "B", "C", "CH", "H", "W", "T", "D"]


def keys(spec):
    out = []
    for a, n in enumerate(spec):
        if n is None:
            out.append(("u", sum(1 for m in spec[a + 1:] if m is None)))
        else:
            out.append(("n", n))
    return out


def duplicate(specs):
    for s in specs:
        named = [n for n in s if n is not None]
        for n in named:
            if named.count(n) > 1:
                return n
    return None


def host_of(specs):
    ranks = [len(s) for s in specs]
    return ranks.index(max(ranks))


def solve_names(specs):
    d = duplicate(specs)
    if d is not None:
        return ("duplicate_name", d)
    h = host_of(specs)
    hk = keys(specs[h])
    for s in specs:
        for k in keys(s):
            if k not in hk:
                return ("no_counterpart", k[1] if k[0] == "n" else "?")
    maps = []
    for s in specs:
        ks = keys(s)
        maps.append([ks.index(k) if k in ks else -1 for k in hk])
    return ("ok", ["" if n is None else n for n in specs[h]], maps)


def solve_positional(specs):
    d = duplicate(specs)
    if d is not None:
        return ("duplicate_name", d)
    r = max(len(s) for s in specs)
    maps = [[o - (r - len(s)) if o >= r - len(s) else -1 for o in range(r)] for s in specs]
    common = [None] * r
    for o in range(r):
        for i, s in enumerate(specs):
            a = maps[i][o]
            if a < 0 or s[a] is None:
                continue
            if common[o] is None:
                common[o] = s[a]
            elif s[a] != common[o]:
                return ("name_mismatch", common[o], s[a])
        for e in range(o):
            if common[o] is not None and common[e] == common[o]:
                return ("name_mismatch", common[o], common[o])
    return ("ok", ["" if n is None else n for n in common], maps)


def random_spec(rng, rank, unnamed_p):
    names = rng.sample(POOL, rank) if rank <= len(POOL) else [None] * rank
    return [None if rng.random() < unnamed_p else n for n in names]


def derived(rng, host):
    # A spec that mostly fits the host: some of its axes, in any order for names,
    # keeping unnamed ones in order, sometimes a foreign name or an extra axis.
    picked = [n for n in host if rng.random() < 0.7]
    named = [n for n in picked if n is not None]
    rng.shuffle(named)
    out, it = [], iter(named)
    for n in picked:
        out.append(None if n is None else next(it))
    r = rng.random()
    if r < 0.12:
        out.insert(rng.randrange(len(out) + 1), rng.choice(POOL))
    elif r < 0.22:
        out.insert(rng.randrange(len(out) + 1), None)
    return out


def make_case(rng, k):
    unnamed_p = rng.choice([0.0, 0.0, 0.3, 0.6, 1.0])
    host = random_spec(rng, rng.randrange(7), unnamed_p)
    specs = [host] + [derived(rng, host) if rng.random() < 0.8 else
                      random_spec(rng, rng.randrange(7), rng.choice([0.0, 0.5, 1.0])) for _ in range(k - 1)]
    if rng.random() < 0.03 and any(len(s) >= 2 for s in specs):
        s = next(s for s in specs if len(s) >= 2)
        s[1] = s[0] if s[0] is not None else "A"
        if s[0] is None:
            s[0] = "A"
    specs = [s[:6] for s in specs]  # ranks 0-6
    rng.shuffle(specs)
    return specs


def sizes_for(specs, outcome, policy):
    # Sizes that fit: the size of output axis o is 2 + o for every member (1 now and
    # then, to broadcast); refusals get 1 everywhere, so only the names can refuse.
    if outcome[0] != "ok":
        return [[1] * len(s) for s in specs]
    maps = outcome[2]
    out = []
    for i, s in enumerate(specs):
        sz = [1] * len(s)
        for o, a in enumerate(maps[i]):
            if a >= 0:
                sz[a] = 2 + o
        out.append(sz)
    return out


def cpp_axes(spec):
    return "nt::axes<" + ", ".join('"?"' if n is None else '"%s"' % n for n in spec) + ">"


def spec_text(spec, sizes):
    if not spec:
        return "()"
    return "(" + ",".join(map(str, sizes)) + " | " + ",".join("?" if n is None else n for n in spec) + ")"


def emit(case_id, specs, policy, outcome):
    pol = "nt::policy::" + policy
    args = ", ".join(cpp_axes(s) for s in specs)
    m = "m%d" % case_id
    lines = ["using %s = nt::static_match_for<%s, %s>;" % (m, pol, args)]
    if outcome[0] == "ok":
        r = len(outcome[1])
        names = "std::array<std::string_view, %d>{%s}" % (r, ", ".join('"%s"' % n for n in outcome[1]))
        maps = "std::array<std::array<std::int32_t, %d>, %d>{{%s}}" % (
            r, len(specs), ", ".join("{%s}" % ", ".join(map(str, mp)) for mp in outcome[2]))
        p = "p%d" % case_id
        lines.append("using %s = nt::static_plan_for<%s, %s>;" % (p, pol, args))
        lines.append("static_assert(%s::ok && %s::output_names == %s && %s::source_axes == %s);" % (m, p, names, p, maps))
    elif outcome[0] == "name_mismatch":
        lines.append('static_assert(std::is_same_v<%s::error, nt::static_error::name_mismatch<"%s", "%s">>);' % (
            m, outcome[1], outcome[2]))
    else:
        lines.append('static_assert(std::is_same_v<%s::error, nt::static_error::%s<"%s">>);' % (m, outcome[0], outcome[1]))
    sizes = sizes_for(specs, outcome, policy)
    texts = ", ".join('"%s"' % spec_text(s, z) for s, z in zip(specs, sizes))
    record = "nt::test::record_case<%s, %s>({%s})" % (pol, args, texts)
    return lines, record


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", required=True)
    ap.add_argument("--count", type=int, default=3000)
    ap.add_argument("--files", type=int, default=6)
    ap.add_argument("--seed", type=int, default=20261128)
    a = ap.parse_args()
    rng = random.Random(a.seed)
    os.makedirs(a.out, exist_ok=True)
    cases, outcomes = [], {}
    # The worked examples of matching.md that have no sizes in them come first.
    fixed = [([[None, "CHANNEL", "H", "W"], [None, "H", "W"]], "names"),
             ([[None, "H", "W"], [None, "CLASS", "H", "W"]], "names"),
             ([[None, "CLASS", "H", "W"], [None, "SCALE1", "SCALE2", "SCALE3", "H", "W"]], "names"),
             ([["H", "W"], ["W", "H"]], "names"),
             ([["N", "C"], ["H"]], "positional"),
             ([["N", "C"], ["C"]], "positional"),
             ([[], [None, None]], "names")]
    for specs, policy in fixed:
        cases.append((specs, policy))
    while len(cases) < a.count:
        k = 2 if rng.random() < 0.65 else 3
        policy = "positional" if rng.random() < 0.25 else "names"
        cases.append((make_case(rng, k), policy))
    per_file = (len(cases) + a.files - 1) // a.files
    for f in range(a.files):
        chunk = cases[f * per_file:(f + 1) * per_file]
        body, records = [], []
        for j, (specs, policy) in enumerate(chunk):
            outcome = solve_names(specs) if policy == "names" else solve_positional(specs)
            outcomes[outcome[0]] = outcomes.get(outcome[0], 0) + 1
            lines, record = emit(f * per_file + j, specs, policy, outcome)
            body += lines
            records.append("        " + record + ",")
        text = ["// Generated by tests/static/gen_rule_cases.py: do not edit.",
                "#include \"rule_support.hpp\"", "", "namespace {"] + body + [
                "}  // namespace", "",
                'TEST_CASE("the compile-time plan equals nt::match, part %d", "[static][rule]") {' % f,
                "    const std::vector<nt::test::rule_case> cases{"] + records + [
                "    };", "    nt::test::compare_with_match(cases);", "}", ""]
        path = os.path.join(a.out, "rule_cases_%d.cpp" % f)
        new = "\n".join(text)
        if not os.path.exists(path) or open(path).read() != new:
            with open(path, "w") as fh:
                fh.write(new)
    print("cases:", len(cases), "outcomes:", outcomes)


if __name__ == "__main__":
    main()
