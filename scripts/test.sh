#!/usr/bin/env bash
# The README's second command (and CI's): install, build, run every lit and
# unit test, and end with one summary line "N passed, N failed".
# The tree built and tested is the ASan+UBSan one of
# scripts/build-sanitized.sh (build-san), run with scripts/sanitizer-env.sh's
# options: CI's one build (docs/contributing.md, "Sanitizers", has the
# timings). KTFLOW_SANITIZE=0 builds and tests the release tree (build)
# instead, the one scripts/demo.sh builds.
set -uo pipefail
cd "$(dirname "$0")/.."
# Wall seconds of each stage, printed last (CI shows the tail of the log).
t0=$SECONDS
scripts/setup.sh || exit 1
t_setup=$((SECONDS - t0))
if [ "${KTFLOW_SANITIZE:-1}" = 1 ]; then
  build=scripts/build-sanitized.sh
  BUILD_DIR=${KTFLOW_SAN_BUILD_DIR:-build-san}
  . scripts/sanitizer-env.sh
else
  build=scripts/build.sh
  BUILD_DIR=${KTFLOW_BUILD_DIR:-build}
fi
t0=$SECONDS
"$build" all ktflow-test-depends ktflow-unittests || exit 1
t_build=$((SECONDS - t0))

log=$(mktemp)
# A sanitized tree's lit config writes sanitizer reports here (each one a
# failure, whatever the test made of the tool's exit status).
rm -rf "$BUILD_DIR/sanitizer-logs"
t0=$SECONDS
/usr/lib/llvm-22/bin/lit -sv "$BUILD_DIR/test" 2>&1 | tee "$log"
t_lit=$((SECONDS - t0))
lit_passed=$(grep -Eo '^ *Passed *: *[0-9]+' "$log" | grep -Eo '[0-9]+$' || echo 0)
lit_failed=$(grep -Eo '^ *(Failed|Unresolved|Timed Out|Unexpectedly Passed) *: *[0-9]+' "$log" \
  | grep -Eo '[0-9]+$' | awk '{s += $1} END {print s + 0}')
reports=$(find "$BUILD_DIR/sanitizer-logs" -type f 2>/dev/null | sort)
if [ -n "$reports" ]; then
  for r in $reports; do echo "== sanitizer report $r"; cat "$r"; done
  lit_failed=$((lit_failed + $(echo "$reports" | wc -l)))
fi

t0=$SECONDS
(cd "$BUILD_DIR" && ctest -j"$(nproc)" --output-on-failure) 2>&1 | tee "$log"
t_unit=$((SECONDS - t0))
unit_total=$(grep -Eo 'tests failed out of [0-9]+' "$log" | grep -Eo '[0-9]+$' || echo 0)
unit_failed=$(grep -Eo '[0-9]+ tests failed out of' "$log" | grep -Eo '^[0-9]+' || echo 0)
rm -f "$log"

passed=$((lit_passed + unit_total - unit_failed))
failed=$((lit_failed + unit_failed))
echo
echo "lit: $lit_passed passed, $lit_failed failed; unit tests: $((unit_total - unit_failed)) passed, $unit_failed failed"
echo "times: setup $t_setup s, build $t_build s, lit $t_lit s, unit $t_unit s"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ] && [ "$passed" -gt 0 ]
