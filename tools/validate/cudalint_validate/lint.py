"""cuda-lint's findings on a scratch copy of a file, and their fixes
applied."""

import json
import os

from .common import sh
from .compile_db import scratch_db


def lint(args, path, entry, d, here):
    """cuda-lint's findings on the scratch copy `path`, each with the
    replacements of its fix in that file ("fixes": offset, length,
    replacement), from its JSON report (--format=json); the user's files are
    never written. Raises RuntimeError where cuda-lint fails."""
    report = os.path.join(d, "cuda-lint.json")
    cmd = [args.cuda_lint, "--quiet", "--checks=-*," + args.checks, "--format=json",
           # Every fix is validated, whatever its impact rank.
           "--min-impact=low",
           "-o", report, "--progress=none", "--extra-arg=-I" + here]
    if args.config:
        cmd.append("--config=" + args.config)
    if entry:
        cmd.append("-p=" + scratch_db(entry, path, os.path.join(d, "db")))
    rc, out = sh(cmd + [path])
    try:
        data = json.load(open(report))
    except (OSError, ValueError):
        raise RuntimeError(out)
    # A file with compile errors is analysed, but gets no fix to validate.
    bad = data.get("failures", []) + data.get("analysedWithErrors", [])
    if rc != 0 or bad:
        raise RuntimeError(out + "".join("\n%s" % json.dumps(x) for x in bad))
    out = []
    for x in data.get("findings", []):
        check = x.get("check", "")
        if x.get("level") not in (None, "warning", "error") or not check or \
                check.startswith("clang-diagnostic-"):
            continue
        fixes = [r for r in x.get("fixes", [])
                 if os.path.realpath(r["file"]) == os.path.realpath(path)]
        out.append({"check": check, "file": x["file"], "line": x["line"], "column": x["column"],
                    "message": x["message"], "fixed": bool(fixes), "fixes": fixes,
                    "elsewhere": len(x.get("fixes", [])) - len(fixes)})
    return out


def apply_fixes(text, findings):
    """`text` (bytes) with the fixes of `findings` applied; the replacements
    that several findings share are applied once. Raises ValueError where two
    overlap."""
    reps = sorted(set((r["offset"], r["length"], r["replacement"])
                      for f in findings for r in f["fixes"]))
    out, pos = [], 0
    for off, length, rep in reps:
        if off < pos:
            raise ValueError("overlapping replacements at offset %d" % off)
        out += [text[pos:off], rep.encode("utf-8")]
        pos = off + length
    out.append(text[pos:])
    return b"".join(out)
