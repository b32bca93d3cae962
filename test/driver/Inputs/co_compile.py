"""Runs a CMAKE_<LANG>_CLANG_TIDY command as CMake 3.27's co-compile step
(`cmake -E __run_co_compile --tidy=...`) does before each compile: in the
compile's directory, `<tidy command...> <source> -- <compile command>`.

Usage: co_compile.py TIDY_LIST_FILE COMPILE_COMMANDS_JSON
TIDY_LIST_FILE holds the CMake list, one element per line. Prints what the
tidy command prints; exits with its first non-zero status."""
import json
import shlex
import subprocess
import sys

tidy = [l for l in open(sys.argv[1]).read().split("\n") if l]
rc = 0
for entry in json.load(open(sys.argv[2])):
    cmd = entry.get("arguments") or shlex.split(entry["command"])
    full = tidy + [entry["file"], "--"] + cmd
    print("$ " + " ".join(full), flush=True)
    r = subprocess.run(full, cwd=entry["directory"])
    rc = rc or r.returncode
sys.exit(rc)
