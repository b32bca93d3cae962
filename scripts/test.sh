#!/usr/bin/env bash
# Installs what is missing, builds cuda-lint, and runs every test: the lit
# suite (checks, driver, plugin, fix safety) and the googletest unit tests.
# Ends with one summary line: "N passed, N failed".
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${CUDA_LINT_BUILD_DIR:-$root/build}
"$root/scripts/build.sh" || { echo "build failed"; echo "0 passed, 1 failed"; exit 1; }

lit=$(command -v lit || echo /usr/lib/llvm-22/bin/lit)
[ -x "$lit" ] || lit=/usr/lib/llvm-22/bin/lit
out=$(mktemp)
"$lit" -sv -j "$(nproc)" "$build/test" "$build/test/unit" 2>&1 | tee "$out"
rc=${PIPESTATUS[0]}
passed=$(grep -E '^ *Passed *:' "$out" | grep -oE '[0-9]+' | head -1)
failed=$(awk -F: '/^ *(Failed|Unresolved|Timed Out|Unexpectedly Passed) *:/ {split($2, a, " "); n += a[1]} END {print n + 0}' "$out")
rm -f "$out"
echo "${passed:-0} passed, ${failed:-0} failed"
if [ "$rc" -ne 0 ] || [ "${failed:-0}" -ne 0 ] || [ "${passed:-0}" -eq 0 ]; then
  exit 1
fi
