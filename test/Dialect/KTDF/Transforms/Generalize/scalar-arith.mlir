// RUN: ktflow-opt %s --ktdf-generalize | FileCheck %s

// Scalar float arithmetic on row scalars (ScalarIdioms.h): a layernorm's
// rstd = rsqrt(sum / f16(N) + eps), with the sum the element of a row's
// one-element reduction, N an index argument converted to f16 through i32
// and eps an f16 argument, is computed on rank-0 tensors: one generic with
// no loops reading the reduction (a row op, computed once per row) and
// capturing N's float and eps, whose result the row's splat reads through
// a constant map. No scalar arithmetic, extract or splat is left.

// CHECK-DAG: #[[ID:.*]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-DAG: #[[ROW:.*]] = affine_map<(d0, d1) -> (d0)>
// CHECK-DAG: #[[SCALAR:.*]] = affine_map<(d0, d1) -> ()>
// CHECK-DAG: #[[FIRST:.*]] = affine_map<(d0, d1) -> (0)>
// CHECK-DAG: #[[ONE:.*]] = affine_map<() -> (0)>
// CHECK-DAG: #[[R0:.*]] = affine_map<() -> ()>
// CHECK-LABEL: func.func @rstd
// CHECK-SAME: (%[[X:.*]]: tensor<1x128xf16>, %[[N:.*]]: index, %[[EPS:.*]]: f16)
// CHECK: %[[NI:.*]] = arith.index_cast %[[N]] : index to i32
// CHECK: %[[NF:.*]] = arith.sitofp %[[NI]] : i32 to f16
// CHECK: %[[SUM:.*]] = linalg.generic {indexing_maps = [#[[ID]], #[[ROW]]], iterator_types = ["parallel", "reduction"]} ins(%[[X]] : tensor<1x128xf16>)
// CHECK: %[[RSTD:.*]] = linalg.generic {indexing_maps = [#[[ONE]], #[[R0]]], iterator_types = []} ins(%[[SUM]] : tensor<1xf16>) outs(%{{.*}} : tensor<f16>)
// CHECK-NEXT: ^bb0(%[[IN:.*]]: f16, %{{.*}}: f16):
// CHECK-NEXT: %[[M:.*]] = arith.divf %[[IN]], %[[NF]] : f16
// CHECK-NEXT: %[[V:.*]] = arith.addf %[[M]], %[[EPS]] : f16
// CHECK-NEXT: %[[R:.*]] = math.rsqrt %[[V]] : f16
// CHECK-NEXT: linalg.yield %[[R]] : f16
// CHECK: %[[Y:.*]] = linalg.generic {indexing_maps = [#[[ID]], #[[SCALAR]], #[[ID]]], iterator_types = ["parallel", "parallel"]} ins(%[[X]], %[[RSTD]] : tensor<1x128xf16>, tensor<f16>)
// CHECK: arith.mulf
// CHECK-NOT: tensor.splat
// CHECK-NOT: tensor.extract
// CHECK: return %[[Y]]
func.func @rstd(%x: tensor<1x128xf16>, %n: index, %eps: f16) -> tensor<1x128xf16> {
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0.0 : f16
  %n_i32 = arith.index_cast %n : index to i32
  %n_f = arith.sitofp %n_i32 : i32 to f16
  %init = tensor.splat %zero : tensor<1xf16>
  %sum = linalg.reduce { arith.addf } ins(%x : tensor<1x128xf16>) outs(%init : tensor<1xf16>) dimensions = [1]
  %s = tensor.extract %sum[%c0] : tensor<1xf16>
  %mean = arith.divf %s, %n_f : f16
  %v = arith.addf %mean, %eps : f16
  %r = math.rsqrt %v : f16
  %rb = tensor.splat %r : tensor<1x128xf16>
  %y = arith.mulf %x, %rb : tensor<1x128xf16>
  return %y : tensor<1x128xf16>
}

// A constant operand becomes a rank-0 constant, which canonicalisation
// captures in the body; the scalar arithmetic of a linalg body is left as it
// is.
// CHECK-LABEL: func.func @half_of_sum
// CHECK-DAG: %[[TWO:.*]] = arith.constant 2.000000e+00 : f16
// CHECK-DAG: %[[HALF:.*]] = arith.constant 5.000000e-01 : f16
// CHECK: linalg.generic {indexing_maps = [#[[ONE]], #[[R0]]], iterator_types = []}
// CHECK: arith.mulf %{{.*}}, %[[HALF]] : f16
// CHECK: linalg.generic {{.*}}iterator_types = ["parallel", "parallel"]
// CHECK: arith.addf %{{.*}}, %[[TWO]] : f16
// CHECK-NOT: tensor.extract
func.func @half_of_sum(%x: tensor<1x128xf16>, %sum: tensor<1xf16>) -> tensor<1x128xf16> {
  %c0 = arith.constant 0 : index
  %half = arith.constant 0.5 : f16
  %s = tensor.extract %sum[%c0] : tensor<1xf16>
  %h = arith.mulf %s, %half : f16
  %hb = tensor.splat %h : tensor<1x128xf16>
  %e = tensor.empty() : tensor<1x128xf16>
  %y = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x, %hb : tensor<1x128xf16>, tensor<1x128xf16>) outs(%e : tensor<1x128xf16>) {
  ^bb0(%a: f16, %b: f16, %o: f16):
    %two = arith.constant 2.0 : f16
    %t = arith.addf %a, %two : f16
    %u = arith.addf %t, %b : f16
    linalg.yield %u : f16
  } -> tensor<1x128xf16>
  return %y : tensor<1x128xf16>
}

// A row scalar a linalg.generic body captures (the field guide's wide-row
// softmax divides by the row's f32 sum inside the generic that truncates to
// f16) becomes one more input: the one-element tensor it is extracted from,
// collapsed to rank 0 and read through the constant map, with the body
// reading the new block argument instead of the capture.

// CHECK-LABEL: func.func @captured_sum
// CHECK-SAME: (%[[E:.*]]: tensor<1x256xf16>, %[[SUM:.*]]: tensor<1xf32>)
// CHECK: linalg.generic {indexing_maps = [#[[ID]], #[[FIRST]], #[[ID]]], iterator_types = ["parallel", "parallel"]} ins(%[[E]], %[[SUM]] : tensor<1x256xf16>, tensor<1xf32>)
// CHECK-NEXT: ^bb0(%[[IN:.*]]: f16, %[[S:.*]]: f32, %{{.*}}: f16):
// CHECK-NEXT: %[[W:.*]] = arith.extf %[[IN]] : f16 to f32
// CHECK-NEXT: arith.divf %[[W]], %[[S]] : f32
// CHECK-NOT: tensor.extract
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @captured_sum(%e: tensor<1x256xf16>, %sum: tensor<1xf32>) -> tensor<1x256xf16> {
  %c0 = arith.constant 0 : index
  %s = tensor.extract %sum[%c0] : tensor<1xf32>
  %empty = tensor.empty() : tensor<1x256xf16>
  %y = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]} ins(%e : tensor<1x256xf16>) outs(%empty : tensor<1x256xf16>) {
  ^bb0(%in: f16, %out: f16):
    %w = arith.extf %in : f16 to f32
    %q = arith.divf %w, %s : f32
    %t = arith.truncf %q : f32 to f16
    linalg.yield %t : f16
  } -> tensor<1x256xf16>
  return %y : tensor<1x256xf16>
}

// A comparison of a row's maximum picks between whole rows (Triton's
// `tl.where(m > 0, x, -x)`): the compute unit broadcasts floats, not i1,
// so the maximum is broadcast and compared per element, in one generic
// with the select (BroadcastRowComparison).

// CHECK-LABEL: func.func @row_select
// CHECK-SAME: (%[[X:.*]]: tensor<1x128xf16>)
// CHECK: %[[MAX:.*]] = linalg.generic {{.*}} ins(%[[X]] : tensor<1x128xf16>)
// CHECK: linalg.generic {{.*}} ins(%[[MAX]], %[[X]] : tensor<1xf16>, tensor<1x128xf16>)
// CHECK-NEXT: ^bb0(%[[M:.*]]: f16, %[[V:.*]]: f16, %{{.*}}: f16):
// CHECK-NEXT: %[[NEG:.*]] = arith.negf %[[V]] : f16
// CHECK-NEXT: %[[POS:.*]] = arith.cmpf ogt, %[[M]], %{{.*}} : f16
// CHECK-NEXT: %[[R:.*]] = arith.select %[[POS]], %[[V]], %[[NEG]] : f16
// CHECK-NOT: tensor.extract
func.func @row_select(%x: tensor<1x128xf16>) -> tensor<1x128xf16> {
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0.0 : f16
  %init = tensor.splat %zero : tensor<1xf16>
  %mx = linalg.reduce { arith.maximumf } ins(%x : tensor<1x128xf16>) outs(%init : tensor<1xf16>) dimensions = [1]
  %m = tensor.extract %mx[%c0] : tensor<1xf16>
  %pos = arith.cmpf ogt, %m, %zero : f16
  %neg = arith.negf %x : tensor<1x128xf16>
  %n = arith.select %pos, %x, %neg : tensor<1x128xf16>
  return %n : tensor<1x128xf16>
}

// A select of row values by the same comparison is a row op: one more
// scalar op on rank-0 tensors, its result broadcast.

// CHECK-LABEL: func.func @row_guard
// CHECK: linalg.generic {{.*}} iterator_types = []
// CHECK-NEXT: ^bb0(%[[M:.*]]: f16, %{{.*}}: f16):
// CHECK-NEXT: %[[INV:.*]] = arith.divf %{{.*}}, %[[M]] : f16
// CHECK-NEXT: %[[POS:.*]] = arith.cmpf ogt, %[[M]], %{{.*}} : f16
// CHECK-NEXT: arith.select %[[POS]], %[[INV]], %{{.*}} : f16
// CHECK-NOT: tensor.extract
// CHECK-NOT: tensor.splat
func.func @row_guard(%x: tensor<1x128xf16>) -> tensor<1x128xf16> {
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0.0 : f16
  %one = arith.constant 1.0 : f16
  %init = tensor.splat %zero : tensor<1xf16>
  %mx = linalg.reduce { arith.maximumf } ins(%x : tensor<1x128xf16>) outs(%init : tensor<1xf16>) dimensions = [1]
  %m = tensor.extract %mx[%c0] : tensor<1xf16>
  %pos = arith.cmpf ogt, %m, %zero : f16
  %inv = arith.divf %one, %m : f16
  %s = arith.select %pos, %inv, %one : f16
  %sv = tensor.splat %s : tensor<1x128xf16>
  %y = arith.mulf %x, %sv : tensor<1x128xf16>
  return %y : tensor<1x128xf16>
}
