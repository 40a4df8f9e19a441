// layernorm_f32.mlir - examples/kernels/layernorm.mlir with f32 inputs, outputs
// and arithmetic (no conversions): layer normalisation over rows with weight and bias.
//
// Computes, for 0 <= i < 64, 0 <= j < 128, all arithmetic in f32
// (x = f32(X[i, :]), w = f32(W), b = f32(B), eps = 1e-5):
//   mean_i  = (sum_j x[j]) / 128
//   c[j]    = x[j] - mean_i
//   var_i   = (sum_j c[j] * c[j]) / 128          (biased variance)
//   r_i     = rsqrt(var_i + eps)                 (math.rsqrt)
//   Y[i, j] = f32((c[j] * r_i) * w[j] + b[j])    (round to nearest even)
//
// Arguments (all `index`, tensor start addresses counted in f32 elements):
//   %x  X : 64x128 f32, row-major (strides [128, 1]), input
//   %w  W : 128 f32, contiguous, input (weight, gamma)
//   %b  B : 128 f32, contiguous, input (bias, beta)
//   %y  Y : 64x128 f32, row-major, output
// Grid: [32]. Tile t handles rows [2t, 2t + 2) with one 2x128 tile; every
// tile loads all of W and B.
// Memory space spelling: #ktdp.memory_space<global>.

#mat = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#vec = affine_set<(d0) : (d0 >= 0, -d0 + 127 >= 0)>
#block = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#id1 = affine_map<(d0) -> (d0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
#col = affine_map<(d0, d1) -> (d1)>
module {
  func.func @layernorm(%x: index, %w: index, %b: index, %y: index) attributes {grid = [32]} {
    %id = ktdp.get_compute_tile_id : index
    %c2 = arith.constant 2 : index
    %row0 = arith.muli %id, %c2 : index
    %X = ktdp.construct_memory_view %x, sizes: [64, 128], strides: [128, 1] {coordinate_set = #mat, memory_space = #ktdp.memory_space<global>} : memref<64x128xf32>
    %W = ktdp.construct_memory_view %w, sizes: [128], strides: [1] {coordinate_set = #vec, memory_space = #ktdp.memory_space<global>} : memref<128xf32>
    %B = ktdp.construct_memory_view %b, sizes: [128], strides: [1] {coordinate_set = #vec, memory_space = #ktdp.memory_space<global>} : memref<128xf32>
    %Y = ktdp.construct_memory_view %y, sizes: [64, 128], strides: [128, 1] {coordinate_set = #mat, memory_space = #ktdp.memory_space<global>} : memref<64x128xf32>
    %tx = ktdp.construct_access_tile %X[%row0, 0] {access_tile_set = #block, access_tile_order = #id2} : memref<64x128xf32> -> !ktdp.access_tile<2x128xindex>
    %tw = ktdp.construct_access_tile %W[0] {access_tile_set = #vec, access_tile_order = #id1} : memref<128xf32> -> !ktdp.access_tile<128xindex>
    %tb = ktdp.construct_access_tile %B[0] {access_tile_set = #vec, access_tile_order = #id1} : memref<128xf32> -> !ktdp.access_tile<128xindex>
    %ty = ktdp.construct_access_tile %Y[%row0, 0] {access_tile_set = #block, access_tile_order = #id2} : memref<64x128xf32> -> !ktdp.access_tile<2x128xindex>
    %xh = ktdp.load %tx : <2x128xindex> -> tensor<2x128xf32>
    %wh = ktdp.load %tw : <128xindex> -> tensor<128xf32>
    %bh = ktdp.load %tb : <128xindex> -> tensor<128xf32>

    %zero = arith.constant 0.0 : f32
    %n = arith.constant dense<128.0> : tensor<2xf32>
    %eps = arith.constant dense<1.0e-05> : tensor<2xf32>
    %rows = tensor.empty() : tensor<2xf32>
    %acc0 = linalg.fill ins(%zero : f32) outs(%rows : tensor<2xf32>) -> tensor<2xf32>

    %sum = linalg.reduce ins(%xh : tensor<2x128xf32>) outs(%acc0 : tensor<2xf32>) dimensions = [1]
      (%in: f32, %acc: f32) {
        %s = arith.addf %in, %acc : f32
        linalg.yield %s : f32
      }
    %mean = arith.divf %sum, %n : tensor<2xf32>

    %full = tensor.empty() : tensor<2x128xf32>
    %centered = linalg.generic {indexing_maps = [#id2, #row, #id2], iterator_types = ["parallel", "parallel"]}
        ins(%xh, %mean : tensor<2x128xf32>, tensor<2xf32>) outs(%full : tensor<2x128xf32>) {
      ^bb0(%in: f32, %m: f32, %out: f32):
        %d = arith.subf %in, %m : f32
        linalg.yield %d : f32
    } -> tensor<2x128xf32>

    %sqsum = linalg.generic {indexing_maps = [#id2, #row], iterator_types = ["parallel", "reduction"]}
        ins(%centered : tensor<2x128xf32>) outs(%acc0 : tensor<2xf32>) {
      ^bb0(%c: f32, %acc: f32):
        %sq = arith.mulf %c, %c : f32
        %s = arith.addf %sq, %acc : f32
        linalg.yield %s : f32
    } -> tensor<2xf32>
    %var = arith.divf %sqsum, %n : tensor<2xf32>
    %var_eps = arith.addf %var, %eps : tensor<2xf32>
    %rstd = math.rsqrt %var_eps : tensor<2xf32>

    %out = tensor.empty() : tensor<2x128xf32>
    %yh = linalg.generic {indexing_maps = [#id2, #row, #col, #col, #id2], iterator_types = ["parallel", "parallel"]}
        ins(%centered, %rstd, %wh, %bh : tensor<2x128xf32>, tensor<2xf32>, tensor<128xf32>, tensor<128xf32>) outs(%out : tensor<2x128xf32>) {
      ^bb0(%c: f32, %r: f32, %wj: f32, %bj: f32, %o: f32):
        %n1 = arith.mulf %c, %r : f32
        %n2 = arith.mulf %n1, %wj : f32
        %n3 = arith.addf %n2, %bj : f32
        linalg.yield %n3 : f32
    } -> tensor<2x128xf32>
    ktdp.store %yh, %ty : tensor<2x128xf32>, <2x128xindex>
    return
  }
}
