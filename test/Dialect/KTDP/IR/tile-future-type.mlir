// RUN: ktflow-opt %s -allow-unregistered-dialect | ktflow-opt -allow-unregistered-dialect | FileCheck %s
// RUN: ktflow-opt %s -allow-unregistered-dialect --verify-roundtrip | FileCheck %s

// !ktdp.tile_future with one and two partial types. In the full `!ktdp.`
// spelling a groups set containing `>=` must be an alias: MLIR's lexer
// reads the `>` of `>=` as the end of the type (see types-invalid.mlir).

#eight_groups = affine_set<(g) : (g >= 0, -g + 7 >= 0)>

// CHECK-DAG: #[[ONE:.+]] = affine_set<(d0) : (d0 == 0)>
// CHECK-DAG: #[[EIGHT:.+]] = affine_set<(d0) : (d0 >= 0, -d0 + 7 >= 0)>

// CHECK-LABEL: func.func @tile_futures
func.func @tile_futures() {
  // CHECK: "test.op"() : () -> !ktdp.tile_future<(tensor<1x64xf16>), groups = #[[ONE]]>
  %0 = "test.op"() : () -> !ktdp.tile_future<(tensor<1x64xf16>), groups = affine_set<(g) : (g == 0)>>
  // CHECK: "test.op"() : () -> !ktdp.tile_future<(tensor<1x64xf32>, tensor<1x64xi32>), groups = #[[EIGHT]]>
  %1 = "test.op"() : () -> !ktdp.tile_future<(tensor<1x64xf32>, tensor<1x64xi32>), groups = #eight_groups>
  // CHECK: "test.op"() : () -> !ktdp.tile_future<(tensor<?x8xf16>), groups = #[[ONE]]>
  %2 = "test.op"() : () -> !ktdp.tile_future<(tensor<?x8xf16>), groups = affine_set<(d0) : (d0 == 0)>>
  return
}
