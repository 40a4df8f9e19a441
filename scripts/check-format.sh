#!/usr/bin/env bash
# Checks that every C++ line changed since the house rules landed (the commit
# that added .clang-format) is formatted as .clang-format says; lines nobody
# touched since keep their old layout. It reads the working tree, so an
# uncommitted change is checked before it is committed (on a clean checkout,
# as in CI, that is HEAD). Run by CI after the tests. To fix a failure:
# `bash scripts/check-format.sh --fix` (formats those lines in place).
set -euo pipefail
cd "$(dirname "$0")/.."

fix=0
[ "${1:-}" = "--fix" ] && fix=1
formatter=(git clang-format-22 --binary clang-format-22
           --extensions c,cc,cpp,h,hpp)
base=$(git log --diff-filter=A --format=%H -- .clang-format | tail -1)
if [ -z "$base" ]; then
  # A shallow clone without the rules' commit: check the last commit alone.
  if ! base=$(git rev-parse -q --verify HEAD^); then
    echo "check-format: no history to compare with; skipped"
    exit 0
  fi
fi

if [ "$fix" -eq 1 ]; then
  "${formatter[@]}" --force "$base" -- include lib tools unittests bench
  exit 0
fi
diff=$("${formatter[@]}" --diff "$base" -- include lib tools unittests bench \
       2>&1 || true)
case "$diff" in
  ""|"no modified files to format"|"clang-format did not modify any files")
    echo "check-format: changed lines follow .clang-format"
    exit 0 ;;
esac
echo "$diff"
echo "check-format: the lines above do not follow .clang-format;" \
     "run 'bash scripts/check-format.sh --fix'"
exit 1
