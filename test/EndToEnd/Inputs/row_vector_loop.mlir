// row_vector_loop.mlir - a per-row vector that does not move with the loop.
//
// Computes   Y[i, j] = X[i, j] + v[i mod 2]   for 0 <= i < 64, 0 <= j < 64
// in f16 (one f16 add per element, rounded to f16).
//
// Arguments (all `index`, tensor start addresses counted in f16 elements):
//   %x  X : 64x64 f16, row-major, input
//   %v  v : 2 f16, contiguous, input (one value per row of a 2-row tile)
//   %y  Y : 64x64 f16, row-major, output
// Grid: [4]. Tile t owns rows [16t, 16t + 16): an scf.for over %i in
// [0, 16) step 2 loads the 2x64 tile at [16t + %i, 0] and the same 2-element
// v at every iteration, broadcast along each row (dimensions = [1]).
// Merging loop iterations into taller tiles would need v repeated; the
// scheduler must not merge them.
// Memory space spelling: #ktdp.memory_space<global>.

#mat = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#two = affine_set<(d0) : (d0 >= 0, -d0 + 1 >= 0)>
#block = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#id1 = affine_map<(d0) -> (d0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @row_vector_loop(%x: index, %v: index, %y: index) attributes {grid = [4]} {
    %id = ktdp.get_compute_tile_id : index
    %c0 = arith.constant 0 : index
    %c2 = arith.constant 2 : index
    %c16 = arith.constant 16 : index
    %first = arith.muli %id, %c16 : index
    %X = ktdp.construct_memory_view %x, sizes: [64, 64], strides: [64, 1] {coordinate_set = #mat, memory_space = #ktdp.memory_space<global>} : memref<64x64xf16>
    %V = ktdp.construct_memory_view %v, sizes: [2], strides: [1] {coordinate_set = #two, memory_space = #ktdp.memory_space<global>} : memref<2xf16>
    %Y = ktdp.construct_memory_view %y, sizes: [64, 64], strides: [64, 1] {coordinate_set = #mat, memory_space = #ktdp.memory_space<global>} : memref<64x64xf16>
    scf.for %i = %c0 to %c16 step %c2 {
      %tx = ktdp.construct_access_tile %X[%first + %i, 0] {access_tile_set = #block, access_tile_order = #id2} : memref<64x64xf16> -> !ktdp.access_tile<2x64xindex>
      %tv = ktdp.construct_access_tile %V[0] {access_tile_set = #two, access_tile_order = #id1} : memref<2xf16> -> !ktdp.access_tile<2xindex>
      %ty = ktdp.construct_access_tile %Y[%first + %i, 0] {access_tile_set = #block, access_tile_order = #id2} : memref<64x64xf16> -> !ktdp.access_tile<2x64xindex>
      %xt = ktdp.load %tx : <2x64xindex> -> tensor<2x64xf16>
      %vt = ktdp.load %tv : <2xindex> -> tensor<2xf16>
      %e = tensor.empty() : tensor<2x64xf16>
      %vb = linalg.broadcast ins(%vt : tensor<2xf16>) outs(%e : tensor<2x64xf16>) dimensions = [1]
      %yt = arith.addf %xt, %vb : tensor<2x64xf16>
      ktdp.store %yt, %ty : tensor<2x64xf16>, <2x64xindex>
    }
    return
  }
}
