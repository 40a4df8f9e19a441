// rmsnorm_256x4096.mlir - benchmark shape of RMSNorm, the [4, 1] variant
// (ktir-field-guide.md §3 item 8; examples/kernels/realworld/rmsnorm_blocks.mlir
// at full size): 256x4096 f16 X, W and Y, 64 rows per tile, each row two
// passes of four 1x1024 blocks.
//
// Computes, for r < 256, c < 4096, all f16:
//   s_b     = f16(sum_{c in block b} X[r, c]^2)   (1x1024 . 1024x1 matmul,
//                                                  f32 accumulation)
//   acc     = f16 running sum of s_0..s_3
//   rstd    = f16(1 / sqrt(f16(f16(acc / 4096) + eps)))
//   Y[r, c] = f16(f16(X[r, c] * rstd) * W[c])

#x_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 255 >= 0, d1 >= 0, -d1 + 4095 >= 0)>
#w_set = affine_set<(d0) : (d0 >= 0, -d0 + 4095 >= 0)>
#blk2 = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 1023 >= 0)>
#blk1 = affine_set<(d0) : (d0 >= 0, -d0 + 1023 >= 0)>
#id1 = affine_map<(d0) -> (d0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @rms_norm_rows(%x_ptr: index,  // X: 256x4096 f16 (input)
                           %w_ptr: index,  // W: 4096 f16 (input)
                           %y_ptr: index,  // Y: 256x4096 f16 (output)
                           %n_rows: index, // 256
                           %eps: f16)      // 1e-5
      attributes {grid = [4, 1]} {
    %pid = ktdp.get_compute_tile_id : index
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    %c1024 = arith.constant 1024 : index
    %c4096 = arith.constant 4096 : index
    %zero = arith.constant 0.0 : f16
    %n_f = arith.constant 4096.0 : f16
    %X = ktdp.construct_memory_view %x_ptr, sizes: [256, 4096], strides: [4096, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<256x4096xf16>
    %W = ktdp.construct_memory_view %w_ptr, sizes: [4096], strides: [1] {coordinate_set = #w_set, memory_space = #ktdp.memory_space<global>} : memref<4096xf16>
    %Y = ktdp.construct_memory_view %y_ptr, sizes: [256, 4096], strides: [4096, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<256x4096xf16>
    %row_begin = arith.muli %pid, %c64 : index
    %row_next = arith.addi %row_begin, %c64 : index
    %in_range = arith.cmpi slt, %row_next, %n_rows : index
    %row_end = arith.select %in_range, %row_next, %n_rows : index
    %e11 = tensor.empty() : tensor<1x1xf16>
    %zeros11 = linalg.fill ins(%zero : f16) outs(%e11 : tensor<1x1xf16>) -> tensor<1x1xf16>
    %n0 = tensor.splat %n_f : tensor<f16>
    %eps0 = tensor.splat %eps : tensor<f16>
    scf.for %row = %row_begin to %row_end step %c1 : index {
      %acc = scf.for %off = %c0 to %c4096 step %c1024 iter_args(%a = %zeros11) -> tensor<1x1xf16> {
        %tx = ktdp.construct_access_tile %X[%row, %off] {access_tile_set = #blk2, access_tile_order = #id2} : memref<256x4096xf16> -> !ktdp.access_tile<1x1024xindex>
        %x = ktdp.load %tx : <1x1024xindex> -> tensor<1x1024xf16>
        %col = tensor.empty() : tensor<1024x1xf16>
        %xt = linalg.transpose ins(%x : tensor<1x1024xf16>) outs(%col : tensor<1024x1xf16>) permutation = [1, 0]
        %ss = linalg.matmul ins(%x, %xt : tensor<1x1024xf16>, tensor<1024x1xf16>) outs(%zeros11 : tensor<1x1xf16>) -> tensor<1x1xf16>
        %a2 = arith.addf %a, %ss : tensor<1x1xf16>
        scf.yield %a2 : tensor<1x1xf16>
      }
      %s0 = tensor.collapse_shape %acc [] : tensor<1x1xf16> into tensor<f16>
      %ms = arith.divf %s0, %n0 : tensor<f16>
      %ve = arith.addf %ms, %eps0 : tensor<f16>
      %rstd = math.rsqrt %ve : tensor<f16>
      %row_t = tensor.empty() : tensor<1x1024xf16>
      %rstd_b = linalg.broadcast ins(%rstd : tensor<f16>) outs(%row_t : tensor<1x1024xf16>) dimensions = [0, 1]
      scf.for %off = %c0 to %c4096 step %c1024 : index {
        %tx = ktdp.construct_access_tile %X[%row, %off] {access_tile_set = #blk2, access_tile_order = #id2} : memref<256x4096xf16> -> !ktdp.access_tile<1x1024xindex>
        %tw = ktdp.construct_access_tile %W[%off] {access_tile_set = #blk1, access_tile_order = #id1} : memref<4096xf16> -> !ktdp.access_tile<1024xindex>
        %x = ktdp.load %tx : <1x1024xindex> -> tensor<1x1024xf16>
        %w1 = ktdp.load %tw : <1024xindex> -> tensor<1024xf16>
        %w = tensor.expand_shape %w1 [[0, 1]] output_shape [1, 1024] : tensor<1024xf16> into tensor<1x1024xf16>
        %xn = arith.mulf %x, %rstd_b : tensor<1x1024xf16>
        %y = arith.mulf %xn, %w : tensor<1x1024xf16>
        %ty = ktdp.construct_access_tile %Y[%row, %off] {access_tile_set = #blk2, access_tile_order = #id2} : memref<256x4096xf16> -> !ktdp.access_tile<1x1024xindex>
        ktdp.store %y, %ty : tensor<1x1024xf16>, <1x1024xindex>
        scf.yield
      }
      scf.yield
    }
    return
  }
}
