#!/usr/bin/env python3
"""The tuning/measuring split of HeCBench, kept from now on.

  bench/hecbench_split.py --db BUILD/compile_commands.json --half sealed -o DIR
  bench/hecbench_split.py --root corpus/src --list tuning

HeCBench's benchmarks (the directories `src/NAME-cuda/`) are split by a hash
of the benchmark's name into two halves:

  sealed  when int(sha256(NAME).hexdigest(), 16) % 2 == 1
  tuning  otherwise

Causes of false or useless findings are looked for and fixed on the tuning
half only. Precision is measured only on the sealed half, on a sample drawn
fresh each time (bench/audit.py --fresh) and read by reviewers who did not
write the check, before any change made because of it. The split depends on
the name alone, so it is the same on every machine and every HeCBench commit.

--db writes DIR/compile_commands.json with the entries of one half (a
benchmark's name is the directory under `src/` that holds the entry's file).
--list prints the names of one half's benchmarks found under --root.
"""
import argparse
import hashlib
import json
import os
import sys


def half(name):
    """'sealed' or 'tuning' for the benchmark directory NAME."""
    h = int(hashlib.sha256(name.encode()).hexdigest(), 16)
    return "sealed" if h % 2 == 1 else "tuning"


def benchmark_of(path):
    """The benchmark of PATH: the directory NAME-cuda under HeCBench's
    `src/`. The first such pair: a benchmark may have a `src/` of its own
    (logan-cuda/src/score.cu is logan-cuda's, not a benchmark `score.cu`)."""
    parts = os.path.normpath(path).split(os.sep)
    for i in range(len(parts) - 1):
        if parts[i] == "src" and parts[i + 1].endswith("-cuda"):
            return parts[i + 1]
    return None


def main():
    p = argparse.ArgumentParser(description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--half", choices=("sealed", "tuning"))
    p.add_argument("--db", help="a compile_commands.json to filter")
    p.add_argument("-o", "--output", help="directory for the filtered database")
    p.add_argument("--root", help="HeCBench's src/ directory (with --list)")
    p.add_argument("--list", choices=("sealed", "tuning"))
    args = p.parse_args()
    if args.list:
        if not args.root:
            p.error("--list needs --root")
        for name in sorted(os.listdir(args.root)):
            if name.endswith("-cuda") and half(name) == args.list:
                print(name)
        return 0
    if not (args.db and args.half and args.output):
        p.error("give --db, --half and -o (or --list with --root)")
    try:
        entries = json.load(open(args.db))
    except (OSError, ValueError) as e:
        print("hecbench_split.py: error: %s: %s" % (args.db, e), file=sys.stderr)
        return 1
    kept = []
    for e in entries:
        path = e["file"] if os.path.isabs(e["file"]) else os.path.join(e["directory"], e["file"])
        name = benchmark_of(path)
        if name and half(name) == args.half:
            kept.append(e)
    os.makedirs(args.output, exist_ok=True)
    with open(os.path.join(args.output, "compile_commands.json"), "w") as f:
        json.dump(kept, f, indent=1)
    names = {benchmark_of(e["file"] if os.path.isabs(e["file"]) else
                          os.path.join(e["directory"], e["file"])) for e in kept}
    print("%s half: %d of %d entries, %d benchmarks -> %s" % (
        args.half, len(kept), len(entries), len(names), args.output), file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
