#!/usr/bin/env bash
# CI's sanitized job (.ci/run, after the release tests): the part of the
# ASan+UBSan tree (scripts/build-sanitized.sh, build-san) that fits CI's
# 30 minutes on two cores next to the release build, chosen for what takes
# untrusted input or guards against crashes: the unit tests of the bundle
# reader, the runtime, the simulator and the crash guard (KTFLOWSupport),
# then 20 s of the bundle and simulator libFuzzer harnesses, seeded with
# bundles the release ktflow compiles. About 40 of the tree's 260
# compiles; the whole sanitized run is `KTFLOW_SANITIZE=1 bash
# scripts/test.sh` (docs/contributing.md, "Sanitizers", has the timings).
set -euo pipefail
cd "$(dirname "$0")/.."
SAN_DIR=${KTFLOW_SAN_BUILD_DIR:-build-san}
tests=(KTFLOWSupportTests KTFLOWBundleTests KTFLOWRuntimeTests
  KTFLOWSimulatorTests)
harnesses="ktflow-fuzz-bundle ktflow-fuzz-simulator"
# shellcheck disable=SC2086 # the harness names are words
scripts/build-sanitized.sh -j2 "${tests[@]}" $harnesses
. scripts/sanitizer-env.sh
status=0
for t in "${tests[@]}"; do
  # Any report fails the binary: UBSan's are fatal, ASan ends the process
  # and LeakSanitizer makes the exit status non-zero.
  binary=$(find "$SAN_DIR/unittests" -name "$t" -type f | head -n 1)
  echo "== $t"
  "$binary" --gtest_brief=1 || status=1
done
KTFLOW_FUZZ_HARNESSES=$harnesses KTFLOW_SEED_KTFLOW=${KTFLOW_BUILD_DIR:-build}/bin/ktflow \
  scripts/fuzz.sh libfuzzer 20 || status=1
exit $status
