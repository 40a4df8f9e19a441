// odd_rmsnorm_bf16_33cols.mlir - RMSNorm of 7 bf16 rows of 33 columns
// with f32 statistics, Y = X * rsqrt(mean(X^2) + eps) * W, rows dealt out
// over a [3, 1] grid; eps an f32 argument, W loaded once per tile.

#x_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 6 >= 0, d1 >= 0, -d1 + 32 >= 0)>
#w_set = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 32 >= 0)>
#row = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 32 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @rmsnorm(%x_ptr: index, %w_ptr: index, %y_ptr: index, %n_rows: index, %eps: f32) attributes {grid = [3, 1]} {
    %tid = ktdp.get_compute_tile_id : index
    %c0 = arith.constant 0 : index
    %cG = arith.constant 3 : index
    %zero = arith.constant 0.0 : f32
    %ncols = arith.constant 33.0 : f32
    %one1 = arith.constant dense<1.0> : tensor<1x33xf32>
    %X = ktdp.construct_memory_view %x_ptr, sizes: [7, 33], strides: [33, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<7x33xbf16>
    %W = ktdp.construct_memory_view %w_ptr, sizes: [1, 33], strides: [33, 1] {coordinate_set = #w_set, memory_space = #ktdp.memory_space<global>} : memref<1x33xbf16>
    %Y = ktdp.construct_memory_view %y_ptr, sizes: [7, 33], strides: [33, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<7x33xbf16>
    %tw = ktdp.construct_access_tile %W[0, 0] {access_tile_set = #row, access_tile_order = #id2} : memref<1x33xbf16> -> !ktdp.access_tile<1x33xindex>
    %w = ktdp.load %tw : <1x33xindex> -> tensor<1x33xbf16>
    %w32 = arith.extf %w : tensor<1x33xbf16> to tensor<1x33xf32>
    scf.for %r = %tid to %n_rows step %cG : index {
      %tx = ktdp.construct_access_tile %X[%r, 0] {access_tile_set = #row, access_tile_order = #id2} : memref<7x33xbf16> -> !ktdp.access_tile<1x33xindex>
      %x = ktdp.load %tx : <1x33xindex> -> tensor<1x33xbf16>
      %x32 = arith.extf %x : tensor<1x33xbf16> to tensor<1x33xf32>
      %sq = arith.mulf %x32, %x32 : tensor<1x33xf32>
      %init = tensor.splat %zero : tensor<1xf32>
      %ss = linalg.reduce { arith.addf } ins(%sq : tensor<1x33xf32>) outs(%init : tensor<1xf32>) dimensions = [1]
      %s = tensor.extract %ss[%c0] : tensor<1xf32>
      %mean = arith.divf %s, %ncols : f32
      %me = arith.addf %mean, %eps : f32
      %rs = math.rsqrt %me : f32
      %rsb = tensor.splat %rs : tensor<1x33xf32>
      %xn = arith.mulf %x32, %rsb : tensor<1x33xf32>
      %y32 = arith.mulf %xn, %w32 : tensor<1x33xf32>
      %y = arith.truncf %y32 : tensor<1x33xf32> to tensor<1x33xbf16>
      %ty = ktdp.construct_access_tile %Y[%r, 0] {access_tile_set = #row, access_tile_order = #id2} : memref<7x33xbf16> -> !ktdp.access_tile<1x33xindex>
      ktdp.store %y, %ty : tensor<1x33xbf16>, <1x33xindex>
      scf.yield
    }
    return
  }
}
