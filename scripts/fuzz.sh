#!/usr/bin/env bash
# Long fuzzing runs (issue 17). CI runs a little of each (lit tests under
# test/Tools/ and test/Fuzz/); this script runs as much as you ask.
#
#   scripts/fuzz.sh [kernels] --cases N --seed S [--jobs J] [--out DIR]
#       [--families rows,matmul,allreduce,distributed | all]
#       The differential kernel generator, scripts/fuzz-kernels.py: random
#       kernels inside the subset the scheduler supports, compiled and
#       simulated for every shipped device and checked against the
#       reference interpreter: row kernels (scripts/ktirgen.py, the
#       default) and, with --families, matrix products, inter-tile
#       all-reduces and distributed views (scripts/ktirblocks.py). Case i
#       uses seed S + i; a failing case prints its seed and writes its
#       kernel and the smallest kernel shrinking finds to DIR.
#   scripts/fuzz.sh mutants --count N --seed S [--out DIR] [--kinds ...]
#       The mutation campaign, scripts/mutation-campaign.py: text mutants of
#       kernels, devices and DataflowIR files, bundle mutants with their
#       checksum recomputed, value mutants of compiling kernels run with
#       --check; each run classified ok / clean error / crash / hang (over
#       20 s) / wrong answer, with a table per command.
#   scripts/fuzz.sh libfuzzer [SECONDS]
#       The libFuzzer harnesses of fuzz/ (the KTIR parser, verifier and
#       legality check; the device-description parser and model; the
#       interpreter; the bundle reader and linker; the simulator), built
#       with ASan+UBSan into build-san by scripts/build-sanitized.sh, each
#       run SECONDS (default 60) from seeds taken from examples/ and test/
#       (bundles compiled from examples/kernels); crashing inputs and each
#       harness's log go to build-san/fuzz-artifacts/.
#       KTFLOW_FUZZ_HARNESSES (names, space-separated) runs only those;
#       KTFLOW_SEED_KTFLOW compiles the seed bundles with that ktflow (CI:
#       the release one) instead of building a sanitized one.
#
# Each mode exits 1 on any failure. The kernels mode runs
# KTFLOW_FUZZ_JOBS (default 2) cases at once; the campaign runs one
# command at a time.
set -uo pipefail
cd "$(dirname "$0")/.."
BUILD_DIR=${KTFLOW_BUILD_DIR:-build}
mode=kernels
case "${1:-}" in
  kernels | mutants | libfuzzer) mode=$1; shift ;;
esac
case "$mode" in
  kernels)
    exec python3 scripts/fuzz-kernels.py --ktflow "$BUILD_DIR/bin/ktflow" \
      --jobs "${KTFLOW_FUZZ_JOBS:-2}" "$@" ;;
  mutants)
    exec python3 scripts/mutation-campaign.py \
      --ktflow "$BUILD_DIR/bin/ktflow" "$@" ;;
  libfuzzer)
    seconds=${1:-60}
    SAN_DIR=${KTFLOW_SAN_BUILD_DIR:-build-san}
    read -r -a harnesses <<< "${KTFLOW_FUZZ_HARNESSES:-ktflow-fuzz-ktir \
      ktflow-fuzz-device ktflow-fuzz-interpreter ktflow-fuzz-bundle \
      ktflow-fuzz-simulator}"
    seed_ktflow=${KTFLOW_SEED_KTFLOW:-$SAN_DIR/bin/ktflow}
    targets=("${harnesses[@]}")
    [ -n "${KTFLOW_SEED_KTFLOW:-}" ] || targets+=(ktflow)
    scripts/build-sanitized.sh -j2 "${targets[@]}" >/dev/null || exit 1
    . scripts/sanitizer-env.sh
    seeds=$SAN_DIR/fuzz-seeds
    rm -rf "$seeds"
    mkdir -p "$seeds"/{kernels,devices,bundles} "$SAN_DIR/fuzz-artifacts"
    # Text seeds: every kernel and device file of examples/ and test/, named
    # after its path.
    while IFS= read -r f; do
      cp "$f" "$seeds/kernels/${f//\//_}"
    done < <(grep -rl --include='*.mlir' 'ktdp\.' examples test)
    while IFS= read -r f; do
      cp "$f" "$seeds/devices/${f//\//_}"
    done < <(grep -rl --include='*.mlir' 'ktdf_arch\.device' examples test)
    for k in add softmax row_reduce layernorm; do
      "$seed_ktflow" compile "examples/kernels/$k.mlir" \
        --arch examples/devices/sample_device.mlir -o "$seeds/bundles/$k.ktfb" \
        >/dev/null || exit 1
    done
    status=0
    for h in "${harnesses[@]}"; do
      case $h in
        ktflow-fuzz-ktir | ktflow-fuzz-interpreter) seed=kernels ;;
        ktflow-fuzz-device) seed=devices ;;
        *) seed=bundles ;;
      esac
      corpus=$SAN_DIR/fuzz-corpus/$h
      mkdir -p "$corpus"
      echo "== $h, $seconds s"
      log=$SAN_DIR/fuzz-artifacts/$h.log
      "$SAN_DIR/bin/$h" "$corpus" "$seeds/$seed" \
        -max_total_time="$seconds" -max_len=65536 -timeout=20 \
        -rss_limit_mb=4096 -artifact_prefix="$SAN_DIR/fuzz-artifacts/$h-" \
        >"$log" 2>&1 || { status=1; tail -n 60 "$log"; }
      grep -E '^(Done|==[0-9]+==ERROR|SUMMARY|artifact_prefix)' "$log"
    done
    exit $status ;;
esac
