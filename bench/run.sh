#!/usr/bin/env bash
# bench/run.sh - every supported example kernel on every shipped device:
# simulated cycles at -O0 and by default, the roofline bound, the ratio of
# the default schedule to it, and the wall time of `ktflow compile`.
#
# Usage: bench/run.sh [BUILD_DIR] > bench/results.md
# (BUILD_DIR defaults to ./build; it needs bin/ktflow.)
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$root/build}
ktflow=$build/bin/ktflow
kernels="add add_loop add_runtime_arg elementwise broadcast_add broadcast_scalar
broadcast_row row_reduce col_reduce softmax layernorm rmsnorm gelu_spyreop
rope dynamic_mask bias_loop"
devices="sample_device spyre_like mesh_device"

args_for() {
  case $1 in
    add_runtime_arg) echo "--arg M_arg=1024" ;;
    dynamic_mask) echo "--arg N_arg=1000" ;;
    *) echo "" ;;
  esac
}

field() { sed -n "s/^$1 \([0-9.]*\).*/\1/p" | head -1; }

echo "| kernel | device | -O0 cycles | cycles | roofline | ratio | speedup | compile ms | check |"
echo "|---|---|---:|---:|---:|---:|---:|---:|---|"
for k in $kernels; do
  for d in $devices; do
    kf=$root/examples/kernels/$k.mlir
    df=$root/examples/devices/$d.mlir
    a=$(args_for "$k")
    opt=$("$ktflow" run "$kf" --arch "$df" $a --check 2>&1)
    if ! echo "$opt" | grep -q "^PASS"; then
      why=$(echo "$opt" | grep -m1 "error:" | sed 's/.*error: //' | cut -c1-60)
      echo "| $k | $d | | | | | | | not supported: $why |"
      continue
    fi
    o0=$("$ktflow" run "$kf" --arch "$df" $a -O0 --check 2>&1)
    c=$(echo "$opt" | field "cycles:")
    c0=$(echo "$o0" | field "cycles:")
    roof=$(echo "$opt" | field "roofline:")
    ratio=$(echo "$opt" | field "ratio:")
    start=$(date +%s%N)
    "$ktflow" compile "$kf" --arch "$df" -o /dev/null > /dev/null 2>&1
    ms=$(( ($(date +%s%N) - start) / 1000000 ))
    speedup=$(awk -v a="$c0" -v b="$c" 'BEGIN { printf "%.2f", a / b }')
    pass0=$(echo "$o0" | tail -1)
    echo "| $k | $d | $c0 | $c | $roof | ${ratio}x | ${speedup}x | $ms | PASS (-O0 $pass0) |"
  done
done
