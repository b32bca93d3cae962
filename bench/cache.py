#!/usr/bin/env python3
"""The results cache and the compiler launcher, measured (docs/performance.md).

  bench/cache.py bulk -p DB [--cache DIR]        # cold, then warm bulk run
  bench/cache.py header -p DB --bench B... --header REL
                                                 # a copy of some benchmarks:
                                                 # cold, warm, one header edited
  bench/cache.py launcher -p DB --bench B...     # a CMake project of those
                                                 # benchmarks' sources, built
                                                 # with Ninja, with and
                                                 # without the launcher

bulk: `cuda-lint -p DB -j J --progress=none --format=json` twice with an
empty results cache: the first run fills it (cold), the second finds every
file there (warm). The two JSON reports must be identical. With --baseline,
also a run with --no-cache (what the cache costs when it misses).

header: copies the named benchmark directories (and DB's `src/include`, which
HeCBench sources include) to a scratch directory, with a compile database
rewritten for the copy; runs cold, warm, then appends a comment line to the
header REL (relative to the copy's src/) and runs again: only the units that
include it must be analysed again (the summary's "N of M files from the
cache"), and they are listed (from the preprocessor, `nvcc -M`).

launcher: a CMake project (one static library per benchmark, its sources
from the compile database, compiled with the database's flags) configured
for Ninja with nvcc; a full build (`ninja clean && ninja -j J`) without the
launcher, with the launcher and an empty cache, and with the launcher and a
warm cache (the build of the previous step cleaned and built again).

Results are printed as markdown. Nothing under the corpus is modified.
"""
import argparse
import json
import os
import re
import resource
import shlex
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)


CPU = [0.0]


def run(cmd, cwd=None, env=None, out=None):
    """Runs cmd; returns wall seconds, exit code, stderr. CPU[0] gets the
    CPU seconds (user + system) of the command and its children."""
    start = time.monotonic()
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    with open(out or os.devnull, "w") as f:
        p = subprocess.run(cmd, cwd=cwd, env=env, stdout=f,
                           stderr=subprocess.PIPE, text=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    CPU[0] = (after.ru_utime - before.ru_utime) + (after.ru_stime -
                                                   before.ru_stime)
    return time.monotonic() - start, p.returncode, p.stderr


def from_cache(err):
    m = re.search(r"; (\d+) of (\d+) files? from the cache", err)
    return (int(m.group(1)), int(m.group(2))) if m else (0, 0)


def bulk_run(args, db, cache, out, extra=()):
    cmd = [args.cuda_lint, "-p", db, "-j", str(args.jobs), "--progress=none",
           "--format=json", "-o", out]
    cmd += ["--cache=" + cache] if cache else ["--no-cache"]
    if args.shard:
        cmd.append("--shard=" + args.shard)
    cmd += list(extra)
    secs, rc, err = run(cmd)
    hits, total = from_cache(err)
    if args.keep_err:
        with open(out + ".err", "w") as f:
            f.write(err)
    return secs, hits, total, err


def cmd_bulk(args):
    work = tempfile.mkdtemp(prefix="cuda-lint-bench-")
    cache = args.cache or os.path.join(work, "cache")
    shutil.rmtree(cache, ignore_errors=True)
    rows = []
    if args.baseline:
        s, h, t, _ = bulk_run(args, args.p, None, os.path.join(work, "base.json"))
        rows.append(("no cache (--no-cache)", s, CPU[0], "-", t))
    s, h, t, _ = bulk_run(args, args.p, cache, os.path.join(work, "cold.json"))
    rows.append(("cold (empty cache)", s, CPU[0], h, t))
    cold, cold_cpu = s, CPU[0]
    s, h, t, _ = bulk_run(args, args.p, cache, os.path.join(work, "warm.json"))
    rows.append(("warm (nothing changed)", s, CPU[0], h, t))
    same = open(os.path.join(work, "cold.json")).read() == open(
        os.path.join(work, "warm.json")).read()
    size = sum(os.path.getsize(os.path.join(d, f))
               for d, _, fs in os.walk(cache) for f in fs)
    print("| run | wall time | CPU time | from the cache |")
    print("|---|---:|---:|---:|")
    for name, secs, cpu, hits, total in rows:
        print(f"| {name} | {secs:.1f}s | {cpu:.1f}s | {hits} of {total} |")
    print()
    print(f"warm / cold: {100 * rows[-1][1] / cold:.1f}% of the wall time, "
          f"{100 * rows[-1][2] / cold_cpu:.1f}% of the CPU time; JSON reports "
          f"{'identical' if same else 'DIFFER'}; cache size "
          f"{size / 2**20:.1f} MiB")
    if not args.cache:
        shutil.rmtree(work, ignore_errors=True)
    return 0 if same else 1


def copy_subset(args, work):
    """Copies the benchmarks to work/src and writes work/compile_commands.json
    with their entries, paths rewritten."""
    db = json.load(open(os.path.join(args.p, "compile_commands.json")))
    src_root = os.path.join(os.path.dirname(os.path.abspath(
        os.path.join(args.p, "compile_commands.json"))), "src")
    os.makedirs(os.path.join(work, "src"))
    inc = os.path.join(src_root, "include")
    if os.path.isdir(inc):
        shutil.copytree(inc, os.path.join(work, "src", "include"))
    entries = []
    for b in args.bench:
        shutil.copytree(os.path.join(src_root, b), os.path.join(work, "src", b))
        for e in db:
            if os.path.basename(e["directory"].rstrip("/")) == b:
                e = json.loads(json.dumps(e).replace(src_root,
                                                     os.path.join(work, "src")))
                entries.append(e)
    for d, _, fs in os.walk(os.path.join(work, "src")):
        for f in fs:
            os.chmod(os.path.join(d, f), 0o644)
    with open(os.path.join(work, "compile_commands.json"), "w") as f:
        json.dump(entries, f, indent=1)
    return entries


def cmd_header(args):
    work = tempfile.mkdtemp(prefix="cuda-lint-bench-")
    entries = copy_subset(args, work)
    cache = os.path.join(work, "cache")
    header = os.path.join(work, "src", args.header)
    # Who includes the header, by the preprocessor (nvcc -M).
    includers = []
    for e in entries:
        a = [x for x in e["arguments"] if x not in ("-c",)]
        p = subprocess.run([args.nvcc] + a[1:] + ["-M"], cwd=e["directory"],
                           stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                           text=True)
        if os.path.realpath(header) in {os.path.realpath(x) for x in
                                        re.findall(r"(\S+\.(?:h|hpp|cuh|hh))",
                                                   p.stdout.replace("\\\n", " "))
                                        if os.path.exists(
                                            os.path.join(e["directory"], x))
                                        for x in [os.path.join(
                                            e["directory"], x)]}:
            includers.append(os.path.relpath(e["file"], work))
    rows = []
    for name in ("cold", "warm"):
        s, h, t, _ = bulk_run(args, work, cache, os.path.join(work, name + ".json"))
        rows.append((name, s, CPU[0], h, t))
    with open(header, "a") as f:
        f.write("// edited by bench/cache.py\n")
    s, h, t, _ = bulk_run(args, work, cache, os.path.join(work, "edited.json"))
    rows.append((f"after editing {args.header}", s, CPU[0], h, t))
    print(f"{len(entries)} compile commands from {len(args.bench)} benchmarks; "
          f"{len(includers)} include {args.header} (nvcc -M): "
          + ", ".join(includers))
    print()
    print("| run | wall time | CPU time | from the cache | analysed again |")
    print("|---|---:|---:|---:|---:|")
    for name, secs, cpu, hits, total in rows:
        print(f"| {name} | {secs:.1f}s | {cpu:.1f}s | {hits} of {total} | "
              f"{total - hits} |")
    ok = rows[-1][4] - rows[-1][3] == len(includers)
    print()
    print("analysed again == includers:", "yes" if ok else "NO")
    shutil.rmtree(work, ignore_errors=True)
    return 0 if ok else 1


def cmd_launcher(args):
    work = tempfile.mkdtemp(prefix="cuda-lint-bench-")
    entries = copy_subset(args, work)
    lines = ["cmake_minimum_required(VERSION 3.18)",
             "project(bench LANGUAGES CUDA)",
             "set(CMAKE_CUDA_ARCHITECTURES 90)"]
    by_bench = {}
    for e in entries:
        b = os.path.basename(e["directory"].rstrip("/"))
        by_bench.setdefault(b, []).append(e)
    for b, es in by_bench.items():
        name = re.sub(r"[^A-Za-z0-9_]", "_", b)
        files = " ".join(os.path.relpath(e["file"], work) for e in es)
        lines.append(f"add_library({name} STATIC {files})")
        flags, incs = [], [os.path.join("src", b)]
        a = es[0]["arguments"]
        i = 1
        while i < len(a):
            x = a[i]
            if x in ("-c", "-o") or x.endswith(".cu") or x.startswith("-arch"):
                i += 2 if x == "-o" else 1
                continue
            if x == "-Xcompiler" and i + 1 < len(a):
                flags.append(f"{x}={a[i + 1]}")
                i += 2
                continue
            if x.startswith("-I"):
                incs.append(os.path.relpath(os.path.join(es[0]["directory"],
                                                         x[2:]), work))
            else:
                flags.append(x)
            i += 1
        lines.append(f"target_include_directories({name} PRIVATE "
                     + " ".join(incs) + ")")
        if flags:
            lines.append(f"target_compile_options({name} PRIVATE "
                         + " ".join(shlex.quote(f) for f in flags) + ")")
    with open(os.path.join(work, "CMakeLists.txt"), "w") as f:
        f.write("\n".join(lines) + "\n")
    env = dict(os.environ, PATH=os.path.dirname(args.nvcc) + ":" +
               os.environ["PATH"])
    cache = os.path.join(work, "cache")
    rows = []

    def build(tag, launcher):
        bdir = os.path.join(work, "build-" + tag)
        cfg = ["cmake", "-S", work, "-B", bdir, "-G", "Ninja",
               "-DCMAKE_CUDA_COMPILER=" + args.nvcc]
        if launcher:
            cfg.append("-DCMAKE_CUDA_COMPILER_LAUNCHER=" + args.cuda_lint +
                       ";--launcher;--cache=" + cache)
        subprocess.run(cfg, env=env, stdout=subprocess.DEVNULL, check=True)
        subprocess.run(["ninja", "-C", bdir, "clean"], stdout=subprocess.DEVNULL)
        secs, rc, err = run(["ninja", "-C", bdir, "-k", "0",
                             "-j", str(args.jobs)], env=env,
                            out=os.path.join(work, tag + ".log"))
        cpu = CPU[0]
        log = open(os.path.join(work, tag + ".log")).read()
        ok = len(re.findall(r"^\[\d+/\d+\] Building CUDA object", log, re.M))
        failed = log.count("FAILED:")
        return secs, cpu, ok, failed, log.count("warning:")

    for tag, launcher in (("plain", False), ("launcher-cold", True),
                          ("launcher-warm", True)):
        if tag == "launcher-warm":
            # The same build directory as the cold build, cleaned.
            r = build("launcher-cold", True)
        else:
            r = build(tag, launcher)
        rows.append((tag,) + r)
    base, base_cpu = rows[0][1], rows[0][2]
    print(f"{len(entries)} CUDA sources from {len(by_bench)} benchmarks, "
          f"ninja -j{args.jobs}, nvcc {args.nvcc}")
    print()
    print("| build | wall time | vs. without | CPU time | vs. without | "
          "compiles | failed | warnings |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    for tag, secs, cpu, n, failed, warn in rows:
        print(f"| {tag} | {secs:.1f}s | {100 * secs / base:.1f}% | "
              f"{cpu:.1f}s | {100 * cpu / base_cpu:.1f}% | {n} | "
              f"{failed} | {warn} |")
    shutil.rmtree(work, ignore_errors=True)
    return 0


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("mode", choices=["bulk", "header", "launcher"])
    ap.add_argument("-p", required=True, help="directory of compile_commands.json")
    ap.add_argument("-j", "--jobs", type=int, default=2)
    ap.add_argument("--cuda-lint", default=os.path.join(ROOT, "build", "bin",
                                                        "cuda-lint"))
    ap.add_argument("--nvcc", default="/usr/local/cuda/bin/nvcc")
    ap.add_argument("--cache", help="bulk: keep the cache here")
    ap.add_argument("--baseline", action="store_true",
                    help="bulk: also a run with --no-cache")
    ap.add_argument("--bench", nargs="+", default=[])
    ap.add_argument("--header")
    ap.add_argument("--shard", help="bulk: only this share K/N of the "
                    "database (cuda-lint --shard)")
    ap.add_argument("--keep-err", action="store_true",
                    help="bulk: keep each run's stderr beside its report")
    args = ap.parse_args()
    return {"bulk": cmd_bulk, "header": cmd_header,
            "launcher": cmd_launcher}[args.mode](args)


if __name__ == "__main__":
    sys.exit(main())
