#!/usr/bin/env python3
"""Compares two --prove=ptx JSON reports (say --prove=ptx-clang and
--prove=ptx with nvcc, over the same units) finding by finding: the verdict
each gave (identical, nc, changed; hidden where the report does not show the
finding; none where it shows it without a ptx note).

  bench/proof_compare.py CLANG.json NVCC.json       # the pairs that differ
  bench/proof_compare.py --all CLANG.json NVCC.json # every pair
  bench/proof_compare.py --list CLANG.json NVCC.json
"""
import argparse
import collections
import json


def verdicts(path):
    out = {}
    for f in json.load(open(path))["findings"]:
        key = (f["check"], f["file"], f["line"], f["column"])
        notes = [n["message"] for n in f.get("notes", [])
                 if n["message"].startswith("ptx:")]
        v = "none"
        if notes:
            m = notes[0]
            v = ("identical" if "identical" in m else
                 "nc" if "non-coherent" in m else "changed")
        out[key] = (v, f.get("impact", {}).get("rank"),
                    notes[0] if notes else "")
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("first")
    ap.add_argument("second")
    ap.add_argument("--all", action="store_true", help="every pair")
    ap.add_argument("--list", action="store_true",
                    help="the findings whose verdict differs")
    args = ap.parse_args()
    a, b = verdicts(args.first), verdicts(args.second)
    hidden = ("hidden", None, "")
    pairs = collections.Counter()
    for k in set(a) | set(b):
        pairs[(k[0], a.get(k, hidden)[0], b.get(k, hidden)[0])] += 1
    for (check, va, vb), n in sorted(pairs.items()):
        if va != vb or args.all:
            print(f"{check:32} {va:10} -> {vb:10} {n}")
    if args.list:
        for k in sorted(set(a) | set(b)):
            va, vb = a.get(k, hidden), b.get(k, hidden)
            if va[0] != vb[0]:
                print(k[0], f"{k[1]}:{k[2]}:{k[3]}", va[0], va[1], "->",
                      vb[0], vb[1], "|", vb[2][:150])


if __name__ == "__main__":
    main()
