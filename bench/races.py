#!/usr/bin/env python3
"""Race benchmark from GPUVerify's suites: how many of the data races and
barrier divergences that GPUVerify's test suite plants does cuda-lint find
(cuda-warp-synchronous, cuda-divergent-barrier), and how many false alarms it
raises on kernels that GPUVerify verified race-free.

  bench/races.py                                   # both suites, pinned commits
  bench/races.py --gpuverify DIR --benchmarks DIR  # checkouts or mirror git dirs
  bench/races.py --save bench/results/NAME         # NAME.md and NAME.json
  bench/races.py --load bench/results/NAME         # tables of an earlier run

No code of either suite is kept in this repository: each run extracts the
pinned commit of a git directory (`git archive`, into a temporary directory)
or reads a checkout, converts every kernel in scope to a CUDA translation
unit beside the original (so that its includes resolve), and runs

  cuda-lint --checks=-*,cuda-warp-synchronous,cuda-divergent-barrier
            --format=json -j N <work dir>

once, in bulk.

Suites (pinned: GPUVERIFY_COMMIT, BENCHMARKS_COMMIT below)
------
* testsuite: mc-imperial/gpuverify, testsuite/CUDA/**/*.cu and
  testsuite/OpenCL/**/*.cl. Every kernel starts with a header: line 1 is
  `//pass` or `//xfail:KIND`, line 2 GPUVerify's options (`--blockDim`,
  `--gridDim`, `--local_size`, `--num_groups`, `--global_size`, `-D`...), and
  the `//` lines after it, for an xfail, the text GPUVerify must print.
* benchmarks: mc-imperial/GPUVerifyBenchmarks, **/*.cu and **/*.cl: real
  kernels (NVIDIA SDK, AMD SDK, Rodinia, Parboil, SHOC, PolyBench/PPCG,
  gpgpu-sim, C++AMP) that GPUVerify verified race- and divergence-free with
  the options of their header: every race finding there is a false alarm
  (with the exceptions under "Scope").

Labels (from the header, corrected by hand in bench/races_notes.py LABELS)
------
* race: xfail:NOT_ALL_VERIFIED whose expected text names a race
  ("possible write-write race", "read-write", "write-read", "...-atomic",
  "Write by ... Read by ..." traces), or which LABELS marks so after reading
  the kernel. Each race kernel has a category:
    - race-shared:       threads of one block race on __shared__ / __local
                         memory (including memory behind a `__local`
                         pointer parameter);
    - race-global-intra: threads of one block race on global memory;
    - race-global-inter: only threads of different blocks race, on global
                         memory (the check models two blocks for this).
* divergence: xfail whose expected text is "barrier may be reached by
  non-uniform control flow" (GPUVerify's barrier divergence).
* pass: `//pass`. Race-free and divergence-free for the header's block and
  grid shape, under GPUVerify's default semantics (benign write-write races
  of equal values tolerated).

Scope (a kernel out of scope is listed with its reason, never counted)
-----
In scope: the kernel converts to CUDA, cuda-lint analyses its translation
unit without compile errors, and its label is race, divergence or pass with
none of the exclusions below. Concretely in scope: intra-block races on
shared or global memory, inter-block races on global memory (a separate
category, since __syncthreads() cannot order them and the check has a model
of its own for them), barrier divergence.

Out of scope:
* property: xfail on a property other than races or divergence
  (assertions, invariants, pre/postconditions, null pointers, array bounds,
  writes to constant memory), and GPUVerify tool-chain tests
  (xfail:CLANG_ERROR, BUGLE_ERROR, GPUVERIFYVCGEN_ERROR,
  COMMAND_LINE_ERROR);
* semantics: a label that depends on semantics CUDA does not share or that
  the conversion removes: OpenCL barrier fence flags (GPUVerify orders only
  local memory at barrier(CLK_LOCAL_MEM_FENCE); __syncthreads() orders
  both), async_work_group_copy, images, GPUVerify's lock-step warp model
  (`--warp-sync`: those kernels are verified assuming warps in lock-step,
  which is the very assumption cuda-warp-synchronous reports), pass
  kernels checked only for divergence (`--only-divergence`), without
  barrier access checks, only for preconditions (`--only-requires`), for
  given argument values (`--kernel-args`), with races only logged
  (`--only-log`) or on some arrays only
  (`/checkArrays`), races that exist only in GPUVerify specification
  functions (`__reads_from`, `__writes_to`), a benign write-write race of
  one value that GPUVerify calls a race only with `--no-benign-tolerance`,
  races on curand's internal state;
* compile: the converted translation unit has compile errors (the OpenCL
  feature or construct that does not map is the reason: 8/16-lane vectors,
  swizzles, `half`, images, C-only conversions, ...);
* label: the header's expectation is not a single race/divergence/pass
  claim we can rely on (GPUVerify-internal tests such as loop-abstraction
  traces or barrier-interval counts).
The reason for each hand-made decision is in bench/races_notes.py.

Conversion
----------
CUDA kernels: the prelude (written into the work directory) defines
GPUVerify's annotations away (`__requires`, `__ensures`, `__assert`,
`__assume`, `__invariant`, `__global_invariant`, `__function_wide_invariant`,
`__barrier_invariant_N`, ... as no-ops; `__read`, `__write`, `__implies`,
`__enabled`, `__other_int`, `__same_group`, `__uniform_int`, ... as values).
It is included, with the header's `-D` defines, from a header of the
kernel's own that the kernel's first line (GPUVerify's `//pass` comment)
includes, so that line numbers are the original's.
OpenCL kernels get, besides, comments blanked (lines kept), `__kernel` ->
`__global__`, `__global`/`__private` dropped, `__local`/`__constant` ->
`__shared__`/`__constant__` on declarations and dropped on pointers and
parameters, `(float4)(a, b, c, d)` -> `make_float4(a, b, c, d)`, and the
prelude maps the work-item functions (`get_local_id(0)` -> `threadIdx.x`,
`get_group_id` -> `blockIdx`, `get_local_size` -> `blockDim`,
`get_num_groups` -> `gridDim`, `get_global_id(d)` -> `blockIdx.d * blockDim.d
+ threadIdx.d`, `get_global_size`), `barrier(...)` -> `__syncthreads()`,
`mem_fence` -> `__threadfence_block()`, the atomics (`atomic_add`,
`atom_inc`, ... -> `atomicAdd`, ...), `uint`/`uchar`/`ushort`/`ulong`,
arithmetic on 2-, 3- and 4-lane vectors, `vload2/4`, `vstore2/4`,
`convert_T`, `as_T`, `mad`, `mul24`, `clamp`, `native_*`; CUDA kernels that
use vector types get the same vector operators (GPUVerify's CUDA header has
them), unless they define operators of their own. OpenCL's kernel attributes
(`reqd_work_group_size`, ...) are blanked.
Each kernel that is not a template gets a host function that launches it
with the header's block and grid shape (`k<<<dim3(gx, gy, gz), dim3(bx, by,
bz)>>>(...)`, arguments of a type that converts to anything), so that
cuda-lint analyses the block GPUVerify verified, as it would in a program
that launches the kernel; `--no-launch` leaves them out. Block shapes over
CUDA's 1024 threads get no launch (the check then assumes its own).

Results
-------
Per kernel: label, category, in scope or the reason, which checks report
it, and the verdict: detected (a race kernel with a cuda-warp-synchronous
finding on the racing array where the label names it, a divergence kernel
with a cuda-divergent-barrier finding), missed, false alarm (a pass kernel
with a finding of either check), clean.
GPUVerify annotations are defined away, preconditions (`__requires`)
included: a pass kernel that is race-free only under its preconditions
would be a false alarm whose cause says so. A race
finding on a pass kernel verified with `--only-intra-group` that is about
threads of different blocks is not counted (GPUVerify did not check that).
The causes of misses and false alarms, found by reading the kernels, are in
bench/races_notes.py (CAUSES) and are printed with the tables.
"""
import argparse
import datetime
import glob
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from collections import Counter, OrderedDict, defaultdict

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import races_notes  # noqa: E402

GPUVERIFY_REPO = "mc-imperial/gpuverify"
GPUVERIFY_COMMIT = "49219770aad01231edd0d8e0fa3ed036006cf32a"
BENCHMARKS_REPO = "mc-imperial/GPUVerifyBenchmarks"
BENCHMARKS_COMMIT = "18a258eb01af9744f36b372a5e7c3e14fd5cfdb8"
MIRROR = "/work/.mirror"

CHECKS = "-*,cuda-warp-synchronous,cuda-divergent-barrier"
RACE_CHECK = "cuda-warp-synchronous"
DIV_CHECK = "cuda-divergent-barrier"


# --- sources -----------------------------------------------------------------

def default_source(repo):
    d = os.path.join(MIRROR, repo.replace("/", "+"), "repo")
    return d if os.path.isdir(d) else None


def is_git_dir(path):
    return (os.path.isfile(os.path.join(path, "HEAD"))
            and os.path.isdir(os.path.join(path, "objects")))


def materialise(path, commit, dest):
    """A directory tree of the suite at `commit`: `path` is a checkout (used
    as it is; its commit, if it is a git work tree, is recorded) or a git
    directory (the commit is extracted into `dest`). Returns (root, commit)."""
    if is_git_dir(path):
        os.makedirs(dest, exist_ok=True)
        full = subprocess.run(["git", "--git-dir", path, "rev-parse",
                               commit + "^{commit}"], check=True,
                              capture_output=True, text=True).stdout.strip()
        archive = subprocess.Popen(["git", "--git-dir", path, "archive",
                                    full], stdout=subprocess.PIPE)
        subprocess.run(["tar", "-x", "-C", dest], stdin=archive.stdout,
                       check=True)
        archive.wait()
        return dest, full
    got = subprocess.run(["git", "-C", path, "rev-parse", "HEAD"],
                         capture_output=True, text=True)
    head = got.stdout.strip() if got.returncode == 0 else "unknown"
    if head != "unknown" and commit and not head.startswith(commit):
        print("races.py: warning: %s is at %s, not the pinned %s"
              % (path, head, commit), file=sys.stderr)
    return path, head


def kernel_files(root, suite):
    if suite == "testsuite":
        pats = ["testsuite/CUDA/**/*.cu", "testsuite/OpenCL/**/*.cl"]
    else:
        pats = ["**/*.cu", "**/*.cl"]
    out = []
    for p in pats:
        out += glob.glob(os.path.join(root, p), recursive=True)
    return sorted(os.path.relpath(f, root) for f in out)


# --- headers -----------------------------------------------------------------

DIM_OPTS = ("--blockDim", "--gridDim", "--local_size", "--num_groups",
            "--global_size")


def parse_dim(text):
    nums = [int(x) for x in re.findall(r"\d+", text)]
    while len(nums) < 3:
        nums.append(1)
    return nums[:3]


def parse_header(text):
    lines = text.splitlines()
    first = lines[0].strip() if lines else ""
    status = first[2:].strip() if first.startswith("//") else ""
    opts = lines[1].strip() if len(lines) > 1 else ""
    opts = opts[2:] if opts.startswith("//") else ""
    expected = []
    for l in lines[2:]:
        s = l.strip()
        if not s.startswith("//"):
            break
        expected.append(s[2:].strip())
    h = {"status": status, "options": opts.strip(), "expected": expected,
         "flags": [], "defines": []}
    dims = {}
    for tok in opts.split():
        m = re.match(r"(--\w+)=(.*)$", tok)
        if m and m.group(1) in DIM_OPTS:
            dims[m.group(1)] = parse_dim(m.group(2))
        elif tok.startswith("-D"):
            h["defines"].append(tok[2:])
        elif tok.startswith("--"):
            h["flags"].append(tok.split("=")[0])
    block = dims.get("--blockDim") or dims.get("--local_size")
    grid = dims.get("--gridDim") or dims.get("--num_groups")
    if grid is None and block and "--global_size" in dims:
        g = dims["--global_size"]
        grid = [max(1, g[i] // block[i]) for i in range(3)]
    h["block"], h["grid"] = block, grid
    return h


RACE_TEXT = re.compile(r"race|Write by|Read by|Atomic by", re.I)
DIV_TEXT = re.compile(r"non-uniform control flow|barrier divergence", re.I)
PROPERTY_TEXT = re.compile(
    r"assert|invariant|precondition|postcondition|null pointer|"
    r"out-of-bounds|constant memory|0-sized|insufficient permission|"
    r"sincos|loop headed|barrier interval", re.I)


def auto_label(suite, h):
    """(label, out-of-scope reason or None) from the header alone."""
    st = h["status"].lower()
    if st.startswith("pass"):
        return "pass", None
    if not st.startswith("xfail"):
        return "unknown", "label: no pass/xfail header"
    kind = st.split(":", 1)[1].upper() if ":" in st else ""
    if kind != "NOT_ALL_VERIFIED":
        return "toolchain", "property: GPUVerify tool-chain test (xfail:%s)" % kind
    text = " ".join(h["expected"])
    if DIV_TEXT.search(text):
        return "divergence", None
    if RACE_TEXT.search(text):
        return "race", None
    if PROPERTY_TEXT.search(text):
        return "property", "property: expected failure is not a race (%s)" % (
            PROPERTY_TEXT.search(text).group(0).lower())
    return "unknown", "label: xfail with no race/divergence text"


# --- conversion --------------------------------------------------------------

def blank_comments(text):
    """Comments replaced by spaces, newlines kept (offsets and lines stay)."""
    out = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if c == "/" and i + 1 < n and text[i + 1] == "/":
            j = text.find("\n", i)
            j = n if j < 0 else j
            out.append(" " * (j - i))
            i = j
        elif c == "/" and i + 1 < n and text[i + 1] == "*":
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append("".join("\n" if ch == "\n" else " " for ch in text[i:j]))
            i = j
        elif c in "\"'":
            j = i + 1
            while j < n and text[j] != c and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            out.append(text[i:j + 1])
            i = j + 1
        else:
            out.append(c)
            i += 1
    return "".join(out)


QUALIFIER = re.compile(r"\b(__local|local|__constant|constant|__global|global|"
                       r"__private|private)\b")


def paren_depths(text):
    depth, d = [], 0
    for ch in text:
        if ch == "(":
            d += 1
        elif ch == ")":
            d = max(0, d - 1)
        depth.append(d)
    return depth


LOCAL_PARAM = re.compile(r"^(\s*)(?:__local|local)\b(.*?)(\*|\[\s*\])\s*"
                         r"(?:restrict\s+|__restrict\s+|const\s+)*(\w+)\s*$",
                         re.S)


def local_params_to_shared(t):
    """A kernel's `__local T *p` parameter is memory of the work-group that
    the host sizes: CUDA's `extern __shared__ T p[];`. The parameter goes
    (its text blanked, lines kept) and the declaration opens the body."""
    out, last = [], 0
    for m in re.finditer(r"\b(__kernel|kernel)\b", t):
        if m.start() < last:
            continue
        open_ = t.find("(", m.end())
        brace = t.find("{", m.end())
        semi = t.find(";", m.end())
        if open_ < 0 or brace < 0 or (0 <= semi < brace) or open_ > brace:
            continue
        # The parameter list: the last parenthesised group before '{'.
        close = t.rfind(")", open_, brace)
        while True:  # skip __attribute__((...)) groups before the name's '('
            head = t[m.end():open_]
            if re.search(r"__attribute__\s*$", head):
                d, j = 0, open_
                while j < len(t):
                    d += {"(": 1, ")": -1}.get(t[j], 0)
                    if d == 0:
                        break
                    j += 1
                open_ = t.find("(", j + 1)
                continue
            break
        d, j = 0, open_
        while j < len(t):
            d += {"(": 1, ")": -1}.get(t[j], 0)
            if d == 0:
                break
            j += 1
        close = j
        params = t[open_ + 1:close]
        pieces, depth, cur = [], 0, ""
        for ch in params:
            if ch == "(":
                depth += 1
            elif ch == ")":
                depth -= 1
            if ch == "," and depth == 0:
                pieces.append(cur)
                cur = ""
            else:
                cur += ch
        pieces.append(cur)
        decls, kept = [], []
        for piece in pieces:
            pm = LOCAL_PARAM.match(piece)
            if pm:
                decls.append("extern __shared__ %s %s[];"
                             % (" ".join(pm.group(2).split()), pm.group(4)))
                kept.append(None)
            else:
                kept.append(piece)
        if not decls:
            continue
        new_params, first = [], True
        for piece, k in zip(pieces, kept):
            blank = re.sub(r"[^\n]", " ", piece)
            if k is None:
                new_params.append(blank + " ")  # the comma's place
            else:
                new_params.append(("" if first else ",") + k)
                first = False
        body = t.find("{", close)
        out.append(t[last:open_ + 1])
        out.append("".join(new_params))
        out.append(t[close:body + 1])
        out.append(" " + " ".join(decls))
        last = body + 1
    out.append(t[last:])
    return "".join(out)


def convert_opencl(text):
    t = blank_comments(text)
    # OpenCL kernel attributes, which clang rejects on a CUDA function.
    t = re.sub(r"__attribute__\s*\(\(\s*(reqd_work_group_size|"
               r"work_group_size_hint|vec_type_hint)\s*\([^()]*\)\s*\)\)",
               lambda m: " " * len(m.group(0)), t)
    t = local_params_to_shared(t)
    # (float4)(a, b, c, d) -> make_float4(a, b, c, d)
    t = re.sub(r"\(\s*((?:u?(?:char|short|int|long))|float|double)([234])\s*\)"
               r"\s*\(", r"make_\1\2(", t)
    depth = paren_depths(t)
    out, last = [], 0
    for m in QUALIFIER.finditer(t):
        word = m.group(1).lstrip("_")
        # Inside a line starting with '#' (a #pragma, #define): keep.
        ls = t.rfind("\n", 0, m.start()) + 1
        if t[ls:m.start()].lstrip().startswith("#"):
            if not t[ls:m.start()].lstrip().startswith("#define"):
                continue
        rep = ""
        if word in ("local", "constant") and depth[m.start()] == 0:
            rest = re.match(r"[^;=\[\(,{]*", t[m.end():]).group(0)
            if "*" not in rest:
                rep = "__shared__" if word == "local" else "__constant__"
        out.append(t[last:m.start()])
        out.append(rep)
        last = m.end()
    out.append(t[last:])
    t = "".join(out)
    t = re.sub(r"\b(__kernel|kernel)\b", "__global__", t)
    return t


def split_top(params):
    parts, d, cur = [], 0, []
    for ch in params:
        if ch in "(<[":
            d += 1
        elif ch in ")>]":
            d -= 1
        if ch == "," and d == 0:
            parts.append("".join(cur))
            cur = []
        else:
            cur.append(ch)
    parts.append("".join(cur))
    return [p for p in (x.strip() for x in parts) if p]


KERNEL = re.compile(r"\b__global__\b")


def skip_parens(text, i):
    """Index after the parenthesised group that starts at text[i] == '('."""
    d = 0
    while i < len(text):
        d += {"(": 1, ")": -1}.get(text[i], 0)
        i += 1
        if d == 0:
            break
    return i


def active_params(params):
    """The parameter text with preprocessor conditionals resolved the cheap
    way: an #if/#ifdef branch is taken as false, #ifndef as true."""
    out, stack = [], []
    for line in params.split("\n"):
        st = line.strip()
        if st.startswith("#"):
            word = st[1:].strip().split(" ")[0]
            if word in ("if", "ifdef"):
                stack.append(False)
            elif word == "elif" and stack:
                stack[-1] = False
            elif word == "ifndef":
                stack.append(True)
            elif word == "else" and stack:
                stack[-1] = not stack[-1]
            elif word == "endif" and stack:
                stack.pop()
            continue
        if all(stack):
            out.append(line)
    return "\n".join(out)


def kernels_in(text):
    """[(name, nparams, is_template)] for the kernel definitions in the
    (comment-free) text."""
    found = []
    for m in KERNEL.finditer(text):
        ls = text.rfind("\n", 0, m.start()) + 1
        if text[ls:m.start()].lstrip().startswith("#"):
            continue
        # The name: the identifier before the first '(' that does not open
        # an attribute (__attribute__((...)), __launch_bounds__(...)).
        i = m.end()
        while True:
            j = text.find("(", i)
            if j < 0:
                break
            head = text[i:j]
            if re.search(r"(__attribute__|__launch_bounds__|__align__|"
                         r"alignas)\s*$", head):
                i = skip_parens(text, j)
                continue
            break
        if j < 0 or re.search(r"[;{}]", text[m.end():j]):
            continue
        nm = re.search(r"(\w+)\s*$", text[m.end():j])
        if not nm:
            continue  # a template-id (explicit instantiation) or odd form
        name = nm.group(1)
        end = skip_parens(text, j)
        params = text[j + 1:end - 1]
        after = text[end:end + 200].lstrip()
        after = re.sub(r"^(__attribute__\s*\(\(.*?\)\)\s*)+", "", after)
        if not after.startswith("{"):
            continue  # a declaration
        before = text[max(0, m.start() - 300):m.start()]
        is_template = bool(re.search(r"template\s*<[^;{}]*>\s*"
                                     r"(?:static\s+|inline\s+|extern\s+\"C\"\s*)*$",
                                     before))
        ps = split_top(active_params(params))
        if ps == ["void"]:
            ps = []
        found.append((name, len(ps), is_template))
    return found


def launch_stubs(kernels, h):
    if not h.get("block") or not h.get("grid"):
        return "", "no block/grid shape in the header"
    b, g = h["block"], h["grid"]
    if b[0] * b[1] * b[2] > 1024 or b[2] > 64:
        return "", "block %s over CUDA's limits" % "x".join(map(str, b))
    names = Counter(k[0] for k in kernels)
    lines, skipped = [], []
    for name, n, templ in kernels:
        if templ or names[name] > 1:
            skipped.append(name)
            continue
        args = ", ".join(["__gv_any()"] * n)
        lines.append("static void __gv_launch_%s() { %s<<<dim3(%d, %d, %d), "
                     "dim3(%d, %d, %d)>>>(%s); }" % (name, name, g[0], g[1],
                                                     g[2], b[0], b[1], b[2],
                                                     args))
    note = ("no launch for template/overloaded " + ", ".join(skipped)) \
        if skipped else ""
    return "\n".join(lines), note


# --- the prelude ---------------------------------------------------------------

ANNOTATION_PRELUDE = r"""
// GPUVerify's annotations, defined away (bench/races.py).
#ifndef GV_BENCH_PRELUDE
#define GV_BENCH_PRELUDE
#define __requires(...) ((void)0)
#define __ensures(...) ((void)0)
#define __global_requires(...) ((void)0)
#define __global_ensures(...) ((void)0)
#define __requires_fresh_array(...) ((void)0)
#define __assert(...) ((void)0)
#define __global_assert(...) ((void)0)
#define __assume(...) ((void)0)
#define __axiom(...) static_assert(true, "")
#define __invariant(...) ((void)0)
#define __global_invariant(...) ((void)0)
#define __candidate_invariant(...) ((void)0)
#define __candidate_global_invariant(...) ((void)0)
#define __function_wide_invariant(...) ((void)0)
#define __function_wide_candidate_invariant(...) ((void)0)
#define __writes_to(...) ((void)0)
#define __reads_from(...) ((void)0)
#define __read_permission(...) ((void)0)
#define __write_permission(...) ((void)0)
#define __array_snapshot(...) ((void)0)
#define __barrier_invariant(...) ((void)0)
#define __barrier_invariant_binary(...) ((void)0)
%(barrier_invariants)s
#define __implies(a, b) (!(a) || (b))
#define __ite(c, a, b) ((c) ? (a) : (b))
#define __enabled() 1
#define __dominator_enabled() 1
#define __same_group 1
#define __other_int(x) (x)
#define __other_bool(x) (x)
#define __other_float(x) (x)
#define __other_ptr(x) (x)
#define __old_int(x) (x)
#define __old_float(x) (x)
#define __uniform_int(x) 1
#define __uniform_bool(x) 1
#define __distinct_int(x) 1
#define __distinct_bool(x) 1
#define __all(x) 1
#define __exclusive(x) 1
#define __at_most_one(x) 1
#define __read(x) 0
#define __write(x) 0
#define __atomic(x) 0
#define __no_read(x) 1
#define __no_write(x) 1
#define __read_implies(...) 1
#define __write_implies(...) 1
#define __atomic_implies(...) 1
#define __read_offset_bytes(x) 0
#define __write_offset_bytes(x) 0
#define __atomic_offset_bytes(x) 0
#define __ptr_offset_bytes(x) 0
#define __ptr_base(x) 0
#define __read_offset(x) 0
#define __write_offset(x) 0
#define __mod_pow2(x, y) ((x) %% (y))
#define __return_val_int() 0
#define __return_val_bool() 0
#define __return_val_float() 0
#define __return_val_ptr() 0
#define __return_val_funptr(...) 0
#define __return_val_int4() make_int4(0, 0, 0, 0)
#define __atomic_has_taken_value(...) 0
#define __add_noovfl(...) 1
#define __add_noovfl_int(a, b) ((a) + (b))
#define __add_noovfl_unsigned_int(a, b) ((a) + (b))
#define DECLARE_UF_BINARY(name, t1, t2, tr) __device__ tr name(t1, t2)
#define DECLARE_UF_UNARY(name, t1, tr) __device__ tr name(t1)
struct __gv_any { template <class T> operator T() const; };
#endif
"""

# GPUVerify's cuda.h brings these in; CUDA needs the header.
CUDA_EXTRA = [
    (re.compile(r"\b(cooperative_groups|this_grid|this_thread_block|"
                r"grid_group|thread_block)\b"),
     "#include <cooperative_groups.h>\n"
     "#define synchronize(g) cooperative_groups::sync(g)"),
    (re.compile(r"\bcurand\w*"), "#include <curand_kernel.h>"),
]

OPENCL_PRELUDE = r"""
// OpenCL C on CUDA (bench/races.py).
#ifndef GV_BENCH_OPENCL
#define GV_BENCH_OPENCL
typedef unsigned int uint;
typedef unsigned char uchar;
typedef unsigned short ushort;
typedef unsigned long ulong;
#define restrict __restrict__
// No parentheses around a single built-in: cuda-lint's condition
// narrowing loses `ixj > (threadIdx.x)` with `ixj = (threadIdx.x) ^ j`.
#define __GV_CAT(a, b) __GV_CAT2(a, b)
#define __GV_CAT2(a, b) a##b
#define __GV_D_0 x
#define __GV_D_1 y
#define __GV_D_2 z
#define __GV_D_0u x
#define __GV_D_1u y
#define __GV_D_2u z
#define get_local_id(d) threadIdx.__GV_CAT(__GV_D_, d)
#define get_group_id(d) blockIdx.__GV_CAT(__GV_D_, d)
#define get_local_size(d) blockDim.__GV_CAT(__GV_D_, d)
#define get_num_groups(d) gridDim.__GV_CAT(__GV_D_, d)
#define get_global_id(d) (blockIdx.__GV_CAT(__GV_D_, d) * blockDim.__GV_CAT(__GV_D_, d) + threadIdx.__GV_CAT(__GV_D_, d))
#define get_global_size(d) (gridDim.__GV_CAT(__GV_D_, d) * blockDim.__GV_CAT(__GV_D_, d))
#define get_global_offset(d) 0u
#define get_work_dim() %(work_dim)du
#define CLK_LOCAL_MEM_FENCE 1
#define CLK_GLOBAL_MEM_FENCE 2
#define barrier(f) __syncthreads()
#define work_group_barrier(...) __syncthreads()
#define mem_fence(f) __threadfence_block()
#define read_mem_fence(f) __threadfence_block()
#define write_mem_fence(f) __threadfence_block()
template <class T> __device__ inline T *__gv_nv(volatile T *p) { return const_cast<T *>(p); }
template <class T> __device__ inline T *__gv_nv(T *p) { return p; }
#define atomic_add(p, v) atomicAdd(__gv_nv(p), (v))
#define atomic_sub(p, v) atomicSub(__gv_nv(p), (v))
#define atomic_inc(p) atomicAdd(__gv_nv(p), 1)
#define atomic_dec(p) atomicSub(__gv_nv(p), 1)
#define atomic_xchg(p, v) atomicExch(__gv_nv(p), (v))
#define atomic_cmpxchg(p, c, v) atomicCAS(__gv_nv(p), (c), (v))
#define atomic_min(p, v) atomicMin(__gv_nv(p), (v))
#define atomic_max(p, v) atomicMax(__gv_nv(p), (v))
#define atomic_and(p, v) atomicAnd(__gv_nv(p), (v))
#define atomic_or(p, v) atomicOr(__gv_nv(p), (v))
#define atomic_xor(p, v) atomicXor(__gv_nv(p), (v))
#define atom_add atomic_add
#define atom_sub atomic_sub
#define atom_inc atomic_inc
#define atom_dec atomic_dec
#define atom_xchg atomic_xchg
#define atom_cmpxchg atomic_cmpxchg
#define atom_min atomic_min
#define atom_max atomic_max
#define atom_and atomic_and
#define atom_or atomic_or
#define atom_xor atomic_xor
#define mad(a, b, c) ((a) * (b) + (c))
#define mad24(a, b, c) ((a) * (b) + (c))
#define mul24(a, b) ((a) * (b))
#define native_divide(a, b) ((a) / (b))
#define half_divide(a, b) ((a) / (b))
#define native_recip(x) (1.0f / (x))
#define half_recip(x) (1.0f / (x))
#define native_sqrt sqrtf
#define half_sqrt sqrtf
#define native_rsqrt rsqrtf
#define half_rsqrt rsqrtf
#define native_exp expf
#define half_exp expf
#define native_log logf
#define half_log logf
#define native_sin sinf
#define half_sin sinf
#define native_cos cosf
#define half_cos cosf
#define native_powr powf
#define native_exp2 exp2f
#define native_log2 log2f
#define native_tan tanf
#define rsqrt(x) (1.0f / sqrtf(x))
#define pown(x, n) pow((double)(x), (double)(n))
#define half_powr(x, y) powf((x), (y))
#define powr(x, y) pow((x), (y))
template <class T, class L, class H> __device__ inline T clamp(T x, L lo, H hi) { return x < (T)lo ? (T)lo : (x > (T)hi ? (T)hi : x); }
template <class T, class U> __device__ inline T mix(T a, T b, U t) { return a + (b - a) * t; }
#define convert_int(x) ((int)(x))
#define convert_uint(x) ((unsigned int)(x))
#define convert_float(x) ((float)(x))
#define convert_double(x) ((double)(x))
#define convert_char(x) ((char)(x))
#define convert_uchar(x) ((unsigned char)(x))
#define convert_short(x) ((short)(x))
#define convert_ushort(x) ((unsigned short)(x))
#define convert_long(x) ((long)(x))
#define convert_ulong(x) ((unsigned long)(x))
#define as_float(x) __builtin_bit_cast(float, (x))
#define as_int(x) __builtin_bit_cast(int, (x))
#define as_uint(x) __builtin_bit_cast(unsigned int, (x))
%(vectors)s
#endif
"""

VEC_TYPES = [("float", "float", False), ("double", "double", False),
             ("int", "int", True), ("uint", "unsigned int", True),
             ("char", "signed char", True), ("uchar", "unsigned char", True),
             ("short", "short", True), ("ushort", "unsigned short", True),
             ("long", "long", True), ("ulong", "unsigned long", True)]


def vector_prelude():
    out = []
    lanes = "xyzw"
    for name, scalar, integral in VEC_TYPES:
        ops = ["+", "-", "*", "/"] + (["%", "&", "|", "^", "<<", ">>"]
                                      if integral else [])
        for n in (2, 3, 4):
            v = "%s%d" % (name, n)
            mk = "make_" + v
            ls = lanes[:n]
            hd = "__host__ __device__ inline"
            out.append("%s %s %s(%s s) { return %s(%s); }"
                       % (hd, v, mk, scalar, mk, ", ".join(["s"] * n)))
            for op in ops:
                out.append("%s %s operator%s(%s a, %s b) { return %s(%s); }" % (
                    hd, v, op, v, v, mk,
                    ", ".join("a.%s %s b.%s" % (c, op, c) for c in ls)))
                out.append("%s %s operator%s(%s a, %s b) { return %s(%s); }" % (
                    hd, v, op, v, scalar, mk,
                    ", ".join("a.%s %s b" % (c, op) for c in ls)))
                out.append("%s %s operator%s(%s a, %s b) { return %s(%s); }" % (
                    hd, v, op, scalar, v, mk,
                    ", ".join("a %s b.%s" % (op, c) for c in ls)))
                out.append("%s %s &operator%s=(%s &a, %s b) { a = a %s b; "
                           "return a; }" % (hd, v, op, v, v, op))
                out.append("%s %s &operator%s=(%s &a, %s b) { a = a %s b; "
                           "return a; }" % (hd, v, op, v, scalar, op))
            out.append("%s %s operator-(%s a) { return %s(%s); }" % (
                hd, v, v, mk, ", ".join("-a.%s" % c for c in ls)))
            for fn in ("min", "max") + (() if integral else ("fmin", "fmax")):
                cmp = "<" if "min" in fn else ">"
                out.append("%s %s %s(%s a, %s b) { return %s(%s); }" % (
                    hd, v, fn, v, v, mk, ", ".join(
                        "a.%s %s b.%s ? a.%s : b.%s" % (c, cmp, c, c, c)
                        for c in ls)))
            out.append("template <class S> %s %s convert_%s(S s) { "
                       "return %s(%s); }" % (
                           hd, v, v, mk,
                           ", ".join("(%s)s.%s" % (scalar, c) for c in ls)))
        for n in (2, 4):
            v = "%s%d" % (name, n)
            ls = lanes[:n]
            out.append("__device__ inline %s vload%d(unsigned long o, const "
                       "%s *p) { return make_%s(%s); }" % (
                           v, n, scalar, v, ", ".join(
                               "p[%d * o + %d]" % (n, i) for i in range(n))))
            out.append("__device__ inline %s vload%d(unsigned long o, const "
                       "volatile %s *p) { return make_%s(%s); }" % (
                           v, n, scalar, v, ", ".join(
                               "p[%d * o + %d]" % (n, i) for i in range(n))))
            out.append("__device__ inline void vstore%d(%s v, unsigned long "
                       "o, %s *p) { %s }" % (
                           n, v, scalar, " ".join(
                               "p[%d * o + %d] = v.%s;" % (n, i, c)
                               for i, c in enumerate(ls))))
    return "\n".join(l for l in out if l)


VECTOR_USE = re.compile(r"\b(u?(?:char|short|int|long)|float|double)[234]\b")
OWN_OPERATORS = re.compile(r"\boperator\s*[-+*/]=?\s*\(")


def needs_vector_ops(src, directory):
    """GPUVerify's CUDA header gives float3 + float3, make_float3(s), ...:
    a CUDA kernel that uses vector types gets the prelude's vector
    operators, unless it or a header beside it defines operators."""
    texts = [src]
    for d in (directory, os.path.dirname(directory)):
        try:
            names = os.listdir(d)
        except OSError:
            continue
        for f in names:
            if f.endswith((".h", ".cuh", ".hpp")):
                with open(os.path.join(d, f), errors="replace") as fi:
                    texts.append(fi.read())
    code = "\n".join(blank_comments(t) for t in texts)
    return bool(VECTOR_USE.search(code)) and not OWN_OPERATORS.search(code)


def prelude_text(opencl, work_dim=1, paren=False):
    bi = "\n".join("#define __barrier_invariant_%d(...) ((void)0)\n"
                   "#define __barrier_invariant_binary_%d(...) ((void)0)"
                   % (i, i) for i in range(1, 21))
    text = ANNOTATION_PRELUDE % {"barrier_invariants": bi}
    if opencl:
        ocl = OPENCL_PRELUDE % {"work_dim": work_dim,
                                "vectors": vector_prelude()}
        if paren:
            # --paren-builtins: get_local_id(0) -> (threadIdx.x), the
            # spelling of `#define tid (threadIdx.x)`.
            ocl = re.sub(r"(#define get_(?:local_id|group_id|local_size|"
                         r"num_groups)\(d\) )(\w+\.__GV_CAT\(__GV_D_, d\))",
                         r"\1(\2)", ocl)
        text += ocl
    return text


# --- the kernels -----------------------------------------------------------------

SUITES = OrderedDict([("gpuverify", (GPUVERIFY_REPO, "testsuite")),
                      ("benchmarks", (BENCHMARKS_REPO, "benchmarks"))])


FEATURES = [
    (re.compile(r"\b(async_work_group_(strided_)?copy|wait_group_events)\b"),
     "semantics: async_work_group_copy/wait_group_events (no CUDA "
     "counterpart)"),
    (re.compile(r"\b(image[123]d(_array)?_t|image1d_buffer_t|sampler_t|"
                r"read_image\w*|write_image\w*)\b"),
     "semantics: images (image2d_t, read_imagef, ...)"),
]


def race_array(h):
    # `q.p\[0\]`, `q.v.p\[0\]`: a field of a struct is named with its path.
    m = re.search(r"race on ([A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*)",
                  " ".join(h["expected"]))
    return m.group(1) if m else None


def guess_category(src, h, name):
    """race-shared / race-global-intra / race-global-? from the declaration
    of the raced array; LABELS in races_notes settles the rest."""
    src = blank_comments(src)
    if name:
        decl = re.search(r"(__shared__|__local\b|\blocal\b)[^;(){}]*\b%s\b"
                         % re.escape(name), src)
        if decl:
            return "race-shared"
    if h.get("grid") and h["grid"][0] * h["grid"][1] * h["grid"][2] == 1:
        return "race-global-intra"
    return "race-?"


# The options under which GPUVerify's "pass" does not mean race- and
# divergence-free for the header's shape, first match wins ("/..." options
# are matched in the option text, the others among the flags).
PASS_SEMANTICS = [
    ("--warp-sync", "verified under lock-step warps (--warp-sync)"),
    ("--only-divergence", "checked for divergence only (--only-divergence)"),
    ("--no-barrier-access-checks", "checked without barrier access checks"),
    ("--only-requires", "only preconditions checked (--only-requires)"),
    ("--only-log", "races only logged, not reported (--only-log)"),
    ("--kernel-args", "verified for given argument values (--kernel-args)"),
    ("/checkArrays", "only some arrays checked (/checkArrays)"),
]


def describe(suite, rel, root):
    path = os.path.join(root, rel)
    with open(path, errors="replace") as f:
        src = f.read()
    h = parse_header(src)
    kid = "%s/%s" % (suite, rel)
    lang = "opencl" if rel.endswith(".cl") else "cuda"
    label, reason = auto_label(SUITES[suite][1], h)
    k = OrderedDict(id=kid, suite=suite, path=rel, lang=lang,
                    status=h["status"], options=h["options"],
                    expected=h["expected"], block=h["block"], grid=h["grid"],
                    flags=h["flags"], label=label, category=None,
                    scope="in", reason=None)
    if label == "race":
        k["array"] = race_array(h)
        k["category"] = guess_category(src, h, k["array"])
    elif label == "divergence":
        k["category"] = "divergence"
    elif label == "pass":
        k["category"] = "pass"
    if reason:
        k["scope"], k["reason"] = "out", reason
    # Options that change what GPUVerify's verdict means.
    if label == "pass":
        for flag, why in PASS_SEMANTICS:
            if flag in (h["options"] if flag.startswith("/") else h["flags"]):
                k["scope"], k["reason"] = "out", "semantics: " + why
                break
    if k["scope"] == "in":
        code = blank_comments(src)
        for pat, why in FEATURES:
            if pat.search(code):
                k["scope"], k["reason"] = "out", why
                break
    k["auto"] = [k["label"], k["category"], k["scope"], k["reason"]]
    apply_notes(k)
    return k, src, h


def apply_notes(k):
    over = races_notes.LABELS.get(k["id"])
    if over:
        for key in ("label", "category", "array"):
            if key in over:
                k[key] = over[key]
        if "out" in over:
            k["scope"], k["reason"] = "out", over["out"]
        elif over.get("in"):
            k["scope"], k["reason"] = "in", None
        if "note" in over:
            k["note"] = over["note"]


def prepare(kernels_src, work, paren=False):
    """Write the translation units. kernels_src: [(k, src, h, root)]."""
    preludes = {}
    for opencl in (False, True):
        p = os.path.join(work, "gv_prelude_%s.h" % ("opencl" if opencl else "cuda"))
        with open(p, "w") as f:
            f.write(prelude_text(opencl, paren=paren))
        preludes[opencl] = p
    vectors = os.path.join(work, "gv_prelude_cuda_vectors.h")
    with open(vectors, "w") as f:
        f.write("#ifndef GV_BENCH_VECTORS\n#define GV_BENCH_VECTORS\n%s\n"
                "#endif\n" % vector_prelude())
    # Every other file of the suites (headers, "../common.h"), OpenCL
    # headers converted: those in a directory at or above an OpenCL kernel's.
    roots = OrderedDict((k["suite"], root) for k, _, _, root in kernels_src)
    cl_dirs = set()
    for k, _, _, _ in kernels_src:
        if k["lang"] == "opencl":
            d = os.path.dirname(k["path"])
            while True:
                cl_dirs.add((k["suite"], d))
                if not d:
                    break
                d = os.path.dirname(d)
    for suite, root in roots.items():
        top = "testsuite" if SUITES[suite][1] == "testsuite" else ""
        for dirpath, dirnames, files in os.walk(os.path.join(root, top)):
            dirnames[:] = [x for x in dirnames if not x.startswith(".")]
            rel_dir = os.path.relpath(dirpath, root)
            rel_dir = "" if rel_dir == "." else rel_dir
            dest_dir = os.path.join(work, suite, rel_dir)
            os.makedirs(dest_dir, exist_ok=True)
            for f in files:
                if f.endswith((".cu", ".cl")):
                    continue
                sp = os.path.join(dirpath, f)
                if (suite, rel_dir) in cl_dirs and f.endswith((".h", ".hpp", ".inc")):
                    with open(sp, errors="replace") as fi:
                        text = convert_opencl(fi.read())
                    with open(os.path.join(dest_dir, f), "w") as fo:
                        fo.write(text)
                elif f.endswith((".h", ".hpp", ".cuh", ".inc", ".hh")):
                    shutil.copy(sp, os.path.join(dest_dir, f))
    for k, src, h, root in kernels_src:
        opencl = k["lang"] == "opencl"
        body = convert_opencl(src) if opencl else src
        if opencl:
            # For includes of this file by another kernel.
            with open(os.path.join(work, k["suite"], k["path"]), "w") as f:
                f.write(body)
        stubs, note = launch_stubs(kernels_in(blank_comments(body)), h)
        if note:
            k["launch"] = note
        defines = []
        for dfn in h["defines"]:
            name, _, val = dfn.partition("=")
            defines.append("#define %s %s" % (name, val or "1"))
        # Everything the kernel needs first goes into a header of its own,
        # included from the kernel's first line (its "//pass" comment stays
        # after the directive), so that the lines are the original's.
        pre = []
        if not opencl:
            # Before the prelude: system headers declare __assert.
            code = blank_comments(src)
            pre += [text for pat, text in CUDA_EXTRA if pat.search(code)]
        pre += ['#include "%s"' % preludes[opencl]] + defines
        if not opencl and needs_vector_ops(src, os.path.join(root, os.path.dirname(k["path"]))):
            pre.append('#include "%s"' % vectors)
        if opencl:
            # OpenCL's functions run on the device without an attribute.
            pre.append("#pragma clang force_cuda_host_device begin")
        lines = body.rstrip("\n").split("\n")
        tu_rel = k["path"] + ".cu" if opencl else k["path"]
        pre_name = os.path.basename(tu_rel) + ".gvpre.h"
        with open(os.path.join(work, k["suite"], os.path.dirname(tu_rel),
                               pre_name), "w") as f:
            f.write("\n".join(pre) + "\n")
        # Line 1 is the header's "//pass" (blanked in OpenCL kernels).
        replace = not lines[0].strip() or lines[0].lstrip().startswith("//")
        tu = ['#include "%s" %s' % (pre_name, lines[0].strip() if replace else "")]
        tu += lines[1:] if replace else lines
        if opencl:
            tu.append("#pragma clang force_cuda_host_device end")
        tu.append(stubs)
        k["tu"] = os.path.join(k["suite"], tu_rel)
        with open(os.path.join(work, k["tu"]), "w") as f:
            f.write("\n".join(tu) + "\n")


def run_lint(cuda_lint, work, jobs, timeout, cache):
    report = os.path.join(work, "report.json")
    cmd = [cuda_lint, "--checks=" + CHECKS, "--format=json", "-o", report,
           "-j", str(jobs), "--progress=lines", "--timeout=%d" % timeout]
    if not cache:
        cmd.append("--no-cache")
    cmd += [os.path.join(work, s) for s in SUITES if os.path.isdir(os.path.join(work, s))]
    begin = time.time()
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, text=True, errors="replace")
    lines = []
    for line in proc.stderr:
        lines.append(line)
        m = re.match(r"\[(\d+)/(\d+)\]", line)
        if m and (int(m.group(1)) % 100 == 0 or m.group(1) == m.group(2)):
            sys.stderr.write("races.py: %s/%s files, %.0f s\n"
                             % (m.group(1), m.group(2), time.time() - begin))
    proc.wait()
    proc.stderr = "".join(lines)
    wall = time.time() - begin
    try:
        with open(report) as f:
            data = json.load(f)
    except (OSError, ValueError):
        sys.stderr.write(proc.stderr[-4000:])
        raise SystemExit("races.py: cuda-lint wrote no JSON report (exit %d)"
                         % proc.returncode)
    return cmd, data, wall, proc.stderr


def normalise_error(e):
    e = re.sub(r"^.*?:\d+:\d+: ", "", e)
    e = re.sub(r"'[^']*'", "'X'", e) if "did you mean" in e else e
    return e


def attach(kernels, data, work):
    by_tu = {os.path.join(work, k["tu"]): k for k in kernels if k.get("tu")}
    # A finding in a header belongs to the translation units that include
    # it (by name, from a directory at or below the header's).
    includes = {}
    for tu in by_tu:
        try:
            with open(tu, errors="replace") as f:
                text = f.read()
        except OSError:
            text = ""
        includes[tu] = set(os.path.basename(x) for x in re.findall(
            r'^\s*#\s*include\s*["<]([^">]+)[">]', text, re.M))

    def includers(header):
        d, b = os.path.dirname(header), os.path.basename(header)
        return [k for tu, k in by_tu.items()
                if b in includes[tu] and (tu + "/").startswith(d + "/")]
    for k in kernels:
        k["findings"] = []
    for f in data.get("findings", []):
        if f["check"] not in (RACE_CHECK, DIV_CHECK):
            continue
        path = os.path.abspath(f["file"])
        targets = [by_tu[path]] if path in by_tu else includers(path)
        for k in targets:
            k["findings"].append(OrderedDict(
                check=f["check"], line=f["line"], message=f["message"],
                notes=[n["message"] for n in f.get("notes", [])]))
    for e in data.get("analysedWithErrors", []):
        k = by_tu.get(os.path.abspath(e["file"]))
        if k is not None:
            k["compile_error"] = e["error"]
    for e in data.get("failures", []):
        k = by_tu.get(os.path.abspath(e["file"]))
        if k is not None:
            k["failure"] = e.get("reason", "failed")


def inter_block(f):
    return "different blocks" in f["message"]


def judge(k):
    """Scope after the run, and the verdict."""
    if k["scope"] == "in" and k.get("failure"):
        k["scope"], k["reason"] = "out", "cuda-lint: " + k["failure"].split(":")[0]
    if k["scope"] == "in" and k.get("compile_error"):
        k["scope"] = "out"
        k["reason"] = "compile: " + normalise_error(k["compile_error"])
    checks = sorted(set(f["check"] for f in k["findings"]))
    k["checks"] = checks
    lab = k["label"]
    if lab == "race":
        got = [f for f in k["findings"] if f["check"] == RACE_CHECK]
        arr = k.get("array")
        k.pop("array_match", None)
        if got and arr:
            # A finding on another array than the one that races is not
            # a detection of the race.
            k["array_match"] = any("'%s'" % arr in f["message"] or
                                   ("'%s[" % arr) in " ".join(f["notes"])
                                   for f in got)
        k["verdict"] = "detected" if got and k.get("array_match", True) \
            else "missed"
    elif lab == "divergence":
        got = [f for f in k["findings"] if f["check"] == DIV_CHECK]
        k["verdict"] = "detected" if got else "missed"
    elif lab == "pass":
        judged = [f for f in k["findings"]
                  if not ("--only-intra-group" in k["flags"] and inter_block(f))]
        k["verdict"] = "false alarm" if judged else "clean"
    else:
        k["verdict"] = "reported" if k["findings"] else "-"
    k["cause"] = races_notes.CAUSES.get(k["id"])


# --- tables ------------------------------------------------------------------------

CATEGORIES = ["race-shared", "race-global-intra", "race-global-inter",
              "divergence"]


def short(kid):
    s = kid.replace("gpuverify/testsuite/", "gpuverify/")
    return re.sub(r"/kernel\.(cu|cl)$", "", s)


def cause_text(key):
    return races_notes.CAUSE_TEXT.get(key, key) if key else "(not yet read)"


def summary_rows(kernels):
    rows = []
    for suite in SUITES:
        ks = [k for k in kernels if k["suite"] == suite]
        if not ks:
            continue
        for cat in CATEGORIES:
            inn = [k for k in ks if k["scope"] == "in" and k["category"] == cat]
            if not inn:
                continue
            det = sum(k["verdict"] == "detected" for k in inn)
            rows.append((suite, cat, len(inn), det, len(inn) - det))
    return rows


def markdown(kernels, meta, out):
    w = out.write
    w("# Race benchmark from GPUVerify's suites, %s (bench/races.py)\n\n"
      % meta["date"])
    w("cuda-lint: `%s` (%s; built %s, sha256 %s...)  \n" % (
        meta["cuda_lint"], meta.get("version", ""), meta.get("binary_mtime", "?"),
        meta.get("binary_sha256", "?")))
    for s, (repo, commit) in meta["sources"].items():
        w("%s: `%s` at `%s`  \n" % (s, repo, commit))
    w("checks: `%s`; launches added: %s%s; wall time %.0f s (-j%d, results "
      "cache on)\n\n"
      % (CHECKS, "no" if meta.get("no_launch") else "yes",
         "; built-ins in parentheses" if meta.get("paren_builtins") else "",
         meta["wall"], meta["jobs"]))
    w("Scope rules, labels and the conversion: the docstring of "
      "bench/races.py. Causes: bench/races_notes.py.\n\n")

    # Headline.
    w("## Headline\n\n")
    w("| suite | kernels | in scope | racy/divergent in scope | detected | "
      "race-free in scope | false alarms | out of scope |\n")
    w("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n")
    for suite in list(SUITES) + ["all"]:
        ks = [k for k in kernels if suite == "all" or k["suite"] == suite]
        if not ks:
            continue
        inn = [k for k in ks if k["scope"] == "in"]
        bad = [k for k in inn if k["category"] in CATEGORIES]
        det = [k for k in bad if k["verdict"] == "detected"]
        ok = [k for k in inn if k["label"] == "pass"]
        fa = [k for k in ok if k["verdict"] == "false alarm"]
        w("| %s | %d | %d | %d | %d (%s) | %d | %d (%s) | %d |\n" % (
            suite, len(ks), len(inn), len(bad), len(det), pct(len(det), len(bad)),
            len(ok), len(fa), pct(len(fa), len(ok)), len(ks) - len(inn)))
    w("\n")

    w("## Racy and divergent kernels in scope, per category\n\n")
    w("| suite | category | in scope | detected | missed | recall |\n")
    w("| --- | --- | ---: | ---: | ---: | ---: |\n")
    for suite, cat, n, det, miss in summary_rows(kernels):
        w("| %s | %s | %d | %d | %d | %s |\n" % (suite, cat, n, det, miss,
                                                pct(det, n)))
    w("\n")
    wrong = [k for k in kernels if k["scope"] == "in"
             and k.get("array_match") is False]
    if wrong:
        w("Counted as missed although reported: the finding names another "
          "array than the one that races: %s.\n\n"
          % ", ".join(short(k["id"]) for k in wrong))

    # Misses and false alarms by cause.
    for title, sel in (
            ("Misses (racy or divergent, in scope, not reported), by cause",
             lambda k: k["category"] in CATEGORIES and k["verdict"] == "missed"),
            ("False alarms on GPUVerify's test suite (pass, in scope, reported), by cause",
             lambda k: k["suite"] == "gpuverify" and k["verdict"] == "false alarm"),
            ("False alarms on GPUVerifyBenchmarks (verified race-free, in scope, reported), by cause",
             lambda k: k["suite"] == "benchmarks" and k["verdict"] == "false alarm")):
        ks = [k for k in kernels if k["scope"] == "in" and sel(k)]
        w("## %s\n\n" % title)
        if not ks:
            w("None.\n\n")
            continue
        by = defaultdict(list)
        for k in ks:
            by[k["cause"]].append(k)
        w("| cause | kernels | examples |\n| --- | ---: | --- |\n")
        for c, lst in sorted(by.items(), key=lambda kv: (-len(kv[1]), str(kv[0]))):
            w("| %s | %d | %s |\n" % (cause_text(c), len(lst), ", ".join(
                "`%s`" % short(k["id"]) for k in lst[:2])))
        w("\n| kernel | category | checks | cause | finding |\n"
          "| --- | --- | --- | --- | --- |\n")
        for k in sorted(ks, key=lambda k: (str(k["cause"]), k["id"])):
            w("| `%s` | %s | %s | %s | %s |\n" % (
                short(k["id"]), k["category"], ", ".join(k["checks"]) or "-",
                cause_text(k["cause"]), first_finding(k)))
        w("\n")

    # Detected.
    ks = [k for k in kernels if k["scope"] == "in" and k["verdict"] == "detected"]
    w("## Detected (%d)\n\n| kernel | category | finding |\n| --- | --- | --- |\n"
      % len(ks))
    for k in sorted(ks, key=lambda k: k["id"]):
        w("| `%s` | %s%s | %s |\n" % (
            short(k["id"]), k["category"], "", first_finding(k)))
    w("\n")

    # Out of scope.
    out_ks = [k for k in kernels if k["scope"] == "out"]
    w("## Out of scope (%d), by reason\n\n" % len(out_ks))
    by = defaultdict(list)
    for k in out_ks:
        by[reason_family(k["reason"])].append(k)
    w("| reason | kernels | racy/divergent | reported | examples |\n"
      "| --- | ---: | ---: | ---: | --- |\n")
    for r, lst in sorted(by.items(), key=lambda kv: (-len(kv[1]), kv[0])):
        w("| %s | %d | %d | %d | %s |\n" % (
            r.replace("|", "\\|"), len(lst),
            sum(k["label"] in ("race", "divergence") for k in lst),
            sum(bool(k["findings"]) for k in lst),
            ", ".join("`%s`" % short(k["id"]) for k in lst[:2])))
    w("\n")
    rep = [k for k in out_ks if k["findings"] and not k.get("compile_error")]
    if rep:
        w("Out of scope but reported (%d):\n\n| kernel | label | reason | finding |\n"
          "| --- | --- | --- | --- |\n" % len(rep))
        for k in sorted(rep, key=lambda k: k["id"]):
            w("| `%s` | %s | %s | %s |\n" % (short(k["id"]), k["label"],
                                             k["reason"].replace("|", "\\|"),
                                             first_finding(k)))
        w("\n")

    obs = getattr(races_notes, "OBSERVATIONS", "")
    if obs:
        w("## Observations\n\n%s\n" % obs)

def reason_family(r):
    if r.startswith("compile: "):
        # The first error names the construct that does not map.
        e = r[len("compile: "):]
        e = re.sub(r" \(aka '[^']*'\)", "", e)
        e = re.sub(r"expected \d+, have \d+", "expected N, have N+1", e)
        return "compile: " + e
    return r


def first_finding(k):
    if not k["findings"]:
        return "-"
    f = k["findings"][0]
    msg = f["message"]
    msg = msg if len(msg) < 110 else msg[:107] + "..."
    return ("%s:%d %s" % (f["check"].replace("cuda-", ""), f["line"],
                          msg)).replace("|", "\\|")


def pct(a, b):
    return "%.0f%%" % (100.0 * a / b) if b else "-"


def print_rows(kernels, out):
    for k in sorted(kernels, key=lambda k: (k["scope"], k["category"] or "",
                                            k["id"])):
        extra = k["reason"] if k["scope"] == "out" else cause_text(k["cause"]) \
            if k["verdict"] in ("missed", "false alarm") else ""
        out.write("%-4s %-12s %-18s %-60s %-28s %s\n" % (
            k["scope"], k["verdict"], k["category"] or k["label"],
            short(k["id"]), ",".join(c.replace("cuda-", "") for c in k["checks"]) or "-",
            extra))


def print_summary(kernels, out):
    import io
    buf = io.StringIO()
    markdown(kernels, META, buf)
    text = buf.getvalue()
    # The headline and the per-category table only.
    cut = text.find("## Misses")
    out.write(text[:cut] if cut > 0 else text)


META = {}


def main():
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--gpuverify", default=default_source(GPUVERIFY_REPO),
                    help="checkout or git directory of %s (default: the "
                         "mirror under %s)" % (GPUVERIFY_REPO, MIRROR))
    ap.add_argument("--gpuverify-commit", default=GPUVERIFY_COMMIT)
    ap.add_argument("--benchmarks", default=default_source(BENCHMARKS_REPO),
                    help="checkout or git directory of %s" % BENCHMARKS_REPO)
    ap.add_argument("--benchmarks-commit", default=BENCHMARKS_COMMIT)
    ap.add_argument("--suite", choices=list(SUITES), action="append",
                    help="only this suite (repeatable)")
    ap.add_argument("--only", metavar="REGEX",
                    help="only the kernels whose id matches")
    ap.add_argument("--cuda-lint", default=os.path.join(
        os.path.dirname(HERE), "build", "bin", "cuda-lint"))
    ap.add_argument("-j", "--jobs", type=int, default=2)
    ap.add_argument("--timeout", type=int, default=300)
    ap.add_argument("--no-cache", action="store_true",
                    help="cuda-lint --no-cache (default: the results cache "
                         "is used)")
    ap.add_argument("--no-launch", action="store_true",
                    help="do not add launches with the header's shapes")
    ap.add_argument("--paren-builtins", action="store_true",
                    help="spell get_local_id(0) and the like (threadIdx.x), "
                         "in parentheses (an experiment: cuda-lint loses "
                         "some conditions on a parenthesised thread index)")
    ap.add_argument("--work", help="work directory (kept; default: a "
                                   "temporary one, removed)")
    ap.add_argument("--save", metavar="PREFIX",
                    help="write PREFIX.md and PREFIX.json")
    ap.add_argument("--load", metavar="PREFIX",
                    help="no run: the tables of PREFIX.json (labels and "
                         "causes re-read from races_notes.py)")
    ap.add_argument("--rows", action="store_true",
                    help="print a row per kernel")
    args = ap.parse_args()

    if args.load:
        with open(args.load + ".json") as f:
            saved = json.load(f)
        META.update(saved["meta"])
        kernels = saved["kernels"]
        for k in kernels:
            # Labels, scope and causes as races_notes.py says now.
            k["label"], k["category"], k["scope"], k["reason"] = k["auto"]
            apply_notes(k)
            judge(k)
    else:
        kernels = run_all(args)
    if args.rows:
        print_rows(kernels, sys.stdout)
    print_summary(kernels, sys.stdout)
    if args.save:
        os.makedirs(os.path.dirname(os.path.abspath(args.save)), exist_ok=True)
        with open(args.save + ".md", "w") as f:
            markdown(kernels, META, f)
        if not args.load:
            with open(args.save + ".json", "w") as f:
                json.dump({"meta": META, "kernels": kernels}, f, indent=1)
    return 0


def run_all(args):
    tmp = tempfile.mkdtemp(prefix="cuda-lint-races-")
    work = os.path.abspath(args.work) if args.work else os.path.join(tmp, "work")
    if os.path.isdir(work):
        shutil.rmtree(work)
    os.makedirs(work)
    sources = OrderedDict()
    items = []
    suites = args.suite or list(SUITES)
    for suite in suites:
        src = getattr(args, suite)
        commit = getattr(args, suite + "_commit")
        if not src:
            print("races.py: no source for %s (give --%s)" % (suite, suite),
                  file=sys.stderr)
            continue
        root, full = materialise(src, commit, os.path.join(tmp, "src", suite))
        sources[suite] = (SUITES[suite][0], full)
        for rel in kernel_files(root, SUITES[suite][1]):
            k, text, h = describe(suite, rel, root)
            if args.only and not re.search(args.only, k["id"]):
                continue
            items.append((k, text, h, root))
    if args.no_launch:
        items = [(k, t, dict(h, block=None, grid=None), r) for k, t, h, r in items]
    prepare(items, work, args.paren_builtins)
    kernels = [k for k, _, _, _ in items]
    version = subprocess.run([args.cuda_lint, "--version"], capture_output=True,
                             text=True).stdout.strip().splitlines()
    if not os.access(args.cuda_lint, os.X_OK):
        raise SystemExit("races.py: no cuda-lint at %s" % args.cuda_lint)
    import hashlib
    with open(args.cuda_lint, "rb") as f:
        digest = hashlib.sha256(f.read()).hexdigest()[:16]
    mtime = datetime.datetime.fromtimestamp(
        os.path.getmtime(args.cuda_lint)).isoformat(timespec="seconds")
    # A copy, so that a rebuild of the binary during the run cannot change
    # it halfway (or remove it).
    snapshot = os.path.join(tmp, "cuda-lint")
    shutil.copy2(args.cuda_lint, snapshot)
    cmd, data, wall, stderr = run_lint(snapshot, work, args.jobs,
                                       args.timeout, not args.no_cache)
    lost = [f for f in data.get("failures", [])
            if "exit code 127" in f.get("reason", "")]
    if lost:
        # The binary went away during the run (a rebuild): not a result.
        raise SystemExit("races.py: %d files failed with exit code 127 (was "
                         "%s replaced during the run?); run again"
                         % (len(lost), args.cuda_lint))
    attach(kernels, data, work)
    for k in kernels:
        judge(k)
    META.update(date=datetime.date.today().isoformat(),
                cuda_lint=args.cuda_lint,
                version=" ".join(l.strip() for l in version[:2]),
                binary_sha256=digest, binary_mtime=mtime,
                sources={s: list(v) for s, v in sources.items()},
                wall=wall, jobs=args.jobs, no_launch=args.no_launch,
                paren_builtins=args.paren_builtins,
                command=" ".join(cmd[:8]) + " ...")
    # The extracted sources and the binary's copy; a --work directory stays.
    shutil.rmtree(tmp, ignore_errors=True)
    return kernels


if __name__ == "__main__":
    sys.exit(main())
