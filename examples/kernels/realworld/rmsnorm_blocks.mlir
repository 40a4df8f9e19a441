// rmsnorm_blocks.mlir - RMSNorm with a block of rows per tile (the last
// block clamped with a cmpi/select minimum), the sum of squares taken as a
// dot product x . x^T on the matrix unit, and the scale kept as a rank-0
// tensor that is broadcast back over the row.
//
// Computes, for r < n_rows (30), c < 256, all values f16:
//   s_b     = f16(sum_{c in block b} X[r, c]^2)   (1x128 . 128x1 linalg.matmul:
//                                                  f32 accumulation, one rounding)
//   acc     = f16(f16(0 + s_0) + s_1)             (carried 1x1 tensor, 2 blocks)
//   rstd    = f16(1 / sqrt(f16(f16(acc / 256) + eps)))   (on tensor<f16>)
//   Y[r, c] = f16(f16(X[r, c] * rstd) * W[c])
//
// Grid [4, 1], one tile id: tile p takes rows [8p, min(8p + 8, n_rows)),
// so tile 3 gets rows 24..29. Each row makes two passes of two 1x128 blocks
// (two sibling inner loops). The 1x1 sum is collapsed to tensor<f16>, and
// linalg.broadcast turns the rank-0 scale back into a 1x128 row.

#x_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 29 >= 0, d1 >= 0, -d1 + 255 >= 0)>
#w_set = affine_set<(d0) : (d0 >= 0, -d0 + 255 >= 0)>
#blk2 = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 127 >= 0)>
#blk1 = affine_set<(d0) : (d0 >= 0, -d0 + 127 >= 0)>
#id1 = affine_map<(d0) -> (d0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @rms_norm_rows(%x_ptr: index,  // X: 30x256 f16 (input)
                           %w_ptr: index,  // W: 256 f16 (input)
                           %y_ptr: index,  // Y: 30x256 f16 (output)
                           %n_rows: index, // 30
                           %eps: f16)      // 1e-5
      attributes {grid = [4, 1]} {
    %pid = ktdp.get_compute_tile_id : index
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %c128 = arith.constant 128 : index
    %c256 = arith.constant 256 : index
    %zero = arith.constant 0.0 : f16
    %n_f = arith.constant 256.0 : f16
    %X = ktdp.construct_memory_view %x_ptr, sizes: [30, 256], strides: [256, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<30x256xf16>
    %W = ktdp.construct_memory_view %w_ptr, sizes: [256], strides: [1] {coordinate_set = #w_set, memory_space = #ktdp.memory_space<global>} : memref<256xf16>
    %Y = ktdp.construct_memory_view %y_ptr, sizes: [30, 256], strides: [256, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<30x256xf16>
    %row_begin = arith.muli %pid, %c8 : index
    %row_next = arith.addi %row_begin, %c8 : index
    %in_range = arith.cmpi slt, %row_next, %n_rows : index
    %row_end = arith.select %in_range, %row_next, %n_rows : index
    %e11 = tensor.empty() : tensor<1x1xf16>
    %zeros11 = linalg.fill ins(%zero : f16) outs(%e11 : tensor<1x1xf16>) -> tensor<1x1xf16>
    %n0 = tensor.splat %n_f : tensor<f16>
    %eps0 = tensor.splat %eps : tensor<f16>
    scf.for %row = %row_begin to %row_end step %c1 : index {
      %acc = scf.for %off = %c0 to %c256 step %c128 iter_args(%a = %zeros11) -> tensor<1x1xf16> {
        %tx = ktdp.construct_access_tile %X[%row, %off] {access_tile_set = #blk2, access_tile_order = #id2} : memref<30x256xf16> -> !ktdp.access_tile<1x128xindex>
        %x = ktdp.load %tx : <1x128xindex> -> tensor<1x128xf16>
        %col = tensor.empty() : tensor<128x1xf16>
        %xt = linalg.transpose ins(%x : tensor<1x128xf16>) outs(%col : tensor<128x1xf16>) permutation = [1, 0]
        %ss = linalg.matmul ins(%x, %xt : tensor<1x128xf16>, tensor<128x1xf16>) outs(%zeros11 : tensor<1x1xf16>) -> tensor<1x1xf16>
        %a2 = arith.addf %a, %ss : tensor<1x1xf16>
        scf.yield %a2 : tensor<1x1xf16>
      }
      %s0 = tensor.collapse_shape %acc [] : tensor<1x1xf16> into tensor<f16>
      %ms = arith.divf %s0, %n0 : tensor<f16>
      %ve = arith.addf %ms, %eps0 : tensor<f16>
      %rstd = math.rsqrt %ve : tensor<f16>
      %row_t = tensor.empty() : tensor<1x128xf16>
      %rstd_b = linalg.broadcast ins(%rstd : tensor<f16>) outs(%row_t : tensor<1x128xf16>) dimensions = [0, 1]
      scf.for %off = %c0 to %c256 step %c128 : index {
        %tx = ktdp.construct_access_tile %X[%row, %off] {access_tile_set = #blk2, access_tile_order = #id2} : memref<30x256xf16> -> !ktdp.access_tile<1x128xindex>
        %tw = ktdp.construct_access_tile %W[%off] {access_tile_set = #blk1, access_tile_order = #id1} : memref<256xf16> -> !ktdp.access_tile<128xindex>
        %x = ktdp.load %tx : <1x128xindex> -> tensor<1x128xf16>
        %w1 = ktdp.load %tw : <128xindex> -> tensor<128xf16>
        %w = tensor.expand_shape %w1 [[0, 1]] output_shape [1, 128] : tensor<128xf16> into tensor<1x128xf16>
        %xn = arith.mulf %x, %rstd_b : tensor<1x128xf16>
        %y = arith.mulf %xn, %w : tensor<1x128xf16>
        %ty = ktdp.construct_access_tile %Y[%row, %off] {access_tile_set = #blk2, access_tile_order = #id2} : memref<30x256xf16> -> !ktdp.access_tile<1x128xindex>
        ktdp.store %y, %ty : tensor<1x128xf16>, <1x128xindex>
        scf.yield
      }
      scf.yield
    }
    return
  }
}
