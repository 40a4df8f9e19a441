// RUN: ktflow-opt %s --ktdf-generalize | FileCheck %s

// The shape idioms of real kernels (RMSNorm as Triton lowers it):
// tensor.expand_shape / collapse_shape that only add or remove dimensions
// of extent 1 become copies folded into their neighbours' indexing maps;
// a row's dot product with itself, linalg.matmul(x, linalg.transpose(x))
// with a 1x1 result, becomes the row reduction of f32(x) * f32(x) from 0
// in f32 (the interpreter's matmul: exact products of f16 inputs, one sum)
// rounded once to f16; a computation on a rank-0 tensor stays its own op
// (computed once per row), while the broadcast of its result fuses away.

// CHECK-DAG: #[[ID:.*]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-DAG: #[[ROW:.*]] = affine_map<(d0, d1) -> (d0)>
// CHECK-DAG: #[[ONE:.*]] = affine_map<() -> (0)>
// CHECK-DAG: #[[SCALAR:.*]] = affine_map<() -> ()>
// CHECK-DAG: #[[BCAST:.*]] = affine_map<(d0, d1) -> ()>
// CHECK-DAG: #[[COL:.*]] = affine_map<(d0, d1) -> (d1)>
// CHECK-DAG: #[[ONE2:.*]] = affine_map<(d0, d1) -> (0)>
// CHECK-LABEL: func.func @rms_row
// CHECK: %[[ZERO:.*]] = linalg.generic {{.*}} outs(%{{.*}} : tensor<1xf32>)
// CHECK: %[[SUM:.*]] = linalg.generic {indexing_maps = [#[[ID]], #[[ROW]]], iterator_types = ["parallel", "reduction"]} ins(%arg0 : tensor<1x128xf16>) outs(%[[ZERO]] : tensor<1xf32>)
// CHECK-NEXT: ^bb0(%[[V:.*]]: f16, %[[ACC:.*]]: f32):
// CHECK-NEXT:   %[[W:.*]] = arith.extf %[[V]] : f16 to f32
// CHECK-NEXT:   %[[SQ:.*]] = arith.mulf %[[W]], %[[W]] : f32
// CHECK-NEXT:   %[[NEXT:.*]] = arith.addf %[[SQ]], %[[ACC]] : f32
// CHECK-NEXT:   linalg.yield %[[NEXT]] : f32
// CHECK: %[[RSTD:.*]] = linalg.generic {indexing_maps = [#[[ONE]], #[[SCALAR]]], iterator_types = []} ins(%[[SUM]] : tensor<1xf32>) outs(%{{.*}} : tensor<f16>)
// CHECK: arith.truncf
// CHECK: arith.divf
// CHECK: arith.addf
// CHECK: math.rsqrt
// CHECK: %[[Y:.*]] = linalg.generic {indexing_maps = [#[[ID]], #[[BCAST]], #[[COL]], #[[ID]]], iterator_types = ["parallel", "parallel"]} ins(%arg0, %[[RSTD]], %arg1 : tensor<1x128xf16>, tensor<f16>, tensor<128xf16>)
// CHECK: arith.mulf
// CHECK: arith.mulf
// CHECK-NOT: linalg.matmul
// CHECK-NOT: linalg.transpose
// CHECK-NOT: tensor.collapse_shape
// CHECK-NOT: tensor.expand_shape
// CHECK: return %[[Y]]
func.func @rms_row(%x: tensor<1x128xf16>, %w1: tensor<128xf16>) -> tensor<1x128xf16> {
  %zero = arith.constant 0.0 : f16
  %n0 = arith.constant dense<128.0> : tensor<f16>
  %eps0 = arith.constant dense<1.0e-5> : tensor<f16>
  %e11 = tensor.empty() : tensor<1x1xf16>
  %zeros11 = linalg.fill ins(%zero : f16) outs(%e11 : tensor<1x1xf16>) -> tensor<1x1xf16>
  %col = tensor.empty() : tensor<128x1xf16>
  %xt = linalg.transpose ins(%x : tensor<1x128xf16>) outs(%col : tensor<128x1xf16>) permutation = [1, 0]
  %ss = linalg.matmul ins(%x, %xt : tensor<1x128xf16>, tensor<128x1xf16>) outs(%zeros11 : tensor<1x1xf16>) -> tensor<1x1xf16>
  %s0 = tensor.collapse_shape %ss [] : tensor<1x1xf16> into tensor<f16>
  %ms = arith.divf %s0, %n0 : tensor<f16>
  %ve = arith.addf %ms, %eps0 : tensor<f16>
  %rstd = math.rsqrt %ve : tensor<f16>
  %row_t = tensor.empty() : tensor<1x128xf16>
  %rstd_b = linalg.broadcast ins(%rstd : tensor<f16>) outs(%row_t : tensor<1x128xf16>) dimensions = [0, 1]
  %w = tensor.expand_shape %w1 [[0, 1]] output_shape [1, 128] : tensor<128xf16> into tensor<1x128xf16>
  %xn = arith.mulf %x, %rstd_b : tensor<1x128xf16>
  %y = arith.mulf %xn, %w : tensor<1x128xf16>
  return %y : tensor<1x128xf16>
}

// A running sum of squares: the matmul's output is not zero, so the
// rounded sum is added into it (matmul semantics: outs + A.B), read as the
// one element of the 1-element sum; with an f32 output there is no
// rounding before the add.
// CHECK-LABEL: func.func @accumulate
// CHECK: %[[S:.*]] = linalg.generic {{.*}}iterator_types = ["parallel", "reduction"]} ins(%arg0 : tensor<1x64xf16>) outs(%{{.*}} : tensor<1xf32>)
// CHECK: %[[R:.*]] = linalg.generic {indexing_maps = [#[[ID]], #[[ONE2]], #[[ID]]], iterator_types = ["parallel", "parallel"]} ins(%arg1, %[[S]] : tensor<1x1xf16>, tensor<1xf32>)
// CHECK-NEXT: ^bb0(%[[ACC:.*]]: f16, %[[SUM:.*]]: f32, %{{.*}}: f16):
// CHECK-NEXT:   %[[T:.*]] = arith.truncf %[[SUM]] : f32 to f16
// CHECK-NEXT:   %[[A:.*]] = arith.addf %[[ACC]], %[[T]] : f16
// CHECK: return %[[R]]
func.func @accumulate(%x: tensor<1x64xf16>, %acc: tensor<1x1xf16>) -> tensor<1x1xf16> {
  %col = tensor.empty() : tensor<64x1xf16>
  %xt = linalg.transpose ins(%x : tensor<1x64xf16>) outs(%col : tensor<64x1xf16>) permutation = [1, 0]
  %ss = linalg.matmul ins(%x, %xt : tensor<1x64xf16>, tensor<64x1xf16>) outs(%acc : tensor<1x1xf16>) -> tensor<1x1xf16>
  return %ss : tensor<1x1xf16>
}

// CHECK-LABEL: func.func @accumulate_f32
// CHECK: %[[S:.*]] = linalg.generic {{.*}}iterator_types = ["parallel", "reduction"]} ins(%arg0 : tensor<1x64xf16>) outs(%{{.*}} : tensor<1xf32>)
// CHECK: linalg.generic {indexing_maps = [#[[ID]], #[[ONE2]], #[[ID]]], iterator_types = ["parallel", "parallel"]} ins(%arg1, %[[S]] : tensor<1x1xf32>, tensor<1xf32>)
// CHECK-NOT: arith.truncf
// CHECK: arith.addf
func.func @accumulate_f32(%x: tensor<1x64xf16>, %acc: tensor<1x1xf32>) -> tensor<1x1xf32> {
  %col = tensor.empty() : tensor<64x1xf16>
  %xt = linalg.transpose ins(%x : tensor<1x64xf16>) outs(%col : tensor<64x1xf16>) permutation = [1, 0]
  %ss = linalg.matmul ins(%x, %xt : tensor<1x64xf16>, tensor<64x1xf16>) outs(%acc : tensor<1x1xf32>) -> tensor<1x1xf32>
  return %ss : tensor<1x1xf32>
}

// A product of two different matrices stays a named op: its compute group
// goes to a matrix unit (Generalize/matmul.mlir).
// CHECK-LABEL: func.func @general
// CHECK: linalg.matmul ins(%arg0, %arg1 : tensor<1x64xf16>, tensor<64x1xf16>) outs(%arg2 : tensor<1x1xf16>)
func.func @general(%a: tensor<1x64xf16>, %b: tensor<64x1xf16>, %acc: tensor<1x1xf16>) -> tensor<1x1xf16> {
  %r = linalg.matmul ins(%a, %b : tensor<1x64xf16>, tensor<64x1xf16>) outs(%acc : tensor<1x1xf16>) -> tensor<1x1xf16>
  return %r : tensor<1x1xf16>
}
