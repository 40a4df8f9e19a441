// in_place.mlir - an in-place update: each loop iteration loads a tile of X
// and stores the result over the same tile.
//
// Computes   X[i, j] = X[i, j] * X[i, j] - X[i, j]   for 0 <= i < 64, 0 <= j < 64
// in f16 (each operation rounded to f16).
//
// Arguments (all `index`, tensor start addresses counted in f16 elements):
//   %x  X : 64x64 f16, row-major, input and output
// Grid: [4]. Tile t owns rows [16t, 16t + 16): an scf.for over %i in
// [0, 16) step 2 loads the 2x64 tile at [16t + %i, 0] and stores the result
// through the same access tile. No two loop iterations or grid points touch
// the same rows, so the compute groups need no ordering through memory.
// Memory space spelling: #ktdp.memory_space<global>.

#mat = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#block = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @in_place(%x: index) attributes {grid = [4]} {
    %id = ktdp.get_compute_tile_id : index
    %c0 = arith.constant 0 : index
    %c2 = arith.constant 2 : index
    %c16 = arith.constant 16 : index
    %first = arith.muli %id, %c16 : index
    %X = ktdp.construct_memory_view %x, sizes: [64, 64], strides: [64, 1] {coordinate_set = #mat, memory_space = #ktdp.memory_space<global>} : memref<64x64xf16>
    scf.for %i = %c0 to %c16 step %c2 {
      %tx = ktdp.construct_access_tile %X[%first + %i, 0] {access_tile_set = #block, access_tile_order = #id2} : memref<64x64xf16> -> !ktdp.access_tile<2x64xindex>
      %v = ktdp.load %tx : <2x64xindex> -> tensor<2x64xf16>
      %sq = arith.mulf %v, %v : tensor<2x64xf16>
      %r = arith.subf %sq, %v : tensor<2x64xf16>
      ktdp.store %r, %tx : tensor<2x64xf16>, <2x64xindex>
    }
    return
  }
}
