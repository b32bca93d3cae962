#!/usr/bin/env python3
"""cuda-lint against clang-tidy with the cuda-lint plugin on real files.

For translation units of a compile database (a random sample, or all), this
times, one file at a time, the modes below and prints per-file and total
CPU and wall times and the ratios:

  cuda-lint       cuda-lint -p DB --no-cache --quiet FILE
  clang-tidy      clang-tidy-22 --load=libCudaLintPlugin.so --checks=-*,cuda-*
                  --quiet FILE -- <the clang command cuda-lint analyses, less
                  its precompiled headers>
  floor           clang++-22 -fsyntax-only, the same command (no PCH)
  floor+pch       the same with the precompiled headers cuda-lint uses

Every mode parses the same code: the clang command is the one cuda-lint
itself analyses (`--export-command`), so clang-tidy gets the nvcc command's
translation, the CUDA defaults and cuda-lint's compatibility headers.
A file counts only when every mode parses it without an error.

cuda-lint runs with its own cache directory (`--cache-dir`, default a fresh
one: the first file pays for the precompiled CUDA prelude, as a first run
does), and `--passes N` runs it N times over the files in turn: with the
default policy a source's include prefix is precompiled the second time it
is seen, so the third pass is what a run after editing every file costs.
The other modes run once.

  python3 bench/realfiles.py -p /work/corpus --sample 40 --seed 1 --passes 3
"""

import argparse
import json
import os
import random
import resource
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)


def timed(argv, cwd, env=None):
    """(exit status, wall s, CPU s, stdout+stderr) of one run."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    p = subprocess.run(argv, cwd=cwd, env=env, stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, text=True, errors="replace")
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return p.returncode, wall, cpu, p.stdout


def strip_pch(args):
    out, skip = [], False
    for a in args:
        if skip:
            skip = False
            continue
        if a == "-include-pch":
            skip = True
            continue
        out.append(a)
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("-p", dest="db", required=True,
                    help="directory of compile_commands.json")
    ap.add_argument("--sample", type=int, default=0,
                    help="this many translation units at random (0: all)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--repeats", type=int, default=1,
                    help="runs per mode and file; the fastest counts")
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("--modes", default="cuda-lint,clang-tidy,floor,floor+pch")
    ap.add_argument("--lint-arg", action="append", default=[],
                    help="extra argument for the cuda-lint mode")
    ap.add_argument("--out", help="also write the report here (Markdown)")
    ap.add_argument("--cache-dir", help="CUDA_LINT_CACHE_DIR of the cuda-lint"
                    " mode (default: a fresh temporary directory)")
    ap.add_argument("--passes", type=int, default=1,
                    help="runs of the cuda-lint mode over all files")
    args = ap.parse_args()

    lint = os.path.join(args.build, "bin", "cuda-lint")
    plugin = os.path.join(args.build, "lib", "libCudaLintPlugin.so")
    with open(os.path.join(args.db, "compile_commands.json")) as f:
        db = json.load(f)
    files = []
    for c in db:
        path = c["file"]
        if not os.path.isabs(path):
            path = os.path.join(c["directory"], path)
        if path not in files:
            files.append(path)
    if args.sample and args.sample < len(files):
        files = sorted(random.Random(args.seed).sample(files, args.sample))
    modes = args.modes.split(",")

    lines = []

    def say(s=""):
        print(s, flush=True)
        lines.append(s)

    tmp = tempfile.mkdtemp(prefix="realfiles")
    cache = args.cache_dir or os.path.join(tmp, "cache")
    lint_env = dict(os.environ, CUDA_LINT_CACHE_DIR=cache)
    # The commands are exported with a cache of their own, without include
    # prefixes: exporting must not change what the cuda-lint mode finds.
    export_env = dict(os.environ, CUDA_LINT_CACHE_DIR=os.path.join(tmp, "x"),
                      CUDA_LINT_PREFIX_PCH="off")
    others = [m for m in modes if m != "cuda-lint"]
    passes = args.passes if "cuda-lint" in modes else 0
    cols = [f"cuda-lint pass {k + 1}" for k in range(passes)] + others

    say("# cuda-lint against clang-tidy with the plugin on real files\n")
    say(f"database: {args.db}, {len(files)} translation units"
        f" (sample {args.sample or 'all'}, seed {args.seed}); CPU seconds"
        f" (user + system, children included), fastest of {args.repeats}"
        f" for the modes other than cuda-lint\n")
    units, skipped = [], []
    for path in files:
        cmdfile = os.path.join(tmp, "cmd.json")
        timed([lint, "-p", args.db, "--no-cache", "--quiet",
               "--export-command=" + cmdfile, path], "/", export_env)
        try:
            with open(cmdfile) as f:
                unit = json.load(f)
            os.unlink(cmdfile)
        except (OSError, ValueError):
            skipped.append((path, "no command"))
            continue
        clang = unit["clang"]
        cwd = unit["directory"]
        # The command names the source as the database does; clang-tidy
        # gets it as its own argument.
        src_names = {unit["file"], os.path.relpath(unit["file"], cwd)}
        flags = [a for a in clang[1:] if a not in src_names and a != "-c"]
        nopch = strip_pch(flags)
        argv = {
            "clang-tidy": ["clang-tidy-22", "--load=" + plugin,
                           "--checks=-*,cuda-*", "--quiet", path, "--"] + nopch,
            "floor": ["clang++-22", "-fsyntax-only"] + nopch + [path],
            "floor+pch": ["clang++-22", "-fsyntax-only"] + flags + [path],
        }
        best, why = {}, None
        for _ in range(args.repeats):
            for m in others:
                rc, wall, cpu, out = timed(argv[m], cwd)
                if rc != 0 or "error:" in out:
                    why = f"{m}: " + next((l for l in out.splitlines()
                                           if "error" in l), f"exit {rc}")
                    break
                w, c = best.get(m, (1e9, 1e9))
                best[m] = (min(w, wall), min(c, cpu))
            if why:
                break
        if why:
            skipped.append((path, why[:160]))
            continue
        units.append((path, best))
    per_pass = [dict() for _ in range(passes)]
    for k in range(passes):
        for path, _ in units:
            rc, wall, cpu, out = timed(
                [lint, "-p", args.db, "--no-cache", "--quiet"] +
                args.lint_arg + [path], "/", lint_env)
            per_pass[k][path] = (wall, cpu)

    say("| file | " + " | ".join(cols) + " |")
    say("| --- | " + " | ".join("---:" for _ in cols) + " |")
    totals = {c: [0.0, 0.0] for c in cols}
    for path, best in units:
        row = []
        for c in cols:
            if c.startswith("cuda-lint pass"):
                w, t = per_pass[int(c.split()[-1]) - 1][path]
            else:
                w, t = best[c]
            totals[c][0] += w
            totals[c][1] += t
            row.append(f"{t:.2f}")
        name = os.path.relpath(path, os.path.dirname(args.db.rstrip("/")))
        say(f"| {name} | " + " | ".join(row) + " |")
    say()
    say(f"{len(units)} files counted, {len(skipped)} skipped"
        " (a mode that does not parse them)\n")
    say("| mode | CPU s | wall s | clang-tidy / mode (CPU) |")
    say("| --- | ---: | ---: | ---: |")
    tidy = totals.get("clang-tidy", [0, 0])[1]
    for c in cols:
        ratio = f"{tidy / totals[c][1]:.2f}x" if tidy and totals[c][1] else ""
        say(f"| {c} | {totals[c][1]:.1f} | {totals[c][0]:.1f} | {ratio} |")
    if skipped:
        say("\nskipped:\n")
        for p, why in skipped:
            say(f"- {p}: {why}")
    if args.out:
        with open(args.out, "w") as f:
            f.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    sys.exit(main())
