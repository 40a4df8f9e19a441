// Y = X + X on a 3x10x64 f16 tensor, in 2x4x64 tiles on a [2, 3] grid:
// tile (a, b) covers planes 2a, 2a + 1 and rows 4b .. 4b + 3, so the tiles
// of a = 1 reach plane 3 and those of b = 2 rows 10 and 11, past the view
// (masked along the two leading dimensions of a 3-d tile).

#all = affine_set<(d0, d1, d2) : (d0 >= 0, -d0 + 2 >= 0, d1 >= 0, -d1 + 9 >= 0, d2 >= 0, -d2 + 63 >= 0)>
#t = affine_set<(d0, d1, d2) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 3 >= 0, d2 >= 0, -d2 + 63 >= 0)>
#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
module {
  func.func @tile3d_edges(%x: index, %y: index) attributes {grid = [2, 3]} {
    %a, %b = ktdp.get_compute_tile_id : index, index
    %c2 = arith.constant 2 : index
    %c4 = arith.constant 4 : index
    %i = arith.muli %a, %c2 : index
    %j = arith.muli %b, %c4 : index
    %X = ktdp.construct_memory_view %x, sizes: [3, 10, 64], strides: [640, 64, 1] {coordinate_set = #all, memory_space = #ktdp.memory_space<global>} : memref<3x10x64xf16>
    %Y = ktdp.construct_memory_view %y, sizes: [3, 10, 64], strides: [640, 64, 1] {coordinate_set = #all, memory_space = #ktdp.memory_space<global>} : memref<3x10x64xf16>
    %tx = ktdp.construct_access_tile %X[%i, %j, 0] {access_tile_set = #t, access_tile_order = #id3} : memref<3x10x64xf16> -> !ktdp.access_tile<2x4x64xindex>
    %ty = ktdp.construct_access_tile %Y[%i, %j, 0] {access_tile_set = #t, access_tile_order = #id3} : memref<3x10x64xf16> -> !ktdp.access_tile<2x4x64xindex>
    %v = ktdp.load %tx : <2x4x64xindex> -> tensor<2x4x64xf16>
    %w = arith.addf %v, %v : tensor<2x4x64xf16>
    ktdp.store %w, %ty : tensor<2x4x64xf16>, <2x4x64xindex>
    return
  }
}
