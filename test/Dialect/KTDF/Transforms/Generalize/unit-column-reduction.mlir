// RUN: ktflow-opt %s --ktdf-generalize -split-input-file | FileCheck %s

// A column reduction of a 1x16x64 tile that keeps its leading dimension of
// extent 1 loses it: a generic over (rows, columns) reducing the rows into
// 64 sums, its input read at batch 0, then copied to the 1x64 result (the
// unit reshape as a copy), so the stream planner sees every leading
// dimension reduced.

// CHECK-DAG: #[[IN:.*]] = affine_map<(d0, d1) -> (0, d0, d1)>
// CHECK-DAG: #[[COL:.*]] = affine_map<(d0, d1) -> (d1)>
// CHECK-LABEL: func.func @kept_unit_batch
// CHECK: %[[SUM:.*]] = linalg.generic {indexing_maps = [#[[IN]], #[[COL]]], iterator_types = ["reduction", "parallel"]}
// CHECK-SAME: ins(%{{.*}} : tensor<1x16x64xf32>) outs(%{{.*}} : tensor<64xf32>)
// CHECK: linalg.generic {{.*}} ins(%[[SUM]] : tensor<64xf32>) outs(%{{.*}} : tensor<1x64xf32>)
func.func @kept_unit_batch(%x: tensor<1x16x64xf32>) -> tensor<1x64xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x64xf32>
  %i = linalg.fill ins(%zero : f32) outs(%e : tensor<1x64xf32>) -> tensor<1x64xf32>
  %s = linalg.reduce { arith.addf } ins(%x : tensor<1x16x64xf32>) outs(%i : tensor<1x64xf32>) dimensions = [1]
  return %s : tensor<1x64xf32>
}

// -----

// A kept leading dimension of extent 2 stays (ktdf-check-supported's
// stream plan refuses the reduction).

// CHECK-LABEL: func.func @kept_batch_of_two
// CHECK: linalg.generic {{.*}} iterator_types = ["parallel", "reduction", "parallel"]
// CHECK-SAME: ins(%{{.*}} : tensor<2x16x64xf32>) outs(%{{.*}} : tensor<2x64xf32>)
func.func @kept_batch_of_two(%x: tensor<2x16x64xf32>) -> tensor<2x64xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x64xf32>
  %i = linalg.fill ins(%zero : f32) outs(%e : tensor<2x64xf32>) -> tensor<2x64xf32>
  %s = linalg.reduce { arith.addf } ins(%x : tensor<2x16x64xf32>) outs(%i : tensor<2x64xf32>) dimensions = [1]
  return %s : tensor<2x64xf32>
}
