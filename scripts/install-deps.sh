#!/usr/bin/env bash
# Installs what cuda-lint needs to build and test, if it is missing:
# LLVM/Clang 22 (pinned) from Debian's packages (with libomp-22-dev, whose
# omp.h OpenMP sources include), CMake, Ninja, GoogleTest, and the tools the
# tests run (git, pre-commit, ccache, strace, patch, script; test/test_tools.py
# checks that every tool a test runs is here or guarded by a lit feature).
# The CUDA toolkit is expected at /usr/local/cuda (or CUDA_PATH); without it
# cuda-lint falls back to its bundled CUDA declarations.
set -euo pipefail

pkgs=(clang-22 libclang-22-dev llvm-22-dev llvm-22-tools clang-tidy-22
      clang-format-22 clang-tools-22 libclang-rt-22-dev libomp-22-dev cmake ninja-build libgtest-dev
      python3 git python3-jsonschema pre-commit pkg-config libgrpc++-dev
      libprotobuf-dev bsdutils patch strace ccache python3-yaml)
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi
echo "cuda-lint: installing ${missing[*]}" >&2
SUDO=""
if [ "$(id -u)" != 0 ]; then SUDO=sudo; fi
export DEBIAN_FRONTEND=noninteractive
if ! $SUDO apt-get install -y -q "${missing[@]}" >/tmp/cuda-lint-apt.log 2>&1; then
  $SUDO apt-get update -q >>/tmp/cuda-lint-apt.log 2>&1
  $SUDO apt-get install -y -q "${missing[@]}" >>/tmp/cuda-lint-apt.log 2>&1 || {
    tail -20 /tmp/cuda-lint-apt.log >&2
    echo "cuda-lint: error: could not install ${missing[*]} (log: /tmp/cuda-lint-apt.log)" >&2
    exit 1
  }
fi
