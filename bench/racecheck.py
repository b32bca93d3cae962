#!/usr/bin/env python3
"""GPUVerify's race kernels on a GPU: compute-sanitizer racecheck and
synccheck on each ported kernel, as written and after `cuda-lint --fix`
(issue 29: "the fix, validated on the GPU").

bench/races.py ports the kernels of GPUVerify's test suite and benchmarks
to CUDA translation units with a launch per kernel in the header's block
and grid shape (arguments of any type, `__gv_any()`). This script makes
those units runnable and runs them, in three steps, because the machine
with the GPU has no LLVM and this one has no GPU:

  bench/racecheck.py build DIR [--races bench/results/NAME.json]
      here: ports the kernels in scope labelled race or divergence, and the
      pass kernels that NAME.json (a races.py run) lists as false alarms;
      copies them and applies `cuda-lint --fix` with the race checks to the
      copy; builds every unit, original and fixed, with clang++-22 for
      sm_90 into DIR/bin/ (small executables linked to libcudart.so), with
      DIR/manifest.json: which units the fix changed, which failed to build
      (a fix that breaks the build is reported as such).
  bench/racecheck.py run DIR            (on the GPU machine, Python 3 only)
      every executable under compute-sanitizer --tool racecheck and
      --tool synccheck, 8 at a time; DIR/results.json.
  bench/racecheck.py report DIR [--save bench/results/NAME]
      the table: hazards before and after the fix, per kernel and in all.

How a port runs: built without optimisation (-O0), so that the accesses
GPUVerify reads in the source are the ones that run (at -O2 a store nobody
reads is gone, and with it the race); every pointer argument points into one zeroed 64 MiB
device buffer (16 MiB in, so that small negative offsets stay inside it),
every scalar argument is the launch's thread count (the usual `n` of
`if (tid < n)`), and a struct argument is zeroed. Indices read from memory
are therefore 0. An OpenCL `__local` pointer parameter (ported as `extern
__shared__ T a[];`) becomes an array of its own of 2048 elements. racecheck sees shared-memory hazards only: a race on
global memory (race-global-*) is not visible to it, and a kernel whose
race needs other data or other arguments shows none; the table says how
many racy kernels racecheck confirms as run this way, before any fix.

No code of either suite is kept here: the ports are written under DIR.
"""

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from collections import OrderedDict
from concurrent.futures import ThreadPoolExecutor

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)

RUNNABLE_ANY = r"""#include <cstring>
#include <type_traits>
// bench/racecheck.py: arguments that run (see its docstring).
inline char *__gv_buf = nullptr;
inline long __gv_scalar = 1;
struct __gv_any {
  template <class T> operator T() const {
    if constexpr (std::is_pointer<T>::value)
      return reinterpret_cast<T>(__gv_buf + (16 << 20));
    else if constexpr (std::is_arithmetic<T>::value || std::is_enum<T>::value)
      return (T)__gv_scalar;
    else {
      T V;
      std::memset((void *)&V, 0, sizeof V);
      return V;
    }
  }
};"""

MAIN = r"""
#include <cstdio>
int main() {
  const size_t Bytes = 64u << 20;
  if (cudaMalloc((void **)&__gv_buf, Bytes) != cudaSuccess ||
      cudaMemset(__gv_buf, 0, Bytes) != cudaSuccess) {
    std::printf("gv-run: no device memory\n");
    return 2;
  }
  __gv_scalar = %(threads)d;
%(calls)s
  cudaError_t E = cudaDeviceSynchronize();
  std::printf("gv-run: %%s\n", cudaGetErrorString(E));
  return E == cudaSuccess ? 0 : 1;
}
"""


EXTERN_SHARED = re.compile(r"extern\s+__shared__\s+([^;\[\]]+?)\s+(\w+)\s*\[\s*\]\s*;")
LOCAL_ELEMENTS = 2048


def races_module():
    sys.path.insert(0, HERE)
    import races
    return races


def select(races, kernels_json):
    """The kernels to run: in scope, labelled race or divergence, and the
    pass kernels that an earlier races.py run found false alarms in."""
    false_alarms = set()
    if kernels_json:
        with open(kernels_json) as f:
            for k in json.load(f)["kernels"]:
                if k.get("scope") == "in" and k.get("verdict") == "false alarm":
                    false_alarms.add(k["id"])
    tmp = tempfile.mkdtemp(prefix="cuda-lint-racecheck-")
    items = []
    for suite, (repo, top) in races.SUITES.items():
        src = races.default_source(repo)
        if not src:
            raise SystemExit("racecheck.py: no mirror of %s under %s"
                             % (repo, races.MIRROR))
        commit = getattr(races, suite.upper() + "_COMMIT")
        root, _ = races.materialise(src, commit, os.path.join(tmp, suite))
        for rel in races.kernel_files(root, top):
            k, text, h = races.describe(suite, rel, root)
            if k["scope"] != "in":
                continue
            if k["label"] in ("race", "divergence") or k["id"] in false_alarms:
                items.append((k, text, h, root))
    return items, tmp


def make_runnable(tu_path, block, grid):
    with open(tu_path) as f:
        text = f.read()
    calls = re.findall(r"static void (__gv_launch_\w+)\(\)", text)
    if not calls:
        return False
    # OpenCL's __local pointer parameters became `extern __shared__ T a[];`:
    # in CUDA those are all one array of the launch's dynamic size (none
    # here). Distinct arrays of their own, as in OpenCL.
    text = EXTERN_SHARED.sub(r"__shared__ \1 \2[%d];" % LOCAL_ELEMENTS, text)
    with open(tu_path, "w") as f:
        f.write(text)
    body = "\n".join("  %s();" % c for c in calls)
    threads = 1
    for v in list(block) + list(grid):
        threads *= v
    with open(tu_path, "a") as f:
        f.write(MAIN % {"threads": threads, "calls": body})
    return True


def patch_preludes(work):
    for name in ("gv_prelude_cuda.h", "gv_prelude_opencl.h"):
        p = os.path.join(work, name)
        with open(p) as f:
            text = f.read()
        decl = "struct __gv_any { template <class T> operator T() const; };"
        if decl not in text:
            raise SystemExit("racecheck.py: %s has no __gv_any to define" % p)
        with open(p, "w") as f:
            f.write(text.replace(decl, RUNNABLE_ANY))


def compile_unit(tu, exe, clang="clang++-22", cuda="/usr/local/cuda"):
    cmd = [clang, "-x", "cuda", "--cuda-path=" + cuda,
           "--cuda-gpu-arch=sm_90", "-Wno-unknown-cuda-version", "-std=c++17",
           "-I" + os.path.join(cuda, "include", "cccl"),
           "-O0", "-gline-tables-only", "-w", tu, "-o", exe,
           "-L" + os.path.join(cuda, "lib64"), "-lcudart"]
    p = subprocess.run(cmd, capture_output=True, text=True, errors="replace")
    if p.returncode:
        err = [l for l in p.stderr.splitlines() if "error:" in l]
        return (err[0] if err else p.stderr.strip()[-300:])
    return None


def safe(kid):
    return re.sub(r"[^A-Za-z0-9_.-]", "_", kid)


def build(args):
    races = races_module()
    out = os.path.abspath(args.dir)
    if os.path.isdir(out):
        shutil.rmtree(out)
    items, tmp = select(races, args.races)
    orig, fixed = os.path.join(out, "original"), os.path.join(out, "fixed")
    os.makedirs(orig)
    races.prepare(items, orig)
    shutil.copytree(orig, fixed)
    tus = [k["tu"] for k, _, _, _ in items]
    cmd = [args.cuda_lint, "--checks=" + races.CHECKS, "--fix", "--no-cache",
           "--min-impact=low", "-j", str(args.jobs), "--format=json", "-o",
           os.path.join(out, "fix-report.json")] + \
        [os.path.join(fixed, t) for t in tus]
    subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    for tree in (orig, fixed):
        patch_preludes(tree)
    manifest = []
    jobs = []
    for k, _, _, _ in items:
        rec = OrderedDict(id=k["id"], label=k["label"],
                          category=k["category"], block=k["block"],
                          grid=k["grid"], note=k.get("note"))
        with open(os.path.join(orig, k["tu"])) as a, \
                open(os.path.join(fixed, k["tu"])) as b:
            rec["fix_changed"] = a.read() != b.read()
        for tree, tag in ((orig, "original"), (fixed, "fixed")):
            tu = os.path.join(tree, k["tu"])
            if not make_runnable(tu, k["block"] or [1, 1, 1],
                                 k["grid"] or [1, 1, 1]):
                rec[tag + "_build"] = "no launch (%s)" % k.get("launch", "")
                continue
            exe = os.path.join(out, "bin", tag, safe(k["id"]))
            os.makedirs(os.path.dirname(exe), exist_ok=True)
            jobs.append((rec, tag, tu, exe))
        manifest.append(rec)
    with ThreadPoolExecutor(args.jobs) as pool:
        for (rec, tag, _, exe), err in zip(
                jobs, pool.map(lambda j: compile_unit(j[2], j[3], args.clang, args.cuda_path),
                         jobs)):
            rec[tag + "_build"] = err or "ok"
            if not err:
                rec[tag + "_exe"] = os.path.relpath(exe, out)
    shutil.rmtree(tmp, ignore_errors=True)
    if not args.keep:
        for tree in (orig, fixed):
            shutil.rmtree(tree)
    with open(os.path.join(out, "manifest.json"), "w") as f:
        json.dump(manifest, f, indent=1)
    built = sum(1 for r in manifest if r.get("original_build") == "ok")
    broke = [r["id"] for r in manifest if r["fix_changed"]
             and r.get("original_build") == "ok" and r.get("fixed_build") != "ok"]
    print("racecheck.py: %d kernels, %d built, %d changed by the fix, %d fixes "
          "that break the build%s" % (len(manifest), built,
                                      sum(r["fix_changed"] for r in manifest),
                                      len(broke),
                                      (": " + ", ".join(broke)) if broke else ""))
    return 0


SUMMARY = {
    "racecheck": re.compile(r"RACECHECK SUMMARY: (\d+) hazards? displayed "
                            r"\((\d+) errors?, (\d+) warnings?\)"),
    "synccheck": re.compile(r"ERROR SUMMARY: (\d+) errors?"),
}


def sanitize(exe, tool, sanitizer, timeout):
    cmd = [sanitizer, "--tool", tool, "--print-limit", "10"]
    if tool == "racecheck":
        cmd += ["--racecheck-report", "hazard"]
    try:
        p = subprocess.run(cmd + [exe], capture_output=True, text=True,
                           errors="replace", timeout=timeout)
    except subprocess.TimeoutExpired:
        return {"status": "timeout"}
    text = p.stdout + p.stderr
    run = re.search(r"gv-run: (.*)", text)
    res = {"status": run.group(1).strip() if run else "no result (exit %d)"
           % p.returncode}
    m = SUMMARY[tool].search(text)
    if tool == "racecheck":
        res["hazards"] = int(m.group(1)) if m else None
        res["errors"] = int(m.group(2)) if m else None
    else:
        res["errors"] = int(m.group(1)) if m else None
    res["first"] = next((l.strip() for l in text.splitlines()
                         if l.startswith("========= Error") or
                         l.startswith("========= Warning")), "")
    return res


def run(args):
    out = os.path.abspath(args.dir)
    with open(os.path.join(out, "manifest.json")) as f:
        manifest = json.load(f)
    jobs = []
    for r in manifest:
        for tag in ("original", "fixed"):
            if r.get(tag + "_exe"):
                for tool in ("racecheck", "synccheck"):
                    jobs.append((r, tag, tool))
    san = args.sanitizer or shutil.which("compute-sanitizer") or \
        "/usr/local/cuda/bin/compute-sanitizer"

    def one(job):
        r, tag, tool = job
        return sanitize(os.path.join(out, r[tag + "_exe"]), tool, san,
                        args.timeout)
    with ThreadPoolExecutor(args.parallel) as pool:
        for (r, tag, tool), res in zip(jobs, pool.map(one, jobs)):
            r["%s_%s" % (tag, tool)] = res
    with open(os.path.join(out, "results.json"), "w") as f:
        json.dump(manifest, f, indent=1)
    print("racecheck.py: %d sanitizer runs" % len(jobs))
    return 0


def cell(r, tag, tool):
    res = r.get("%s_%s" % (tag, tool))
    if not res:
        return "-"
    n = res.get("hazards") if tool == "racecheck" else res.get("errors")
    text = "?" if n is None else str(n)
    if res["status"] != "no error":
        text += " (%s)" % res["status"]
    return text


def report(args):
    out = os.path.abspath(args.dir)
    with open(os.path.join(out, "results.json")) as f:
        rs = json.load(f)
    if args.races:
        with open(args.races) as f:
            verdicts = {k["id"]: k.get("verdict") for k in json.load(f)["kernels"]}
        for r in rs:
            r["lint"] = verdicts.get(r["id"])
    lines = []

    def count(pred):
        return sum(1 for r in rs if pred(r))

    def hz(r, tag):
        res = r.get(tag + "_racecheck") or {}
        return res.get("hazards") or 0

    def sync(r, tag):
        res = r.get(tag + "_synccheck") or {}
        return res.get("errors") or 0
    ran = [r for r in rs if r.get("original_racecheck")]
    racy = [r for r in ran if r["label"] == "race"]
    lines.append("| kernels | count |")
    lines.append("| --- | ---: |")
    rows = [
        ("selected (in scope: race, divergence, pass with a false alarm)",
         len(rs)),
        ("built and run, original", len(ran)),
        ("race kernels run", len(racy)),
        ("race kernels where racecheck reports a hazard as ported",
         count(lambda r: r in racy and hz(r, "original"))),
        ("... of them that cuda-lint reports (the races.py run given)",
         count(lambda r: r in racy and hz(r, "original")
               and r.get("lint") == "detected")),
        ("divergence kernels where synccheck reports an error as ported",
         count(lambda r: r in ran and r["label"] == "divergence"
               and sync(r, "original"))),
        ("changed by `cuda-lint --fix`", count(lambda r: r["fix_changed"])),
        ("fixes that break the build",
         count(lambda r: r["fix_changed"] and r.get("original_build") == "ok"
               and r.get("fixed_build") != "ok")),
        ("fixed, with racecheck hazards before", count(
            lambda r: r["fix_changed"] and hz(r, "original"))),
        ("... of them with none after", count(
            lambda r: r["fix_changed"] and hz(r, "original")
            and r.get("fixed_racecheck") and not hz(r, "fixed"))),
        ("fixes that add a hazard or a synccheck error", count(
            lambda r: r["fix_changed"] and r.get("fixed_racecheck") and
            (hz(r, "fixed") > hz(r, "original") or
             sync(r, "fixed") > sync(r, "original")))),
    ]
    lines += ["| %s | %d |" % row for row in rows]
    lines.append("")
    lines.append("Hazards are those racecheck displays (at most 10 a run).")
    lines.append("")
    lines.append("| kernel | label | cuda-lint | fix | racecheck before | after | "
                 "synccheck before | after |")
    lines.append("| --- | --- | --- | --- | --- | --- | --- | --- |")
    for r in rs:
        if not r.get("original_racecheck") and r.get("original_build") == "ok":
            continue
        fix = "yes" if r["fix_changed"] else "no"
        if r["fix_changed"] and r.get("original_build") == "ok" and \
                r.get("fixed_build") != "ok":
            fix = "BREAKS BUILD"
        if r.get("original_build") != "ok":
            lines.append("| %s | %s | %s | %s | not built: %s | | | |" % (
                r["id"], r["label"], r.get("lint") or "", fix,
                re.sub(r"^\S*/(original|fixed)/", "", r.get("original_build") or "")
                .replace("|", "/")[:100]))
            continue
        lines.append("| %s | %s | %s | %s | %s | %s | %s | %s |" % (
            r["id"], r["label"], r.get("lint") or "", fix, cell(r, "original", "racecheck"),
            cell(r, "fixed", "racecheck") if r["fix_changed"] else "",
            cell(r, "original", "synccheck"),
            cell(r, "fixed", "synccheck") if r["fix_changed"] else ""))
    text = "\n".join(lines) + "\n"
    if args.save:
        with open(args.save + ".md", "w") as f:
            f.write(text)
        with open(args.save + ".json", "w") as f:
            json.dump(rs, f, indent=1)
    print(text)
    return 0


def main():
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="step", required=True)
    b = sub.add_parser("build")
    b.add_argument("dir")
    b.add_argument("--races", metavar="JSON",
                   help="a races.py run's JSON: its false alarms are run too")
    b.add_argument("--cuda-lint", default=os.path.join(ROOT, "build", "bin",
                                                       "cuda-lint"))
    b.add_argument("-j", "--jobs", type=int, default=2)
    b.add_argument("--clang", default="clang++-22")
    b.add_argument("--cuda-path", default="/usr/local/cuda")
    b.add_argument("--keep", action="store_true",
                   help="keep the ported sources (DIR/original, DIR/fixed)")
    r = sub.add_parser("run")
    r.add_argument("dir")
    r.add_argument("--sanitizer")
    r.add_argument("--parallel", type=int, default=8)
    r.add_argument("--timeout", type=int, default=120)
    p = sub.add_parser("report")
    p.add_argument("dir")
    p.add_argument("--save", metavar="PREFIX")
    p.add_argument("--races", metavar="JSON",
                   help="a races.py run's JSON: whether cuda-lint reports each kernel")
    args = ap.parse_args()
    return {"build": build, "run": run, "report": report}[args.step](args)


if __name__ == "__main__":
    sys.exit(main())
