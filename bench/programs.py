#!/usr/bin/env python3
"""Program-mode validation of a whole corpus: every program's fixes, built
and run with its own build and run commands, original against fixed.

  bench/programs.py prepare --report R.json --root SRC --out PLANS [options]
  bench/programs.py run PLANS --corpus SRC --work WORK [options]
  bench/programs.py report WORK [-o TABLE.md]

`prepare` (where cuda-lint is) turns one bulk report of cuda-lint (`--format=json`,
for example the one `bench/corpus.py --save` keeps) into one plan per program:
a program is a directory right below SRC (HeCBench: `src/foo-cuda`); its plan
is the `program.json` of `cuda-lint-validate --prepare` (the findings with
fixes, each with its replacements relative to the program, and the build and
run commands), without the copy of the program, so that the plans of five
hundred programs travel in a few kilobytes each. Replacements outside a
program (a header several programs share) are not validated: they are counted.

`run` (where the programs build and run: a GPU machine with nvcc, python3 and
make; no cuda-lint) makes each plan a bundle (a copy of the program from
--corpus) and runs `cuda-lint-validate --run-prepared` on it: the original and
the fixed program built and run `--runs` times, their outputs compared, a
failing fix set bisected down to its culprits. Several programs run at once
(`-P`): their builds overlap with the others' runs, so the times are those of
a shared GPU (the speedups compare runs made side by side; see
docs/realworld.md). A plan whose bundle already holds a report is skipped,
and `--budget SECONDS` stops starting new programs after that long, so that
a run can be split over calls of limited length.

`report` summarises the reports: per program (fixes, built, ran, same result,
sanitizer, times, speedup) and in aggregate (the geometric mean of the
speedups of the programs that report their own kernel times).
"""

import argparse
import concurrent.futures
import json
import math
import os
import shutil
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
VALIDATE = os.path.join(HERE, "..", "tools", "validate", "cuda-lint-validate")


def prepare(args):
    data = json.load(open(args.report))
    root = os.path.realpath(args.root)
    plans = {}
    elsewhere = {}
    for x in data.get("findings", []):
        check = x.get("check", "")
        if not check or check.startswith("clang-diagnostic-") or not x.get("fixes"):
            continue
        rel = os.path.relpath(os.path.realpath(x["file"]), root)
        if rel.startswith(".."):
            continue
        prog = rel.split(os.sep)[0]
        reps = []
        for r in x["fixes"]:
            rr = os.path.relpath(os.path.realpath(r["file"]), os.path.join(root, prog))
            if rr.startswith(".."):
                elsewhere[prog] = elsewhere.get(prog, 0) + 1
                continue
            reps.append({"file": rr, "offset": r["offset"], "length": r["length"],
                         "replacement": r["replacement"]})
        if not reps:
            continue
        p = plans.setdefault(prog, {"findings": [], "seen": set()})
        key = (check, rel, x["line"], x["column"])
        if key in p["seen"]:
            continue
        p["seen"].add(key)
        p["findings"].append({"id": len(p["findings"]) + 1, "check": check,
                              "file": os.path.relpath(rel, prog), "line": x["line"],
                              "column": x["column"], "message": x["message"], "fixes": reps})
    failures = {}
    for x in data.get("failures", []):
        rel = os.path.relpath(os.path.realpath(x.get("file", "")), root)
        if not rel.startswith(".."):
            failures.setdefault(rel.split(os.sep)[0], []).append(x)
    os.makedirs(args.out, exist_ok=True)
    names = sorted(plans)
    if args.only:
        # In the order given (the fastest first, to fit a time budget).
        names = [n for n in args.only.split(",") if n in set(names)]
    for name in names:
        meta = {"program": os.path.join(root, name), "name": name, "build": args.build,
                "run": args.run, "checks": args.checks, "config": None,
                "compare": args.compare, "compile_database": None, "siblings_of": root,
                "findings": plans[name]["findings"],
                "lint_failures": failures.get(name, []),
                "replacements_elsewhere": elsewhere.get(name, 0)}
        d = os.path.join(args.out, name)
        os.makedirs(d, exist_ok=True)
        with open(os.path.join(d, "program.json"), "w") as out:
            json.dump(meta, out, indent=1)
    nfix = sum(len(plans[n]["findings"]) for n in names)
    print("%d programs with %d findings with fixes (%d replacements in files shared "
          "between programs, not validated)" % (len(names), nfix, sum(elsewhere.values())))
    return 0


def run_one(args, plan_dir, name):
    bundle = os.path.join(args.work, name)
    if os.path.exists(os.path.join(bundle, "report.json")):
        return name, "done before", 0.0
    if os.path.exists(bundle):
        shutil.rmtree(bundle)
    os.makedirs(bundle)
    shutil.copy(os.path.join(plan_dir, "program.json"), os.path.join(bundle, "program.json"))
    src = os.path.join(args.corpus, name)
    shutil.copytree(src, os.path.join(bundle, "original"), symlinks=True)
    cmd = [sys.executable, VALIDATE, "--run-prepared", bundle, "--runs", str(args.runs),
           "--siblings-from", os.path.abspath(args.corpus),
           "--program-timeout", str(args.timeout)]
    if args.no_sanitizer:
        cmd.append("--no-sanitizer")
    else:
        cmd += ["--sanitizer-launches", str(args.sanitizer_launches)]
    t0 = time.time()
    with open(os.path.join(bundle, "validate.log"), "w") as log:
        rc = subprocess.call(cmd, stdout=log, stderr=subprocess.STDOUT)
    # The copies are large; the report and the log are what counts.
    shutil.rmtree(os.path.join(bundle, "work"), ignore_errors=True)
    shutil.rmtree(os.path.join(bundle, "original"), ignore_errors=True)
    if not os.path.exists(os.path.join(bundle, "report.json")):
        with open(os.path.join(bundle, "report.json"), "w") as out:
            json.dump({"case": name, "status": "ERROR",
                       "reasons": ["cuda-lint-validate exited %d without a report" % rc]}, out)
    return name, "rc %d" % rc, time.time() - t0


def run(args):
    names = sorted(n for n in os.listdir(args.plans)
                   if os.path.exists(os.path.join(args.plans, n, "program.json")))
    if args.only:
        # In the order given (the fastest first, to fit a time budget).
        names = [n for n in args.only.split(",") if n in set(names)]
    if args.shard:
        k, n = (int(x) for x in args.shard.split("/"))
        names = names[k::n]
    os.makedirs(args.work, exist_ok=True)
    start = time.time()
    todo = [n for n in names if not os.path.exists(os.path.join(args.work, n, "report.json"))]
    print("%d programs, %d to run" % (len(names), len(todo)), flush=True)
    with concurrent.futures.ThreadPoolExecutor(args.parallel) as ex:
        futures = {}
        it = iter(todo)
        started = 0

        def submit():
            nonlocal started
            if args.budget and time.time() - start > args.budget:
                return False
            n = next(it, None)
            if n is None:
                return False
            futures[ex.submit(run_one, args, os.path.join(args.plans, n), n)] = n
            started += 1
            return True

        for _ in range(args.parallel):
            submit()
        while futures:
            done, _ = concurrent.futures.wait(futures, return_when="FIRST_COMPLETED")
            for f in done:
                n = futures.pop(f)
                name, what, secs = f.result()
                status = json.load(open(os.path.join(args.work, n, "report.json"))).get("status")
                print("[%4.0fs] %s: %s (%s, %.0fs)" % (time.time() - start, name, status, what,
                                                      secs), flush=True)
                submit()
    left = [n for n in names if not os.path.exists(os.path.join(args.work, n, "report.json"))]
    print("%d programs done, %d left" % (len(names) - len(left), len(left)))
    return 0


def cell_times(v):
    t = (v or {}).get("times") or {}
    own = [l["value"] for l in t.get("lines", [])]
    return own, t.get("wall_s")


def classify(r):
    """(built, ran, same result, verdict) of one program's report."""
    o, f = r.get("original", {}), r.get("fixed") or {}
    status = r.get("status", "?")
    reasons = "; ".join(r.get("reasons", []))
    if status == "ERROR":
        return "?", "?", "?", "error: " + reasons
    if o.get("build_rc", 1) != 0:
        return "original does not build", "-", "-", "not validated"
    if "times out" in reasons and status == "NOT VALIDATED":
        return "yes", "original times out", "-", "not validated"
    oexit = sorted(set(o.get("exit", [])))
    if oexit and oexit != [0]:
        ran = "original exits %s" % ",".join(map(str, oexit))
    else:
        ran = "yes"
    built = "yes" if f.get("build_rc") == 0 else "NO"
    same = "yes" if status == "passed" else ("NO" if status == "FAILED" else "-")
    return built, ran, same, status


def report(args):
    rows, speedups, counts = [], [], {}
    checks = {}
    for name in sorted(os.listdir(args.work)):
        p = os.path.join(args.work, name, "report.json")
        if not os.path.exists(p):
            continue
        r = json.load(open(p))
        built, ran, same, verdict = classify(r)
        counts[verdict] = counts.get(verdict, 0) + 1
        fnd = r.get("findings", [])
        kept = set(r.get("kept") or [])
        for x in fnd:
            c = checks.setdefault(x["check"], {"fixes": 0, "kept": 0, "culprits": []})
            c["fixes"] += 1
            if x["id"] in kept or r.get("status") == "passed":
                c["kept"] += 1
            elif str(x.get("validation", "")).startswith("FAILED"):
                c["culprits"].append("%s %s:%d: %s" % (name, x["file"], x["line"],
                                                       x["validation"][8:][:160]))
        fx = r.get("kept_version") or r.get("fixed") or {}
        own_o, wall_o = cell_times(r.get("original"))
        own_f, wall_f = cell_times(fx)
        sp = fx.get("speedup")
        basis = fx.get("speedup_basis", "")
        if sp and basis == "program's own times" and r.get("status") == "passed":
            speedups.append(sp)
        san = "-"
        if "racecheck_original" in r:
            san = "; ".join("%s %s->%s" % (t, r.get(t + "_original"), r.get(t + "_fixed"))
                            for t in ("racecheck", "synccheck"))
        rows.append([name, str(len(fnd)), ",".join(sorted(set(
            x["check"].replace("cuda-", "") for x in fnd))), built, ran, same, san,
            "%.3g / %.3g" % (wall_o, wall_f) if wall_o and wall_f else "-",
            "%.2fx" % sp if sp else "-", verdict if verdict != "passed" else "passed",
            "; ".join(r.get("reasons", []))[:200].replace("|", "\\|")])
    out = []
    total = sum(counts.values())
    out.append("Programs: %d. " % total + ", ".join(
        "%s: %d" % (k, v) for k, v in sorted(counts.items(), key=lambda kv: -kv[1])) + ".")
    if speedups:
        g = math.exp(sum(math.log(s) for s in speedups) / len(speedups))
        out.append("Geometric mean speedup over the %d passing programs that print their own "
                   "times: %.3fx (min %.2fx, max %.2fx)." % (len(speedups), g, min(speedups),
                                                            max(speedups)))
    out.append("")
    out.append("| check | fixes validated | kept | taken out |")
    out.append("|---|---|---|---|")
    for c in sorted(checks):
        v = checks[c]
        out.append("| %s | %d | %d | %d |" % (c, v["fixes"], v["kept"], len(v["culprits"])))
    culprits = [x for c in sorted(checks) for x in checks[c]["culprits"]]
    if culprits:
        out.append("")
        out.append("Fixes the bisection took out:")
        out.append("")
        out += ["- " + x for x in culprits]
    out.append("")
    cols = ["program", "fixes", "checks", "fixed built", "ran", "same result", "sanitizer",
            "wall s orig / fixed", "speedup (own times)", "result", "why"]
    out.append("| " + " | ".join(cols) + " |")
    out.append("|" + "---|" * len(cols))
    out += ["| " + " | ".join(r) + " |" for r in rows]
    text = "\n".join(out) + "\n"
    if args.output:
        with open(args.output, "w") as f:
            f.write(text)
    print(text)
    return 0


def main():
    p = argparse.ArgumentParser(description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = p.add_subparsers(dest="cmd", required=True)
    a = sub.add_parser("prepare")
    a.add_argument("--report", required=True, help="cuda-lint's JSON report")
    a.add_argument("--root", required=True, help="the directory whose subdirectories are "
                   "the programs")
    a.add_argument("--out", required=True)
    a.add_argument("--build", default="make ARCH=sm_90 CC=nvcc")
    a.add_argument("--run", default="make ARCH=sm_90 CC=nvcc run")
    a.add_argument("--checks", default="cuda-*")
    a.add_argument("--compare")
    a.add_argument("--only", help="comma-separated program names")
    b = sub.add_parser("run")
    b.add_argument("plans")
    b.add_argument("--corpus", required=True, help="where the programs are (SRC)")
    b.add_argument("--work", required=True)
    b.add_argument("-P", "--parallel", type=int, default=4)
    b.add_argument("--runs", type=int, default=2)
    b.add_argument("--timeout", type=int, default=120, help="per build or run")
    b.add_argument("--budget", type=float, help="start no program after this many seconds")
    b.add_argument("--no-sanitizer", action="store_true")
    b.add_argument("--sanitizer-launches", type=int, default=20,
                   help="kernel launches compute-sanitizer checks per run (0: all)")
    b.add_argument("--only")
    b.add_argument("--shard", help="K/N: every N-th program from the K-th")
    c = sub.add_parser("report")
    c.add_argument("work")
    c.add_argument("-o", "--output")
    args = p.parse_args()
    return {"prepare": prepare, "run": run, "report": report}[args.cmd](args)


if __name__ == "__main__":
    sys.exit(main())
