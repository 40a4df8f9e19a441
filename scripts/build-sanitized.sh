#!/usr/bin/env bash
# Configures (once) and builds ktflow with AddressSanitizer and
# UndefinedBehaviorSanitizer into ./build-san (KTFLOW_SAN_BUILD_DIR), with
# libFuzzer's coverage instrumentation so that the same tree builds the
# harnesses of fuzz/ (issue 17). Arguments are ninja targets, e.g.
#   scripts/build-sanitized.sh ktflow-fuzz-ktir ktflow ktflow-unittests
# UBSan's vptr check is off (Debian's LLVM is built without RTTI), which
# LLVM's own "Address;Undefined" setting already does.
set -euo pipefail
cd "$(dirname "$0")/.."

BUILD_DIR=${KTFLOW_SAN_BUILD_DIR:-build-san}
launcher=()
if command -v ccache >/dev/null 2>&1; then
  launcher=(-DCMAKE_C_COMPILER_LAUNCHER=ccache -DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
fi
if [ ! -f "$BUILD_DIR/build.ninja" ]; then
  cmake -S . -B "$BUILD_DIR" -G Ninja "${launcher[@]}" \
    -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_C_COMPILER=clang-22 -DCMAKE_CXX_COMPILER=clang++-22 \
    -DLLVM_USE_SANITIZER="Address;Undefined" -DLLVM_USE_SANITIZE_COVERAGE=ON \
    -DKTFLOW_BUILD_BENCHMARKS=OFF \
    -DMLIR_DIR=/usr/lib/llvm-22/lib/cmake/mlir >/dev/null
fi
ninja -C "$BUILD_DIR" "$@"
