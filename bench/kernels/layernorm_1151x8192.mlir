// layernorm_1151x8192.mlir - benchmark shape of the Triton-style fused
// layernorm (ktir-field-guide.md §3 item 2; examples/kernels/realworld/
// layernorm_rows.mlir at full size): X, Y 1151x8192 f16, W, B 8192 f16,
// MEAN and RSTD 1151 f16; rows dealt cyclically over a [32, 1] grid, each
// row three passes of eight 1x1024 blocks (sum, centred sum of squares,
// normalise and store).
//
// Computes, for r < 1151, c < 8192, all f16: mean = f16(sum/N) (f32
// accumulation in the reduces), var = f16(sum of f16(d*d) / N), rstd =
// f16(rsqrt(var + eps)), Y[r, c] = f16(f16(f16(d * rstd) * W[c]) + B[c]),
// MEAN[r] = mean, RSTD[r] = rstd.

#x_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1150 >= 0, d1 >= 0, -d1 + 8191 >= 0)>
#v_set = affine_set<(d0) : (d0 >= 0, -d0 + 8191 >= 0)>
#r_set = affine_set<(d0) : (d0 >= 0, -d0 + 1150 >= 0)>
#blk2 = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 1023 >= 0)>
#blk1 = affine_set<(d0) : (d0 >= 0, -d0 + 1023 >= 0)>
#one = affine_set<(d0) : (d0 == 0)>
#id1 = affine_map<(d0) -> (d0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @layer_norm_fwd(%X_ptr: index,    // X: 1151x8192 f16 (input)
                            %Y_ptr: index,    // Y: 1151x8192 f16 (output)
                            %W_ptr: index,    // W: 8192 f16 (input)
                            %B_ptr: index,    // B: 8192 f16 (input)
                            %Mean_ptr: index, // MEAN: 1151 f16 (output)
                            %Rstd_ptr: index, // RSTD: 1151 f16 (output)
                            %n_rows: index,   // 1151
                            %N: index,        // 8192
                            %eps: f16)        // 1e-5
      attributes {grid = [32, 1]} {
    %pid = ktdp.get_compute_tile_id : index
    %c0 = arith.constant 0 : index
    %c32 = arith.constant 32 : index
    %BLOCK_SIZE = arith.constant 1024 : index
    %zero = arith.constant 0x0000 : f16
    %zeros = arith.constant dense<0.0> : tensor<1x1024xf16>
    %N_i32 = arith.index_cast %N : index to i32
    %N_f = arith.sitofp %N_i32 : i32 to f16
    %X = ktdp.construct_memory_view %X_ptr, sizes: [1151, 8192], strides: [8192, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<1151x8192xf16>
    %Y = ktdp.construct_memory_view %Y_ptr, sizes: [1151, 8192], strides: [8192, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<1151x8192xf16>
    %W = ktdp.construct_memory_view %W_ptr, sizes: [8192], strides: [1] {coordinate_set = #v_set, memory_space = #ktdp.memory_space<global>} : memref<8192xf16>
    %B = ktdp.construct_memory_view %B_ptr, sizes: [8192], strides: [1] {coordinate_set = #v_set, memory_space = #ktdp.memory_space<global>} : memref<8192xf16>
    %MEAN = ktdp.construct_memory_view %Mean_ptr, sizes: [1151], strides: [1] {coordinate_set = #r_set, memory_space = #ktdp.memory_space<global>} : memref<1151xf16>
    %RSTD = ktdp.construct_memory_view %Rstd_ptr, sizes: [1151], strides: [1] {coordinate_set = #r_set, memory_space = #ktdp.memory_space<global>} : memref<1151xf16>
    scf.for %row = %pid to %n_rows step %c32 : index {
      // Pass 1: mean.
      %acc = scf.for %off = %c0 to %N step %BLOCK_SIZE iter_args(%a = %zeros) -> tensor<1x1024xf16> {
        %tx = ktdp.construct_access_tile %X[%row, %off] {access_tile_set = #blk2, access_tile_order = #id2} : memref<1151x8192xf16> -> !ktdp.access_tile<1x1024xindex>
        %x = ktdp.load %tx : <1x1024xindex> -> tensor<1x1024xf16>
        %a2 = arith.addf %a, %x : tensor<1x1024xf16>
        scf.yield %a2 : tensor<1x1024xf16>
      }
      %sum_init = tensor.splat %zero : tensor<1xf16>
      %sum = linalg.reduce ins(%acc : tensor<1x1024xf16>) outs(%sum_init : tensor<1xf16>) dimensions = [1]
        (%in: f16, %init: f16) {
          %s = arith.addf %in, %init : f16
          linalg.yield %s : f16
        }
      %sum_s = tensor.extract %sum[%c0] : tensor<1xf16>
      %mean = arith.divf %sum_s, %N_f : f16
      %mean_b = tensor.splat %mean : tensor<1x1024xf16>
      // Pass 2: variance.
      %acc2 = scf.for %off = %c0 to %N step %BLOCK_SIZE iter_args(%a = %zeros) -> tensor<1x1024xf16> {
        %tx = ktdp.construct_access_tile %X[%row, %off] {access_tile_set = #blk2, access_tile_order = #id2} : memref<1151x8192xf16> -> !ktdp.access_tile<1x1024xindex>
        %x = ktdp.load %tx : <1x1024xindex> -> tensor<1x1024xf16>
        %d = arith.subf %x, %mean_b : tensor<1x1024xf16>
        %dd = arith.mulf %d, %d : tensor<1x1024xf16>
        %a2 = arith.addf %a, %dd : tensor<1x1024xf16>
        scf.yield %a2 : tensor<1x1024xf16>
      }
      %sq = linalg.reduce ins(%acc2 : tensor<1x1024xf16>) outs(%sum_init : tensor<1xf16>) dimensions = [1]
        (%in: f16, %init: f16) {
          %s = arith.addf %in, %init : f16
          linalg.yield %s : f16
        }
      %sq_s = tensor.extract %sq[%c0] : tensor<1xf16>
      %var = arith.divf %sq_s, %N_f : f16
      %var_eps = arith.addf %var, %eps : f16
      %rstd = math.rsqrt %var_eps : f16
      %tm = ktdp.construct_access_tile %MEAN[%row] {access_tile_set = #one, access_tile_order = #id1} : memref<1151xf16> -> !ktdp.access_tile<1xindex>
      %tr = ktdp.construct_access_tile %RSTD[%row] {access_tile_set = #one, access_tile_order = #id1} : memref<1151xf16> -> !ktdp.access_tile<1xindex>
      %mean_1 = tensor.splat %mean : tensor<1xf16>
      %rstd_1 = tensor.splat %rstd : tensor<1xf16>
      ktdp.store %mean_1, %tm : tensor<1xf16>, <1xindex>
      ktdp.store %rstd_1, %tr : tensor<1xf16>, <1xindex>
      // Pass 3: normalise, scale and shift.
      %rstd_b = tensor.splat %rstd : tensor<1x1024xf16>
      scf.for %off = %c0 to %N step %BLOCK_SIZE : index {
        %tx = ktdp.construct_access_tile %X[%row, %off] {access_tile_set = #blk2, access_tile_order = #id2} : memref<1151x8192xf16> -> !ktdp.access_tile<1x1024xindex>
        %tw = ktdp.construct_access_tile %W[%off] {access_tile_set = #blk1, access_tile_order = #id1} : memref<8192xf16> -> !ktdp.access_tile<1024xindex>
        %tb = ktdp.construct_access_tile %B[%off] {access_tile_set = #blk1, access_tile_order = #id1} : memref<8192xf16> -> !ktdp.access_tile<1024xindex>
        %x = ktdp.load %tx : <1x1024xindex> -> tensor<1x1024xf16>
        %w1 = ktdp.load %tw : <1024xindex> -> tensor<1024xf16>
        %b1 = ktdp.load %tb : <1024xindex> -> tensor<1024xf16>
        %w = tensor.expand_shape %w1 [[0, 1]] output_shape [1, 1024] : tensor<1024xf16> into tensor<1x1024xf16>
        %b = tensor.expand_shape %b1 [[0, 1]] output_shape [1, 1024] : tensor<1024xf16> into tensor<1x1024xf16>
        %d = arith.subf %x, %mean_b : tensor<1x1024xf16>
        %xn = arith.mulf %d, %rstd_b : tensor<1x1024xf16>
        %xw = arith.mulf %xn, %w : tensor<1x1024xf16>
        %y = arith.addf %xw, %b : tensor<1x1024xf16>
        %ty = ktdp.construct_access_tile %Y[%row, %off] {access_tile_set = #blk2, access_tile_order = #id2} : memref<1151x8192xf16> -> !ktdp.access_tile<1x1024xindex>
        ktdp.store %y, %ty : tensor<1x1024xf16>, <1x1024xindex>
        scf.yield
      }
      scf.yield
    }
    return
  }
}
