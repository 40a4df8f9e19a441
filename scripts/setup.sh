#!/usr/bin/env bash
# Installs what ktflow needs on Debian bookworm (run as root): LLVM/MLIR 22
# from Debian, a C++ toolchain (with the sanitizer and libFuzzer runtimes
# that CI's ASan+UBSan build links), Ninja, CMake, GoogleTest, Google Benchmark,
# clang-format (CI checks the formatting of changed lines), and for the
# Python package pybind11, Python's headers, numpy and pytest; GNU parallel
# (`ktflow sweep --emit-jobs` writes jobs for it, and a test runs them).
set -euo pipefail

packages=(
  libmlir-22-dev mlir-22-tools llvm-22-dev llvm-22-tools clang-22
  libclang-rt-22-dev
  ninja-build cmake python3 libgtest-dev libbenchmark-dev clang-format-22
  python3-dev pybind11-dev python3-numpy python3-pytest
  parallel
)

missing=()
for p in "${packages[@]}"; do
  dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi
echo "ktflow setup: installing ${missing[*]}"
SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO="sudo"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
