// bias_row_collapsed.mlir - a bias row loaded as a 1x128 tile, collapsed to 128
// and broadcast over the 16 rows of each tile.
//
// Computes   Y[i, j] = X[i, j] + B[0, j]   for 0 <= i < 64, 0 <= j < 128,
// in f16, on a [4] grid (16 rows per tile).

#mat = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#blk = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#row = affine_set<(d0, d1) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @bias_row_collapsed(%x: index, %b: index, %y: index) attributes {grid = [4]} {
    %id = ktdp.get_compute_tile_id : index
    %c16 = arith.constant 16 : index
    %start = arith.muli %id, %c16 : index
    %X = ktdp.construct_memory_view %x, sizes: [64, 128], strides: [128, 1] {coordinate_set = #mat, memory_space = #ktdp.memory_space<global>} : memref<64x128xf16>
    %B = ktdp.construct_memory_view %b, sizes: [1, 128], strides: [128, 1] {coordinate_set = #row, memory_space = #ktdp.memory_space<global>} : memref<1x128xf16>
    %Y = ktdp.construct_memory_view %y, sizes: [64, 128], strides: [128, 1] {coordinate_set = #mat, memory_space = #ktdp.memory_space<global>} : memref<64x128xf16>
    %tx = ktdp.construct_access_tile %X[%start, 0] {access_tile_set = #blk, access_tile_order = #id2} : memref<64x128xf16> -> !ktdp.access_tile<16x128xindex>
    %tb = ktdp.construct_access_tile %B[0, 0] {access_tile_set = #row, access_tile_order = #id2} : memref<1x128xf16> -> !ktdp.access_tile<1x128xindex>
    %ty = ktdp.construct_access_tile %Y[%start, 0] {access_tile_set = #blk, access_tile_order = #id2} : memref<64x128xf16> -> !ktdp.access_tile<16x128xindex>
    %b2 = ktdp.load %tb : <1x128xindex> -> tensor<1x128xf16>
    %xt = ktdp.load %tx : <16x128xindex> -> tensor<16x128xf16>
    %b1 = tensor.collapse_shape %b2 [[0, 1]] : tensor<1x128xf16> into tensor<128xf16>
    %e = tensor.empty() : tensor<16x128xf16>
    %bb = linalg.broadcast ins(%b1 : tensor<128xf16>) outs(%e : tensor<16x128xf16>) dimensions = [0]
    %yt = arith.addf %xt, %bb : tensor<16x128xf16>
    ktdp.store %yt, %ty : tensor<16x128xf16>, <16x128xindex>
    return
  }
}
