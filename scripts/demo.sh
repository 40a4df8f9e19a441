#!/usr/bin/env bash
# The README's first command: install, build, and run ktflow on a shipped
# example kernel.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
scripts/build.sh ktflow >/dev/null
echo "==> ktflow check examples/kernels/add.mlir"
build/bin/ktflow check examples/kernels/add.mlir
