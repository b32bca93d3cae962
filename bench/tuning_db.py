#!/usr/bin/env python3
"""Writes the compile database of HeCBench's TUNING half.

Usage: tuning_db.py SRC_DB_DIR OUT_DIR

A benchmark directory NAME (the first component under the corpus's src/) is
in the sealed half when int(sha256(NAME), 16) % 2 == 1, else in the tuning
half (the split rule of docs/realworld.md). Only tuning entries are kept.
"""
import hashlib
import json
import os
import sys


def benchmark(path):
    parts = os.path.normpath(path).split(os.sep)
    if "src" in parts:
        i = len(parts) - 1 - parts[::-1].index("src")
        if i + 1 < len(parts):
            return parts[i + 1]
    return None


def sealed(name):
    return int(hashlib.sha256(name.encode()).hexdigest(), 16) % 2 == 1


def main():
    src, out = sys.argv[1], sys.argv[2]
    db = json.load(open(os.path.join(src, "compile_commands.json")))
    keep = []
    for e in db:
        f = e["file"] if os.path.isabs(e["file"]) else os.path.join(e["directory"], e["file"])
        name = benchmark(f)
        if name and not sealed(name):
            keep.append(e)
    os.makedirs(out, exist_ok=True)
    with open(os.path.join(out, "compile_commands.json"), "w") as f:
        json.dump(keep, f, indent=1)
    print("%d of %d units in the tuning half" % (len(keep), len(db)))


if __name__ == "__main__":
    main()
