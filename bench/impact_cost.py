#!/usr/bin/env python3
"""The impact model's cost over a bulk run, and the findings per level.

Usage: impact_cost.py CUDA_LINT DB_DIR OUT_PREFIX [-j N] [--repeat R]

Runs `cuda-lint -p DB_DIR -j N --no-cache --format=json` over the same
compile database: with the impact model (--min-impact=low, so that both
report the same findings) and without it (CUDA_LINT_IMPACT=off), after one
warm-up run, R times each, alternating. Prints the
wall and CPU times (of the children: user + system) of each, and from the
first run's report the findings per check at each impact level, and how
many each --min-impact level shows (correctness checks are never hidden).
Not a timed test: a benchmark, run by hand (bench/results/impact-*.md).
"""
import collections
import json
import os
import resource
import subprocess
import sys
import time

CORRECTNESS = {"cuda-warp-synchronous", "cuda-divergent-barrier",
               "cuda-unsynchronized-timing", "cuda-legacy-runtime-api",
               "cuda-legacy-warp-intrinsic", "cuda-restrict-aliasing",
               "cuda-pageable-async-copy"}


def timed_run(cmd, env):
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.monotonic()
    r = subprocess.run(cmd, env=env, stdout=subprocess.DEVNULL,
                       stderr=subprocess.PIPE, universal_newlines=True)
    wall = time.monotonic() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, r.returncode, r.stderr


def main():
    args = sys.argv[1:]
    jobs, repeat = "2", 2
    if "--repeat" in args:
        i = args.index("--repeat")
        repeat = int(args[i + 1])
        del args[i:i + 2]
    if "-j" in args:
        i = args.index("-j")
        jobs = args[i + 1]
        del args[i:i + 2]
    lint, db, out = args
    base = [lint, "-p", db, "-j", jobs, "--no-cache", "--progress=none",
            "--format=json"]
    env_on = dict(os.environ)
    env_on.pop("CUDA_LINT_IMPACT", None)
    env_off = dict(os.environ, CUDA_LINT_IMPACT="off")
    # A first run warms the precompiled-header caches (the prefix PCHs are
    # built once and reused); then off and on alternate, the best of each
    # is kept (other load on the machine only adds time).
    timed_run(base + ["-o", out + "-warm.json"], env_off)
    ons, offs = [], []
    for _ in range(repeat):
        offs.append(timed_run(base + ["-o", out + "-off.json"], env_off))
        ons.append(timed_run(base + ["--min-impact=low", "-o", out + "-on.json"],
                             env_on))
    print("| run | wall s (each) | CPU s, children (each) | best wall | best CPU |")
    print("| --- | --- | --- | ---: | ---: |")
    for name, runs in (("impact model off (CUDA_LINT_IMPACT=off)", offs),
                       ("impact model on (--min-impact=low)", ons)):
        print("| %s | %s | %s | %.1f | %.1f |" % (
            name, ", ".join("%.1f" % r[0] for r in runs),
            ", ".join("%.1f" % r[1] for r in runs),
            min(r[0] for r in runs), min(r[1] for r in runs)))
    on = (min(r[0] for r in ons), min(r[1] for r in ons))
    off = (min(r[0] for r in offs), min(r[1] for r in offs))
    print("\nadded (best against best): wall %+.1f%%, CPU %+.1f%%\n" % (
        100.0 * (on[0] - off[0]) / off[0], 100.0 * (on[1] - off[1]) / off[1]))

    rep_on = json.load(open(out + "-on.json"))
    rep_off = json.load(open(out + "-off.json"))
    print("findings: %d with the model (all shown), %d without\n" % (
        len(rep_on["findings"]), len(rep_off["findings"])))
    per = collections.defaultdict(collections.Counter)
    for f in rep_on["findings"]:
        level = f.get("impact", {}).get("level", "none")
        per[f["check"]][level] += 1
    print("| check | low | medium | high | no rank | shown by default (medium) | shown at high |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: |")
    tot = collections.Counter()
    for check in sorted(per):
        c = per[check]
        never_hidden = check in CORRECTNESS
        shown_med = sum(c.values()) if never_hidden else c["medium"] + c["high"] + c["none"]
        shown_high = sum(c.values()) if never_hidden else c["high"] + c["none"]
        for k, v in (("low", c["low"]), ("medium", c["medium"]), ("high", c["high"]),
                     ("none", c["none"]), ("med", shown_med), ("hi", shown_high)):
            tot[k] += v
        print("| %s%s | %d | %d | %d | %d | %d | %d |" % (
            check, " (correctness)" if never_hidden else "", c["low"], c["medium"],
            c["high"], c["none"], shown_med, shown_high))
    print("| **all** | %d | %d | %d | %d | %d | %d |" % (
        tot["low"], tot["medium"], tot["high"], tot["none"], tot["med"], tot["hi"]))


if __name__ == "__main__":
    main()
