#!/usr/bin/env bash
# Install-and-run test of a cuda-lint wheel:
#   ./scripts/wheel-smoke.sh dist/cuda_lint-*.whl
# Installs the wheel into a new virtual environment and runs its cuda-lint on
# examples/ as a user without LLVM would: a PATH of the venv, the CUDA toolkit
# and the system's bin directories, no LD_LIBRARY_PATH, and (where a private
# mount namespace can be made, as root) /usr/lib/llvm-22 hidden under an empty
# directory. Its output must be the source build's (build/bin/cuda-lint, or
# $CUDA_LINT_REF) on the same files, byte for byte: the diagnostics, the
# fixes (--diff) and the SARIF report; twice, the second run with the
# precompiled headers the first one built with the wheel's own Clang.
# Also checks that the executable needs no LLVM library (ldd). Prints the
# install time; exits non-zero on any difference.
set -euo pipefail
if [ $# -ne 1 ] || [ ! -f "$1" ]; then
  echo "usage: $0 WHEEL" >&2
  exit 2
fi
wheel=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
root=$(cd "$(dirname "$0")/.." && pwd)
ref=${CUDA_LINT_REF:-$root/build/bin/cuda-lint}
if [ ! -x "$ref" ]; then
  echo "wheel-smoke: error: no source build to compare with ($ref); run ./scripts/build.sh" >&2
  exit 2
fi
tmp=$(mktemp -d /tmp/cuda-lint-wheel-smoke.XXXXXX)
if [ -z "${CUDA_LINT_KEEP:-}" ]; then trap 'rm -rf "$tmp"' EXIT; fi
fail=0

python3 -m venv "$tmp/venv"
start=$(date +%s.%N)
"$tmp/venv/bin/pip" install -q --no-index --no-deps "$wheel"
end=$(date +%s.%N)
echo "wheel-smoke: installed in $(python3 -c "print(f'{$end - $start:.1f}')") s: $(basename "$wheel")"
exe=$("$tmp/venv/bin/python" -c 'import cuda_lint; print(cuda_lint.executable())')
[ -x "$tmp/venv/bin/cuda-lint" ] || { echo "wheel-smoke: FAIL: no cuda-lint on the venv's PATH" >&2; exit 1; }

echo "wheel-smoke: ldd $exe"
ldd "$exe" | sed 's/^/  /'
if ldd "$exe" | grep -Eq 'libLLVM|libclang|not found'; then
  echo "wheel-smoke: FAIL: the executable needs LLVM's shared libraries or a missing one" >&2
  fail=1
fi

# The same runs with the reference and with the wheel, from the repository
# root (the same relative paths), each with a cache of its own.
cat > "$tmp/runs.sh" <<'RUNS'
#!/usr/bin/env bash
# runs.sh CUDA_LINT OUTDIR: diagnostics, fixes and SARIF, cold then warm.
lint=$1 out=$2
export CUDA_LINT_CACHE_DIR=$out/cache HOME=$out/home
mkdir -p "$out/home"
for pass in cold warm; do
  "$lint" --no-cache examples/*.cu > "$out/$pass.txt" 2>&1; echo "exit $?" >> "$out/$pass.txt"
done
"$lint" --no-cache --diff examples/ > "$out/diff.patch" 2> "$out/diff.err"; echo "exit $?" >> "$out/diff.patch"
"$lint" --no-cache --format=sarif -o "$out/report.sarif" examples/ > "$out/sarif.out" 2>&1
RUNS
chmod +x "$tmp/runs.sh"
mkdir -p "$tmp/ref" "$tmp/wheel"
(cd "$root" && "$tmp/runs.sh" "$ref" "$tmp/ref")

clean_path="$tmp/venv/bin:/usr/local/cuda/bin:/usr/local/bin:/usr/bin:/bin"
hidden=no
runner=(env -i "PATH=$clean_path" "TERM=dumb")
if [ "$(id -u)" = 0 ] && [ -d /usr/lib/llvm-22 ] &&
   unshare -m true 2>/dev/null; then
  hidden=yes
fi
if [ $hidden = yes ]; then
  (cd "$root" && "${runner[@]}" unshare -m --propagation private sh -c \
    'mount -t tmpfs none /usr/lib/llvm-22 && exec "$0" "$1" "$2"' \
    "$tmp/runs.sh" cuda-lint "$tmp/wheel")
else
  (cd "$root" && "${runner[@]}" "$tmp/runs.sh" cuda-lint "$tmp/wheel")
fi
echo "wheel-smoke: PATH=$clean_path, no LD_LIBRARY_PATH, /usr/lib/llvm-22 hidden: $hidden"

for f in cold.txt warm.txt diff.patch report.sarif; do
  if diff -u "$tmp/ref/$f" "$tmp/wheel/$f" > "$tmp/$f.diff"; then
    echo "wheel-smoke: $f identical ($(wc -l < "$tmp/ref/$f") lines, $(grep -c 'warning:' "$tmp/ref/$f" || true) with 'warning:')"
  else
    echo "wheel-smoke: FAIL: $f differs:" >&2
    head -40 "$tmp/$f.diff" >&2
    fail=1
  fi
done
pch=$(ls "$tmp/wheel/cache/pch/"*.pch 2>/dev/null | wc -l)
echo "wheel-smoke: precompiled headers built by the wheel's Clang: $pch"
[ "$pch" -gt 0 ] || { echo "wheel-smoke: FAIL: the wheel built no PCH" >&2; fail=1; }
if [ $fail = 0 ]; then echo "wheel-smoke: PASS"; else echo "wheel-smoke: FAIL"; fi
exit $fail
