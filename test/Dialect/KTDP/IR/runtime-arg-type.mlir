// RUN: ktflow-opt %s | ktflow-opt | FileCheck %s

// Every underlying type and attribute combination of !ktdp.runtime_arg.

// CHECK-LABEL: func.func @underlying_types
// CHECK-SAME: !ktdp.runtime_arg<index>
// CHECK-SAME: !ktdp.runtime_arg<i32>
// CHECK-SAME: !ktdp.runtime_arg<i64>
// CHECK-SAME: !ktdp.runtime_arg<f32>
// CHECK-SAME: !ktdp.runtime_arg<bf16>
func.func @underlying_types(%a: !ktdp.runtime_arg<index>, %b: !ktdp.runtime_arg<i32>,
                            %c: !ktdp.runtime_arg<i64>, %d: !ktdp.runtime_arg<f32>,
                            %e: !ktdp.runtime_arg<bf16>) {
  return
}

// CHECK-LABEL: func.func @attributes
// CHECK-SAME: !ktdp.runtime_arg<index, granularity=32>
// CHECK-SAME: !ktdp.runtime_arg<index, upperbound=2048>
// CHECK-SAME: !ktdp.runtime_arg<i32, granularity=128, upperbound=2048>
// CHECK-SAME: !ktdp.runtime_arg<i64, granularity=1, upperbound=1>
func.func @attributes(%a: !ktdp.runtime_arg<index, granularity=32>,
                      %b: !ktdp.runtime_arg<index, upperbound=2048>,
                      %c: !ktdp.runtime_arg<i32, upperbound=2048, granularity=128>,
                      %d: !ktdp.runtime_arg<i64, granularity=1, upperbound=1>) {
  return
}
