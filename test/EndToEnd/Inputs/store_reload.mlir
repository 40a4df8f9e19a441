// store_reload.mlir - a second compute group reloads the tile the first one
// stored (read-after-write through device memory).
//
// Computes, for 0 <= i < 64, 0 <= j < 64, in f16 (each result rounded):
//   Y[i, j] = X[i, j] + X[i, j]
//   Z[i, j] = Y[i, j] + X[i, j]      (Y read back from memory)
//
// Arguments (all `index`, tensor start addresses counted in f16 elements):
//   %x  X : 64x64 f16, row-major, input
//   %y  Y : 64x64 f16, row-major, output
//   %z  Z : 64x64 f16, row-major, output
// Grid: [8]. Tile t handles rows [8t, 8t + 8). As two groups, sibling
// pipelines that nothing orders through memory, the load of Y ran before
// the store (it read stale zeros); ktdf-forward-stores now gives the load
// the stored tensor, so both sums are one group.
// Memory space spelling: #ktdp.memory_space<global>.

#mat = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#block = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @store_reload(%x: index, %y: index, %z: index) attributes {grid = [8]} {
    %id = ktdp.get_compute_tile_id : index
    %c8 = arith.constant 8 : index
    %row = arith.muli %id, %c8 : index
    %X = ktdp.construct_memory_view %x, sizes: [64, 64], strides: [64, 1] {coordinate_set = #mat, memory_space = #ktdp.memory_space<global>} : memref<64x64xf16>
    %Y = ktdp.construct_memory_view %y, sizes: [64, 64], strides: [64, 1] {coordinate_set = #mat, memory_space = #ktdp.memory_space<global>} : memref<64x64xf16>
    %Z = ktdp.construct_memory_view %z, sizes: [64, 64], strides: [64, 1] {coordinate_set = #mat, memory_space = #ktdp.memory_space<global>} : memref<64x64xf16>
    %tx = ktdp.construct_access_tile %X[%row, 0] {access_tile_set = #block, access_tile_order = #id2} : memref<64x64xf16> -> !ktdp.access_tile<8x64xindex>
    %ty = ktdp.construct_access_tile %Y[%row, 0] {access_tile_set = #block, access_tile_order = #id2} : memref<64x64xf16> -> !ktdp.access_tile<8x64xindex>
    %tz = ktdp.construct_access_tile %Z[%row, 0] {access_tile_set = #block, access_tile_order = #id2} : memref<64x64xf16> -> !ktdp.access_tile<8x64xindex>
    %a = ktdp.load %tx : <8x64xindex> -> tensor<8x64xf16>
    %d = arith.addf %a, %a : tensor<8x64xf16>
    ktdp.store %d, %ty : tensor<8x64xf16>, <8x64xindex>
    %b = ktdp.load %ty : <8x64xindex> -> tensor<8x64xf16>
    %c = ktdp.load %tx : <8x64xindex> -> tensor<8x64xf16>
    %s = arith.addf %b, %c : tensor<8x64xf16>
    ktdp.store %s, %tz : tensor<8x64xf16>, <8x64xindex>
    return
  }
}
