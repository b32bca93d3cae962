#!/usr/bin/env python3
"""Benchmark: cuda-lint against stock clang-tidy-22 with the cuda-lint plugin
and against clang's own parse (-fsyntax-only) with the same flags.

  bench/run.py [--files N] [--jobs 1,2] [--repeats 3] [--build build] [--instructions] [--out results.md]

Inputs: examples/*.cu, the lit test inputs under test/checkers, and N
generated kernels of varied size (a deterministic generator: saxpy,
stencils, transposes, reductions, float polynomials, repeated with
different names and sizes). Prints per-file times for the real inputs and
totals, files per second, peak memory (the largest process, children of a
bulk run included) and the ratios for every mode; per-file ratios of the real
inputs are the fastest of --repeats runs, summarised as median and worst
against both parse floors: clang -fsyntax-only with cuda-lint's flags (the
target's definition), and the same with cuda-lint's precompiled prelude.
Both floors get what cuda-lint adds to a file's command (the legacy
compatibility header, and for the second the prelude variant with it).
"""
import argparse
import glob
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CUDA = os.environ.get("CUDA_PATH", "/usr/local/cuda")

KERNELS = [
    """__global__ void saxpy_{n}(float *y, const float *x, float a, int n) {{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = a * x[i] + y[i] * {c};
}}
""",
    """__global__ void stencil_{n}(float *out, float *in, int nx, int ny) {{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int j = blockIdx.y * blockDim.y + threadIdx.y;
  if (i < 1 || j < 1 || i >= nx - 1 || j >= ny - 1)
    return;
  out[j * nx + i] = {c}f * (in[j * nx + i - 1] + in[j * nx + i + 1] +
                           in[(j - 1) * nx + i] + in[(j + 1) * nx + i]);
}}
""",
    """#define TILE_{n} 32
__global__ void transpose_{n}(float *o, const float *in, int w, int h) {{
  __shared__ float tile[TILE_{n}][TILE_{n}];
  int x = blockIdx.x * TILE_{n} + threadIdx.x;
  int y = blockIdx.y * TILE_{n} + threadIdx.y;
  for (int j = 0; j < TILE_{n}; j += 8)
    tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * w + x];
  __syncthreads();
  x = blockIdx.y * TILE_{n} + threadIdx.x;
  y = blockIdx.x * TILE_{n} + threadIdx.y;
  for (int j = 0; j < TILE_{n}; j += 8)
    o[(y + j) * h + x] = tile[threadIdx.x][threadIdx.y + j];
}}
""",
    """template <unsigned B>
__global__ void reduce_{n}(const float *in, float *out, unsigned n) {{
  __shared__ float s[B];
  unsigned tid = threadIdx.x, i = blockIdx.x * B + tid;
  s[tid] = i < n ? in[i] : 0.0f;
  __syncthreads();
  for (unsigned k = B / 2; k > 0; k >>= 1) {{
    if (tid < k)
      s[tid] += s[tid + k];
    __syncthreads();
  }}
  if (tid == 0)
    out[blockIdx.x] = s[0] * {c};
}}
template __global__ void reduce_{n}<256>(const float *, float *, unsigned);
""",
    """__device__ float poly_{n}(float v) {{
  return 1.0 + v * ({c} + v * (0.25 + v * 0.125));
}}
__global__ void apply_{n}(float *y, const float *x, int n) {{
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
    y[i] = poly_{n}(x[i]) + sqrtf(fabsf(x[i]));
}}
""",
]


def generate(dir_, count, seed=1):
    rnd = random.Random(seed)
    files = []
    for f in range(count):
        parts = ["#include <cuda_runtime.h>\n#include <cmath>\n"]
        for k in range(rnd.choice([1, 2, 4, 8, 16, 32, 64])):
            t = rnd.choice(KERNELS)
            parts.append(t.format(n="%d_%d" % (f, k), c=rnd.choice(["0.5", "0.1", "2.0", "0.25"])))
        p = os.path.join(dir_, "gen_%03d.cu" % f)
        with open(p, "w") as fh:
            fh.write("\n".join(parts))
        files.append(p)
    return files


def run_one(cmd):
    t0 = time.perf_counter()
    p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, ru = os.wait4(p.pid, 0)
    return time.perf_counter() - t0, ru.ru_maxrss, os.waitstatus_to_exitcode(status)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--files", type=int, default=200)
    ap.add_argument("--jobs", default="1,2")
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("--repeats", type=int, default=3,
                    help="runs per real input for the per-file table (the fastest counts)")
    ap.add_argument("--instructions", action="store_true",
                    help="also count the instructions of cuda-lint and of the parse floor + pch "
                         "for each real input under valgrind (slow: about 30 s a file)")
    ap.add_argument("--out")
    a = ap.parse_args()

    lint = os.path.join(a.build, "bin", "cuda-lint")
    plugin = os.path.join(a.build, "lib", "libCudaLintPlugin.so")
    tidy = shutil.which("clang-tidy-22") or "/usr/lib/llvm-22/bin/clang-tidy"
    clang = shutil.which("clang++-22") or "/usr/lib/llvm-22/bin/clang++"
    flags = ["-x", "cuda", "--cuda-path=" + CUDA, "-isystem", CUDA + "/include/cccl",
             "--cuda-gpu-arch=sm_90", "--cuda-device-only", "-Wno-unknown-cuda-version"]
    tmp = tempfile.mkdtemp(prefix="cuda-lint-bench-")
    cache = os.path.join(tmp, "cache")
    os.environ["CUDA_LINT_CACHE_DIR"] = cache
    real = sorted(glob.glob(os.path.join(ROOT, "examples", "*.cu")) +
                  glob.glob(os.path.join(ROOT, "test", "checkers", "*.cu")))
    gen = generate(tmp, a.files)
    files = real + gen
    # Warm the prelude cache (the first run of a flag set pays 0.6 s) and
    # learn what cuda-lint adds to each real input's command: the legacy
    # compatibility header for files that name removed APIs, and which
    # precompiled prelude it uses (the plain one, or the variant with that
    # header). The parse floors get the same, so that they parse the same
    # code: the floor is clang's -fsyntax-only with cuda-lint's flags.
    env = dict(os.environ, CUDA_LINT_PRINT_ARGS="1")
    plain = None
    extra, pch_of = {}, {}
    for f in [gen[0]] + real if gen else real:
        p = subprocess.run([lint, "--quiet", f], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                           env=env, universal_newlines=True)
        args = p.stderr.splitlines()[0].split() if p.stderr else []
        extra[f] = [x for a_ in args if a_.startswith("--extra-arg=-include")
                    for x in ("-include", a_[len("--extra-arg=-include"):])]
        pch_of[f] = next((args[i + 1] for i, a_ in enumerate(args[:-1]) if a_ == "-include-pch"), None)
        if plain is None and not extra[f]:
            plain = pch_of[f]
    for f in files:
        extra.setdefault(f, [])
        if not pch_of.get(f):
            pch_of[f] = plain
    pch = plain is not None
    modes = {
        "cuda-lint": lambda f: [lint, "--quiet", f],
        "clang-tidy --load": lambda f: [tidy, "--quiet", "--load=" + plugin, "--checks=-*,cuda-*", f, "--"] + flags + extra[f],
        "parse floor": lambda f: [clang, "-fsyntax-only"] + flags + extra[f] + [f],
    }
    if pch:
        modes["parse floor + pch"] = lambda f: [clang, "-fsyntax-only"] + flags + [
            "-include-pch", pch_of[f]] + extra[f] + [f]
    lines = []
    out = lambda s="": (print(s), lines.append(s))
    out("# cuda-lint benchmark")
    out()
    out("%d files: %d real (examples, lit inputs), %d generated (%d-%d lines); %s" % (
        len(files), len(real), len(gen),
        min(sum(1 for _ in open(f)) for f in gen), max(sum(1 for _ in open(f)) for f in gen),
        "machine: %d cores" % os.cpu_count()))
    out()
    per_file = {}
    totals = {}
    for jobs in [int(j) for j in a.jobs.split(",")]:
        for name, mk in modes.items():
            t0 = time.perf_counter()
            with ThreadPoolExecutor(max_workers=jobs) as ex:
                res = list(ex.map(lambda f: run_one(mk(f)), files))
            wall = time.perf_counter() - t0
            totals[(name, jobs)] = (wall, max(r[1] for r in res), sum(1 for r in res if r[2] != 0))
            if jobs == 1:
                per_file[name] = {f: r[0] for f, r in zip(files, res)}
    # What users run on a codebase: one cuda-lint bulk run (a child process
    # per file, -j at a time, findings merged and a summary).
    for jobs in [int(j) for j in a.jobs.split(",")]:
        t0 = time.perf_counter()
        p = subprocess.Popen([lint, "--quiet", "--progress=none", "--no-cache", "-j", str(jobs)] + files,
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        _, status, ru = os.wait4(p.pid, 0)
        wall = time.perf_counter() - t0
        # Linux's wait4 reports the largest ru_maxrss of the process and of
        # every descendant it waited for: here the largest child, measured.
        code = os.waitstatus_to_exitcode(status)
        totals[("cuda-lint bulk (-j N, one call)", jobs)] = (
            wall, ru.ru_maxrss, 0 if code == 0 else "failed (exit %d)" % code)
    out("## Totals")
    out()
    out("| mode | jobs | wall s | files/s | peak RSS MB (largest process) | failures | speed vs clang-tidy | time vs parse floor | time vs parse floor + pch |")
    out("|---|---|---|---|---|---|---|---|---|")
    for (name, jobs), (wall, rss, fails) in totals.items():
        ct = totals[("clang-tidy --load", jobs)][0]
        pf = totals[("parse floor", jobs)][0]
        pp = "%.2fx" % (wall / totals[("parse floor + pch", jobs)][0]) if pch else "-"
        out("| %s | %d | %.1f | %.1f | %.0f | %s | %.2fx | %.2fx | %s |" % (
            name, jobs, wall, len(files) / wall, rss / 1024.0, fails, ct / wall, wall / pf, pp))
    out()
    # Per-file times of the real inputs: the fastest of --repeats runs of
    # each (one job, nothing else of the benchmark running), which filters
    # out the noise of a shared machine.
    # The modes take turns within each repeat, so that a slow spell of the
    # machine does not fall on one mode's runs only.
    best = {m: {} for m in modes}
    for f in real:
        runs = {m: [per_file[m][f]] for m in modes}
        for _ in range(a.repeats - 1):
            for m, mk in modes.items():
                runs[m].append(run_one(mk(f))[0])
        for m in modes:
            best[m][f] = min(runs[m])
    out("## Per file (1 job, fastest of %d runs), real inputs" % a.repeats)
    out()
    # The target is against the parse floor (clang -fsyntax-only,
    # no precompiled header); the stricter comparison gives clang the same
    # precompiled prelude cuda-lint uses.
    floors = ["parse floor"] + (["parse floor + pch"] if pch else [])
    out("| file | " + " | ".join(modes) + " | " +
        " | ".join("cuda-lint / " + fl for fl in floors) + " |")
    out("|---|" + "---|" * (len(modes) + len(floors)))
    ratios = {fl: {} for fl in floors}
    for f in real:
        for fl in floors:
            ratios[fl][f] = best["cuda-lint"][f] / best[fl][f]
        out("| %s | %s | %s |" % (os.path.relpath(f, ROOT),
                                  " | ".join("%.3f" % best[m][f] for m in modes),
                                  " | ".join("%.2fx" % ratios[fl][f] for fl in floors)))
    out()
    for fl in floors:
        r = ratios[fl]
        ordered = sorted(r.values())
        median = ordered[len(ordered) // 2] if len(ordered) % 2 else (
            ordered[len(ordered) // 2 - 1] + ordered[len(ordered) // 2]) / 2
        worst = max(r, key=r.get)
        out("Single TU cost vs %s, real inputs: median %.2fx, worst %.2fx (%s)" % (
            fl, median, r[worst], os.path.relpath(worst, ROOT)))
        over = sorted((f for f in real if r[f] > 1.1), key=r.get, reverse=True)
        out("  above 1.1x: " + (", ".join("%s (%.2fx)" % (os.path.relpath(f, ROOT), r[f]) for f in over)
                                or "none"))
    if a.instructions and pch:
        # Instructions executed (valgrind's callgrind), which the load of a
        # shared machine does not change: cuda-lint against the parse floor
        # with the same precompiled prelude.
        def instructions(cmd):
            p = subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null"] + cmd,
                               stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, universal_newlines=True)
            m = re.search(r"Collected : (\d+)", p.stderr)
            return int(m.group(1)) if m else float("nan")
        out()
        out("## Per file, instructions executed (valgrind callgrind, millions), real inputs")
        out()
        out("| file | cuda-lint | parse floor + pch | cuda-lint / parse floor + pch |")
        out("|---|---|---|---|")
        ir = {}
        for f in real:
            li, fl = instructions(modes["cuda-lint"](f)), instructions(modes["parse floor + pch"](f))
            ir[f] = li / fl
            out("| %s | %.0f | %.0f | %.3fx |" % (os.path.relpath(f, ROOT), li / 1e6, fl / 1e6, ir[f]))
        out()
        ordered = sorted(ir.values())
        median = ordered[len(ordered) // 2] if len(ordered) % 2 else (
            ordered[len(ordered) // 2 - 1] + ordered[len(ordered) // 2]) / 2
        worst = max(ir, key=ir.get)
        out("Instructions vs parse floor + pch, real inputs: median %.3fx, worst %.3fx (%s)" % (
            median, ir[worst], os.path.relpath(worst, ROOT)))
        over = sorted((f for f in real if ir[f] > 1.1), key=ir.get, reverse=True)
        out("  above 1.1x: " + (", ".join("%s (%.3fx)" % (os.path.relpath(f, ROOT), ir[f]) for f in over)
                                or "none"))
    mean = lambda m: sum(per_file[m].values()) / len(files)
    out("Mean seconds per file, all files, one run (1 job): " + ", ".join("%s %.3f" % (m, mean(m)) for m in modes))
    for jobs in [int(j) for j in a.jobs.split(",")]:
        out("Bulk, %d job(s): cuda-lint %.2fx faster than clang-tidy --load (per-file processes), "
            "%.2fx as one bulk call" % (jobs, totals[("clang-tidy --load", jobs)][0] / totals[("cuda-lint", jobs)][0],
                                         totals[("clang-tidy --load", jobs)][0] / totals[("cuda-lint bulk (-j N, one call)", jobs)][0]))
    if a.out:
        with open(a.out, "w") as fh:
            fh.write("\n".join(lines) + "\n")
    shutil.rmtree(tmp)


if __name__ == "__main__":
    main()
