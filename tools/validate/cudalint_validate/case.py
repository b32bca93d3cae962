"""One case: an original and its fixed version (or a report-only original)
compiled, its fix's instruction-level effect shown, run on the GPU, and a
verdict."""

import os

from .common import read_text
from .evidence import evidence, sass_evidence
from .gpu import run_case, run_report_only
from .line_evidence import line_evidence
from .nvcc import compile_all, compile_errors, out_path, read_ptx, read_sass


# What each check's fix must show in the PTX.
EXPECT = {
    "cuda-double-promotion": "no-f64",
    "cuda-missing-restrict": "ld-global-nc",
    "cuda-integer-division": "no-div-rem",
    "cuda-warp-synchronous": "warp-sync",
    "cuda-shared-bank-conflict": "shared-decl-changed",
    "cuda-local-memory-array": "less-local",
}

# The tolerance each check's fix allows in file mode (without --tolerance or
# --ulp): exact where the fix does not change the arithmetic (padding,
# restrict, division by a power of two, integer shuffles); for float outputs
# of a double-promotion fix (each float operation rounds to 2^-24, where the
# original rounded once from double) and of a reordered float reduction, a
# relative tolerance with an absolute floor for results near zero (see
# docs/validation.md, "Tolerances").
TOLERANCE = {
    "cuda-double-promotion": {"rel": 1e-4, "abs": 1e-5},
    "cuda-warp-synchronous": {"rel": 1e-5, "abs": 1e-6},
}


def default_tolerance(checks, dtype):
    if dtype.startswith(("int", "uint")):
        return "exact"
    tols = [TOLERANCE[c] for c in checks if c in TOLERANCE]
    if not tols:
        return "exact"
    return {"rel": max(t["rel"] for t in tols), "abs": max(t["abs"] for t in tols)}


def validate_case(name, original, fixed, meta, args, gpu, nvcc, work, cache=None):
    """Compile, evidence, run, sanitizer and timing for one original and its
    fixed version (fixed None: a report-only case, the original alone).
    `cache` keeps the original's compiles and runs between calls that share
    it (the fixes of one file validated one at a time)."""
    cache = {} if cache is None else cache
    report_only = fixed is None
    res = {"case": name, "check": meta.get("check", "?"), "original": original,
           "fixed": fixed}
    if report_only:
        res["report_only"] = True
    for key in ("findings", "compile_command", "config"):
        if key in meta:
            res[key] = meta[key]
    os.makedirs(work, exist_ok=True)
    if nvcc is None:
        res["compiled"] = "skipped (no nvcc)"
        return finish(res)
    tags = [("original", original)] + ([] if report_only else [("fixed", fixed)])
    arch = args.arch[0]
    done = compile_all(nvcc, tags, meta, args, work, cache, report_only)
    errors = compile_errors(done)
    if errors:
        res["compile_errors"] = ["%s (%s): %s" % (e["version"], e["arch"], e["message"])
                                 for e in errors]
        e = next((x for x in errors if x["version"] == "original"), errors[0])
        res["compile_original_failed"] = e["version"] == "original"
        res["compiled"] = "NO: %s (%s): %s" % (e["version"], e["arch"], e["first"])
        return finish(res)
    res["compiled"] = "yes"
    res["archs"] = list(args.arch)
    exe = {tag: out_path(work, cache, tag, arch, "") for tag, _ in tags}
    if report_only:
        return finish(run_report_only(res, exe["original"], work, args, gpu, cache))
    ptx = read_ptx(done, tags, arch)
    sass = read_sass(args.cuobjdump, done, tags, arch)
    case_evidence(res, meta, original, fixed, ptx, *sass)
    if not gpu:
        res["run"] = "skipped (no GPU)"
        return finish(res)
    run_case(res, meta, exe, work, args, cache)
    return finish(res)


def case_evidence(res, meta, original, fixed, ptx, sass, sass_note, sass_lines):
    """The instruction-level evidence of the fix into `res`: per finding
    from the line tables where they allow, else the whole file's; the SASS
    where there is some."""
    # What each fixed check must show: the case's, or in a file linted with
    # several checks, each one that made a fix.
    src_o = meta.get("src_original") or read_text(original)
    src_f = meta.get("src_fixed") or read_text(fixed)
    single = meta.get("single", False)
    kinds = meta.get("expect_by_check") or {
        res["check"]: meta.get("ptx_expect") or EXPECT.get(res["check"], "none")}
    # The fixed findings, and the source files the line tables name (the
    # wrapper that #includes a file and its harness is not one).
    paths = meta.get("src_paths") or {"original": original, "fixed": fixed}
    fixed_findings = meta.get("evidence_findings")
    if fixed_findings is None:
        fixed_findings = [f for f in meta.get("findings", []) if f.get("fixed", True)]
    res["evidence_ok"], texts, per_finding = True, {}, {}
    for check, kind in kinds.items():
        mine = [f for f in fixed_findings if f.get("check") in (check, None)]
        by_line = line_evidence(kind, ptx, sass_lines, paths, src_o, src_f, mine, single)
        if by_line:
            passed, detail, per = by_line
            per_finding.update(per)
            if sass and not sass_lines:
                # Without the SASS's lines its counts are the whole file's:
                # information only.
                detail += "; whole file (information): " + sass_evidence(
                    kind, sass["original"], sass["fixed"], src_o, src_f, single)[1]
            elif sass_note:
                detail += "; " + sass_note
            texts[check] = ("yes: " if passed else "MISSING: ") + detail
            res["evidence_ok"] = res["evidence_ok"] and passed
            continue
        passed, detail = evidence(kind, ptx["original"], ptx["fixed"], src_o, src_f, single)
        if sass:
            sass_passed, sass_detail = sass_evidence(kind, sass["original"], sass["fixed"],
                                                     src_o, src_f, single)
            passed = passed and sass_passed is not False
            detail += "; " + sass_detail
        elif sass_note:
            detail += "; " + sass_note
        texts[check] = ("yes: " if passed else "MISSING: ") + detail
        res["evidence_ok"] = res["evidence_ok"] and passed
    res["evidence"] = "; ".join(texts.values()) if len(texts) == 1 else \
        "; ".join("%s %s" % kv for kv in texts.items())
    if len(texts) > 1:
        res["evidence_by_check"] = texts
    if per_finding:
        res["finding_evidence"] = per_finding


def finish(res):
    """res with its verdict: status is "passed", "FAILED", "NOT VALIDATED"
    (nothing could decide: no nvcc, the original does not compile or its
    harness fails on it) or "report only"; reasons say why."""
    fail, unvalidated, notes = [], [], []
    compiled = res.get("compiled", "")
    if res.get("report_only"):
        if compiled.startswith("NO"):
            fail.append("the original does not compile")
        elif res.get("run_failed"):
            fail.append(res["run"])
        elif compiled.startswith("skipped"):
            unvalidated.append("nvcc not found")
        res["status"] = "FAILED" if fail else "NOT VALIDATED" if unvalidated else "report only"
        res["reasons"] = fail or unvalidated
        return res
    if compiled.startswith("skipped"):
        unvalidated.append("nvcc not found")
    elif compiled.startswith("NO"):
        if res.get("compile_original_failed"):
            unvalidated.append("the original does not compile")
        else:
            fail.append("does not compile")
    if res.get("evidence_ok") is False:
        fail.append("expected instruction-level effect missing")
    if res.get("run_failed") == "original":
        unvalidated.append("the harness fails on the original: not validated on the GPU")
    elif res.get("run_failed") == "fixed":
        fail.append("the fixed program fails")
    if res.get("outputs_match") is False:
        fail.append("outputs differ")
    for tool in ("racecheck", "synccheck"):
        o, f = res.get(tool + "_original"), res.get(tool + "_fixed")
        if f is not None and f > 0:
            fail.append("%s: %d errors/hazards in the fixed program%s" % (
                tool, f, " (the fix adds them)" if o is not None and 0 <= o < f else ""))
        elif f == -1 and o is not None and o >= 0:
            fail.append("%s gave no result for the fixed program" % tool)
        elif f is None and res.get(tool + "_fixed_detail") and "_original" in res:
            notes.append(res[tool + "_fixed_detail"])
    if "time_fixed_ms" in res and res["time_fixed_ms"] is None and \
            res.get("time_original_ms") is not None:
        fail.append("the fixed program fails in a timing run: " + res.get("time_fixed_detail", ""))
    elif "time_original_ms" in res and res["time_original_ms"] is None:
        notes.append("the original fails in a timing run: no speedup")
    if res.get("original_check") and not fail:
        notes.append(res["original_check"])
    if res.get("run", "").startswith("skipped"):
        notes.append("run " + res["run"] + ": compile and evidence decide")
    res["status"] = "FAILED" if fail else "NOT VALIDATED" if unvalidated else "passed"
    res["reasons"] = (fail or unvalidated) + notes
    return res
