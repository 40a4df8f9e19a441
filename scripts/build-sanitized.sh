#!/usr/bin/env bash
# Configures (once) and builds ktflow with AddressSanitizer and
# UndefinedBehaviorSanitizer into ./build-san (KTFLOW_SAN_BUILD_DIR), with
# libFuzzer's coverage instrumentation so that the same tree builds the
# harnesses of fuzz/ (issue 17). Arguments are ninja targets, e.g.
#   scripts/build-sanitized.sh ktflow-fuzz-bundle ktflow ktflow-unittests
# UBSan's flags are the top-level CMakeLists' LLVM_UBSAN_FLAGS. The build
# runs the unit test binaries (gtest discovery), hence the sanitizers'
# runtime options of scripts/sanitizer-env.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/sanitizer-env.sh

# The sanitizers add -gline-tables-only, and ccache hashes the directory of
# a compile with debug info unless a prefix map hides it: without the map no
# sanitized object would be shared between two checkouts.
KTFLOW_BUILD_DIR=${KTFLOW_SAN_BUILD_DIR:-build-san} \
KTFLOW_CMAKE_ARGS="-DLLVM_USE_SANITIZER=Address;Undefined -DLLVM_USE_SANITIZE_COVERAGE=ON -DKTFLOW_BUILD_BENCHMARKS=OFF -DCMAKE_C_FLAGS=-fdebug-prefix-map=$PWD=. -DCMAKE_CXX_FLAGS=-fdebug-prefix-map=$PWD=." \
  exec scripts/build.sh "$@"
