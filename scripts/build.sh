#!/usr/bin/env bash
# Configures and builds cuda-lint into build/ (or $CUDA_LINT_BUILD_DIR).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${CUDA_LINT_BUILD_DIR:-$root/build}
"$root/scripts/install-deps.sh"
jobs=${CUDA_LINT_JOBS:-$(nproc)}
if [ ! -f "$build/build.ninja" ]; then
  cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=${CUDA_LINT_BUILD_TYPE:-Release} \
    ${CUDA_LINT_CMAKE_ARGS:-} >/dev/null
fi
cmake --build "$build" -j "$jobs"
