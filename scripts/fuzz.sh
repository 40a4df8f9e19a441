#!/usr/bin/env bash
# Long fuzzing runs (issue 17). Today: the differential kernel generator,
# scripts/fuzz-kernels.py — random kernels inside the subset the scheduler
# supports, compiled and simulated for every shipped device and checked
# against the reference interpreter. CI runs a few cases of it
# (test/Tools/differential-kernels.test); this script runs many.
#
#   scripts/fuzz.sh --cases N --seed S [--jobs J] [--out DIR] [--no-shrink]
#
# Case i uses seed S + i; a failing case prints its seed and writes its
# kernel and the smallest kernel shrinking finds to DIR. Exits 1 on any
# failure (wrong answer, crash, hang, or a kernel the generator got wrong).
set -uo pipefail
cd "$(dirname "$0")/.."
BUILD_DIR=${KTFLOW_BUILD_DIR:-build}
exec python3 scripts/fuzz-kernels.py --ktflow "$BUILD_DIR/bin/ktflow" \
  --jobs "${KTFLOW_FUZZ_JOBS:-2}" "$@"
