#!/usr/bin/env python3
"""Does a finding's fix change the machine code? nvcc's PTX with and without
each fix, one fix at a time (issue 28: "proven by PTX where it can be").

  bench/ptx_proof.py --report R.json --db BUILD/compile_commands.json
                     [--half sealed] [--min-impact medium] [--per-check 30]
                     [--seed N] [--checks a,b] [-j 2] [--save PREFIX]

For each performance finding with a fix (a sample of --per-check per check,
drawn like bench/audit.py draws one), the translation unit that holds it is
compiled with its own nvcc command turned into `-ptx`, once as it is and
once with that finding's fix applied, in a scratch mirror of the
benchmark's directory (links to the original files, the fixed file a copy,
links to the directories beside it), so that every include resolves as in
place and nothing of the sources is written. The sources must lie in
HeCBench's layout, `.../src/NAME-cuda/`. The two PTX texts are compared
without `.loc`/`.file` lines and comments:

  identical   the fix changes no instruction: nvcc already emits the same
              code (a literal it narrows, a division it strength-reduces);
  differs     the number of instruction lines that differ (a multiset
              difference), and the f64 / div-rem / ld.global.nc counts
              before and after;
  breaks      the fixed copy does not compile while the original does: a
              fix that breaks the build (the worst bug a fix can have);
  unproven    the unit does not compile with nvcc here, or the fix edits
              more files than the one holding the finding.

A PTX difference proves that something changed, not that it is faster; an
identical PTX proves that the fix is worth nothing on this architecture.
"""

import argparse
import hashlib
import json
import os
import random
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
from collections import Counter, OrderedDict
from concurrent.futures import ThreadPoolExecutor

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import audit  # noqa: E402  (shown(), benchmark_half())

NVCC = os.environ.get("NVCC", "/usr/local/cuda/bin/nvcc")


def ptx_command(entry, source, out, extra_includes):
    """The entry's nvcc command compiling SOURCE to PTX in OUT."""
    args = entry.get("arguments") or shlex.split(entry["command"])
    cmd = [NVCC]
    skip = False
    for a in args[1:]:
        if skip:
            skip = False
            continue
        if a in ("-c", "-dc", "-ptx", "-cubin", "-E", "-M", "-MD", "-MMD"):
            continue
        if a in ("-o", "-MF", "-MT", "--output-file"):
            skip = True
            continue
        if a.startswith("-o") and len(a) > 2:
            continue
        if os.path.basename(a) == os.path.basename(entry["file"]) and \
                not a.startswith("-"):
            continue
        cmd.append(a)
    if not any(a.startswith(("-arch", "--gpu-architecture")) for a in cmd):
        cmd.append("-arch=sm_90")
    cmd += ["-I" + d for d in extra_includes]
    return cmd + ["-ptx", source, "-o", out]


def normalise(ptx):
    keep = []
    for line in ptx.splitlines():
        s = line.strip()
        if not s or s.startswith(("//", ".loc", ".file", "$L__", "@@")):
            continue
        # String literals (an assert's __FILE__): the fixed copy is compiled
        # from a mirror of its directory, so its path differs; data is not
        # code either way.
        if re.match(r"\.global \.align \d+ \.b8 \$str", s):
            continue
        s = re.sub(r"\s+", " ", s)
        # Register and label numbers: any change renumbers the rest.
        s = re.sub(r"%(r|rd|rs|f|fd|p|h|hh|b)\d+", r"%\1", s)
        s = re.sub(r"\$L__\w+", "$L", s)
        # nvcc names a unit's internal symbols after a hash of its text,
        # which any fix changes.
        s = re.sub(r"_INTERNAL_[0-9a-f]{8}_", "_INTERNAL_", s)
        keep.append(s)
    return keep


def counts(lines):
    return OrderedDict(
        f64=sum(1 for l in lines if ".f64" in l and not l.startswith(".")),
        divrem=sum(1 for l in lines if re.match(r"(div|rem)\.(s|u)(32|64)", l)),
        nc=sum(1 for l in lines if l.startswith("ld.global.nc")))


def apply_fixes(data, fixes):
    """The bytes DATA with the replacements (byte offsets, as cuda-lint
    reports them: a file with CRLF line ends keeps them)."""
    for f in sorted(fixes, key=lambda f: f["offset"], reverse=True):
        data = data[:f["offset"]] + f["replacement"].encode() + \
            data[f["offset"] + f["length"]:]
    return data


class Prover:
    def __init__(self, db, timeout):
        self.by_file = {os.path.realpath(e["file"] if os.path.isabs(e["file"])
                                         else os.path.join(e["directory"], e["file"])): e
                        for e in db}
        self.timeout = timeout
        self.cache = {}

    def unit_for(self, path):
        """A compile-database entry whose unit is PATH or includes it,
        directly or through other files of its benchmark."""
        path = os.path.realpath(path)
        if path in self.by_file:
            return self.by_file[path]
        root = bench_dir(path)
        if not root:
            return None
        files = []
        for d, _, names in os.walk(root):
            files += [os.path.join(d, n) for n in names
                      if n.endswith((".cu", ".cuh", ".h", ".hpp", ".inc", ".cpp"))]
        texts = {}
        for f in files:
            try:
                with open(f, errors="replace") as fh:
                    texts[f] = fh.read()
            except OSError:
                pass
        wanted, seen = [path], {path}
        while wanted:
            base = os.path.basename(wanted.pop(0))
            pat = re.compile(r'#\s*include\s*["<][^">]*\b%s[">]' % re.escape(base))
            for f in sorted(texts):
                if f in seen or not pat.search(texts[f]):
                    continue
                if os.path.realpath(f) in self.by_file:
                    return self.by_file[os.path.realpath(f)]
                seen.add(f)
                wanted.append(f)
        return None

    def compile(self, entry, source, includes, cwd=None):
        tmp = tempfile.mkdtemp(prefix="ptxproof-")
        try:
            out = os.path.join(tmp, "out.ptx")
            cmd = ptx_command(entry, source, out, includes)
            try:
                p = subprocess.run(cmd, cwd=cwd or entry["directory"],
                                   capture_output=True, text=True, errors="replace",
                                   timeout=self.timeout)
            except subprocess.TimeoutExpired:
                return None, "timeout"
            if p.returncode:
                err = [l for l in p.stderr.splitlines() if "error" in l]
                return None, (err[0] if err else p.stderr.strip()[-200:])
            with open(out, errors="replace") as f:
                return normalise(f.read()), None
        finally:
            shutil.rmtree(tmp, ignore_errors=True)

    def original(self, entry):
        # The unit's full path: many benchmarks have a main.cu.
        key = os.path.realpath(os.path.join(entry["directory"], entry["file"]))
        if key not in self.cache:
            src = os.path.join(entry["directory"], entry["file"])
            self.cache[key] = self.compile(entry, src, [])
        return self.cache[key]

    def prove(self, x):
        files = {os.path.realpath(f["file"]) for f in x["fixes"]}
        target = os.path.realpath(x["file"])
        if files != {target}:
            return {"verdict": "unproven", "why": "the fix edits other files"}
        entry = self.unit_for(target)
        if not entry:
            return {"verdict": "unproven", "why": "no unit in the database"}
        before, err = self.original(entry)
        if before is None:
            return {"verdict": "unproven", "why": "original: " + err}
        unit = os.path.realpath(os.path.join(entry["directory"], entry["file"]))
        root = bench_dir(unit)
        if not root or not (target + "/").startswith(root + "/"):
            return {"verdict": "unproven", "why": "outside the unit's benchmark"}
        # A mirror of the benchmark's directory whose files are links to the
        # originals but for the fixed one, beside links to its siblings
        # (`../include`): every include resolves as it does in place.
        tmp = tempfile.mkdtemp(prefix="ptxproof-src-")
        try:
            mirror = os.path.join(tmp, os.path.basename(root))
            parent = os.path.dirname(root)
            for sib in os.listdir(parent):
                if sib != os.path.basename(root):
                    os.symlink(os.path.join(parent, sib), os.path.join(tmp, sib))
            for d, _, names in os.walk(root):
                md = os.path.join(mirror, os.path.relpath(d, root))
                os.makedirs(md, exist_ok=True)
                for n in names:
                    os.symlink(os.path.join(d, n), os.path.join(md, n))
            fixed_path = os.path.join(mirror, os.path.relpath(target, root))
            with open(target, "rb") as f:
                fixed = apply_fixes(f.read(), x["fixes"])
            os.unlink(fixed_path)
            with open(fixed_path, "wb") as f:
                f.write(fixed)
            source = os.path.join(mirror, os.path.relpath(unit, root))
            cwd = os.path.join(mirror, os.path.relpath(
                os.path.realpath(entry["directory"]), root)) \
                if (os.path.realpath(entry["directory"]) + "/").startswith(root + "/") \
                else entry["directory"]
            after, err = self.compile(entry, source, [], cwd)
            if err:
                err = err.replace(mirror + "/", "")
        finally:
            shutil.rmtree(tmp, ignore_errors=True)
        if after is None:
            return {"verdict": "breaks", "why": err}
        if after == before:
            return {"verdict": "identical"}
        diff = Counter(before)
        diff.subtract(Counter(after))
        changed = sum(abs(v) for v in diff.values())
        return {"verdict": "differs", "lines": changed,
                "before": counts(before), "after": counts(after)}


def bench_dir(path):
    """The benchmark directory (.../src/NAME-cuda) that holds PATH."""
    parts = os.path.realpath(path).split(os.sep)
    for i in range(len(parts) - 2, -1, -1):
        if parts[i] == "src" and parts[i + 1].endswith("-cuda"):
            return os.sep.join(parts[:i + 2])
    return None


def sample(report, args):
    picks = {}
    seen = set()
    for x in report.get("findings", []):
        c = x.get("check", "")
        if c in audit.CORRECTNESS or not x.get("fixes"):
            continue
        if args.half and audit.benchmark_half(x["file"]) != args.half:
            continue
        if not audit.shown(x, args.min_impact):
            continue
        if args.checks and c not in args.checks.split(","):
            continue
        key = (c, x["file"], x["line"], x["column"])
        if key in seen:
            continue
        seen.add(key)
        picks.setdefault(c, []).append(x)
    for c, xs in picks.items():
        xs.sort(key=lambda x: (x["file"], x["line"], x["column"]))
        if len(xs) > args.per_check:
            picks[c] = random.Random("%d:%s" % (args.seed, c)).sample(xs, args.per_check)
    return picks


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--report", required=True)
    ap.add_argument("--db", required=True, help="compile_commands.json (nvcc commands)")
    ap.add_argument("--half", choices=("sealed", "tuning"))
    ap.add_argument("--min-impact", choices=("low", "medium", "high"), default="low")
    ap.add_argument("--per-check", type=int, default=30)
    ap.add_argument("--seed", type=int, default=28)
    ap.add_argument("--checks")
    ap.add_argument("-j", "--jobs", type=int, default=2)
    ap.add_argument("--timeout", type=int, default=300)
    ap.add_argument("--save", metavar="PREFIX", help="PREFIX.md and PREFIX.json")
    args = ap.parse_args()
    with open(args.report) as f:
        report = json.load(f)
    with open(args.db) as f:
        prover = Prover(json.load(f), args.timeout)
    picks = sample(report, args)
    todo = [(c, x) for c in sorted(picks) for x in picks[c]]
    # The originals first, one per unit, so that the pool does not compile
    # one twice.
    units = {id(e): e for e in (prover.unit_for(x["file"]) for _, x in todo) if e}
    with ThreadPoolExecutor(args.jobs) as pool:
        list(pool.map(prover.original, units.values()))
        results = list(pool.map(lambda cx: prover.prove(cx[1]), todo))
    rows = []
    table = OrderedDict()
    for (c, x), r in zip(todo, results):
        root = bench_dir(x["file"])
        where = os.path.relpath(os.path.realpath(x["file"]), os.path.dirname(root)) \
            if root else x["file"]
        rows.append(OrderedDict(check=c, where="%s:%d:%d" % (
            where, x["line"], x["column"]),
            impact=x.get("impact"), **r))
        table.setdefault(c, Counter())[r["verdict"]] += 1
    out = ["| check | fixes | identical PTX | differs | breaks the build | unproven |",
           "| --- | ---: | ---: | ---: | ---: | ---: |"]
    total = Counter()
    for c, t in table.items():
        total.update(t)
        out.append("| %s | %d | %d | %d | %d | %d |" % (
            c, sum(t.values()), t["identical"], t["differs"], t["breaks"], t["unproven"]))
    out.append("| all | %d | %d | %d | %d | %d |" % (
        sum(total.values()), total["identical"], total["differs"], total["breaks"],
        total["unproven"]))
    text = "\n".join(out) + "\n"
    detail = ["", "| check | where | impact | verdict | detail |",
              "| --- | --- | --- | --- | --- |"]
    for r in rows:
        extra = r.get("why") or ""
        if r["verdict"] == "differs":
            extra = "%d lines; %s" % (r["lines"], ", ".join(
                "%s %d->%d" % (k, r["before"][k], r["after"][k])
                for k in r["before"] if r["before"][k] != r["after"][k]))
        lvl = r["impact"] or {}
        detail.append("| %s | %s | %s %s | %s | %s |" % (
            r["check"], r["where"], lvl.get("level", ""), lvl.get("rank", ""),
            r["verdict"], extra.replace("|", "/")[:160]))
    sys.stdout.write(text)
    if args.save:
        with open(args.save + ".md", "w") as f:
            f.write(text + "\n".join(detail) + "\n")
        with open(args.save + ".json", "w") as f:
            json.dump(rows, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
