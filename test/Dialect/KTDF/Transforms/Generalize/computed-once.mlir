// RUN: ktflow-opt %s --ktdf-generalize | FileCheck %s

// Fusion computes no value more often than the kernel does. One trip of an
// online softmax (flash attention's key loop):
// - the causal mask feeds the row maximum and exp(s - m'): it reads its
//   coordinates (a vector unit materialises them), so it stays one op whose
//   result both read, not one copy fused into each;
// - exp(s - m') feeds the row sum and P.V: a transcendental, it stays one op;
// - the rescale exp(m - m') is a per-row vector that the accumulator reads
//   broadcast over its 128 columns: fused there it would run 16 x 128 times
//   instead of 16, so the accumulator's op reads it (a row map) and the
//   row sum's op, one exp per row, is where the maximum's subtraction fuses;
// - the cheap new maximum m' = max(m, mb) still fuses into its users.

// CHECK-DAG: #[[ID:.*]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-DAG: #[[ROW:.*]] = affine_map<(d0, d1) -> (d0)>
// CHECK-DAG: #[[VEC:.*]] = affine_map<(d0) -> (d0)>
// CHECK-LABEL: func.func @online_softmax_trip
// The mask: once.
// CHECK: %[[MASKED:.*]] = linalg.generic {indexing_maps = [#[[ID]], #[[ID]]], iterator_types = ["parallel", "parallel"]} ins(%arg0 : tensor<16x128xf32>)
// CHECK: linalg.index 0
// CHECK: arith.select
// CHECK-NOT: linalg.index
// The row maximum reads it.
// CHECK: %[[MB:.*]] = linalg.generic {indexing_maps = [#[[ID]], #[[ROW]]], iterator_types = ["parallel", "reduction"]} ins(%[[MASKED]] : tensor<16x128xf32>)
// CHECK-NOT: math.exp
// CHECK: %[[MNEW:.*]] = linalg.generic {indexing_maps = [#[[VEC]], #[[VEC]], #[[VEC]]], {{.*}} ins(%arg1, %[[MB]] :
// CHECK-NEXT: ^bb0
// CHECK-NEXT: arith.maximumf
// CHECK-NEXT: linalg.yield
// P = exp(masked - m'), once, m' read per row.
// CHECK: %[[P:.*]] = linalg.generic {indexing_maps = [#[[ID]], #[[ROW]], #[[ID]]], {{.*}} ins(%[[MASKED]], %[[MNEW]] :
// CHECK-NEXT: ^bb0
// CHECK-NEXT: arith.subf
// CHECK-NEXT: math.exp
// CHECK-NEXT: linalg.yield
// The rescale: one exp per row (m' recomputed into it: a maximum is cheap).
// CHECK: %[[ALPHA:.*]] = linalg.generic {indexing_maps = [#[[VEC]], #[[VEC]], #[[VEC]]], {{.*}} ins(%arg1, %[[MB]] :
// CHECK-NEXT: ^bb0
// CHECK-NEXT: arith.maximumf
// CHECK-NEXT: arith.subf
// CHECK-NEXT: math.exp
// CHECK-NEXT: linalg.yield
// The row sum reads P, without an exp of its own.
// CHECK: %[[PS:.*]] = linalg.generic {indexing_maps = [#[[ID]], #[[ROW]]], iterator_types = ["parallel", "reduction"]} ins(%[[P]] : tensor<16x128xf32>)
// CHECK-NEXT: ^bb0
// CHECK-NEXT: arith.addf
// CHECK-NEXT: linalg.yield
// CHECK: linalg.generic {{.*}} ins(%arg2, %[[ALPHA]], %[[PS]] :
// The accumulator reads the rescale per row, and P.V reads P.
// CHECK: %[[SCALED:.*]] = linalg.generic {indexing_maps = [#[[ID]], #[[ROW]], #[[ID]]], {{.*}} ins(%arg3, %[[ALPHA]] :
// CHECK-NEXT: ^bb0
// CHECK-NEXT: arith.mulf
// CHECK-NEXT: linalg.yield
// CHECK: linalg.matmul ins(%[[P]], %arg4 : tensor<16x128xf32>, tensor<128x128xf32>) outs(%[[SCALED]] : tensor<16x128xf32>)
// CHECK-NOT: math.exp

#id2 = affine_map<(d0, d1) -> (d0, d1)>
#rowmap = affine_map<(d0, d1) -> (d0)>
func.func @online_softmax_trip(%s: tensor<16x128xf32>, %m_run: tensor<16xf32>,
                               %l_run: tensor<16xf32>,
                               %acc_run: tensor<16x128xf32>,
                               %v: tensor<128x128xf32>, %q0: index,
                               %kb: index)
    -> (tensor<16xf32>, tensor<16xf32>, tensor<16x128xf32>) {
  %ninf_bits = arith.constant 0xFF800000 : i32
  %ninf = arith.bitcast %ninf_bits : i32 to f32
  %zero = arith.constant 0.0 : f32
  %e16 = tensor.empty() : tensor<16xf32>
  %e_s = tensor.empty() : tensor<16x128xf32>
  %masked = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%s : tensor<16x128xf32>) outs(%e_s : tensor<16x128xf32>) {
    ^bb0(%val: f32, %out: f32):
      %i = linalg.index 0 : index
      %j = linalg.index 1 : index
      %qi = arith.addi %q0, %i : index
      %kj = arith.addi %kb, %j : index
      %visible = arith.cmpi ule, %kj, %qi : index
      %r = arith.select %visible, %val, %ninf : f32
      linalg.yield %r : f32
  } -> tensor<16x128xf32>
  %mb_init = linalg.fill ins(%ninf : f32) outs(%e16 : tensor<16xf32>) -> tensor<16xf32>
  %mb = linalg.reduce ins(%masked : tensor<16x128xf32>) outs(%mb_init : tensor<16xf32>) dimensions = [1]
    (%a : f32, %b : f32) {
      %gt = arith.cmpf ogt, %a, %b : f32
      %mx = arith.select %gt, %a, %b : f32
      linalg.yield %mx : f32
    }
  %m_new = arith.maximumf %m_run, %mb : tensor<16xf32>
  %p = linalg.generic {indexing_maps = [#id2, #rowmap, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%masked, %m_new : tensor<16x128xf32>, tensor<16xf32>) outs(%e_s : tensor<16x128xf32>) {
    ^bb0(%val: f32, %mi: f32, %out: f32):
      %d = arith.subf %val, %mi : f32
      %ex = math.exp %d : f32
      linalg.yield %ex : f32
  } -> tensor<16x128xf32>
  %dm = arith.subf %m_run, %m_new : tensor<16xf32>
  %alpha = math.exp %dm : tensor<16xf32>
  %ps_init = linalg.fill ins(%zero : f32) outs(%e16 : tensor<16xf32>) -> tensor<16xf32>
  %ps = linalg.reduce { arith.addf } ins(%p : tensor<16x128xf32>) outs(%ps_init : tensor<16xf32>) dimensions = [1]
  %l_scaled = arith.mulf %l_run, %alpha : tensor<16xf32>
  %l_new = arith.addf %l_scaled, %ps : tensor<16xf32>
  %acc_scaled = linalg.generic {indexing_maps = [#id2, #rowmap, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%acc_run, %alpha : tensor<16x128xf32>, tensor<16xf32>) outs(%e_s : tensor<16x128xf32>) {
    ^bb0(%a_in: f32, %al: f32, %out: f32):
      %r = arith.mulf %a_in, %al : f32
      linalg.yield %r : f32
  } -> tensor<16x128xf32>
  %acc_new = linalg.matmul ins(%p, %v : tensor<16x128xf32>, tensor<128x128xf32>) outs(%acc_scaled : tensor<16x128xf32>) -> tensor<16x128xf32>
  return %m_new, %l_new, %acc_new : tensor<16xf32>, tensor<16xf32>, tensor<16x128xf32>
}
