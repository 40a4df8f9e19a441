// layernorm_one_block.mlir - Triton-style layernorm whose row fits one
// block (BLOCK_SIZE = 256 >= N): rows dealt cyclically over a [4, 1] grid,
// the mean and the variance computed as scalars (tensor.extract of a row
// sum, arith.divf by N converted from its index, arith.addf of the f16
// %eps, math.rsqrt) and broadcast back with tensor.splat; MEAN and RSTD
// stored per row next to Y.
//
// Computes, for r < n_rows (at most 21), c < 256, all values f16:
//   mean    = f16(f16(sum_c X[r, c]) / f16(N))
//   d       = f16(X[r, c] - mean)
//   var     = f16(f16(sum_c f16(d * d)) / f16(N))
//   rstd    = f16(rsqrt(f16(var + eps)))
//   Y[r, c] = f16(f16(f16(d * rstd) * W[c]) + B[c])
//   MEAN[r] = mean, RSTD[r] = rstd
// N only divides (the block is the whole row): N = 256 gives a layernorm,
// another N a scaled one, which the checks also compare.

#x_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 20 >= 0, d1 >= 0, -d1 + 255 >= 0)>
#v_set = affine_set<(d0) : (d0 >= 0, -d0 + 255 >= 0)>
#r_set = affine_set<(d0) : (d0 >= 0, -d0 + 20 >= 0)>
#blk2 = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 255 >= 0)>
#blk1 = affine_set<(d0) : (d0 >= 0, -d0 + 255 >= 0)>
#one = affine_set<(d0) : (d0 == 0)>
#id1 = affine_map<(d0) -> (d0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @layer_norm_fwd(%X_ptr: index,    // X: 21x256 f16 (input)
                            %Y_ptr: index,    // Y: 21x256 f16 (output)
                            %W_ptr: index,    // W: 256 f16 (input)
                            %B_ptr: index,    // B: 256 f16 (input)
                            %Mean_ptr: index, // MEAN: 21 f16 (output)
                            %Rstd_ptr: index, // RSTD: 21 f16 (output)
                            %n_rows: index,   // at most 21
                            %N: index,        // 256
                            %eps: f16)        // 1e-5
      attributes {grid = [4, 1]} {
    %pid = ktdp.get_compute_tile_id : index
    %c0 = arith.constant 0 : index
    %c4 = arith.constant 4 : index
    %zero = arith.constant 0x0000 : f16
    %N_i32 = arith.index_cast %N : index to i32
    %N_f = arith.sitofp %N_i32 : i32 to f16
    %X = ktdp.construct_memory_view %X_ptr, sizes: [21, 256], strides: [256, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<21x256xf16>
    %Y = ktdp.construct_memory_view %Y_ptr, sizes: [21, 256], strides: [256, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<21x256xf16>
    %W = ktdp.construct_memory_view %W_ptr, sizes: [256], strides: [1] {coordinate_set = #v_set, memory_space = #ktdp.memory_space<global>} : memref<256xf16>
    %B = ktdp.construct_memory_view %B_ptr, sizes: [256], strides: [1] {coordinate_set = #v_set, memory_space = #ktdp.memory_space<global>} : memref<256xf16>
    %MEAN = ktdp.construct_memory_view %Mean_ptr, sizes: [21], strides: [1] {coordinate_set = #r_set, memory_space = #ktdp.memory_space<global>} : memref<21xf16>
    %RSTD = ktdp.construct_memory_view %Rstd_ptr, sizes: [21], strides: [1] {coordinate_set = #r_set, memory_space = #ktdp.memory_space<global>} : memref<21xf16>
    scf.for %row = %pid to %n_rows step %c4 : index {
      %tx = ktdp.construct_access_tile %X[%row, %c0] {access_tile_set = #blk2, access_tile_order = #id2} : memref<21x256xf16> -> !ktdp.access_tile<1x256xindex>
      %tw = ktdp.construct_access_tile %W[%c0] {access_tile_set = #blk1, access_tile_order = #id1} : memref<256xf16> -> !ktdp.access_tile<256xindex>
      %tb = ktdp.construct_access_tile %B[%c0] {access_tile_set = #blk1, access_tile_order = #id1} : memref<256xf16> -> !ktdp.access_tile<256xindex>
      %x = ktdp.load %tx : <1x256xindex> -> tensor<1x256xf16>
      %w1 = ktdp.load %tw : <256xindex> -> tensor<256xf16>
      %b1 = ktdp.load %tb : <256xindex> -> tensor<256xf16>
      %w = tensor.expand_shape %w1 [[0, 1]] output_shape [1, 256] : tensor<256xf16> into tensor<1x256xf16>
      %b = tensor.expand_shape %b1 [[0, 1]] output_shape [1, 256] : tensor<256xf16> into tensor<1x256xf16>
      %sum_init = tensor.splat %zero : tensor<1xf16>
      %sum = linalg.reduce ins(%x : tensor<1x256xf16>) outs(%sum_init : tensor<1xf16>) dimensions = [1]
        (%in: f16, %init: f16) {
          %s = arith.addf %in, %init : f16
          linalg.yield %s : f16
        }
      %sum_s = tensor.extract %sum[%c0] : tensor<1xf16>
      %mean = arith.divf %sum_s, %N_f : f16
      %mean_b = tensor.splat %mean : tensor<1x256xf16>
      %d = arith.subf %x, %mean_b : tensor<1x256xf16>
      %dd = arith.mulf %d, %d : tensor<1x256xf16>
      %sq = linalg.reduce ins(%dd : tensor<1x256xf16>) outs(%sum_init : tensor<1xf16>) dimensions = [1]
        (%in: f16, %init: f16) {
          %s = arith.addf %in, %init : f16
          linalg.yield %s : f16
        }
      %sq_s = tensor.extract %sq[%c0] : tensor<1xf16>
      %var = arith.divf %sq_s, %N_f : f16
      %var_eps = arith.addf %var, %eps : f16
      %rstd = math.rsqrt %var_eps : f16
      %rstd_b = tensor.splat %rstd : tensor<1x256xf16>
      %xn = arith.mulf %d, %rstd_b : tensor<1x256xf16>
      %xw = arith.mulf %xn, %w : tensor<1x256xf16>
      %y = arith.addf %xw, %b : tensor<1x256xf16>
      %ty = ktdp.construct_access_tile %Y[%row, %c0] {access_tile_set = #blk2, access_tile_order = #id2} : memref<21x256xf16> -> !ktdp.access_tile<1x256xindex>
      ktdp.store %y, %ty : tensor<1x256xf16>, <1x256xindex>
      %tm = ktdp.construct_access_tile %MEAN[%row] {access_tile_set = #one, access_tile_order = #id1} : memref<21xf16> -> !ktdp.access_tile<1xindex>
      %tr = ktdp.construct_access_tile %RSTD[%row] {access_tile_set = #one, access_tile_order = #id1} : memref<21xf16> -> !ktdp.access_tile<1xindex>
      %mean_1 = tensor.splat %mean : tensor<1xf16>
      %rstd_1 = tensor.splat %rstd : tensor<1xf16>
      ktdp.store %mean_1, %tm : tensor<1xf16>, <1xindex>
      ktdp.store %rstd_1, %tr : tensor<1xf16>, <1xindex>
      scf.yield
    }
    return
  }
}
