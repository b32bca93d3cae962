#!/usr/bin/env python3
"""Keep the validation suite honest: each case's fixed.cu must be exactly
what the current cuda-lint makes of original.cu with the case's check, and
its findings.json the findings cuda-lint reports on original.cu (check,
file relative to the case, line, column, message, whether a fix was
applied), which cuda-lint-validate prints one row each for.

  regen.py --cuda-lint PATH [--write] [CASE ...]

Without --write it reports every case whose fixed.cu or findings.json is
stale and exits 1. A report-only case (case.json "report_only": true, for a
check that reports without a fix) has findings.json and no fixed.cu.
"""
import argparse, difflib, json, os, re, shutil, subprocess, sys, tempfile

HERE = os.path.dirname(os.path.abspath(__file__))

# file:line:col: warning: message [check] (clang-tidy's text output)
DIAG = re.compile(r"^(.+?):(\d+):(\d+): (warning|error|note): (.*?)(?: \[([^\]\s]+)\])?$")


def findings(output, path, name):
    """The findings in cuda-lint's output, for `path` reported as `name`."""
    out = []
    for line in output.splitlines():
        m = DIAG.match(line)
        if not m:
            continue
        if m.group(4) == "note":
            if out and m.group(5) == "FIX-IT applied suggested code changes":
                out[-1]["fixed"] = True
            continue
        check = (m.group(6) or "").split(",")[0]
        if not check or check.startswith("clang-diagnostic-"):
            continue
        f = m.group(1)
        f = name if os.path.realpath(f) == os.path.realpath(path) else os.path.basename(f)
        out.append({"check": check, "file": f, "line": int(m.group(2)),
                    "column": int(m.group(3)), "message": m.group(5), "fixed": False})
    return out


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
        # Every fix, whatever its impact rank: the cases test the fixes.
        args = [a.cuda_lint, "--fix", "--quiet", "--min-impact=low",
                "--checks=-*," + meta["check"]]
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
        ok = True
        if meta.get("report_only"):
            # A report-only case (a check without fixes): its findings only,
            # and no fixed.cu.
            if new != orig:
                print("%s: cuda-lint made a fix in a report-only case" % name)
                stale += 1
            if os.path.exists(fixed_path):
                ok = False
                if a.write:
                    os.remove(fixed_path)
                    print("%s: fixed.cu removed (report only)" % name)
                else:
                    stale += 1
                    print("%s: fixed.cu is stale: a report-only case has none" % name)
        elif new == orig:
            print("%s: cuda-lint made no fix" % name)
            stale += 1
        if not meta.get("report_only") and new != old:
            ok = False
            if a.write:
                open(fixed_path, "w").write(new)
                print("%s: fixed.cu rewritten" % name)
            else:
                stale += 1
                print("%s: fixed.cu is stale:" % name)
                sys.stdout.writelines(difflib.unified_diff(old.splitlines(True), new.splitlines(True), "fixed.cu", "cuda-lint --fix"))
        found = json.dumps(findings(r.stdout, work, "original.cu"), indent=2) + "\n"
        findings_path = os.path.join(d, "findings.json")
        old_found = open(findings_path).read() if os.path.exists(findings_path) else ""
        if found != old_found:
            ok = False
            if a.write:
                open(findings_path, "w").write(found)
                print("%s: findings.json rewritten" % name)
            else:
                stale += 1
                print("%s: findings.json is stale:" % name)
                sys.stdout.writelines(difflib.unified_diff(old_found.splitlines(True), found.splitlines(True), "findings.json", "cuda-lint"))
        if ok:
            print("%s: ok" % name)
    shutil.rmtree(tmp)
    return 1 if stale else 0

if __name__ == "__main__":
    sys.exit(main())
