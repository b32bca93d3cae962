#!/usr/bin/env python3
"""Keep the validation suite honest: each case's fixed.cu must be exactly
what the current cuda-lint makes of original.cu with the case's check.

  regen.py --cuda-lint PATH [--write] [CASE ...]

Without --write it reports every case whose fixed.cu is stale and exits 1.
"""
import argparse, difflib, json, os, shutil, subprocess, sys, tempfile

HERE = os.path.dirname(os.path.abspath(__file__))

def main():
    p = argparse.ArgumentParser()
    p.add_argument("--cuda-lint", required=True)
    p.add_argument("--write", action="store_true")
    p.add_argument("cases", nargs="*")
    a = p.parse_args()
    stale = 0
    names = a.cases or sorted(d for d in os.listdir(HERE) if os.path.isfile(os.path.join(HERE, d, "case.json")))
    tmp = tempfile.mkdtemp()
    for name in names:
        d = os.path.join(HERE, name)
        meta = json.load(open(os.path.join(d, "case.json")))
        work = os.path.join(tmp, name + ".cu")
        shutil.copy(os.path.join(d, "original.cu"), work)
        args = [a.cuda_lint, "--fix", "--quiet", "--checks=-*," + meta["check"]]
        if meta.get("config"):
            args.append("--config=" + meta["config"])
        r = subprocess.run(args + [work], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, universal_newlines=True)
        if r.returncode != 0:
            print("%s: cuda-lint failed:\n%s" % (name, r.stdout))
            stale += 1
            continue
        new = open(work).read()
        fixed_path = os.path.join(d, "fixed.cu")
        old = open(fixed_path).read() if os.path.exists(fixed_path) else ""
        orig = open(os.path.join(d, "original.cu")).read()
        if new == orig:
            print("%s: cuda-lint made no fix" % name)
            stale += 1
        if new != old:
            if a.write:
                open(fixed_path, "w").write(new)
                print("%s: fixed.cu rewritten" % name)
            else:
                stale += 1
                print("%s: fixed.cu is stale:" % name)
                sys.stdout.writelines(difflib.unified_diff(old.splitlines(True), new.splitlines(True), "fixed.cu", "cuda-lint --fix"))
        else:
            print("%s: ok" % name)
    shutil.rmtree(tmp)
    return 1 if stale else 0

if __name__ == "__main__":
    sys.exit(main())
