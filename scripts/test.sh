#!/usr/bin/env bash
# The README's second command (and CI's): install, build, run every lit and
# unit test, and end with one summary line "N passed, N failed".
set -uo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh || exit 1
scripts/build.sh all ktflow-test-depends ktflow-unittests || exit 1

BUILD_DIR=${KTFLOW_BUILD_DIR:-build}
log=$(mktemp)
/usr/lib/llvm-22/bin/lit -sv "$BUILD_DIR/test" 2>&1 | tee "$log"
lit_passed=$(grep -Eo '^ *Passed *: *[0-9]+' "$log" | grep -Eo '[0-9]+$' || echo 0)
lit_failed=$(grep -Eo '^ *(Failed|Unresolved|Timed Out|Unexpectedly Passed) *: *[0-9]+' "$log" \
  | grep -Eo '[0-9]+$' | awk '{s += $1} END {print s + 0}')

(cd "$BUILD_DIR" && ctest --output-on-failure) 2>&1 | tee "$log"
unit_total=$(grep -Eo 'tests failed out of [0-9]+' "$log" | grep -Eo '[0-9]+$' || echo 0)
unit_failed=$(grep -Eo '[0-9]+ tests failed out of' "$log" | grep -Eo '^[0-9]+' || echo 0)
rm -f "$log"

passed=$((lit_passed + unit_total - unit_failed))
failed=$((lit_failed + unit_failed))
echo
echo "lit: $lit_passed passed, $lit_failed failed; unit tests: $((unit_total - unit_failed)) passed, $unit_failed failed"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ] && [ "$passed" -gt 0 ]
