#!/usr/bin/env python3
"""Real-world corpus runner: cuda-lint in bulk over a codebase no one here
wrote, summarised as a markdown table for docs/realworld.md.

  bench/corpus.py [options] DIR...                 # directory mode
  bench/corpus.py [options] -p BUILD               # a compile database
  bench/corpus.py [options] --from-makefiles DIR   # a database from `make -n`

It runs `cuda-lint --progress=lines --format=json --no-cache` once over the
inputs (one child process per translation unit, as a user's bulk run, without
the results cache, so that every file is analysed) and reports:
translation units, analysed (without and with compile errors), not analysed
by cause (grouped, paths and positions normalised), findings and fixes per
check, crashes, timeouts, sanitizer reports (run it with an ASan+UBSan build:
`--cuda-lint build-asan/bin/cuda-lint`), the wall time, the median per-file
time and the slowest files.

--from-makefiles DIR writes a compile database for every directory under DIR
(recursively) that holds a Makefile, from the nvcc commands `make -n -B`
prints (no compiler runs): each `.cu` source of an nvcc command becomes one
entry with that command (`-c`, without its `-o`). Make variables can be set
with --make-var (default: CC=nvcc CXX=nvcc ARCH=sm_90, what HeCBench's
Makefiles take). Directories whose Makefile prints no nvcc command are
listed.

Everything after `--` goes to cuda-lint (compile flags after its own `--`).
For a sanitized cuda-lint, ASAN_OPTIONS defaults to detect_leaks=0 and
UBSAN_OPTIONS to print_stacktrace=1 (unless set). --load FILE renders the
table of an earlier run kept with --save FILE (or any cuda-lint JSON report
FILE.json with its stderr FILE.err). The exit code is 1 when a file crashed,
timed out or printed a sanitizer report.
"""
import argparse
import glob
import json
import os
import re
import shlex
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter, defaultdict

SOURCE_EXTS = (".cu",)
SANITIZER = re.compile(
    r"ERROR: (AddressSanitizer|LeakSanitizer|MemorySanitizer)|"
    r"WARNING: ThreadSanitizer|: runtime error: |"
    r"SUMMARY: UndefinedBehaviorSanitizer")
PROGRESS = re.compile(
    r"^\[(\d+)/(\d+)\] (.+?): (.*) \((\d+(?:\.\d+)?s|\d+:\d\d)\)$")


def seconds(text):
    if text.endswith("s"):
        return float(text[:-1])
    m, s = text.split(":")
    return int(m) * 60 + int(s)


# --- compile database from Makefiles --------------------------------------

def nvcc_entries(directory, output, sources_ext=SOURCE_EXTS):
    """Compile-database entries for the nvcc commands in `make -n` output."""
    entries = []
    for line in output.splitlines():
        line = line.strip()
        try:
            toks = shlex.split(line)
        except ValueError:
            continue
        # `cd sub && nvcc ...` and env prefixes: start at the nvcc.
        start = next((i for i, t in enumerate(toks)
                      if os.path.basename(t) == "nvcc"), None)
        if start is None:
            continue
        toks = toks[start:]
        end = next((i for i, t in enumerate(toks)
                    if t in ("&&", ";", "||", "|")), len(toks))
        toks = toks[:end]
        srcs = [t for t in toks[1:]
                if t.endswith(sources_ext) and not t.startswith("-")]
        # `make -n` prints what the shell would expand: `src/*.cu`.
        def expand(t):
            if t in srcs and any(c in t for c in "*?["):
                return sorted(os.path.relpath(p, directory) for p in
                              glob.glob(os.path.join(directory, t)))
            return [t]
        toks = [x for t in toks for x in expand(t)]
        srcs = [x for t in srcs for x in expand(t)]
        for src in srcs:
            args = []
            skip = False
            for t in toks:
                if skip:
                    skip = False
                    continue
                if t == "-o":
                    skip = True
                    continue
                if t.startswith("-o") and len(t) > 2 and not t.startswith("-opt"):
                    continue
                if t in srcs and t != src:
                    continue
                args.append(t)
            if "-c" not in args and "--compile" not in args:
                args.insert(1, "-c")
            entries.append({"directory": directory,
                            "file": os.path.normpath(os.path.join(directory, src)),
                            "arguments": args})
    return entries


def database_from_makefiles(root, make_vars, timeout=60):
    """Returns (entries, directories without an nvcc command)."""
    entries, empty = [], []
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = sorted(d for d in dirnames if not d.startswith("."))
        if "Makefile" not in filenames and "makefile" not in filenames:
            continue
        try:
            r = subprocess.run(["make", "-n", "-B"] + make_vars, cwd=dirpath,
                               capture_output=True, text=True, timeout=timeout)
            found = nvcc_entries(os.path.abspath(dirpath), r.stdout)
        except (subprocess.TimeoutExpired, OSError):
            found = []
        if found:
            entries.extend(found)
        else:
            empty.append(os.path.relpath(dirpath, root))
    seen, unique = set(), []
    for e in entries:
        if e["file"] not in seen:
            seen.add(e["file"])
            unique.append(e)
    return unique, empty


# --- grouping causes --------------------------------------------------------

POSITION = re.compile(r"^(?:[^\s:]*/)?[^\s:]*:\d+:\d+: ")


def normalise(reason):
    """A cause without the file and position it names, so that equal causes
    group: "src/a.cu:7:10: 'mpi.h' file not found" -> "'mpi.h' file not
    found"."""
    r = reason
    for prefix in ("compile error: ",
                   "header is not self-contained (no .cu file here includes "
                   "it, and alone it does not compile): "):
        if r.startswith(prefix):
            r = r[len(prefix):]
    r = POSITION.sub("", r)
    r = re.sub(r"timed out after [0-9.]+s", "timed out", r)
    r = re.sub(r"\(aka '[^']*'\)", "", r)
    return r.strip()


def group(reason):
    """A coarser family for a normalised cause."""
    if reason.endswith("file not found"):
        return "missing header"
    if reason.startswith("cuda-lint crashed"):
        return "crash"
    if reason.startswith("timed out"):
        return "timeout"
    if reason.startswith("too many errors"):
        return "too many errors (clang's limit of 20)"
    if reason.startswith("sanitizer report"):
        return "sanitizer report"
    for family in ("unknown type name", "use of undeclared identifier",
                   "no matching function for call to", "no member named",
                   "no template named", "no type named"):
        if reason.startswith(family):
            return family
    return "other compile error"


# --- the run ----------------------------------------------------------------

def run(args, extra):
    cmd = [args.cuda_lint]
    work = tempfile.mkdtemp(prefix="cuda-lint-corpus-")
    report = os.path.join(work, "report.json")
    if args.p:
        cmd += ["-p", args.p]
    # Every file analysed: the results cache would replay the files of an
    # earlier run of the same build, and the times would not be the
    # analysis's.
    cmd += ["-j", str(args.jobs), "--progress=lines", "--format=json",
            "-o", report, "--no-cache"]
    if args.timeout is not None:
        cmd.append("--timeout=%g" % args.timeout)
    cmd += extra_tidy(extra) + args.inputs + extra_compile(extra)
    # For a sanitized build: LLVM does not free everything at exit by design
    # (leak reports would drown the rest), and UBSan goes on after a report
    # so that every one is seen. The caller's settings win.
    env = dict(os.environ)
    env.setdefault("ASAN_OPTIONS", "detect_leaks=0")
    env.setdefault("UBSAN_OPTIONS", "print_stacktrace=1")
    begin = time.time()
    proc = subprocess.run(cmd, stdout=subprocess.DEVNULL, env=env,
                          stderr=subprocess.PIPE, text=True, errors="replace")
    wall = time.time() - begin
    try:
        with open(report) as f:
            data = json.load(f)
    except (OSError, ValueError):
        data = None
    return cmd, proc, wall, data


def extra_tidy(extra):
    return extra[:extra.index("--")] if "--" in extra else extra


def extra_compile(extra):
    return extra[extra.index("--"):] if "--" in extra else []


def analyse(stderr, data, root):
    files = {}
    for line in stderr.splitlines():
        m = PROGRESS.match(line)
        if not m:
            continue
        name, status, t = m.group(3), m.group(4), seconds(m.group(5))
        files[name] = {"status": status, "seconds": t}
    # The parent's own sanitizer reports (a sanitized runner).
    parent_reports = [l.strip() for l in stderr.splitlines()
                      if SANITIZER.search(l) and not PROGRESS.match(l)]
    res = {"files": files, "parent_sanitizer": parent_reports}
    if data is None:
        return res
    per_check = Counter()
    fixes = Counter()
    for f in data.get("findings", []):
        if f["check"].startswith("clang-diagnostic-error"):
            continue
        per_check[f["check"]] += 1
        if f.get("fixes"):
            fixes[f["check"]] += 1
    res["per_check"] = per_check
    res["fixes"] = fixes
    res["failures"] = data.get("failures", [])
    res["errors"] = data.get("analysedWithErrors", [])
    res["sanitizer"] = data.get("sanitizerReports", [])
    return res


def rel(path, root):
    if root and path.startswith(root.rstrip("/") + "/"):
        return path[len(root.rstrip("/")) + 1:]
    return path


def markdown(res, wall, args, cmd, root, out):
    files = res["files"]
    n = len(files)
    failures = res.get("failures", [])
    errors = res.get("errors", [])
    sanitizer = res.get("sanitizer", [])
    crashes = [f for f in failures if f["reason"].startswith("cuda-lint crashed")]
    timeouts = [f for f in failures if f["reason"].startswith("timed out")]
    times = [] if res.get("no_times") else sorted(
        v["seconds"] for v in files.values())
    median = statistics.median(times) if times else 0
    w = out.write
    w("### %s\n\n" % (args.label or "corpus"))
    w("`%s`\n\n" % " ".join(shlex.quote(c) for c in cmd))
    w("| | |\n| --- | ---: |\n")
    w("| translation units | %d |\n" % n)
    w("| analysed without errors | %d |\n" % (n - len(failures) - len(errors)))
    w("| analysed with compile errors (no fixes) | %d |\n" % len(errors))
    w("| not analysed | %d |\n" % len(failures))
    w("| crashes | %d |\n" % len(crashes))
    w("| timeouts | %d |\n" % len(timeouts))
    w("| sanitizer reports | %d |\n" %
      (len(sanitizer) + len(res.get("parent_sanitizer", []))))
    w("| findings | %d |\n" % sum(res.get("per_check", Counter()).values()))
    w("| findings with a fix | %d |\n" % sum(res.get("fixes", Counter()).values()))
    w("| wall time | %.0f s (-j%d) |\n" % (wall, args.jobs))
    if times:
        w("| per file: median / slowest | %.1f s / %.1f s (%.1fx the median) |\n"
          % (median, times[-1], times[-1] / median if median else 0))
    w("\n")
    if res.get("per_check"):
        w("| check | findings | with a fix |\n| --- | ---: | ---: |\n")
        for c, k in res["per_check"].most_common():
            w("| %s | %d | %d |\n" % (c, k, res["fixes"][c]))
        w("\n")
    for title, items, key in (("Analysed with compile errors, by first error",
                               errors, "error"),
                              ("Not analysed, by cause", failures, "reason")):
        if not items:
            continue
        causes = defaultdict(list)
        for it in items:
            causes[normalise(it[key])].append(rel(it["file"], root))
        families = Counter()
        for c, fs in causes.items():
            families[group(c)] += len(fs)
        w("%s (%d files):\n\n" % (title, len(items)))
        w("| family | files |\n| --- | ---: |\n")
        for fam, k in families.most_common():
            w("| %s | %d |\n" % (fam, k))
        w("\n| files | cause | example |\n| ---: | --- | --- |\n")
        ordered = sorted(causes.items(), key=lambda kv: (-len(kv[1]), kv[0]))
        for c, fs in ordered[:args.causes]:
            w("| %d | %s | %s |\n" % (len(fs), c.replace("|", "\\|"),
                                      sorted(fs)[0]))
        if len(ordered) > args.causes:
            w("| %d | (%d other causes) | |\n"
              % (sum(len(fs) for _, fs in ordered[args.causes:]),
                 len(ordered) - args.causes))
        w("\n")
    if sanitizer or res.get("parent_sanitizer"):
        w("Sanitizer reports:\n\n")
        for s in sanitizer:
            w("- %s: `%s`\n" % (rel(s["file"], root), s["report"]))
        for s in res.get("parent_sanitizer", []):
            w("- (the runner itself): `%s`\n" % s)
        w("\n")
    if times:
        w("Slowest files (median %.1f s):\n\n| file | seconds |\n| --- | ---: |\n"
          % median)
        slow = sorted(files.items(), key=lambda kv: -kv[1]["seconds"])
        for name, v in slow[:args.slowest]:
            w("| %s | %.1f |\n" % (rel(os.path.abspath(name), root),
                                   v["seconds"]))
        w("\n")


def main():
    argv = sys.argv[1:]
    extra = []
    if "--" in argv:
        i = argv.index("--")
        argv, extra = argv[:i], argv[i + 1:]
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("inputs", nargs="*", help="directories or files")
    ap.add_argument("-p", help="build directory with compile_commands.json")
    ap.add_argument("--from-makefiles", metavar="DIR",
                    help="build a compile database from the Makefiles under DIR")
    ap.add_argument("--db-out", metavar="DIR",
                    help="where --from-makefiles writes compile_commands.json "
                         "(default: a temporary directory)")
    ap.add_argument("--make-var", action="append", default=None,
                    help="VAR=VALUE for make -n (repeatable)")
    ap.add_argument("--cuda-lint", default=os.path.join(
        os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
        "build", "bin", "cuda-lint"))
    ap.add_argument("-j", "--jobs", type=int, default=2)
    ap.add_argument("--timeout", type=float, default=None,
                    help="cuda-lint's --timeout (default: its own, 300 s)")
    ap.add_argument("--label", default="")
    ap.add_argument("--root", default="",
                    help="paths are shown relative to this directory")
    ap.add_argument("--slowest", type=int, default=10)
    ap.add_argument("--causes", type=int, default=25,
                    help="causes listed one by one (the rest summed)")
    ap.add_argument("--save", metavar="FILE",
                    help="also keep cuda-lint's JSON report and stderr "
                         "(FILE.json, FILE.err)")
    ap.add_argument("--load", metavar="FILE",
                    help="no run: the table of an earlier one (FILE.json, "
                         "cuda-lint's JSON report, and FILE.err, its stderr, "
                         "as --save keeps them)")
    ap.add_argument("-o", "--output", help="write the markdown here")
    args = ap.parse_args(argv)

    out = open(args.output, "w") if args.output else sys.stdout
    if args.from_makefiles:
        make_vars = args.make_var if args.make_var is not None else [
            "CC=nvcc", "CXX=nvcc", "ARCH=sm_90"]
        entries, empty = database_from_makefiles(args.from_makefiles, make_vars)
        db_dir = args.db_out or tempfile.mkdtemp(prefix="cuda-lint-corpus-db-")
        os.makedirs(db_dir, exist_ok=True)
        with open(os.path.join(db_dir, "compile_commands.json"), "w") as f:
            json.dump(entries, f, indent=1)
        print("compile database: %d entries in %s; %d directories with a "
              "Makefile but no nvcc command%s" % (
                  len(entries), db_dir, len(empty),
                  (": " + " ".join(empty[:20]) + (" ..." if len(empty) > 20 else ""))
                  if empty else ""), file=sys.stderr)
        args.p = db_dir
        if not args.root:
            args.root = os.path.abspath(args.from_makefiles)
    root = os.path.abspath(args.root) if args.root else os.getcwd()
    if args.load:
        with open(args.load + ".json") as f:
            data = json.load(f)
        stderr = open(args.load + ".err", errors="replace").read() \
            if os.path.exists(args.load + ".err") else ""
        res = analyse(stderr, data, root)
        if not res["files"]:
            # A run without --progress=lines: the files from the summary.
            m = re.search(r"files analysed: \d+ of (\d+)", stderr)
            n = int(m.group(1)) if m else 0
            res["files"] = {"#%d" % i: {"status": "", "seconds": 0}
                            for i in range(n)}
            res["no_times"] = True
        wall = 0
        m = re.search(r"elapsed: (\S+) with", stderr)
        if m:
            wall = seconds(m.group(1))
        markdown(res, wall, args, ["(loaded from %s)" % args.load], root, out)
        return 0
    if not args.inputs and not args.p:
        ap.error("give directories, -p BUILD or --from-makefiles DIR")

    cmd, proc, wall, data = run(args, extra)
    if args.save:
        with open(args.save + ".err", "w") as f:
            f.write(proc.stderr)
        if data is not None:
            with open(args.save + ".json", "w") as f:
                json.dump(data, f)
    if data is None:
        sys.stderr.write(proc.stderr[-4000:])
        print("corpus.py: cuda-lint wrote no JSON report (exit %d)"
              % proc.returncode, file=sys.stderr)
        return 2
    res = analyse(proc.stderr, data, root)
    markdown(res, wall, args, cmd, root, out)
    bad = [f for f in res.get("failures", [])
           if f["reason"].startswith(("cuda-lint crashed", "timed out",
                                      "sanitizer report"))]
    return 1 if bad or res.get("sanitizer") or res.get("parent_sanitizer") else 0


if __name__ == "__main__":
    sys.exit(main())
