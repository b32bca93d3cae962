"""What to validate: the cases of a suite (--suite), or files with their
compile commands (-p, or a compile_commands.json found upwards)."""

import json
import os
import sys

from .case import validate_case
from .compile_db import compile_entry, find_compile_db
from .file_mode import validate_file


def validate_suite(args, gpu, nvcc, work):
    """Each case of --suite (a directory with case.json; --case picks some),
    validated."""
    results = []
    for name in sorted(os.listdir(args.suite)):
        d = os.path.join(args.suite, name)
        if args.case and name not in args.case:
            continue
        meta_path = os.path.join(d, "case.json")
        if not os.path.isfile(meta_path):
            continue
        meta = json.load(open(meta_path))
        # What cuda-lint reports on original.cu (test/gpu/regen.py keeps
        # it): one row each.
        findings_path = os.path.join(d, "findings.json")
        if os.path.isfile(findings_path):
            meta["findings"] = [dict(x, file=os.path.join(d, x["file"]))
                                for x in json.load(open(findings_path))]
        print("validating %s ..." % name, file=sys.stderr, flush=True)
        fixed = None if meta.get("report_only") else os.path.join(d, "fixed.cu")
        results.append(validate_case(name, os.path.join(d, "original.cu"), fixed, meta,
                                     args, gpu, nvcc, os.path.join(work, name)))
    return results


def validate_files(args, gpu, nvcc, work, results):
    """Each of the files, validated (its results appended to `results`).
    Returns 1 where one cannot be (no such file, no compile command in -p,
    cuda-lint fails), else 0."""
    for f in args.files:
        if not os.path.isfile(f):
            print("cuda-lint-validate: error: %s: no such file" % f, file=sys.stderr)
            return 1
        # The file's compile command: from -p, or found upwards (and then
        # only if it names the file, as cuda-lint does).
        entry, db = None, args.build_path or find_compile_db(f)
        if db:
            try:
                entry = compile_entry(db, f)
            except ValueError as e:
                if args.build_path:
                    print("cuda-lint-validate: error: %s" % e, file=sys.stderr)
                    return 1
            if entry is None and args.build_path:
                print("cuda-lint-validate: error: %s: no compile command in %s" % (f, db),
                      file=sys.stderr)
                return 1
        print("validating %s ..." % f, file=sys.stderr, flush=True)
        try:
            r = validate_file(f, entry, args, gpu, nvcc, work)
        except RuntimeError as e:
            print("cuda-lint-validate: error: %s: cuda-lint failed:\n%s" % (f, e), file=sys.stderr)
            return 1
        if r:
            results.append(r)
    return 0
