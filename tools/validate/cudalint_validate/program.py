"""Program mode: a whole project, validated with its own build and its own
run command.

cuda-lint's fixes (--format=json: per finding, the replacements of its fix)
are applied to a copy of the project, both copies are built and run, and
their exit status, the lines that say whether they passed and the numbers
they print are compared. Two steps, which may run on two machines:
  prepare (needs cuda-lint): a bundle directory with a pristine copy of the
    project (original/), its findings and their replacements (program.json);
  run (needs the build tools and a GPU, no cuda-lint): each version made from
    original/ and the replacements, built, run and compared; a fix set that
    fails is bisected down to the fixes responsible (program_run.py).

This module: the prepare step, compute-sanitizer on the run command, and
what is written at the end (accepted.diff, --apply)."""

import difflib
import json
import os
import re
import shutil
import sys

from .common import sh
from .lint import apply_fixes
from .report import result_cell


def find_program_db(args, root):
    """The project's compile database: -p, or compile_commands.json in the
    project or its build/ directory; None: cuda-lint's directory mode."""
    if args.build_path:
        return args.build_path
    for c in (root, os.path.join(root, "build")):
        if os.path.isfile(os.path.join(c, "compile_commands.json")):
            return c
    return None


def lint_program(args, root, work):
    """cuda-lint's findings with fixes in the project `root` (its report:
    nothing is written), each with its replacements as paths relative to
    `root`; replacements outside it (system headers) are dropped."""
    report = os.path.join(work, "cuda-lint.json")
    cmd = [args.cuda_lint, "--checks=-*," + args.checks, "--format=json",
           # Every fix is validated, whatever its impact rank.
           "--min-impact=low", "-o", report,
           "--progress=none", "--quiet", "-j", str(max(1, args.jobs))]
    if args.config:
        cmd.append("--config=" + args.config)
    db = find_program_db(args, root)
    if db:
        cmd.append("-p=" + os.path.abspath(db))
    rc, out = sh(cmd + [root], timeout=3600)
    try:
        data = json.load(open(report))
    except (OSError, ValueError):
        raise RuntimeError(out)
    failures = data.get("failures", [])
    findings, seen, elsewhere = [], set(), 0
    for x in data.get("findings", []):
        check = x.get("check", "")
        if not check or check.startswith("clang-diagnostic-") or not x.get("fixes"):
            continue
        reps = []
        for r in x["fixes"]:
            rel = os.path.relpath(os.path.realpath(r["file"]), os.path.realpath(root))
            if rel.startswith(".."):
                elsewhere += 1
                continue
            reps.append({"file": rel, "offset": r["offset"], "length": r["length"],
                         "replacement": r["replacement"]})
        rel = os.path.relpath(os.path.realpath(x["file"]), os.path.realpath(root))
        key = (check, rel, x["line"], x["column"])
        if not reps or key in seen:
            continue
        seen.add(key)
        findings.append({"id": len(findings) + 1, "check": check, "file": rel, "line": x["line"],
                         "column": x["column"], "message": x["message"], "fixes": reps})
    return findings, failures, elsewhere, db


def fixes_by_file(findings):
    """The replacements of the fixes of `findings`, by the file they change
    (in the order the findings give them)."""
    by_file = {}
    for f in findings:
        for r in f["fixes"]:
            by_file.setdefault(r["file"], []).append(r)
    return by_file


def apply_program_fixes(tree, findings):
    """The fixes of `findings` applied to the files of the copy `tree`;
    raises ValueError where two overlap."""
    for rel, reps in fixes_by_file(findings).items():
        path = os.path.join(tree, rel)
        with open(path, "rb") as src:
            text = src.read()
        new = apply_fixes(text, [{"fixes": reps}])
        with open(path, "wb") as out:
            out.write(new)


def link_siblings(dest_parent, siblings_of, name):
    """The project's siblings (../include, ../common) beside its copy, as
    links: relative paths out of the project still resolve."""
    if not siblings_of or not os.path.isdir(siblings_of):
        return
    for e in os.listdir(siblings_of):
        if e == name or e.startswith("."):
            continue
        link = os.path.join(dest_parent, e)
        if not os.path.lexists(link):
            os.symlink(os.path.join(os.path.abspath(siblings_of), e), link)


def program_prepare(args, bundle):
    """The bundle for the run step: a pristine copy of the project,
    cuda-lint's findings with their replacements, and the commands."""
    root = os.path.abspath(args.program)
    if not os.path.isdir(root):
        raise RuntimeError("%s: not a directory" % root)
    if os.path.exists(os.path.join(bundle, "program.json")):
        raise RuntimeError("%s already holds a prepared program" % bundle)
    os.makedirs(bundle, exist_ok=True)
    print("cuda-lint-validate: linting %s ..." % root, file=sys.stderr, flush=True)
    findings, failures, elsewhere, db = lint_program(args, root, bundle)
    shutil.copytree(root, os.path.join(bundle, "original"), symlinks=True,
                    ignore=shutil.ignore_patterns(".git"))
    meta = {"program": root, "name": os.path.basename(root), "build": args.build,
            "run": args.run, "checks": args.checks, "config": args.config,
            "compare": args.compare, "compile_database": db and os.path.abspath(db),
            "siblings_of": os.path.dirname(root), "findings": findings,
            "lint_failures": failures, "replacements_elsewhere": elsewhere}
    with open(os.path.join(bundle, "program.json"), "w") as out:
        json.dump(meta, out, indent=2)
    print("cuda-lint-validate: %d findings with fixes in %s (%s)%s" % (
        len(findings), root, "compile database %s" % db if db else "directory mode",
        "; %d files cuda-lint could not analyse" % len(failures) if failures else ""),
        file=sys.stderr)
    for x in failures:
        print("cuda-lint-validate: warning: cuda-lint could not analyse %s: %s" % (
            x.get("file", "?"), x.get("reason", "?")), file=sys.stderr)
    if elsewhere:
        print("cuda-lint-validate: note: %d replacements outside %s are neither validated nor "
              "applied" % (elsewhere, root), file=sys.stderr)
    return meta


def sanitize_command(cmd, cwd, tool, timeout, launches=0):
    """compute-sanitizer's count of errors for the run command (every process
    it starts). `launches` > 0 checks only the first that many kernel
    launches (the others run uninstrumented): a benchmark that repeats its
    kernels a hundred times shows a race in the first repetition, and
    racecheck slows a launch down by orders of magnitude."""
    cs = shutil.which("compute-sanitizer") or "/usr/local/cuda/bin/compute-sanitizer"
    if not os.path.exists(cs):
        return None, "compute-sanitizer not found"
    env = dict(os.environ, CUDA_LINT_REPS="1", CUDA_LINT_SMALL="1")
    limit = ["--launch-count", str(launches)] if launches > 0 else []
    rc, out = sh([cs, "--tool", tool, "--target-processes", "all", "--print-limit", "5"] +
                 limit + ["sh", "-c", cmd], timeout=timeout, env=env, cwd=cwd)
    if rc == 124:
        return None, "%s: timed out" % tool
    if "terminated before first instrumented API call" in out:
        # The run made no CUDA call (an input it stops without): nothing
        # to check, and no error either.
        return 0, "%s: the run made no CUDA call" % tool
    m = re.search(r"ERROR SUMMARY: (\d+) error", out)
    hazards = re.search(r"RACECHECK SUMMARY: (\d+) hazard", out)
    n = int(m.group(1)) if m else -1
    if hazards:
        n = max(n, int(hazards.group(1)))
    if n < 0:
        return -1, "%s: no summary: %s" % (tool, " ".join(out.split())[-200:])
    return n, "%s: %d errors/hazards" % (tool, n)


def last_line(text):
    """The line of a build's or a run's output that says what went wrong: a
    compiler's error (not make's summary of it), else the last line."""
    lines = [l.strip() for l in text.splitlines() if l.strip()]
    pick = next((l for l in lines if re.search(r"(?i)\berror\b", l) and
                 not re.match(r"(g?make|ninja)(\[\d+\])?:", l)), lines[-1] if lines else "?")
    return " ".join(pick.split())[:300]


def summary_of(v):
    out = {"fixes": v["fixes"], "build_rc": v["build"]["rc"],
           "build_seconds": round(v["build"]["seconds"], 2)}
    if v["build"]["rc"] != 0:
        out["build_output"] = v["build"]["output"][-2000:]
    if v.get("runs") is not None:
        out["exit"] = [r["rc"] for r in v["runs"]]
        out["output"] = v["runs"][0]["output"][-4000:] if v["runs"] else ""
    return out


def program_diff(bundle, findings):
    """A unified diff (patch -p1 in the project) of the fixes of
    `findings`."""
    by_file = fixes_by_file(findings)
    out = []
    for rel in sorted(by_file):
        with open(os.path.join(bundle, "original", rel), "rb") as src:
            text = src.read()
        new = apply_fixes(text, [{"fixes": by_file[rel]}])
        out += difflib.unified_diff(text.decode("utf-8", "replace").splitlines(True),
                                    new.decode("utf-8", "replace").splitlines(True),
                                    "a/" + rel, "b/" + rel)
    return "".join(out)


def finish_program(res, args, apply_to, meta, bundle, kept=None):
    kept = kept or []
    with open(os.path.join(bundle, "accepted.diff"), "w") as out:
        out.write(program_diff(bundle, kept))
    if apply_to and kept:
        root = os.path.abspath(apply_to)
        for f in kept:
            f["applied"] = True
        for rel, reps in fixes_by_file(kept).items():
            path = os.path.join(root, rel)
            with open(path, "rb") as src:
                text = src.read()
            tmp = path + ".cuda-lint-validate.tmp"
            with open(tmp, "wb") as out:
                out.write(apply_fixes(text, [{"fixes": reps}]))
            shutil.copymode(path, tmp)
            os.replace(tmp, path)
        print("%s: %d of %d fixes applied%s" % (
            root, len(kept), len(res["findings"]), "" if len(kept) == len(res["findings"]) else
            " (not: %s)" % ", ".join("%s:%d:%d" % (f["file"], f["line"], f["column"])
                                     for f in res["findings"] if f not in kept)))
    elif apply_to and res["findings"]:
        print("%s: fixes NOT applied: %s" % (apply_to, result_cell(res)))
    return res
