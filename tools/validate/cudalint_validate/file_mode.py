"""File mode: cuda-lint on a scratch copy of a file, then its fixes
validated, all together first, then one finding's fix at a time where that
fails; --apply writes the fixes that passed."""

import os
import shutil
import sys

from .case import EXPECT, default_tolerance, finish, validate_case
from .compile_db import nvcc_flags
from .lint import apply_fixes, lint
from .report import result_cell


def validate_file(f, entry, args, gpu, nvcc, work):
    """cuda-lint on a scratch copy of `f`, then its fixes validated: all
    together first; where that fails and there are several, each finding's
    fix alone, then the ones that passed together. With --apply the fixes
    that passed are written to `f`. Returns the result (None: nothing to
    validate); raises RuntimeError where cuda-lint fails."""
    name = os.path.basename(f)
    d = scratch_dir(work, name)
    os.makedirs(os.path.join(d, "lint"))
    with open(f, "rb") as src:
        text = src.read()
    scratch = os.path.join(d, "lint", name)
    with open(scratch, "wb") as out:
        out.write(text)
    # The copies are in a scratch directory: the file's own directory stays
    # on the include path (after the command's -I), and cuda-lint gets the
    # file's command for the copy.
    here = os.path.dirname(os.path.abspath(f))
    if entry:
        print("cuda-lint-validate: note: %s: compile command from %s" % (f, entry["db"]),
              file=sys.stderr)
    findings = lint(args, scratch, entry, d, here)
    for x in findings:
        if os.path.realpath(x["file"]) == os.path.realpath(scratch):
            x["file"] = f
    fixable = [x for x in findings if x["fixes"]]
    elsewhere = sum(x["elsewhere"] for x in findings)
    if elsewhere:
        print("cuda-lint-validate: note: %s: %d replacements in other files (headers) are "
              "neither validated nor applied" % (f, elsewhere), file=sys.stderr)
    if not fixable:
        print("%s: no fixes to validate" % f + (" (%d findings, none with a fix)" % len(findings)
                                              if findings else ""))
        return None
    meta = file_meta(args, entry, sorted(set(x["check"] for x in fixable)), here, text)
    versions = FileVersions(name, text, os.path.splitext(f)[1], d, meta, args, gpu, nvcc)
    r = versions.check("fixed", fixable, False)
    r["check"] = meta["check"]
    r["findings"] = findings
    if args.config:
        r["config"] = args.config
    selected = fixable if r["status"] == "passed" else []
    if r["status"] == "FAILED" and len(fixable) > 1:
        selected = one_at_a_time(versions, r, fixable)
    for x in fixable:
        x["passed"] = x in selected
    if args.apply:
        apply_passing(f, text, r, fixable, selected)
    r["applied"] = [("%d:%d" % (x["line"], x["column"])) for x in selected] if args.apply else []
    return r


def scratch_dir(work, name):
    """A directory of its own under `work` for the file `name`."""
    d = os.path.join(work, name + ".d")
    n = 1
    while os.path.exists(d):
        n += 1
        d = os.path.join(work, "%s.%d.d" % (name, n))
    return d


def file_tolerance(args, checks):
    """--ulp, --tolerance, or the fixed checks' own (default_tolerance)."""
    if args.ulp is not None:
        return {"ulp": args.ulp}
    if args.tolerance is not None and args.tolerance != "exact":
        parts = [float(x) for x in args.tolerance.split(",")]
        return {"rel": parts[0], "abs": parts[1] if len(parts) > 1 else 0.0}
    if args.tolerance == "exact":
        return "exact"
    return default_tolerance(checks, args.dtype)


def file_meta(args, entry, checks, here, text):
    """The case description validate_case gets for a file: its checks,
    tolerance, nvcc flags (its compile command's, with -p) and source."""
    meta = {"check": ",".join(checks), "dtype": args.dtype,
            "tolerance": file_tolerance(args, checks), "self_check": args.self_check,
            "nvcc_flags": ["-I" + here], "src_original": text.decode("utf-8", "replace")}
    if args.config:
        meta["config"] = args.config
    if entry:
        flags, has_std, has_opt = nvcc_flags(entry)
        meta["flags"] = ([] if has_opt else ["-O3"]) + ([] if has_std else ["-std=c++17"]) + flags
        meta["compile_command"] = entry["arguments"]
        if os.path.isdir(entry["directory"]):
            meta["directory"] = entry["directory"]
    return meta


class FileVersions:
    """The versions of one file (the original, and the file with the fixes
    of a selection of findings), validated against the original; its
    compiles and runs are shared between them."""

    def __init__(self, name, text, ext, d, meta, args, gpu, nvcc):
        self.name, self.text, self.ext, self.d, self.meta = name, text, ext, d, meta
        self.args, self.gpu, self.nvcc = args, gpu, nvcc
        self.cache, self.paths = {}, {}
        self.original, _ = self.variant("original", [])

    def variant(self, tag, selected):
        """The file with the fixes of `selected` (a wrapper that #includes
        it and the harness, with --harness)."""
        new = apply_fixes(self.text, selected)
        src = os.path.join(self.d, tag + self.ext)
        with open(src, "wb") as out:
            out.write(new)
        self.paths[tag] = src
        if self.args.harness:
            wrapper = os.path.join(self.d, tag + "-run.cu")
            with open(wrapper, "w") as w:
                w.write('#include "%s"\n#include "%s"\n' % (src, os.path.abspath(self.args.harness)))
            src = wrapper
        return src, new

    def check(self, tag, selected, single):
        """validate_case for the version with the fixes of `selected`
        (single: one finding's fix alone)."""
        try:
            fixed, new = self.variant(tag, selected)
        except ValueError as e:
            return finish({"case": self.name, "check": self.meta["check"], "compiled": "-",
                           "evidence_ok": False, "evidence": "MISSING: fixes conflict: %s" % e})
        checks = sorted(set(x["check"] for x in selected))
        m = dict(self.meta, single=single, src_fixed=new.decode("utf-8", "replace"),
                 src_paths={"original": self.paths["original"], "fixed": self.paths[tag]},
                 evidence_findings=selected, check=",".join(checks),
                 expect_by_check={c: EXPECT.get(c, "none") for c in checks})
        return validate_case(self.name, self.original, fixed, m, self.args, self.gpu, self.nvcc,
                             os.path.join(self.d, tag), self.cache)


def one_at_a_time(versions, r, fixable):
    """The fixes of a failing set, one finding's fix at a time (the
    original's compiles and runs are shared), then the fixes that passed
    together: only those can be applied. Returns them ([] if they fail)."""
    r["per_finding"] = True
    name = versions.name
    for i, x in enumerate(fixable):
        print("validating %s: the fix of %s:%d:%d alone ..." % (name, name, x["line"], x["column"]),
              file=sys.stderr, flush=True)
        v = versions.check("finding-%d" % (i + 1), [x], True)
        x["validation"] = {k: val for k, val in v.items()
                           if k not in ("findings", "case", "original", "fixed")}
    good = [x for x in fixable if x["validation"]["status"] == "passed"]
    if not good:
        return []
    v = versions.check("passing", good, False)
    v = {k: val for k, val in v.items() if k not in ("findings", "case", "original")}
    v["count"] = len(good)
    r["passing_fixes"] = v
    return good if v["status"] == "passed" else []


def apply_passing(f, text, r, fixable, selected):
    """--apply: the fixes that passed written to `f` (atomically, its mode
    kept)."""
    if not selected:
        print("%s: fixes NOT applied: %s" % (f, result_cell(r)))
        return
    new = apply_fixes(text, selected)
    tmp = f + ".cuda-lint-validate.tmp"
    with open(tmp, "wb") as out:
        out.write(new)
    shutil.copymode(f, tmp)
    os.replace(tmp, f)
    for x in selected:
        x["applied"] = True
    print("%s: %d of %d fixes applied%s" % (
        f, len(selected), len(fixable), "" if len(selected) == len(fixable) else
        " (not: %s)" % ", ".join("%d:%d" % (x["line"], x["column"])
                                 for x in fixable if x not in selected)))
