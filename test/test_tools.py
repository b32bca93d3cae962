#!/usr/bin/env python3
"""Fails when a lit test runs an external command that a fresh machine lacks.

Every command at the head of a shell command in a RUN line (after `|`, `&&`,
`;`, `$(`, `env`, `not`, `xargs`...) must be one of:
  - a lit substitution of the build's own tools (%cuda_lint, ...);
  - part of a minimal Debian system (coreutils, grep, sed, findutils, ...),
    or a shell builtin;
  - a tool whose Debian package scripts/install-deps.sh installs;
  - a tool whose lit feature (test/lit.cfg.py) the test REQUIRES, so that a
    machine without it reports the test UNSUPPORTED instead of failing.
A command this script does not know is an error too: classify it in TOOLS.

Usage: test_tools.py TEST_DIR INSTALL_DEPS_SH LIT_CFG_PY
"""
import os
import re
import shlex
import sys

# Shell builtins and keywords, and the commands of a minimal Debian system
# (Essential or Priority: required packages: coreutils, bash, dash, grep,
# sed, findutils, diffutils, mawk, tar, gzip, util-linux).
BASE = set("""
cd echo printf exit test [ true false wait export set unset read source .
for while until if case do done then else elif fi esac : eval exec trap
cat cp mv rm ln ls mkdir rmdir touch chmod chown chgrp stat head tail cut
sort uniq wc tr tee env basename dirname readlink realpath pwd sleep date
yes seq mktemp md5sum sha256sum sha1sum du df id whoami nproc timeout nice
dd od install truncate sync comm join paste split expr printenv
bash sh grep egrep fgrep sed find xargs diff cmp awk mawk tar gzip gunzip
kill setpriv
""".split())

# Tools: command -> (Debian package that provides it, lit feature that
# guards it). None: no package (the CUDA toolkit) or no feature.
TOOLS = {
    "FileCheck": ("llvm-22-tools", None),
    "not": ("llvm-22-tools", None),
    "count": ("llvm-22-tools", None),
    "split-file": ("llvm-22-tools", None),
    "clang-apply-replacements": ("clang-tools-22", None),
    "ccache": ("ccache", "ccache"),
    "git": ("git", "git"),
    "pre-commit": ("pre-commit", "pre-commit"),
    "make": ("make", "make"),
    "cmake": ("cmake", "cmake"),
    "ninja": ("ninja-build", "ninja"),
    "strace": ("strace", "strace"),
    "script": ("bsdutils", "script"),
    "patch": ("patch", None),
    "python3": ("python3", None),
    "nvcc": (None, "nvcc"),
    "cuobjdump": (None, "cuobjdump"),
    "nvdisasm": (None, "cuobjdump"),
    # lit substitutions.
    "%python": ("python3", None),
    "%clang_tidy": ("clang-tidy-22", "clang-tidy"),
    "%clangxx": ("clang-22", None),
    "%nvcc": (None, "nvcc"),
    "%cuda_clangd": (None, "cuda-clangd"),
    "%fuzzer": (None, "fuzzer"),
}
# The build's own tools.
BUILT = {"%cuda_lint", "%check_cuda_lint"}


def run_lines(text):
    """The RUN lines of a test, continuation lines joined."""
    runs, cur = [], ""
    for line in text.splitlines():
        # The files of a split-file test follow its first `#--- name`.
        if re.match(r"^(#|//)--- ", line):
            break
        m = re.match(r"^\s*(?://|#|;)?\s*RUN:(.*)$", line)
        if not m:
            continue
        cur += m.group(1)
        if cur.rstrip().endswith("\\"):
            cur = cur.rstrip()[:-1]
            continue
        runs.append(cur)
        cur = ""
    return runs


def requires(text):
    feats = set()
    text = re.split(r"^(?:#|//)--- ", text, maxsplit=1, flags=re.M)[0]
    for m in re.finditer(r"^\s*(?://|#|;)?\s*REQUIRES:(.*)$", text, re.M):
        feats |= {f.strip() for f in m.group(1).split(",") if f.strip()}
    return feats


def commands(run):
    """(command, features of enclosing `%if F %{ ... %}`) for each command
    that starts a shell command in \p run."""
    # `%if F %{ cmd %}`: lit's conditional substitution.
    out = []
    for m in re.finditer(r"%if\s+(\S+)\s+%\{(.*?)%\}", run):
        out += [(c, g | {m.group(1)}) for c, g in commands(m.group(2))]
    run = re.sub(r"%if\s+\S+\s+%\{.*?%\}(\s*%else\s+%\{.*?%\})?", " ; ", run)
    run = run.replace("$(", " ; ").replace("`", " ; ")
    lx = shlex.shlex(run, posix=True, punctuation_chars=";&|()<>")
    lx.whitespace_split = True
    toks = list(lx)
    start, skip_words, i = True, 0, 0
    while i < len(toks):
        t = toks[i]
        i += 1
        if t in (";", "&&", "||", "|", "(", "&", "|&"):
            start = True
            continue
        if t == ")" or re.fullmatch(r"[0-9]*[<>]+&?", t):
            # A redirection's target is not a command.
            if t != ")":
                i += 1
            continue
        if not start:
            continue
        if t in ("do", "then", "else", "elif", "!", "{", "}"):
            continue
        if t == "for":  # for NAME in WORDS; do
            while i < len(toks) and toks[i] != ";":
                i += 1
            continue
        if re.match(r"^[A-Za-z_][A-Za-z0-9_]*=", t):
            continue
        if t == "env":
            while i < len(toks) and (toks[i].startswith("-") or
                                     re.match(r"^[A-Za-z_][A-Za-z0-9_]*=", toks[i])):
                i += 2 if toks[i] == "-u" else 1
            out.append(("env", set()))
            continue
        if t == "not":
            while i < len(toks) and toks[i].startswith("--"):
                i += 1
            out.append(("not", set()))
            continue
        if t == "xargs":
            while i < len(toks) and toks[i].startswith("-"):
                i += 2 if toks[i] in ("-I", "-n", "-P", "-d") else 1
            out.append(("xargs", set()))
            continue
        if t in ("nice", "timeout"):
            while i < len(toks) and (toks[i].startswith("-") or
                                     re.fullmatch(r"[0-9.]+[smh]?", toks[i])):
                i += 1
            out.append((t, set()))
            continue
        out.append((t, set()))
        start = False
    return out


def main(argv):
    test_dir, deps_file, lit_cfg = argv[1:4]
    deps_text = open(deps_file).read()
    m = re.search(r"^pkgs=\((.*?)\)", deps_text, re.S | re.M)
    if not m:
        print("error: %s: no pkgs=(...) list" % deps_file)
        return 1
    installed = set(re.sub(r"#.*", "", m.group(1)).split())
    cfg_text = open(lit_cfg).read()
    problems = []
    checked = 0
    for dirpath, dirnames, filenames in os.walk(test_dir):
        dirnames[:] = sorted(d for d in dirnames if d != "Inputs")
        for name in sorted(filenames):
            path = os.path.join(dirpath, name)
            if not name.endswith((".cu", ".cuh", ".test", ".cpp")):
                continue
            try:
                text = open(path, errors="replace").read()
            except OSError:
                continue
            rel = os.path.relpath(path, test_dir)
            feats = requires(text)
            for run in run_lines(text):
                try:
                    cmds = commands(run)
                except ValueError as e:
                    problems.append("%s: cannot parse RUN line (%s): %s" %
                                    (rel, e, run.strip()))
                    continue
                for cmd, guard in cmds:
                    checked += 1
                    name = os.path.basename(cmd) if not cmd.startswith("%") else cmd
                    # %t/...: a copy the test made of the build's tools;
                    # %src_root/...: the repository's own scripts.
                    if name in BUILT or name in BASE or \
                            cmd.startswith(("%t", "%src_root/")):
                        continue
                    if name not in TOOLS:
                        problems.append(
                            "%s: RUN line runs '%s', which test_tools.py does not "
                            "know: add it to TOOLS with its Debian package and "
                            "lit feature" % (rel, cmd))
                        continue
                    pkg, feat = TOOLS[name]
                    if pkg and pkg in installed:
                        continue
                    if feat and feat in feats | guard:
                        if '"%s"' % feat not in cfg_text and \
                           "'%s'" % feat not in cfg_text:
                            problems.append("%s: feature '%s' is not defined in "
                                            "lit.cfg.py" % (rel, feat))
                        continue
                    problems.append(
                        "%s: RUN line runs '%s', which scripts/install-deps.sh "
                        "does not install%s and the test does not guard with "
                        "REQUIRES%s" % (rel, name,
                                        " (package %s)" % pkg if pkg else "",
                                        ": " + feat if feat else ""))
    for p in problems:
        print("error: " + p)
    print("%d commands checked, %d problems" % (checked, len(problems)))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
