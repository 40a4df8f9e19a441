#!/usr/bin/env bash
# The README's first command: install, build, check a shipped kernel, then
# compile it for a shipped device, simulate it and verify the result against
# the reference interpreter. It builds the Python package too
# (PYTHONPATH=build/python python3 -c 'import ktflow').
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
scripts/build.sh ktflow ktflow-python >/dev/null
run() {
  echo
  echo "==> ktflow $*"
  build/bin/ktflow "$@"
}
run check examples/kernels/softmax.mlir
run run examples/kernels/softmax.mlir --arch examples/devices/sample_device.mlir --check
