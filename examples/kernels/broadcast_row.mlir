// broadcast_row.mlir - matrix plus a per-row (column) vector.
//
// Computes   Y[i, j] = X[i, j] + r[i]      for 0 <= i < 64, 0 <= j < 128
// in f16 (one f16 add per element, rounded to f16).
//
// Arguments (all `index`, tensor start addresses counted in f16 elements):
//   %x  X : 64x128 f16, row-major, input
//   %r  r : 64 f16, contiguous, input (one value per row)
//   %y  Y : 64x128 f16, row-major, output
// Grid: [8]. Tile t handles rows [8t, 8t + 8): an 8x128 tile of X and Y and
// the 8 values of r for those rows, broadcast along each row with
// linalg.broadcast (dimensions = [1]).
// Memory space spelling: #ktdp.memory_space<global>.

#mat = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#vec = affine_set<(d0) : (d0 >= 0, -d0 + 63 >= 0)>
#block = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#rows = affine_set<(d0) : (d0 >= 0, -d0 + 7 >= 0)>
#id1 = affine_map<(d0) -> (d0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @broadcast_row(%x: index, %r: index, %y: index) attributes {grid = [8]} {
    %id = ktdp.get_compute_tile_id : index
    %c8 = arith.constant 8 : index
    %row = arith.muli %id, %c8 : index
    %X = ktdp.construct_memory_view %x, sizes: [64, 128], strides: [128, 1] {coordinate_set = #mat, memory_space = #ktdp.memory_space<global>} : memref<64x128xf16>
    %R = ktdp.construct_memory_view %r, sizes: [64], strides: [1] {coordinate_set = #vec, memory_space = #ktdp.memory_space<global>} : memref<64xf16>
    %Y = ktdp.construct_memory_view %y, sizes: [64, 128], strides: [128, 1] {coordinate_set = #mat, memory_space = #ktdp.memory_space<global>} : memref<64x128xf16>
    %tx = ktdp.construct_access_tile %X[%row, 0] {access_tile_set = #block, access_tile_order = #id2} : memref<64x128xf16> -> !ktdp.access_tile<8x128xindex>
    %tr = ktdp.construct_access_tile %R[%row] {access_tile_set = #rows, access_tile_order = #id1} : memref<64xf16> -> !ktdp.access_tile<8xindex>
    %ty = ktdp.construct_access_tile %Y[%row, 0] {access_tile_set = #block, access_tile_order = #id2} : memref<64x128xf16> -> !ktdp.access_tile<8x128xindex>
    %xt = ktdp.load %tx : <8x128xindex> -> tensor<8x128xf16>
    %rt = ktdp.load %tr : <8xindex> -> tensor<8xf16>
    %e = tensor.empty() : tensor<8x128xf16>
    %rb = linalg.broadcast ins(%rt : tensor<8xf16>) outs(%e : tensor<8x128xf16>) dimensions = [1]
    %yt = arith.addf %xt, %rb : tensor<8x128xf16>
    ktdp.store %yt, %ty : tensor<8x128xf16>, <8x128xindex>
    return
  }
}
