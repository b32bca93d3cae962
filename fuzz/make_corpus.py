#!/usr/bin/env python3
"""Builds the fuzzer's seed corpus from the project's CUDA inputs, so that
the seeds follow the tests instead of being copies that go stale: every
check's test inputs (test/checkers), the legacy-toolkit inputs (test/legacy,
which make the fuzzer add the legacy compatibility header as the driver
does), the examples (legacy ones included), the driver's inputs and the
fuzzing regressions.

  make_corpus.py SRC_ROOT OUT_DIR

Each seed is named after its path (test__checkers__foo.cu). Inputs larger
than the fuzzer takes (64 KiB) are left out. Prints the number of seeds."""
import os
import sys

SOURCES = ["test/checkers", "test/legacy", "examples", "test/driver/Inputs",
           "test/fuzz/regressions"]
MAX_SIZE = 64 * 1024

root, out = sys.argv[1], sys.argv[2]
os.makedirs(out, exist_ok=True)
count = 0
for rel in SOURCES:
    base = os.path.join(root, rel)
    for dirpath, dirnames, filenames in os.walk(base):
        dirnames.sort()
        for name in sorted(filenames):
            if not name.endswith((".cu", ".cuh")):
                continue
            src = os.path.join(dirpath, name)
            with open(src, "rb") as f:
                data = f.read()
            if len(data) > MAX_SIZE:
                continue
            seed = os.path.relpath(src, root).replace(os.sep, "__")
            with open(os.path.join(out, seed), "wb") as f:
                f.write(data)
            count += 1
print("seeds: %d" % count)
