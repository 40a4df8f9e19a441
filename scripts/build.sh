#!/usr/bin/env bash
# Configures (once) and builds ktflow into ./build with clang-22 and Ninja.
set -euo pipefail
cd "$(dirname "$0")/.."

BUILD_DIR=${KTFLOW_BUILD_DIR:-build}
if [ ! -f "$BUILD_DIR/build.ninja" ]; then
  cmake -S . -B "$BUILD_DIR" -G Ninja \
    -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_C_COMPILER=clang-22 -DCMAKE_CXX_COMPILER=clang++-22 \
    -DMLIR_DIR=/usr/lib/llvm-22/lib/cmake/mlir >/dev/null
fi
ninja -C "$BUILD_DIR" "$@"
