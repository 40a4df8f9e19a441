#!/usr/bin/env bash
# The README's first command: install, build, and run ktflow on a shipped
# example kernel.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
scripts/build.sh ktflow >/dev/null
run() {
  echo
  echo "==> ktflow $*"
  build/bin/ktflow "$@"
}
run check examples/kernels/softmax.mlir
run interp examples/kernels/softmax.mlir --seed 1
run arch-info examples/devices/spyre_like.mlir
