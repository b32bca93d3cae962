"""nvcc's compiles of a case (executables for every --arch, PTX and a cubin
with -lineinfo for the first), and the SASS of the cubins (cuobjdump -sass,
nvdisasm -g for its source lines)."""

import concurrent.futures
import os
import re
import shutil

from .common import read_text, sh
from .line_evidence import SASS_LOC


def first_error(out, src_names=()):
    """The first line of nvcc's output that says what went wrong, with the
    scratch directory taken off its path."""
    lines = [l.strip() for l in out.splitlines() if l.strip()]
    pick = next((l for l in lines if re.search(r"\berror\b", l)), lines[-1] if lines else "?")
    pick = re.sub(r"(^|\s)/\S*/([^/\s]+\.(cu|cuh|h|hpp|cpp))", r"\1\2", pick)
    return " ".join(pick.split())[:300]


def out_path(work, cache, tag, arch, mode):
    """Where a compile of version `tag` goes; the original's in the
    directory of `cache`, shared by the calls that share it."""
    suffix = {"": "", "-ptx": ".ptx", "-cubin": ".cubin"}[mode]
    if tag == "original":
        return os.path.join(cache.setdefault("dir", work), "original-%s%s" % (arch, suffix))
    return os.path.join(work, "%s-%s%s" % (tag, arch, suffix))


def compile_all(nvcc, tags, meta, args, work, cache, report_only):
    """Every compile of the case at once: the executables for each --arch,
    the PTX and (for the SASS) the cubin for the first. Returns {(tag,
    source, arch, mode): (rc, output, path)}; the original's compiles are
    kept in `cache`."""
    # The file's own flags (-p) or the validator's; nvcc runs where the
    # file's command ran.
    base = meta.get("flags", ["-O3", "-std=c++17"])
    extra = meta.get("nvcc_flags", [])
    cwd = meta.get("directory")
    arch = args.arch[0]

    def compile_job(tag, src, arch, mode):
        out = out_path(work, cache, tag, arch, mode)
        key = ("compile", tag, arch, mode)
        if tag == "original" and key in cache:
            return cache[key]
        # The PTX and the cubin carry the line table (-lineinfo: no change
        # to the code) for the evidence per finding.
        cmd = [nvcc, "-arch=" + arch] + base + ([mode, "-lineinfo"] if mode else []) + \
            ["-o", os.path.abspath(out), os.path.abspath(src)] + extra
        rc, text = sh(cmd, cwd=cwd)
        r = (rc, text, out)
        if tag == "original":
            cache[key] = r
        return r

    jobs = [(tag, src, a, "") for a in args.arch for tag, src in tags]
    if not report_only:
        jobs += [(tag, src, arch, "-ptx") for tag, src in tags]
        if args.cuobjdump:
            jobs += [(tag, src, arch, "-cubin") for tag, src in tags]
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        return dict(zip(jobs, pool.map(lambda j: compile_job(*j), jobs)))


def compile_errors(done):
    """The executables that did not compile: version, arch, nvcc's first
    error and the end of its message."""
    errors = []
    for (tag, src, a, mode), (rc, text, out) in done.items():
        if mode == "" and rc != 0:
            errors.append({"version": tag, "arch": a, "first": first_error(text),
                           "message": text.strip()[-800:]})
    return errors


def read_ptx(done, tags, arch):
    ptx = {}
    for tag, src in tags:
        rc, _, p = done[(tag, src, arch, "-ptx")]
        ptx[tag] = read_text(p) if rc == 0 else ""
    return ptx


def read_sass(cuobjdump, done, tags, arch):
    """The SASS of each version's cubin ({} where cuobjdump is not given or
    fails, with a note why), and nvdisasm -g's SASS with its source lines
    ({} where it gives none)."""
    sass, sass_note, sass_lines = {}, None, {}
    if not cuobjdump:
        return sass, sass_note, sass_lines
    # cuobjdump -sass runs nvdisasm, found on PATH.
    env = dict(os.environ, PATH=os.path.dirname(os.path.abspath(cuobjdump)) +
               os.pathsep + os.environ.get("PATH", ""))
    for tag, src in tags:
        rc, out, cubin = done[(tag, src, arch, "-cubin")]
        if rc == 0:
            rc, out = sh([cuobjdump, "-sass", cubin], env=env)
        if rc != 0:
            last = " ".join((out.strip().splitlines() or ["?"])[-1].split())
            sass, sass_note = {}, "SASS: not read (%s)" % last[:200]
            break
        sass[tag] = out
    # nvdisasm -g: the same SASS with its source lines, for the evidence
    # per finding.
    nvdisasm = shutil.which("nvdisasm", path=env["PATH"])
    for tag, src in tags if sass and nvdisasm else []:
        rc, out = sh([nvdisasm, "-g", done[(tag, src, arch, "-cubin")][2]], env=env)
        if rc != 0 or not SASS_LOC.search(out):
            sass_lines = {}
            break
        sass_lines[tag] = out
    return sass, sass_note, sass_lines
