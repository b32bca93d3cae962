"""The GPU steps of a case: run the original and the fixed program, compare
their outputs (raw binary, with a tolerance), compute-sanitizer (racecheck,
synccheck) on both, and time both (median of repeated runs)."""

import os
import re
import shutil
import statistics
import struct

from .common import read_bytes, sh


try:
    import numpy as np
except ImportError:
    np = None

FMT = {"float32": "f", "float64": "d", "int32": "i", "uint32": "I"}

# The unsigned integer of the same width, for ULP distances.
UINT = {"float32": ("I", 32), "float64": ("Q", 64)}


def ordered(bits, width):
    """A float's bits as an integer that orders like the float (negative
    values below positive ones, -0 == +0), so that the difference of two is
    their distance in units in the last place."""
    sign = 1 << (width - 1)
    return sign - (bits & (sign - 1)) if bits & sign else sign + bits


def compare(path_a, path_b, dtype, tol):
    """(same, detail) for two output files: tol is "exact" (bit for bit, NaN
    equal to NaN), {"rel": R, "abs": A} (|a - b| <= A + R max(|a|, |b|)) or
    {"ulp": N} (float32/float64: at most N units in the last place apart)."""
    # Each file is read once, and unpacked only where the bytes alone do not
    # decide (or, with numpy, not at all).
    raw_a, raw_b = read_bytes(path_a), read_bytes(path_b)
    size = struct.calcsize(FMT[dtype])
    n = len(raw_a) // size
    if n != len(raw_b) // size:
        return False, "sizes differ: %d vs %d" % (n, len(raw_b) // size)
    if not n:
        return False, "no output written"
    if tol == "exact" and raw_a == raw_b:
        return True, "exact: 0 of %d elements differ" % n
    if tol != "exact" and np is not None:
        return compare_np(path_a, path_b, dtype, tol)
    a = struct.unpack("<%d%s" % (n, FMT[dtype]), raw_a[:n * size])
    b = struct.unpack("<%d%s" % (n, FMT[dtype]), raw_b[:n * size])
    if tol == "exact":
        bad = sum(1 for x, y in zip(a, b) if not (x == y or (x != x and y != y)))
        return bad == 0, "exact: %d of %d elements differ" % (bad, n)
    if "ulp" in tol:
        if dtype not in UINT:
            return False, "ulp tolerance needs float32 or float64 outputs, not %s" % dtype
        code, width = UINT[dtype]
        ua = struct.unpack("<%d%s" % (n, code), raw_a[:n * width // 8])
        ub = struct.unpack("<%d%s" % (n, code), raw_b[:n * width // 8])
        worst, bad = 0, 0
        for x, y, bx, by in zip(a, b, ua, ub):
            if x != x or y != y:
                bad += not (x != x and y != y)
                continue
            d = abs(ordered(bx, width) - ordered(by, width))
            worst = max(worst, d)
            bad += d > tol["ulp"]
        return bad == 0, "ulp %d: %d of %d outside, max %d ulp" % (tol["ulp"], bad, n, worst)
    rel, ab = tol.get("rel", 0.0), tol.get("abs", 0.0)
    worst, bad = 0.0, 0
    for x, y in zip(a, b):
        if x != x or y != y:
            if not (x != x and y != y):
                bad += 1
            continue
        d = abs(x - y)
        m = max(abs(x), abs(y))
        if d > ab + rel * m:
            bad += 1
        if m > 0:
            worst = max(worst, d / m)
    return bad == 0, "rel %.1e abs %.1e: %d of %d outside, max rel diff %.2e" % (
        rel, ab, bad, len(a), worst)


def compare_np(path_a, path_b, dtype, tol):
    """compare() with numpy, for outputs of many million elements."""
    types = {"float32": np.float32, "float64": np.float64, "int32": np.int32, "uint32": np.uint32}
    a, b = np.fromfile(path_a, dtype=types[dtype]), np.fromfile(path_b, dtype=types[dtype])
    both_nan = np.isnan(a) & np.isnan(b) if a.dtype.kind == "f" else np.zeros(a.shape, bool)
    one_nan = (np.isnan(a) ^ np.isnan(b)) if a.dtype.kind == "f" else np.zeros(a.shape, bool)
    if "ulp" in tol:
        if dtype not in UINT:
            return False, "ulp tolerance needs float32 or float64 outputs, not %s" % dtype
        ui = np.uint32 if dtype == "float32" else np.uint64
        sign = ui(1) << ui(UINT[dtype][1] - 1)

        # Same sign: the difference of the magnitudes (exact in int64);
        # opposite signs: their sum (in float64: only huge distances round).
        ua, ub = a.view(ui), b.view(ui)
        ma, mb = (ua & ~sign).astype(np.int64), (ub & ~sign).astype(np.int64)
        same_sign = ((ua & sign) != 0) == ((ub & sign) != 0)
        d = np.where(same_sign, np.abs(ma - mb).astype(np.float64),
                     ma.astype(np.float64) + mb.astype(np.float64))
        d = np.where(both_nan, 0, np.where(one_nan, np.inf, d))
        bad = int(np.count_nonzero(d > tol["ulp"]))
        worst = d[np.isfinite(d)].max() if np.isfinite(d).any() else 0
        return bad == 0, "ulp %d: %d of %d outside, max %d ulp" % (tol["ulp"], bad, a.size, worst)
    rel, ab = tol.get("rel", 0.0), tol.get("abs", 0.0)
    x, y = a.astype(np.float64), b.astype(np.float64)
    d = np.abs(x - y)
    m = np.maximum(np.abs(x), np.abs(y))
    with np.errstate(invalid="ignore"):
        bad = int(np.count_nonzero(((d > ab + rel * m) & ~both_nan) | one_nan))
    with np.errstate(invalid="ignore", divide="ignore"):
        r = np.where(m > 0, d / m, 0.0)
    worst = float(np.nanmax(r)) if r.size else 0.0
    return bad == 0, "rel %.1e abs %.1e: %d of %d outside, max rel diff %.2e" % (
        rel, ab, bad, a.size, worst)


def sanitize(binary, out_path, tool):
    cs = shutil.which("compute-sanitizer") or "/usr/local/cuda/bin/compute-sanitizer"
    if not os.path.exists(cs):
        return None, "compute-sanitizer not found"
    # One repetition, and CUDA_LINT_SMALL asks the program for a smaller
    # problem where it has one: racecheck slows shared-memory kernels down
    # by orders of magnitude, and a race shows up in any block.
    env = dict(os.environ, CUDA_LINT_REPS="1", CUDA_LINT_SMALL="1")
    rc, out = sh([cs, "--tool", tool, "--print-limit", "5", binary, out_path],
                 timeout=240, env=env)
    if rc == 124:
        return None, "%s: timed out" % tool
    m = re.search(r"ERROR SUMMARY: (\d+) error", out)
    hazards = re.search(r"RACECHECK SUMMARY: (\d+) hazard", out)
    errors = int(m.group(1)) if m else None
    n = errors if errors is not None else -1
    if hazards:
        n = max(n, int(hazards.group(1)))
    if n < 0:
        return -1, "%s: no summary: %s" % (tool, " ".join(out.split())[-200:])
    first = [l.strip() for l in out.splitlines() if l.strip().startswith("=========") and
             ("Error" in l or "hazard" in l.lower() or "Race" in l)]
    return n, "%s: %d errors/hazards%s" % (tool, n, (": " + first[0][:200]) if n and first else "")


def time_binary(binary, out_path, runs, allow_fail=False):
    """The median of `runs` runs' TIME_MS. allow_fail: a program that fails
    its own check (the original of a self-checking case) is timed all the
    same."""
    times = []
    for _ in range(runs):
        rc, out = sh([binary, out_path], timeout=300)
        if rc != 0 and not (allow_fail and rc < 124):
            return None, "exit %d: %s" % (rc, " ".join(out.split())[-300:])
        m = re.search(r"TIME_MS\s+([0-9.eE+-]+)", out)
        if not m:
            return None, "no TIME_MS line"
        times.append(float(m.group(1)))
    return statistics.median(times), "runs %s" % ", ".join("%.4g" % t for t in times)


def run_case(res, meta, exe, work, args, cache):
    """The GPU steps for a case whose versions compiled (`exe`: their
    executables): run both, compare their outputs, compute-sanitizer on
    both, time both. The original's results are kept in `cache`."""
    # A self-checking program (case.json "self_check", --self-check) compares
    # its results with a reference of its own and exits non-zero where they
    # differ: the original of a correctness fix may fail that check (the
    # race the fix removes shows), and then the fixed program's passing it
    # is what decides.
    self_check = meta.get("self_check", False)
    res["self_check"] = self_check
    outs = run_both(res, exe, work, cache, self_check)
    if outs is None:
        return
    dtype = meta.get("dtype", "float32")
    tol = meta.get("tolerance", "exact")
    res["tolerance"] = tol
    if "original" in outs:
        same, detail = compare(outs["original"], outs["fixed"], dtype, tol)
        res["outputs_match"] = same
        res["outputs"] = detail
    else:
        res["outputs"] = res["original_check"] + "; the fixed program passes it"
    if not args.no_sanitizer:
        sanitize_both(res, exe, work, cache)
    time_both(res, exe, work, args.runs, cache, self_check)


def run_once(exe, work, cache, tag):
    """One run of version `tag`: (exit status, the end of its output, its
    output file)."""
    key = ("run", tag)
    if tag == "original" and key in cache:
        return cache[key]
    out_file = os.path.join(cache["dir"] if tag == "original" else work, tag + ".bin")
    rc, out = sh([exe[tag], out_file], timeout=300)
    r = (rc, " ".join(out.split())[-300:], out_file)
    if tag == "original":
        cache[key] = r
    return r


def run_both(res, exe, work, cache, self_check):
    """Both versions' output files, {tag: path}; None where one fails: a
    program that fails on the original cannot validate anything; a fixed
    program that fails is a failed fix."""
    outs = {}
    for tag in ("original", "fixed"):
        rc, out, out_file = run_once(exe, work, cache, tag)
        if rc != 0 and self_check and tag == "original" and rc < 124:
            res["original_check"] = "the original fails its own check (exit %d): %s" % (rc, out)
            continue
        if rc != 0:
            res["run_failed"] = tag
            res["run"] = ("the harness fails on the original (exit %d): %s" % (rc, out)
                          if tag == "original" else
                          "the fixed program fails (exit %d): %s" % (rc, out))
            return None
        outs[tag] = out_file
    return outs


def sanitize_both(res, exe, work, cache):
    for tool in ("racecheck", "synccheck"):
        for tag in ("original", "fixed"):
            key = ("sanitize", tool, tag)
            if tag == "original" and key in cache:
                n, detail = cache[key]
            else:
                n, detail = sanitize(exe[tag], os.path.join(
                    cache["dir"] if tag == "original" else work, tag + ".san.bin"), tool)
                if tag == "original":
                    cache[key] = (n, detail)
            res["%s_%s" % (tool, tag)] = n
            res["%s_%s_detail" % (tool, tag)] = detail


def time_both(res, exe, work, runs, cache, self_check):
    t = {}
    for tag in ("original", "fixed"):
        key = ("time", tag)
        if tag == "original" and key in cache:
            med, detail = cache[key]
        else:
            med, detail = time_binary(exe[tag], os.path.join(
                cache["dir"] if tag == "original" else work, tag + ".t.bin"), runs,
                self_check and tag == "original")
            if tag == "original":
                cache[key] = (med, detail)
        t[tag] = med
        res["time_%s_ms" % tag] = med
        res["time_%s_detail" % tag] = detail
    if t["original"] and t["fixed"]:
        res["speedup"] = t["original"] / t["fixed"]


def run_report_only(res, exe, work, args, gpu, cache):
    """A report-only case: the original runs (its findings are what the
    case shows) and is timed; there is no fix to compare."""
    if not gpu:
        res["run"] = "skipped (no GPU)"
        return res
    out_file = os.path.join(work, "original.bin")
    rc, out = sh([exe, out_file], timeout=300)
    res["program_output"] = out.strip()[-2000:]
    if rc != 0:
        res["run_failed"] = "original"
        res["run"] = "the program fails (exit %d): %s" % (rc, " ".join(out.split())[-300:])
        return res
    res["run"] = "ran"
    med, detail = time_binary(exe, os.path.join(work, "original.t.bin"), args.runs)
    res["time_original_ms"] = med
    res["time_original_detail"] = detail
    return res
