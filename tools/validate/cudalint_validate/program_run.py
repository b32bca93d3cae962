"""Program mode's run step: the original and the fixed project of a
prepared bundle built, run and compared; a failing fix set bisected down to
the fixes responsible; compute-sanitizer on the version to keep."""

import json
import os
import re
import shutil
import sys
import time

from .case import default_tolerance
from .common import has_gpu, sh
from .program import finish_program, last_line, link_siblings, apply_program_fixes, \
    sanitize_command, summary_of
from .program_output import compare_outputs, parse_output, program_speedup, program_times, \
    unstable_numbers


def program_run(args, bundle, apply_to=None):
    """Build, run and compare the original and the fixed project of a
    prepared bundle; bisect a failing fix set; with apply_to, write the
    fixes that passed there. Returns the result."""
    with open(os.path.join(bundle, "program.json")) as f:
        meta = json.load(f)
    return ProgramRun(args, bundle, meta).run(apply_to)


def program_tolerance(args, findings):
    if args.tolerance == "exact":
        return "exact"
    if args.tolerance:
        parts = [float(x) for x in args.tolerance.split(",")]
        return {"rel": parts[0], "abs": parts[1] if len(parts) > 1 else 0.0}
    # Printed numbers: a float result of a fix that changes the arithmetic
    # within its check's tolerance.
    return default_tolerance(sorted(set(f["check"] for f in findings)), "float32")


class ProgramRun:
    """One run step: the versions of the project (a copy with the fixes of
    a selection of findings, built and run) and the result, `res`."""

    def __init__(self, args, bundle, meta):
        self.args, self.bundle, self.meta = args, bundle, meta
        self.build = args.build or meta.get("build")
        self.run_cmd = args.run or meta.get("run")
        if not self.build or not self.run_cmd:
            raise RuntimeError("program mode needs --build and --run")
        compare_text = args.compare or meta.get("compare")
        self.compare_re = re.compile(compare_text) if compare_text else None
        self.name = meta["name"]
        self.findings = meta["findings"]
        self.siblings = args.siblings_from or meta.get("siblings_of")
        self.tol = program_tolerance(args, self.findings)
        self.gpu = not args.no_gpu and has_gpu()
        self.sanitizer = self.gpu and not args.no_sanitizer
        self.res = {"mode": "program", "case": self.name, "program": meta["program"],
                    "build": self.build, "run": self.run_cmd, "compare": compare_text,
                    "tolerance": self.tol, "findings": self.findings,
                    "lint_failures": meta.get("lint_failures", [])}
        self.timeout = args.program_timeout
        self.counter = 0
        self.cache = {}
        self.ref = self.unstable = self.orig_rc = None

    def run(self, apply_to):
        res = self.res
        orig = self.make("original", [])
        res["original"] = summary_of(orig)
        stop = self.cannot_validate(orig)
        if stop:
            res["status"], res["reasons"] = stop
            return finish_program(res, self.args, apply_to, self.meta, self.bundle)
        reasons, fixed = self.fix_all()
        kept, final = self.keep(reasons, fixed)
        # compute-sanitizer on the original and on the version to keep: a fix
        # set that adds errors is not kept (no bisection: sanitizer runs are
        # slow).
        if self.sanitizer and kept:
            kept = self.sanitize(orig, final, kept, reasons)
        elif not self.gpu:
            res["sanitizer"] = "skipped (no GPU)"
        res["kept"] = [f["id"] for f in kept]
        res["status"] = "passed" if not reasons else "FAILED"
        res["reasons"] = reasons
        return finish_program(res, self.args, apply_to, self.meta, self.bundle, kept)

    def make(self, tag, selected):
        """A copy of the project with the fixes of `selected`, built and run:
        build (rc, output tail, seconds), runs [(rc, output, seconds)]."""
        parent = os.path.join(self.bundle, "work", tag)
        tree = os.path.join(parent, self.name)
        if os.path.exists(parent):
            shutil.rmtree(parent)
        os.makedirs(parent)
        shutil.copytree(os.path.join(self.bundle, "original"), tree, symlinks=True)
        link_siblings(parent, self.siblings, self.name)
        out = {"tag": tag, "tree": tree, "fixes": [f["id"] for f in selected]}
        try:
            apply_program_fixes(tree, selected)
        except ValueError as e:
            out["build"] = {"rc": -1, "output": "fixes conflict: %s" % e, "seconds": 0}
            return out
        print("cuda-lint-validate: %s: building %s ..." % (self.name, tag), file=sys.stderr,
              flush=True)
        t0 = time.time()
        rc, text = sh(["sh", "-c", self.build], timeout=self.timeout, cwd=tree)
        out["build"] = {"rc": rc, "output": text[-4000:], "seconds": time.time() - t0}
        if rc != 0 or self.args.no_gpu:
            return out
        out["runs"] = []
        for _ in range(self.args.runs if tag in ("original", "fixed", "kept") else 1):
            t0 = time.time()
            rc, text = sh(["sh", "-c", self.run_cmd], timeout=self.timeout, cwd=tree)
            out["runs"].append({"rc": rc, "output": text[-20000:], "seconds": time.time() - t0})
        return out

    def cannot_validate(self, orig):
        """(status, reasons) where the original cannot validate the fixes
        (it does not build, there are none, its run times out), else None;
        the original's runs are the reference."""
        if orig["build"]["rc"] != 0:
            return "NOT VALIDATED", [
                "the original does not build: " + last_line(orig["build"]["output"])]
        if not self.findings:
            failed = self.meta.get("lint_failures") or []
            return ("NOT VALIDATED", [
                "cuda-lint could not analyse %d files: %s" % (len(failed), "; ".join(
                    "%s: %s" % (os.path.basename(x.get("file", "?")), x.get("reason", "?"))
                    for x in failed[:3]))]) if failed else ("no fixes", [])
        if not self.args.no_gpu:
            self.reference(orig)
        self.orig_rc = orig["runs"][0]["rc"] if orig.get("runs") else None
        if self.orig_rc in (124, 137):
            # Nothing to hold the fixed program to, and a bisection of runs
            # that time out would take hours.
            return "NOT VALIDATED", [
                "the original's run times out (--program-timeout %d s)" % self.timeout]
        return None

    def reference(self, orig):
        """The original's runs: what the fixed program's are compared with
        (the numbers that vary between them are not), its times."""
        parsed = [parse_output(r["output"], self.compare_re) for r in orig["runs"]]
        self.ref, self.unstable = parsed[0], unstable_numbers(parsed)
        rcs = sorted(set(r["rc"] for r in orig["runs"]))
        o = self.res["original"]
        o["times"] = program_times(parsed, [r["seconds"] for r in orig["runs"] if r["rc"] == 0])
        o["status_lines"] = self.ref["status"]
        if rcs != [0] and len(rcs) > 1:
            o["note"] = "exit status varies between runs: %s" % rcs

    def judge(self, v):
        """The reasons a version fails (empty: it passes): build, run
        (exit status), results."""
        reasons = []
        if v["build"]["rc"] != 0:
            reasons.append("does not build: " + last_line(v["build"]["output"]))
            return reasons
        if self.args.no_gpu:
            return reasons
        orig_rc = self.orig_rc
        for r in v["runs"]:
            if r["rc"] in (124, 137):
                reasons.append("a run times out")
                break
            if r["rc"] != orig_rc and not (orig_rc != 0 and r["rc"] == 0):
                reasons.append("exit status %d (the original's: %d): %s" % (
                    r["rc"], orig_rc, last_line(r["output"])))
                break
            if orig_rc != 0:
                # The original fails its own check, the fixed program
                # passes it: its results are not the original's to match.
                continue
            same, detail = compare_outputs(self.ref, self.unstable,
                                           parse_output(r["output"], self.compare_re), self.tol)
            v["results"] = detail
            if not same:
                reasons.append("results differ: " + detail)
                break
        return reasons

    def test(self, selected):
        """judge() of the version with the fixes of `selected` (built once;
        recorded in the result's bisection)."""
        key = frozenset(f["id"] for f in selected)
        if key not in self.cache:
            self.counter += 1
            v = self.make("subset-%d" % self.counter, selected)
            self.cache[key] = (self.judge(v), v)
            record = summary_of(v)
            record["reasons"] = self.cache[key][0]
            self.res.setdefault("bisection", []).append(record)
            shutil.rmtree(os.path.dirname(v["tree"]), ignore_errors=True)
        return self.cache[key][0]

    def measure(self, v, key):
        """The version's times, status lines and speedup over the original."""
        res = self.res
        if self.args.no_gpu or v["build"]["rc"] != 0 or not v.get("runs"):
            return
        parsed = [parse_output(r["output"], self.compare_re) for r in v["runs"]]
        res[key]["times"] = program_times(parsed, [r["seconds"] for r in v["runs"]
                                                   if r["rc"] == self.orig_rc or r["rc"] == 0])
        res[key]["status_lines"] = parsed[0]["status"]
        res[key]["results"] = v.get("results", "-")
        if self.orig_rc != 0 and v["runs"][0]["rc"] == 0:
            res[key]["results"] = ("the original fails (exit %d), the fixed program passes"
                                   % self.orig_rc)
        sp, basis = program_speedup(res["original"]["times"], res[key]["times"])
        if sp:
            res[key]["speedup"], res[key]["speedup_basis"] = sp, basis

    def fix_all(self):
        """The version with every fix: (the reasons it fails, the version)."""
        findings = self.findings
        fixed = self.make("fixed", findings)
        reasons = self.judge(fixed)
        self.cache[frozenset(f["id"] for f in findings)] = (reasons, fixed)
        self.res["fixed"] = summary_of(fixed)
        self.measure(fixed, "fixed")
        self.res["fixed"]["reasons"] = list(reasons)
        return reasons, fixed

    def keep(self, reasons, fixed):
        """The fixes to keep and the version made of them: all of them, or
        where they fail together, those the bisection does not take out
        (built, run and timed again as the fixed program)."""
        res, findings = self.res, self.findings
        bad = []
        if reasons:
            # Bisect: the fixes responsible, found by halves; what passes
            # with the fixes kept so far is kept.
            print("cuda-lint-validate: %s: the %d fixes together fail (%s): bisecting ..." % (
                self.name, len(findings), reasons[0]), file=sys.stderr, flush=True)
            bad = self.culprits(list(findings), [])
        kept = [f for f in findings if f not in bad]
        final = fixed
        if bad and kept:
            final = self.make("kept", kept)
            res["kept_version"] = summary_of(final)
            res["kept_version"]["reasons"] = self.judge(final)
            self.measure(final, "kept_version")
            if res["kept_version"]["reasons"]:
                kept = []
        for f in findings:
            f["passed"] = f in kept
            if f in kept:
                f["validation"] = "passed"
        return kept, final

    def culprits(self, cands, base):
        """The fixes of `cands` that fail with those of `base` (which pass,
        and fail with all of `cands`)."""
        if len(cands) == 1:
            f = cands[0]
            alone = self.test([f])
            f["validation"] = "FAILED: " + "; ".join(
                alone or ["only with the others: " + "; ".join(self.test(base + cands))])
            return cands
        half = len(cands) // 2
        a, b = cands[:half], cands[half:]
        bad_a = self.culprits(a, base) if self.test(base + a) else []
        base2 = base + [f for f in a if f not in bad_a]
        bad_b = self.culprits(b, base2) if self.test(base2 + b) else []
        return bad_a + bad_b

    def sanitize(self, orig, final, kept, reasons):
        """racecheck and synccheck on the original and on the version to
        keep; where the fixes add errors, a reason more and nothing kept."""
        res = self.res
        for tool in ("racecheck", "synccheck"):
            for tag, v in (("original", orig), ("fixed", final)):
                n, detail = sanitize_command(self.run_cmd, v["tree"], tool, self.timeout,
                                             self.args.sanitizer_launches)
                res["%s_%s" % (tool, tag)] = n
                res["%s_%s_detail" % (tool, tag)] = detail
            o, f = res["%s_original" % tool], res["%s_fixed" % tool]
            why = None
            if f is not None and f > 0 and (o is None or f > o):
                why = "%s: %d errors/hazards in the fixed program (the original: %s)" % (
                    tool, f, "?" if o is None else o)
            elif f == -1 and o is not None and o >= 0:
                why = "%s gave no result for the fixed program" % tool
            if why:
                reasons.append(why)
                kept = []
        return kept
