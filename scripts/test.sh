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

# In CI (CI=true) or on request, the whole suite again on an ASan+UBSan
# build of cuda-lint.
if [ "${CI:-}" = "true" ] || [ -n "${CUDA_LINT_SANITIZED_TESTS:-}" ]; then
  asan="$root/build-asan"
  echo "== the test suite on an ASan+UBSan build ($asan) =="
  if CUDA_LINT_BUILD_DIR="$asan" CUDA_LINT_BUILD_TYPE=RelWithDebInfo \
     CUDA_LINT_CMAKE_ARGS="-DCUDA_LINT_SANITIZE=ON -DCUDA_LINT_BUILD_FUZZER=OFF" \
     "$root/scripts/build.sh"; then
    ASAN_OPTIONS=detect_leaks=0:abort_on_error=1 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
      "$lit" -sv -j "$(nproc)" "$asan/test" "$asan/test/unit" 2>&1 | sed 's/^\( *\)\(Passed\|Failed\|Unresolved\)/\1asan \2/' | tee -a "$out"
    [ "${PIPESTATUS[0]}" -eq 0 ] || rc=1
  else
    echo "asan build failed"; rc=1
  fi
fi
passed=$(awk -F: '/^ *(asan )?Passed *:/ {split($2, a, " "); n += a[1]} END {print n + 0}' "$out")
failed=$(awk -F: '/^ *(asan )?(Failed|Unresolved|Timed Out|Unexpectedly Passed) *:/ {split($2, a, " "); n += a[1]} END {print n + 0}' "$out")
rm -f "$out"
echo "${passed:-0} passed, ${failed:-0} failed"
if [ "$rc" -ne 0 ] || [ "${failed:-0}" -ne 0 ] || [ "${passed:-0}" -eq 0 ]; then
  exit 1
fi
