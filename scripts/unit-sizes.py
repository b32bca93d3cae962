#!/usr/bin/env python3
"""Lines per source file and per function or class body in the project's
C++ (lib/, include/, tools/): the size limits of docs/architecture.md
(a file past ~800 lines, a function or class past ~300). A heuristic brace
matcher, not a parser: namespaces are transparent, a brace block at
namespace level is a function or a class.

  scripts/unit-sizes.py [--files N] [--units N]   (defaults 800, 300)
Exits 1 when something is past a limit."""
import argparse
import glob
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def strip(line, state):
    """The code of a line: comments and string/char literals removed."""
    out, i = [], 0
    while i < len(line):
        if state["block"]:
            j = line.find("*/", i)
            if j < 0:
                return "".join(out)
            state["block"], i = False, j + 2
            continue
        c = line[i]
        if line.startswith("//", i):
            break
        if line.startswith("/*", i):
            state["block"], i = True, i + 2
            continue
        if c in "\"'":
            j = i + 1
            while j < len(line) and line[j] != c:
                j += 2 if line[j] == "\\" else 1
            out.append(c + c)
            i = j + 1
            continue
        out.append(c)
        i += 1
    return "".join(out)


def units(path):
    lines = open(path, errors="replace").read().split("\n")
    state = {"block": False}
    stack, found, pending = [], [], ""
    for n, line in enumerate(lines, 1):
        code = strip(line, state)
        if code.lstrip().startswith("#"):
            continue
        for ch in code:
            pending += ch
            if ch == "{":
                head = pending.strip()
                ns = re.match(r'^(.*\s)?(namespace\b[^{]*|extern\s+""\s*)\{$',
                              head, re.S) is not None
                top = all(k == "ns" for k, _, _ in stack)
                kind = "ns" if ns and top else ("unit" if top else "inner")
                name = re.sub(r"\s+", " ", head[:-1]).strip()[-80:]
                stack.append((kind, n, name))
                pending = ""
            elif ch == "}":
                if stack:
                    kind, start, name = stack.pop()
                    if kind == "unit":
                        found.append((n - start + 1, start, name))
                pending = ""
            elif ch == ";":
                pending = ""
        pending += " "
    return len(lines) - (1 if lines and lines[-1] == "" else 0), found


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--files", type=int, default=800)
    ap.add_argument("--units", type=int, default=300)
    a = ap.parse_args()
    paths = []
    for pat in ("lib/**/*.cpp", "lib/**/*.h", "include/**/*.h",
                "tools/**/*.cpp", "tools/**/*.h"):
        paths += glob.glob(os.path.join(ROOT, pat), recursive=True)
    over = 0
    for p in sorted(set(paths)):
        total, found = units(p)
        rel = os.path.relpath(p, ROOT)
        if total > a.files:
            print("%5d lines  file  %s" % (total, rel))
            over += 1
        for size, start, name in found:
            if size > a.units:
                print("%5d lines  unit  %s:%d %s" % (size, rel, start, name))
                over += 1
    print("%d past the limits (files %d, functions and classes %d)" %
          (over, a.files, a.units))
    return 1 if over else 0


if __name__ == "__main__":
    sys.exit(main())
