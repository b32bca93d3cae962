"""cuda-lint-validate: prove that cuda-lint's fixes are correct and useful.

For each case (an original CUDA program and its fixed version) it
  1. compiles both with nvcc for every requested architecture (a fix whose
     result does not compile is rejected, with nvcc's message), with the
     file's own compile command where there is one (-p);
  2. shows the fix's effect in the PTX (no f64 left, ld.global.nc loads, no
     div/rem, shfl.sync, a changed shared-memory declaration) and, where
     cuobjdump is found, in the SASS of a cubin (f64 ops, LDG...CONSTANT
     loads, the I2F.RP of integer division, SHFL);
  3. where a GPU is present: runs both, compares their outputs with the
     tolerance the fix allows, runs compute-sanitizer (racecheck, synccheck)
     on both, and times both (median of repeated runs) for the speedup;
  4. prints a table with one row per finding (check, file:line:col, and the
     results of its file) and writes JSON and Markdown.

Modes:
  cuda-lint-validate --suite test/gpu [--case NAME ...]
      cases are directories with original.cu, fixed.cu and case.json, and
      findings.json (what cuda-lint reports on original.cu, written by
      test/gpu/regen.py) for the per-finding rows; a report-only case
      (case.json "report_only": true) has no fixed.cu: its original is
      compiled, run and timed
  cuda-lint-validate FILE.cu --checks=cuda-foo [-p BUILD_DIR] [--config C]
                     [--harness H.cu] [--apply]
      lints a scratch copy of FILE.cu (cuda-lint --format=json: the user's
      files, headers included, are never written) and validates its fixes
      (the file's own main, or a harness H.cu compiled after it: a wrapper
      #includes both): all together first; where that fails and there are
      several, each finding's fix alone and then the ones that passed
      together; --apply writes only the fixes that passed. -p names a
      compile database (a directory with compile_commands.json, or the file);
      without it one is looked for upwards from FILE.cu, as cuda-lint does;
      -p without files validates every CUDA source it names. The file's entry
      gives nvcc its flags (-I, -D, -std, --expt-*, -Xcompiler ...; not its
      output, mode or architecture flags) and cuda-lint the same command.

  cuda-lint-validate --program DIR --build CMD --run CMD [--compare RE] [--apply]
      a whole project with its own build and run commands: cuda-lint's fixes
      applied to a copy, both copies built and run (--runs times), exit
      status, status lines and printed numbers compared (timing lines are
      reported as times, never compared), compute-sanitizer on both with a
      GPU; a failing fix set is bisected down to the fixes responsible, and
      --apply writes the others to DIR. --prepare BUNDLE stops after linting
      (where cuda-lint is); --run-prepared BUNDLE does the rest (where the
      GPU is, no cuda-lint needed) and leaves BUNDLE/accepted.diff.

Evidence is per finding where the line table allows (-lineinfo: PTX .loc,
and nvdisasm -g for the SASS): a fix is held to the instructions of its own
statement's lines; other f64 work in the file is information.

A fix passes when every step that ran passed: it compiles for every --arch,
its instruction-level effect shows, and on a GPU the fixed program runs,
its outputs match the original's within the tolerance, compute-sanitizer
finds no error in it and it does not fail a timing run. A harness that fails
on the original, or an original that does not compile, validates nothing
(NOT VALIDATED, not applied); without a GPU compile and evidence decide.

A program under test writes its output buffer as raw binary to argv[1] and
prints "TIME_MS <ms>"; it exits non-zero on a CUDA error (and, with
--self-check or case.json "self_check", where its results differ from a
reference it computes itself). Under compute-sanitizer it gets
CUDA_LINT_REPS=1 and CUDA_LINT_SMALL=1 (a smaller problem, where the program
has one).
"""

import argparse
import json
import os
import sys
import tempfile

from .cases import validate_files, validate_suite
from .common import ROOT, find_cuobjdump, find_nvcc, has_gpu
from .compile_db import cuda_entries
from .gpu import FMT
from .program import program_prepare
from .program_run import program_run
from .report import environment, markdown, markdown_table, print_table, program_table, table


def build_parser():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("files", nargs="*")
    p.add_argument("--suite")
    p.add_argument("--case", action="append", default=[])
    p.add_argument("--checks", default="cuda-*")
    p.add_argument("--config", help="configuration for cuda-lint (its --config), e.g. "
                   "\"{CheckOptions: {cuda-warp-synchronous.FixStyle: syncwarp}}\"")
    p.add_argument("-p", dest="build_path", metavar="BUILD_DIR",
                   help="compile database (a directory with compile_commands.json, or the file) "
                        "with the file's compile command, for nvcc and cuda-lint (default: the "
                        "nearest compile_commands.json above the file); without files, every "
                        "CUDA source it names is validated")
    p.add_argument("--harness")
    p.add_argument("--dtype", default="float32", choices=sorted(FMT))
    p.add_argument("--tolerance", help='"exact" or REL[,ABS] (default: by check, see '
                   "docs/validation.md)")
    p.add_argument("--self-check", action="store_true",
                   help="the program checks its own results and exits non-zero where they are "
                   "wrong: an original that fails its check does not stop the validation, the "
                   "fixed program must pass it")
    p.add_argument("--ulp", type=int, help="compare float outputs in units in the last place: "
                   "at most N apart")
    p.add_argument("--arch", action="append", default=[])
    p.add_argument("--runs", type=int, default=5)
    p.add_argument("-j", "--jobs", type=int, default=min(8, os.cpu_count() or 1),
                   help="nvcc runs at once")
    p.add_argument("--no-sanitizer", action="store_true")
    p.add_argument("--no-gpu", action="store_true")
    p.add_argument("--cuobjdump", help="cuobjdump for the SASS evidence (default: CUOBJDUMP, "
                   "PATH, beside nvcc, CUDA_PATH/bin)")
    p.add_argument("--no-sass", action="store_true", help="PTX evidence only")
    p.add_argument("--apply", action="store_true")
    p.add_argument("--cuda-lint", default=os.path.join(ROOT, "build", "bin", "cuda-lint"))
    p.add_argument("--json")
    p.add_argument("--markdown")
    p.add_argument("--work")
    g = p.add_argument_group("program mode (docs/validation.md, \"Program mode\")")
    g.add_argument("--program", metavar="DIR", help="validate the fixes of a whole project with "
                   "its own build and run commands")
    g.add_argument("--build", metavar="CMD", help="the project's build command (sh, run in "
                   "the copy of DIR)")
    g.add_argument("--run", metavar="CMD", help="the project's run command (sh, run in the copy "
                   "of DIR, --runs times)")
    g.add_argument("--compare", metavar="REGEX", help="only the output lines that match count "
                   "(timing lines never do)")
    g.add_argument("--prepare", metavar="BUNDLE", help="with --program: lint and write the "
                   "bundle (a copy of DIR and the fixes) for --run-prepared, and stop")
    g.add_argument("--run-prepared", metavar="BUNDLE", help="build, run, compare and bisect a "
                   "prepared bundle (no cuda-lint needed)")
    g.add_argument("--siblings-from", metavar="DIR", help="where the project's siblings are "
                   "(../include ...): linked beside each copy (default: DIR's parent)")
    g.add_argument("--program-timeout", type=int, default=1800, metavar="SECONDS",
                   help="limit for one build or run (default 1800)")
    g.add_argument("--sanitizer-launches", type=int, default=20, metavar="N",
                   help="compute-sanitizer checks the first N kernel launches of each "
                   "run (default 20; 0: every launch)")
    return p


def main():
    p = build_parser()
    args = p.parse_args()
    args.arch = args.arch or ["sm_90"]
    if args.program or args.run_prepared:
        return program_main(args)
    if args.prepare:
        p.error("--prepare needs --program DIR")
    if not args.files and not args.suite and not args.build_path:
        p.error("give files, -p BUILD_DIR, --suite DIR, --program DIR or --run-prepared BUNDLE")
    if args.build_path and not args.files and not args.suite:
        rc = files_from_db(args)
        if rc:
            return rc
    nvcc, gpu = find_tools(args)
    work = os.path.abspath(args.work or tempfile.mkdtemp(prefix="cuda-lint-validate-"))
    results = validate_suite(args, gpu, nvcc, work) if args.suite else []
    rc = validate_files(args, gpu, nvcc, work, results)
    if rc:
        return rc
    return report(args, results, nvcc, gpu)


def files_from_db(args):
    """-p without files: every CUDA source the database names. Returns 1
    where it names none."""
    try:
        args.files = cuda_entries(args.build_path)
    except ValueError as e:
        print("cuda-lint-validate: error: %s" % e, file=sys.stderr)
        return 1
    if not args.files:
        print("cuda-lint-validate: error: %s names no CUDA source" % args.build_path,
              file=sys.stderr)
        return 1
    print("cuda-lint-validate: note: %d CUDA sources in %s" % (len(args.files), args.build_path),
          file=sys.stderr)
    return 0


def find_tools(args):
    """nvcc (None: not found), cuobjdump (into args.cuobjdump) and whether
    there is a GPU, with a note for each step that cannot run."""
    nvcc = find_nvcc()
    if nvcc is None:
        print("cuda-lint-validate: warning: nvcc not found (set NVCC or CUDA_PATH): "
              "compile, PTX and GPU steps are skipped", file=sys.stderr)
    args.cuobjdump = None if args.no_sass or nvcc is None else args.cuobjdump or find_cuobjdump(nvcc)
    if nvcc and not args.no_sass and not args.cuobjdump:
        print("cuda-lint-validate: note: no cuobjdump here: evidence from the PTX only",
              file=sys.stderr)
    gpu = nvcc is not None and not args.no_gpu and has_gpu()
    if not gpu:
        print("cuda-lint-validate: note: no GPU here: outputs, sanitizer and timing are skipped",
              file=sys.stderr)
    return nvcc, gpu


def report(args, results, nvcc, gpu):
    """The table on stdout, --json and --markdown, the summary; the exit
    status."""
    print_table(*table(results))
    count = lambda s: sum(1 for r in results if r["status"] == s)
    if nvcc is None:
        summary = "nothing validated: nvcc not found (set NVCC or CUDA_PATH)"
    else:
        summary = "%d passed, %d failed" % (count("passed"), count("FAILED"))
        if count("NOT VALIDATED"):
            summary += ", %d not validated" % count("NOT VALIDATED")
        if count("report only"):
            summary += ", %d report only" % count("report only")
        if not gpu:
            summary += " (no GPU: outputs, sanitizer and timing not run)"
    env = environment(args.cuobjdump)
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"environment": env, "summary": summary, "results": results}, f, indent=2)
    if args.markdown:
        header = "Environment: " + ", ".join("%s: %s" % kv for kv in env.items())
        with open(args.markdown, "w") as f:
            f.write(markdown(results, header, summary))
    print(summary)
    if nvcc is None:
        return 1
    return 1 if count("FAILED") or count("NOT VALIDATED") else 0


def program_main(args):
    """--program / --prepare / --run-prepared."""
    if args.run_prepared:
        bundle = os.path.abspath(args.run_prepared)
        apply_to = None
        if args.apply:
            print("cuda-lint-validate: note: --apply with --run-prepared: the fixes that pass "
                  "are in %s/accepted.diff (patch -p1 in the project)" % bundle, file=sys.stderr)
    else:
        if not args.build or not args.run:
            print("cuda-lint-validate: error: --program needs --build and --run", file=sys.stderr)
            return 1
        bundle = os.path.abspath(args.prepare or args.work or
                                 tempfile.mkdtemp(prefix="cuda-lint-validate-"))
        try:
            program_prepare(args, bundle)
        except RuntimeError as e:
            print("cuda-lint-validate: error: %s: %s" % (args.program, e), file=sys.stderr)
            return 1
        if args.prepare:
            print("prepared %s: run it where the project builds and runs with\n"
                  "  cuda-lint-validate --run-prepared %s" % (bundle, bundle))
            return 0
        apply_to = args.program if args.apply else None
    try:
        r = program_run(args, bundle, apply_to)
    except (RuntimeError, OSError, ValueError) as e:
        print("cuda-lint-validate: error: %s" % e, file=sys.stderr)
        return 1
    cols, rows = program_table(r)
    print_table(cols, rows)
    kept = r.get("kept") or []
    summary = "%s: %s" % (r["case"], r["status"])
    if r["status"] == "FAILED":
        summary += ": %d of %d fixes kept" % (len(kept), len(r["findings"]))
    print(summary)
    r["environment"] = environment(None)
    r["summary"] = summary
    with open(os.path.join(bundle, "report.json"), "w") as out:
        json.dump(r, out, indent=2)
    if args.json:
        with open(args.json, "w") as out:
            json.dump(r, out, indent=2)
    if args.markdown:
        with open(args.markdown, "w") as out:
            out.write("\n".join(markdown_table(cols, rows)) + "\n\n" + summary + "\n")
    return 0 if r["status"] in ("passed", "no fixes") else 1
