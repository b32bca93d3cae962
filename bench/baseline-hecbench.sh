#!/usr/bin/env bash
# A baseline over a corpus compile database (HeCBench: docs/usage.md section
# 8, bench/results/baseline-hecbench.md): write it, run again (no finding
# reported), then make a one-line edit that introduces a finding (exactly
# one reported). The corpus is linked (cp -al) into WORK so that the edit,
# written as a new file by sed -i, leaves the corpus itself unchanged.
#
# Usage: bench/baseline-hecbench.sh CORPUS_SRC DB_DIR WORK FILE LINE OLD NEW
#   FILE, LINE: the file (relative to CORPUS_SRC) and line to edit;
#   OLD, NEW: the text replaced on that line (sed syntax).
# CUDA_LINT: the cuda-lint to run (default: cuda-lint on PATH). JOBS (2).
set -uo pipefail
src=$1 db=$2 work=$3 file=$4 line=$5 old=$6 new=$7
lint=${CUDA_LINT:-cuda-lint}
jobs=${JOBS:-2}
rm -rf "$work" && mkdir -p "$work/db" && cp -al "$src" "$work/src"
sed "s|$src|$work/src|g" "$db/compile_commands.json" > "$work/db/compile_commands.json"
cd "$work" || exit 1
run() {
  local name=$1; shift
  local t0=$(date +%s)
  "$lint" -p db --baseline=baseline.json --progress=none -j "$jobs" "$@" \
    > "$name.out" 2> "$name.err"
  local rc=$?
  echo "== $name: exit $rc, $(( $(date +%s) - t0 )) s"
  grep -E "^cuda-lint: baseline:|^findings:|^files analysed:|from the cache" "$name.err"
  echo "warnings printed: $(grep -c 'warning:' "$name.out")"
}
run write --write-baseline
run rerun
sed -i "${line}s|$old|$new|" "src/$file"
run edited
grep 'warning:' edited.out
