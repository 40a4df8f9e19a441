#!/usr/bin/env bash
# bench/run.sh - every supported example kernel on every shipped device at
# -O0 and -O2: simulated cycles, the roofline bound, their ratio, the bound
# that binds and the check against the interpreter. One `ktflow sweep`,
# its runs in parallel (-j, default one per hardware thread).
#
# Usage: bench/run.sh [BUILD_DIR] [SWEEP OPTIONS...] > table.md
# (BUILD_DIR defaults to ./build; it needs bin/ktflow. E.g. `bench/run.sh
# build -j 2 --format csv`.)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$root/build}
shift $(( $# > 0 ? 1 : 0 ))
kernels=()
for k in add add_loop add_runtime_arg elementwise broadcast_add \
         broadcast_scalar broadcast_row row_reduce col_reduce softmax \
         layernorm rmsnorm gelu_spyreop rope dynamic_mask bias_loop; do
  kernels+=("$root/examples/kernels/$k.mlir")
done
devices=$root/examples/devices
exec "$build/bin/ktflow" sweep "${kernels[@]}" \
  --arch "$devices/sample_device.mlir,$devices/spyre_like.mlir,$devices/mesh_device.mlir" \
  -O 0,2 --check --arg M_arg=1024 --arg N_arg=1000 "$@"
