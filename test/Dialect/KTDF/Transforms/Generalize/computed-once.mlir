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

// A cheap producer whose users all map its values in one pass (RoPE's
// rotate-half: each of the four extensions to f32 feeds two products) stays
// one op: the compute unit keeps its chunk for both users. Fused into each
// it would extend every input twice (rope.mlir on mesh_device: 15 cycles a
// half-row map instead of 7, plus 8 for the four extensions once).

// CHECK-LABEL: func.func @rotate_half
// CHECK-COUNT-4: arith.extf %{{.*}} : f16 to f32
// CHECK-NOT: arith.extf
// CHECK: ^bb0(%{{.*}}: f32, %{{.*}}: f32, %{{.*}}: f32, %{{.*}}: f32, %{{.*}}: f16):
// CHECK-NEXT: arith.mulf
// CHECK-NEXT: arith.mulf
// CHECK-NEXT: arith.subf
// CHECK-NEXT: arith.truncf
// CHECK: ^bb0(%{{.*}}: f32, %{{.*}}: f32, %{{.*}}: f32, %{{.*}}: f32, %{{.*}}: f16):
// CHECK-NEXT: arith.mulf
// CHECK-NEXT: arith.mulf
// CHECK-NEXT: arith.addf
// CHECK-NEXT: arith.truncf
// CHECK: return
func.func @rotate_half(%x1h: tensor<4x32xf16>, %x2h: tensor<4x32xf16>,
                       %ch: tensor<4x32xf16>, %sh: tensor<4x32xf16>)
    -> (tensor<4x32xf16>, tensor<4x32xf16>) {
  %x1 = arith.extf %x1h : tensor<4x32xf16> to tensor<4x32xf32>
  %x2 = arith.extf %x2h : tensor<4x32xf16> to tensor<4x32xf32>
  %c = arith.extf %ch : tensor<4x32xf16> to tensor<4x32xf32>
  %s = arith.extf %sh : tensor<4x32xf16> to tensor<4x32xf32>
  %x1c = arith.mulf %x1, %c : tensor<4x32xf32>
  %x2s = arith.mulf %x2, %s : tensor<4x32xf32>
  %y1 = arith.subf %x1c, %x2s : tensor<4x32xf32>
  %x2c = arith.mulf %x2, %c : tensor<4x32xf32>
  %x1s = arith.mulf %x1, %s : tensor<4x32xf32>
  %y2 = arith.addf %x2c, %x1s : tensor<4x32xf32>
  %y1h = arith.truncf %y1 : tensor<4x32xf32> to tensor<4x32xf16>
  %y2h = arith.truncf %y2 : tensor<4x32xf32> to tensor<4x32xf16>
  return %y1h, %y2h : tensor<4x32xf16>, tensor<4x32xf16>
}

// A row's sum of squares of widened 16-bit values is a dot product the
// lowering computes at the matrix rate from the narrow values
// (DotProducts.cpp), which needs the extension in the reduction's body:
// there the extension is fused into both users (x / the row's sum of
// squares), each of the two passes over the row extending again.

// CHECK-LABEL: func.func @scale_by_sum_of_squares
// CHECK: iterator_types = ["parallel", "reduction"]
// CHECK-NEXT: ^bb0
// CHECK-NEXT: arith.extf
// CHECK-NEXT: arith.mulf
// CHECK-NEXT: arith.addf
// CHECK: iterator_types = ["parallel", "parallel"]
// CHECK-NEXT: ^bb0
// CHECK-NEXT: arith.extf
// CHECK-NEXT: arith.divf
// CHECK-NEXT: arith.truncf
func.func @scale_by_sum_of_squares(%xh: tensor<4x32xf16>) -> tensor<4x32xf16> {
  %x = arith.extf %xh : tensor<4x32xf16> to tensor<4x32xf32>
  %zero = arith.constant 0.0 : f32
  %e4 = tensor.empty() : tensor<4xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e4 : tensor<4xf32>) -> tensor<4xf32>
  %sq = arith.mulf %x, %x : tensor<4x32xf32>
  %ss = linalg.reduce { arith.addf } ins(%sq : tensor<4x32xf32>) outs(%init : tensor<4xf32>) dimensions = [1]
  %e = tensor.empty() : tensor<4x32xf32>
  %b = linalg.broadcast ins(%ss : tensor<4xf32>) outs(%e : tensor<4x32xf32>) dimensions = [1]
  %y = arith.divf %x, %b : tensor<4x32xf32>
  %yh = arith.truncf %y : tensor<4x32xf32> to tensor<4x32xf16>
  return %yh : tensor<4x32xf16>
}

// A layernorm's passes: the sum of X, then the sum of squares of the
// centred values (which wait for the mean), then the normalisation (which
// waits for the variance). The extension of X and the centred values each
// feed users in two or three passes; kept one op, ktdf-tile-streams can
// keep their chunks from the pass that first computes them for the later
// ones (StreamKeep.cpp) instead of every pass extending X again and two of
// them centring it (layernorm.mlir on mesh_device: 727 -> 631 cycles).
// The centred values are not widened 16-bit values: their sum of squares
// is no dot product, so it reads them too.

// CHECK-LABEL: func.func @layernorm_passes
// CHECK: %[[XF:.*]] = linalg.generic {{.*}} ins(%arg0 : tensor<2x128xf16>)
// CHECK-NEXT: ^bb0
// CHECK-NEXT: arith.extf
// CHECK-NEXT: linalg.yield
// CHECK: %[[SUM:.*]] = linalg.generic {{.*}} iterator_types = ["parallel", "reduction"]} ins(%[[XF]] :
// CHECK-NEXT: ^bb0
// CHECK-NEXT: arith.addf
// CHECK-NEXT: linalg.yield
// CHECK: %[[C:.*]] = linalg.generic {{.*}} ins(%[[XF]], %{{.*}} : tensor<2x128xf32>, tensor<2xf32>)
// CHECK-NEXT: ^bb0
// CHECK-NEXT: arith.subf
// CHECK-NEXT: linalg.yield
// CHECK: linalg.generic {{.*}} iterator_types = ["parallel", "reduction"]} ins(%[[C]] :
// CHECK-NEXT: ^bb0
// CHECK-NEXT: arith.mulf
// CHECK-NEXT: arith.addf
// CHECK-NEXT: linalg.yield
// CHECK: linalg.generic {{.*}} ins(%[[C]], %{{.*}} : tensor<2x128xf32>, tensor<2xf32>)
// CHECK-NOT: arith.extf
// CHECK: return
func.func @layernorm_passes(%xh: tensor<2x128xf16>) -> tensor<2x128xf16> {
  %xf = arith.extf %xh : tensor<2x128xf16> to tensor<2x128xf32>
  %zero = arith.constant 0.0 : f32
  %e2 = tensor.empty() : tensor<2xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e2 : tensor<2xf32>) -> tensor<2xf32>
  %sum = linalg.reduce { arith.addf } ins(%xf : tensor<2x128xf32>) outs(%init : tensor<2xf32>) dimensions = [1]
  %n = arith.constant dense<128.0> : tensor<2xf32>
  %mean = arith.divf %sum, %n : tensor<2xf32>
  %e = tensor.empty() : tensor<2x128xf32>
  %mb = linalg.broadcast ins(%mean : tensor<2xf32>) outs(%e : tensor<2x128xf32>) dimensions = [1]
  %c = arith.subf %xf, %mb : tensor<2x128xf32>
  %sq = arith.mulf %c, %c : tensor<2x128xf32>
  %ss = linalg.reduce { arith.addf } ins(%sq : tensor<2x128xf32>) outs(%init : tensor<2xf32>) dimensions = [1]
  %var = arith.divf %ss, %n : tensor<2xf32>
  %rstd = math.rsqrt %var : tensor<2xf32>
  %rb = linalg.broadcast ins(%rstd : tensor<2xf32>) outs(%e : tensor<2x128xf32>) dimensions = [1]
  %y = arith.mulf %c, %rb : tensor<2x128xf32>
  %yh = arith.truncf %y : tensor<2x128xf32> to tensor<2x128xf16>
  return %yh : tensor<2x128xf16>
}
