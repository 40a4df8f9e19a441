// RUN: ktflow-opt %s --ktdf-generalize | FileCheck %s

// The broadcast idiom of real kernels: a row reduced to a one-element
// tensor, extracted and splat back over the row, becomes a generic reading
// the one element through a constant map, fused into its consumer; a splat
// of a constant (a reduction's init) becomes a splat constant.

// CHECK-DAG: #[[ID:.*]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-DAG: #[[ROW:.*]] = affine_map<(d0, d1) -> (d0)>
// CHECK-DAG: #[[ONE:.*]] = affine_map<(d0, d1) -> (0)>
// CHECK-DAG: #[[ONE3:.*]] = affine_map<(d0, d1) -> (0, 0, 0)>
// CHECK-LABEL: func.func @shift
// CHECK-DAG: %[[NINF:.*]] = arith.constant dense<0xFC00> : tensor<1xf16>
// CHECK: %[[MAX:.*]] = linalg.generic {indexing_maps = [#[[ID]], #[[ROW]]], iterator_types = ["parallel", "reduction"]} ins(%arg0 : tensor<1x128xf16>) outs(%[[NINF]] : tensor<1xf16>)
// CHECK: arith.maxnumf
// CHECK: %[[R:.*]] = linalg.generic {indexing_maps = [#[[ID]], #[[ONE]], #[[ID]]], iterator_types = ["parallel", "parallel"]} ins(%arg0, %[[MAX]] : tensor<1x128xf16>, tensor<1xf16>)
// CHECK: arith.subf
// CHECK-NOT: tensor.splat
// CHECK-NOT: tensor.extract
// CHECK: return %[[R]]
func.func @shift(%x: tensor<1x128xf16>) -> tensor<1x128xf16> {
  %c0 = arith.constant 0 : index
  %ninf = arith.constant 0xFC00 : f16
  %init = tensor.splat %ninf : tensor<1xf16>
  %max = linalg.reduce { arith.maxnumf } ins(%x : tensor<1x128xf16>) outs(%init : tensor<1xf16>) dimensions = [1]
  %m = tensor.extract %max[%c0] : tensor<1xf16>
  %mb = tensor.splat %m : tensor<1x128xf16>
  %y = arith.subf %x, %mb : tensor<1x128xf16>
  return %y : tensor<1x128xf16>
}

// A one-element tensor of any rank, broadcast over a tile of several rows:
// every element reads it.
// CHECK-LABEL: func.func @scale
// CHECK: linalg.generic {indexing_maps = [#[[ID]], #[[ONE3]], #[[ID]]], iterator_types = ["parallel", "parallel"]} ins(%arg0, %arg1 : tensor<4x64xf16>, tensor<1x1x1xf16>)
// CHECK: arith.mulf
func.func @scale(%x: tensor<4x64xf16>, %k: tensor<1x1x1xf16>) -> tensor<4x64xf16> {
  %c0 = arith.constant 0 : index
  %s = tensor.extract %k[%c0, %c0, %c0] : tensor<1x1x1xf16>
  %sb = tensor.splat %s : tensor<4x64xf16>
  %y = arith.mulf %x, %sb : tensor<4x64xf16>
  return %y : tensor<4x64xf16>
}

// A splat of a float kernel argument (a norm's epsilon, bound at launch)
// becomes a generic yielding the argument, fused into its consumer: the
// argument is captured by the body, never turned into a constant.
// CHECK-LABEL: func.func @add_eps
// CHECK-SAME: (%[[X:.*]]: tensor<f16>, %[[EPS:.*]]: f16)
// CHECK: linalg.generic {{.*}} ins(%[[X]] : tensor<f16>)
// CHECK-NEXT: ^bb0(%[[IN:.*]]: f16, %{{.*}}: f16):
// CHECK-NEXT: %[[SUM:.*]] = arith.addf %[[IN]], %[[EPS]] : f16
// CHECK-NEXT: linalg.yield %[[SUM]]
// CHECK-NOT: tensor.splat
func.func @add_eps(%x: tensor<f16>, %eps: f16) -> tensor<f16> {
  %e = tensor.splat %eps : tensor<f16>
  %y = arith.addf %x, %e : tensor<f16>
  return %y : tensor<f16>
}
