"""Compile commands: a file's entry in a compile database, the flags of it
that carry over to nvcc, and the database cuda-lint gets for a scratch
copy."""

import json
import os
import shlex


def find_compile_db(path):
    """compile_commands.json in the file's directory or the nearest one above
    it, as cuda-lint looks for it."""
    d = os.path.dirname(os.path.abspath(path))
    while True:
        c = os.path.join(d, "compile_commands.json")
        if os.path.isfile(c):
            return c
        if os.path.dirname(d) == d:
            return None
        d = os.path.dirname(d)


def _load(db):
    """The path of the compile database `db` (a directory with
    compile_commands.json, or the file) and its entries. Raises ValueError
    for a database that cannot be read."""
    if os.path.isdir(db):
        db = os.path.join(db, "compile_commands.json")
    try:
        with open(db) as f:
            entries = json.load(f)
    except (OSError, ValueError) as e:
        raise ValueError("%s: not a compile database: %s" % (db, e))
    return db, entries


def compile_entry(db, path):
    """The entry for `path` in a compile database (a directory with
    compile_commands.json, or the file): directory, file and arguments; None
    where it has none. Raises ValueError for a database that cannot be read."""
    db, entries = _load(db)
    want = os.path.realpath(path)
    for e in entries if isinstance(entries, list) else []:
        d = e.get("directory", ".")
        if os.path.realpath(os.path.join(d, e.get("file", ""))) != want:
            continue
        a = e.get("arguments") or shlex.split(e.get("command", ""))
        if a:
            return {"db": db, "directory": d, "file": e["file"], "arguments": a}
    return None


def cuda_entries(db):
    """The CUDA sources a compile database names (.cu files, or a command
    that compiles its file as CUDA: -x cu, -x cuda), each once."""
    db, entries = _load(db)
    out = []
    for e in entries if isinstance(entries, list) else []:
        a = e.get("arguments") or shlex.split(e.get("command", ""))
        path = os.path.normpath(os.path.join(e.get("directory", "."), e.get("file", "")))
        is_cuda = path.endswith(".cu") or any(
            x in ("cu", "cuda") and a[i - 1] in ("-x", "--x") for i, x in enumerate(a) if i) or \
            "-xcuda" in a or "-xcu" in a
        if is_cuda and path not in out:
            out.append(path)
    return out


# nvcc options of an entry that the validator replaces with its own: what it
# makes (-c, -o, -ptx ...), dependency files and the architecture (--arch).
NVCC_DROP = {"-c", "--compile", "-ptx", "--ptx", "-cubin", "--cubin", "-fatbin", "--fatbin",
             "-E", "--preprocess", "-lib", "--lib", "-link", "--link", "-shared", "--shared",
             "-M", "-MM", "-MD", "-MMD", "-MP", "--generate-dependencies",
             "--generate-nonsystem-dependencies", "--generate-dependencies-with-compile",
             "--generate-nonsystem-dependencies-with-compile", "--generate-dependency-targets"}

NVCC_DROP_VALUE = {"-o", "--output-file", "-MF", "--dependency-output", "-MT", "-MQ",
                   "--dependency-target-name", "-odir", "--output-directory",
                   "-arch", "--gpu-architecture", "-gencode", "--generate-code",
                   "-code", "--gpu-code"}

NVCC_RDC = {"-dc", "--device-c", "-dw", "--device-w"}

# Options whose value is a path, relative to the entry's directory.
NVCC_PATH = {"-I", "--include-path", "-isystem", "--system-include", "-include",
             "--pre-include", "-L", "--library-path", "--options-file", "-optf"}

# Options that take their value as the next argument.
NVCC_VALUE = NVCC_DROP_VALUE | NVCC_PATH | {
    "-D", "--define-macro", "-U", "--undefine-macro", "-l", "--library",
    "-Xcompiler", "--compiler-options", "-Xptxas", "--ptxas-options", "-Xlinker",
    "--linker-options", "-Xnvlink", "--nvlink-options", "-Xarchive", "--archive-options",
    "-Xcudafe", "--cudafe-options", "-ccbin", "--compiler-bindir", "-x", "--x", "-std",
    "--std", "-maxrregcount", "--maxrregcount", "-rdc", "--relocatable-device-code",
    "--optimize", "-Werror", "--Werror", "-diag-suppress", "--diag-suppress", "-diag-warn",
    "--diag-warn", "-diag-error", "--diag-error", "-default-stream", "--default-stream",
    "-t", "--threads", "-m", "--machine", "-keep-dir", "--keep-dir"}

# What a non-nvcc (clang -x cuda) command gives nvcc.
PORTABLE = {"-I", "-isystem", "-include", "-D", "-U", "-std", "-O"}


def nvcc_flags(entry):
    """The flags of a compile database entry that carry over to the
    validator's nvcc runs (everything but the source, the output, the mode
    and the architecture), with relative paths made absolute. Also says
    whether they set the optimisation level and the language standard."""
    args, d = entry["arguments"], entry["directory"]
    src = os.path.realpath(os.path.join(d, entry["file"]))
    is_nvcc = "nvcc" in os.path.basename(args[0])
    out, has_std, has_opt = [], False, False
    absolute = lambda v: v if os.path.isabs(v) else os.path.normpath(os.path.join(d, v))
    i = 1
    while i < len(args):
        a = args[i]
        i += 1
        if not a.startswith("-") or a == "-":
            if os.path.realpath(os.path.join(d, a)) != src and is_nvcc:
                out.append(a)
            continue
        if a in NVCC_VALUE and i < len(args):
            opt, val, form = a, args[i], "separate"
            i += 1
        elif a[:2] in ("-I", "-D", "-U", "-L", "-O") and len(a) > 2 and "=" not in a[:3]:
            opt, val, form = a[:2], a[2:], "joined"
        elif a.startswith("-isystem") and len(a) > 8 and a[8] != "=":
            opt, val, form = "-isystem", a[8:], "joined"
        elif "=" in a:
            opt, _, val = a.partition("=")
            form = "equals"
        else:
            opt, val, form = a, None, "flag"
        if opt in ("-std", "--std"):
            has_std = True
        if opt in ("-O", "--optimize"):
            has_opt = True
        if not is_nvcc and opt not in PORTABLE:
            continue
        if opt in NVCC_DROP or opt in NVCC_DROP_VALUE:
            continue
        if opt in NVCC_RDC:
            out.append("-rdc=true")
            continue
        if opt in NVCC_PATH or (opt in ("-ccbin", "--compiler-bindir") and "/" in val):
            val = absolute(val)
        if form == "separate":
            out += [opt, val]
        elif form == "joined":
            out.append(opt + val)
        elif form == "equals":
            out.append(opt + "=" + val)
        else:
            out.append(a)
    return out, has_std, has_opt


def scratch_db(entry, src, dirpath):
    """A compile database with the entry's command for the scratch copy
    `src` (the entry's directory kept, so its relative paths still hold),
    for cuda-lint -p: the entry itself names the original file."""
    d, f = entry["directory"], os.path.realpath(os.path.join(entry["directory"], entry["file"]))
    args = [os.path.abspath(src) if not a.startswith("-") and
            os.path.realpath(os.path.join(d, a)) == f else a for a in entry["arguments"]]
    os.makedirs(dirpath, exist_ok=True)
    with open(os.path.join(dirpath, "compile_commands.json"), "w") as out:
        json.dump([{"directory": d, "file": os.path.abspath(src), "arguments": args}], out, indent=2)
    return dirpath
