#!/usr/bin/env bash
# Configures (once) and builds ktflow into ./build (KTFLOW_BUILD_DIR) with
# clang-22 and Ninja. KTFLOW_CMAKE_ARGS adds configure options (the
# sanitizer build, scripts/build-sanitized.sh, passes its own).
set -euo pipefail
cd "$(dirname "$0")/.."

BUILD_DIR=${KTFLOW_BUILD_DIR:-build}
read -r -a extra <<< "${KTFLOW_CMAKE_ARGS:-}"
# ccache, when installed, makes rebuilds in several checkouts cheap. Without
# it (or with CCACHE_DISABLE=1, which measures what a machine without ccache
# does) the tree precompiles its common headers instead
# (cmake/PrecompiledHeaders.cmake).
launcher=()
ccache_disable=${CCACHE_DISABLE:-0}
ccache_disable=${ccache_disable,,}
if command -v ccache >/dev/null 2>&1 \
    && [[ "$ccache_disable" =~ ^(0|false|no|disable)$ ]]; then
  launcher=(-DCMAKE_C_COMPILER_LAUNCHER=ccache -DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
fi
if [ ! -f "$BUILD_DIR/build.ninja" ]; then
  cmake -S . -B "$BUILD_DIR" -G Ninja "${launcher[@]}" \
    -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_C_COMPILER=clang-22 -DCMAKE_CXX_COMPILER=clang++-22 \
    -DMLIR_DIR=/usr/lib/llvm-22/lib/cmake/mlir ${extra[@]+"${extra[@]}"} >/dev/null
fi
ninja -C "$BUILD_DIR" "$@"
