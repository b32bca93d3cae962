#!/usr/bin/env python3
"""Draw a precision-audit sample from a cuda-lint JSON report.

  bench/audit.py --report R.json [--per-check 30] [--seed 22] [--checks a,b]
                 [--context 6] -o SAMPLE.md

For each check, a random sample of `--per-check` findings (all of them when
there are fewer), drawn with a fixed seed so that an audit can be redone on
the same findings after a change. Each finding is written with its message,
its notes, whether it has a fix, and the source lines around it, for a
reader who did not write the check to mark true, false or debatable (see
docs/realworld.md, "Precision audit"). A verdict line is left to fill in:

  verdict: true | false | debatable -- why
"""

import argparse
import json
import os
import random
import re
import time
import sys

MAX_NOTES = 12

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import hecbench_split  # noqa: E402


CORRECTNESS = {"cuda-warp-synchronous", "cuda-divergent-barrier",
               "cuda-unsynchronized-timing", "cuda-legacy-runtime-api",
               "cuda-legacy-warp-intrinsic", "cuda-restrict-aliasing",
               "cuda-pageable-async-copy"}
LEVELS = {"low": 0, "medium": 1, "high": 2}


def shown(x, min_impact):
    """Whether a profile with MinImpact = min_impact shows finding x."""
    if x.get("check") in CORRECTNESS:
        return True
    level = x.get("impact", {}).get("level", "medium")
    return LEVELS[level] >= LEVELS[min_impact]


def benchmark_half(path):
    """sealed or tuning: the half of the benchmark directory src/NAME-cuda/
    that holds path, or None outside one (bench/hecbench_split.py)."""
    name = hecbench_split.benchmark_of(os.path.realpath(path))
    return hecbench_split.half(name) if name else None


def excerpt(path, line, context):
    try:
        with open(path, errors="replace") as f:
            lines = f.read().splitlines()
    except OSError:
        return "(unreadable)"
    lo, hi = max(1, line - context), min(len(lines), line + context)
    return "\n".join("%s%5d  %s" % (">" if i == line else " ", i, lines[i - 1])
                     for i in range(lo, hi + 1))


def main():
    p = argparse.ArgumentParser(description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--report", required=True)
    p.add_argument("--per-check", type=int, default=30)
    p.add_argument("--seed", type=int, default=22)
    p.add_argument("--checks")
    p.add_argument("--context", type=int, default=6)
    p.add_argument("--fresh", action="store_true",
                   help="a new seed from the clock (printed in the sample): "
                        "a sealed-half sample is drawn fresh each time")
    p.add_argument("--half", choices=("sealed", "tuning"),
                   help="only findings in that half of HeCBench "
                        "(bench/hecbench_split.py: the directory NAME-cuda "
                        "under src/)")
    p.add_argument("--min-impact", choices=("low", "medium", "high"),
                   default="low",
                   help="only what that profile shows: findings whose impact "
                        "level is at least this, and every correctness "
                        "finding (the report should be of a --min-impact=low "
                        "run)")
    p.add_argument("--exclude", metavar="FILE", action="append", default=[],
                   help="leave out the findings an earlier audit read: every "
                        "`NAME-cuda/PATH:LINE:COL` in FILE (its results "
                        "table or its sample; repeatable)")
    p.add_argument("-o", "--output")
    args = p.parse_args()
    read_before = set()
    for path in args.exclude:
        with open(path) as f:
            read_before |= set(re.findall(r"([\w.+-]+-cuda/[^\s|:`]+:\d+:\d+)",
                                          f.read()))
    if args.fresh:
        args.seed = int(time.time()) % 100000
    data = json.load(open(args.report))
    by_check = {}
    seen = set()
    excluded = 0
    for x in data.get("findings", []):
        c = x.get("check", "")
        if not c or c.startswith("clang-diagnostic"):
            continue
        if args.half and benchmark_half(x["file"]) != args.half:
            continue
        if not shown(x, args.min_impact):
            continue
        real = os.path.realpath(x["file"])
        name = hecbench_split.benchmark_of(real)
        rel = real[real.index("/%s/" % name) + 1:] if name else real
        if "%s:%d:%d" % (rel, x["line"], x["column"]) in read_before:
            excluded += 1
            continue
        key = (c, os.path.realpath(x["file"]), x["line"], x["column"], x["message"])
        if key in seen:
            continue
        seen.add(key)
        by_check.setdefault(c, []).append(x)
    wanted = set(args.checks.split(",")) if args.checks else None
    out = ["# Precision-audit sample", "",
           "From `%s`, %d findings per check (all when fewer), seed %d%s%s." % (
               os.path.basename(args.report), args.per_check, args.seed,
               ", HeCBench's %s half" % args.half if args.half else "",
               ", as --min-impact=%s shows them" % args.min_impact
               if args.min_impact != "low" else ""), ""]
    if args.exclude:
        out += ["%d findings read by an earlier audit left out (%s)." % (
            excluded, ", ".join(os.path.basename(e) for e in args.exclude)), ""]
    out.append("| check | findings | sampled |")
    out.append("|---|---|---|")
    picks = {}
    for c in sorted(by_check):
        if wanted and c not in wanted:
            continue
        xs = sorted(by_check[c], key=lambda x: (x["file"], x["line"], x["column"]))
        rnd = random.Random("%d:%s" % (args.seed, c))
        picks[c] = xs if len(xs) <= args.per_check else sorted(
            rnd.sample(xs, args.per_check), key=lambda x: (x["file"], x["line"]))
        out.append("| %s | %d | %d |" % (c, len(xs), len(picks[c])))
    for c, xs in picks.items():
        out += ["", "## %s" % c, ""]
        for i, x in enumerate(xs, 1):
            out.append("### %s #%d: %s:%d:%d" % (c, i, x["file"], x["line"], x["column"]))
            out.append("")
            out.append("- message: %s" % x["message"])
            if x.get("impact"):
                out.append("- impact: %s (rank %s/100): %s" % (
                    x["impact"].get("level"), x["impact"].get("rank"),
                    x["impact"].get("reason")))
            # A finding of many sites (a function's literals, a layout's
            # accesses) has a note per site: the first few and a count.
            notes = x.get("notes", [])
            for n in notes[:MAX_NOTES]:
                out.append("- note: %s:%s: %s" % (n.get("file", "?"), n.get("line", "?"),
                                                  n.get("message", "")))
            if len(notes) > MAX_NOTES:
                out.append("- (%d more notes)" % (len(notes) - MAX_NOTES))
            out.append("- fix: %s" % ("yes" if x.get("fixes") else "no"))
            out.append("")
            out.append("```")
            out.append(excerpt(x["file"], x["line"], args.context))
            out.append("```")
            out.append("")
            out.append("verdict: ")
            out.append("")
    text = "\n".join(out) + "\n"
    if args.output:
        with open(args.output, "w") as f:
            f.write(text)
    else:
        sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
