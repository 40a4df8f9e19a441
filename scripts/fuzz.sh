#!/usr/bin/env bash
# Long fuzzing runs (issue 17). CI runs a little of each (lit tests under
# test/Tools/ and test/Fuzz/); this script runs as much as you ask.
#
#   scripts/fuzz.sh [kernels] --cases N --seed S [--jobs J] [--out DIR]
#       The differential kernel generator, scripts/fuzz-kernels.py: random
#       kernels inside the subset the scheduler supports, compiled and
#       simulated for every shipped device and checked against the
#       reference interpreter. Case i uses seed S + i; a failing case prints
#       its seed and writes its kernel and the smallest kernel shrinking
#       finds to DIR.
#   scripts/fuzz.sh mutants --count N --seed S [--out DIR] [--kinds ...]
#       The mutation campaign, scripts/mutation-campaign.py: text mutants of
#       kernels, devices and DataflowIR files, bundle mutants with their
#       checksum recomputed, value mutants of compiling kernels run with
#       --check; each run classified ok / clean error / crash / hang (over
#       20 s) / wrong answer, with a table per command.
#
# Each mode exits 1 on any failure. The kernels mode runs
# KTFLOW_FUZZ_JOBS (default 2) cases at once; the campaign runs one
# command at a time.
set -uo pipefail
cd "$(dirname "$0")/.."
BUILD_DIR=${KTFLOW_BUILD_DIR:-build}
mode=kernels
case "${1:-}" in
  kernels | mutants) mode=$1; shift ;;
esac
case "$mode" in
  kernels)
    exec python3 scripts/fuzz-kernels.py --ktflow "$BUILD_DIR/bin/ktflow" \
      --jobs "${KTFLOW_FUZZ_JOBS:-2}" "$@" ;;
  mutants)
    exec python3 scripts/mutation-campaign.py \
      --ktflow "$BUILD_DIR/bin/ktflow" "$@" ;;
esac
