// rmsnorm_row_dot.mlir - RMSNorm over 128-wide rows written the way
// Triton-lowered KTIR writes it: a block of rows per tile clamped with a
// cmpi/select minimum, the sum of squares as a dot product x . x^T
// (linalg.transpose + a 1x128 . 128x1 linalg.matmul into linalg.fill),
// the 1x1 result collapsed to a rank-0 tensor, the scale computed on
// tensor<f16> and broadcast back over the row by linalg.broadcast, the
// weight row loaded as a vector and expanded to 1x128.
//
// Computes, for r < n_rows (at most 20), c < 128, all values f16:
//   s       = f16(sum_c f32(X[r, c])^2)      (matmul: f32 products and sum)
//   rstd    = f16(1 / sqrt(f16(f16(s / 128) + 1e-5)))
//   Y[r, c] = f16(f16(X[r, c] * rstd) * W[c])
// Grid [4]: tile p takes rows [6p, min(6p + 6, n_rows)). Rows past the
// views' 20 are masked: they are neither read nor written.

#x_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 19 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#w_set = affine_set<(d0) : (d0 >= 0, -d0 + 127 >= 0)>
#row = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 127 >= 0)>
#vec = affine_set<(d0) : (d0 >= 0, -d0 + 127 >= 0)>
#id1 = affine_map<(d0) -> (d0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @rms_norm_dot(%x_ptr: index,  // X: 20x128 f16 (input)
                          %w_ptr: index,  // W: 128 f16 (input)
                          %y_ptr: index,  // Y: 20x128 f16 (output)
                          %n_rows: index) // rows to normalise
      attributes {grid = [4]} {
    %pid = ktdp.get_compute_tile_id : index
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c6 = arith.constant 6 : index
    %zero = arith.constant 0.0 : f16
    %X = ktdp.construct_memory_view %x_ptr, sizes: [20, 128], strides: [128, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<20x128xf16>
    %W = ktdp.construct_memory_view %w_ptr, sizes: [128], strides: [1] {coordinate_set = #w_set, memory_space = #ktdp.memory_space<global>} : memref<128xf16>
    %Y = ktdp.construct_memory_view %y_ptr, sizes: [20, 128], strides: [128, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<20x128xf16>
    %row_begin = arith.muli %pid, %c6 : index
    %row_next = arith.addi %row_begin, %c6 : index
    %in_range = arith.cmpi slt, %row_next, %n_rows : index
    %row_end = arith.select %in_range, %row_next, %n_rows : index
    %e11 = tensor.empty() : tensor<1x1xf16>
    %zeros11 = linalg.fill ins(%zero : f16) outs(%e11 : tensor<1x1xf16>) -> tensor<1x1xf16>
    %n0 = arith.constant dense<128.0> : tensor<f16>
    %eps0 = arith.constant dense<1.0e-5> : tensor<f16>
    scf.for %r = %row_begin to %row_end step %c1 : index {
      %tx = ktdp.construct_access_tile %X[%r, %c0] {access_tile_set = #row, access_tile_order = #id2} : memref<20x128xf16> -> !ktdp.access_tile<1x128xindex>
      %x = ktdp.load %tx : <1x128xindex> -> tensor<1x128xf16>
      %col = tensor.empty() : tensor<128x1xf16>
      %xt = linalg.transpose ins(%x : tensor<1x128xf16>) outs(%col : tensor<128x1xf16>) permutation = [1, 0]
      %ss = linalg.matmul ins(%x, %xt : tensor<1x128xf16>, tensor<128x1xf16>) outs(%zeros11 : tensor<1x1xf16>) -> tensor<1x1xf16>
      %s0 = tensor.collapse_shape %ss [] : tensor<1x1xf16> into tensor<f16>
      %ms = arith.divf %s0, %n0 : tensor<f16>
      %ve = arith.addf %ms, %eps0 : tensor<f16>
      %rstd = math.rsqrt %ve : tensor<f16>
      %row_t = tensor.empty() : tensor<1x128xf16>
      %rstd_b = linalg.broadcast ins(%rstd : tensor<f16>) outs(%row_t : tensor<1x128xf16>) dimensions = [0, 1]
      %tw = ktdp.construct_access_tile %W[%c0] {access_tile_set = #vec, access_tile_order = #id1} : memref<128xf16> -> !ktdp.access_tile<128xindex>
      %w1 = ktdp.load %tw : <128xindex> -> tensor<128xf16>
      %w = tensor.expand_shape %w1 [[0, 1]] output_shape [1, 128] : tensor<128xf16> into tensor<1x128xf16>
      %xn = arith.mulf %x, %rstd_b : tensor<1x128xf16>
      %y = arith.mulf %xn, %w : tensor<1x128xf16>
      %ty = ktdp.construct_access_tile %Y[%r, %c0] {access_tile_set = #row, access_tile_order = #id2} : memref<20x128xf16> -> !ktdp.access_tile<1x128xindex>
      ktdp.store %y, %ty : tensor<1x128xf16>, <1x128xindex>
    }
    return
  }
}
