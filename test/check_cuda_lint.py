#!/usr/bin/env python3
"""Run one cuda-lint check on a test file and verify its output with FileCheck.

In the manner of clang-tidy's check_clang_tidy.py, but CUDA stays CUDA: the
temporary copy keeps the input's .cu/.cuh extension.

Usage:
  check_cuda_lint.py --cuda-lint=PATH [-check-suffix=S | -check-suffixes=S,T]
                     [-no-compile] <source> <check-name> <temp-file>
                     [-- <cuda-lint args> [-- <compile args>]]

- Every warning and error printed must be matched by a CHECK-MESSAGES line
  (-implicit-check-not); when the file has CHECK-NOTES lines, notes are
  checked the same way.
- The file is run with --fix; CHECK-FIXES lines are matched against whole
  lines of the fixed file. Without CHECK-FIXES the file must be unchanged.
- The fixed file must still compile: with clang (syntax and semantics, host
  and device), and with nvcc when it is installed.
"""

import argparse
import os
import re
import shutil
import subprocess
import sys


def run(cmd, **kw):
    return subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                          universal_newlines=True, **kw)


def fail(msg, output=None):
    if output:
        sys.stdout.write(output)
        if not output.endswith("\n"):
            sys.stdout.write("\n")
    sys.exit("check_cuda_lint.py: " + msg)


def tool(name, fallback_dirs=()):
    for d in fallback_dirs:
        p = os.path.join(d, name)
        if os.path.exists(p):
            return p
    return shutil.which(name)


def main():
    argv = sys.argv[1:]
    extra = []
    if "--" in argv:
        i = argv.index("--")
        argv, extra = argv[:i], argv[i + 1:]
    tidy_args, compile_args = extra, []
    if "--" in extra:
        i = extra.index("--")
        tidy_args, compile_args = extra[:i], extra[i + 1:]

    p = argparse.ArgumentParser()
    p.add_argument("--cuda-lint", required=True)
    p.add_argument("-check-suffix", "-check-suffixes", default="")
    p.add_argument("-no-compile", action="store_true")
    p.add_argument("source")
    p.add_argument("check")
    p.add_argument("temp")
    args = p.parse_args(argv)

    suffixes = [s for s in args.check_suffix.split(",") if s]
    for s in suffixes:
        if not re.match(r"^[A-Z0-9\-]+$", s):
            fail("invalid check suffix '%s'" % s)

    def prefixes(kind):
        if not suffixes:
            return ["CHECK-" + kind]
        return ["CHECK-%s-%s" % (kind, s) for s in suffixes]

    with open(args.source, encoding="utf-8", newline="") as f:
        text = f.read()

    msg_prefixes = prefixes("MESSAGES")
    fix_prefixes = prefixes("FIXES")
    note_prefixes = prefixes("NOTES")

    def uses(prefs):
        return any(re.search(r"\b%s:" % re.escape(pr), text) for pr in prefs)

    has_msgs, has_fixes, has_notes = uses(msg_prefixes), uses(fix_prefixes), uses(note_prefixes)

    ext = os.path.splitext(args.source)[1]
    temp = args.temp if args.temp.endswith(ext) else args.temp + ext
    os.makedirs(os.path.dirname(os.path.abspath(temp)), exist_ok=True)
    cleaned = re.sub(r"// *CHECK-[A-Z0-9\-]*:[^\r\n]*", "//", text)
    with open(temp, "w", encoding="utf-8", newline="") as f:
        f.write(cleaned)

    checks = "-*," + args.check
    cmd = [args.cuda_lint, temp, "--fix", "--checks=" + checks] + tidy_args + ["--"] + compile_args
    print("Running " + " ".join(repr(c) if " " in c else c for c in cmd))
    res = run(cmd)
    output = res.stdout
    print("------------------------ cuda-lint output -----------------------")
    print(output)
    print("------------------------------------------------------------------")
    if res.returncode != 0:
        fail("cuda-lint exited with %d" % res.returncode)

    with open(temp, encoding="utf-8", newline="") as f:
        fixed = f.read()
    if fixed != cleaned:
        orig_copy = temp + ".orig"
        with open(orig_copy, "w", encoding="utf-8", newline="") as f:
            f.write(cleaned)
        print("------------------------------ Fixes -----------------------------")
        print(run(["diff", "-u", orig_copy, temp]).stdout)
        print("------------------------------------------------------------------")

    # Fixes are idempotent: a second --fix run changes nothing.
    if fixed != cleaned:
        again = run([args.cuda_lint, temp, "--fix", "--checks=" + checks] + tidy_args + ["--"] + compile_args)
        with open(temp, encoding="utf-8", newline="") as f:
            refixed = f.read()
        if refixed != fixed:
            fail("a second --fix run changed the file again (fixes are not idempotent)",
                 again.stdout)

    filecheck = tool("FileCheck")
    msg_file = temp + ".msg"
    with open(msg_file, "w", encoding="utf-8") as f:
        f.write(re.sub(r"^.*note: FIX-IT applied suggested code changes\n", "",
                       output, flags=re.M))

    # One pass over warnings and notes in order: every warning and error
    # must be expected (CHECK-MESSAGES or CHECK-NOTES); notes are checked
    # where a CHECK-NOTES line names them.
    prefs = msg_prefixes + (note_prefixes if has_notes else [])
    if has_msgs or has_notes:
        r = run([filecheck, "-input-file=" + msg_file, args.source,
                 "-check-prefixes=" + ",".join(prefs),
                 "-implicit-check-not={{warning|error}}:"])
        if r.returncode:
            fail("FileCheck failed on messages", r.stdout)
    else:
        # No message expected under these prefixes: there must be none.
        unexpected = [l for l in output.splitlines()
                      if re.search(r"(warning|error):", l)]
        if unexpected:
            fail("unexpected messages (no CHECK-MESSAGES for " +
                 ",".join(msg_prefixes) + ")", "\n".join(unexpected))

    if has_fixes:
        # Fixes match whole lines: `CHECK-FIXES: x` means the line is `x`.
        def whole_line(m):
            pat = m.group(2)
            if not pat.startswith("{{^}}"):
                pat = "{{^}}" + pat
            if not pat.endswith("{{$}}"):
                pat = pat + "{{$}}"
            return m.group(1) + pat
        pattern = r"(//\s*(?:%s):[ ]?)([^\r\n]*)" % "|".join(re.escape(x) for x in fix_prefixes)
        check_file = temp + ".fixes-check" + ext
        with open(check_file, "w", encoding="utf-8", newline="") as f:
            f.write(re.sub(pattern, whole_line, text))
        r = run([filecheck, "-input-file=" + temp, check_file,
                 "-check-prefixes=" + ",".join(fix_prefixes), "-strict-whitespace"])
        if r.returncode:
            fail("FileCheck failed on fixes", r.stdout)
    elif fixed != cleaned:
        fail("the file was changed but the test has no CHECK-FIXES lines")

    if args.no_compile:
        return
    cuda = os.environ.get("CUDA_PATH", "/usr/local/cuda")
    clang = tool("clang++-22", ["/usr/lib/llvm-22/bin"]) or tool("clang++")
    cargs = [a for a in compile_args if a not in ("--cuda-device-only",)]
    here = os.path.dirname(os.path.abspath(__file__))
    include = os.path.join(here, "..", "share", "cuda-lint", "include")
    if os.path.exists(os.path.join(cuda, "include", "cuda_runtime.h")):
        base = ["--cuda-path=" + cuda, "-isystem", os.path.join(cuda, "include", "cccl"),
                "-include", os.path.join(include, "cuda_lint_nvcc.h")]
    else:
        base = ["-nocudainc", "-nocudalib", "-include",
                os.path.join(include, "cuda_lint_fallback.h")]
    # The device side with clang, as cuda-lint analyses it (nvcc's dialect
    # included); nvcc below compiles both sides.
    r = run([clang, "-x", "cuda", "-fsyntax-only", "--cuda-device-only", "--cuda-gpu-arch=sm_90",
             "-Wno-unknown-cuda-version", "-fgpu-defer-diag", "-fgpu-rdc", "-Wno-register",
             "-Werror=return-type"] + base + cargs + [temp])
    if r.returncode:
        fail("the fixed file does not compile with clang", r.stdout)
    nvcc = tool("nvcc", [os.path.join(cuda, "bin")])
    if nvcc and os.path.exists(os.path.join(cuda, "include", "cuda_runtime.h")):
        nargs = [a for a in cargs if not a.startswith("--cuda") and a != "-nocudainc"]
        r = run([nvcc, "-x", "cu", "-arch=sm_90", "-std=c++17", "-ptx", "-o", temp + ".ptx"] + nargs + [temp])
        if r.returncode:
            fail("the fixed file does not compile with nvcc", r.stdout)


if __name__ == "__main__":
    main()
