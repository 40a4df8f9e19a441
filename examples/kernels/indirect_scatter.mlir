// indirect_scatter.mlir - KV-cache write: scatter new rows into cache slots
// given by an index view, through an indirect access tile on the store side.
//
// Computes, for 0 <= i < 32, 0 <= j < 64:
//   Cache[Slot[i], j] = X[i, j]                  (f16 copy)
// Cache rows not named in Slot keep their previous contents, so Cache is
// both input (initial contents) and output.
//
// Arguments (all `index`, start addresses counted in elements of each
// tensor's own element type):
//   %x      X     : 32x64 f16, row-major (strides [64, 1]), input (new rows)
//   %slot   Slot  : 32 i32, contiguous, input: 32 DISTINCT slot ids in [0, 64)
//                   (e.g. a permutation prefix), so no two rows collide
//   %cache  Cache : 64x64 f16, row-major (strides [64, 1]), input and output
// Grid: [4]. Tile t scatters rows i in [8t, 8t + 8): the variable space is
// (i, j) in [0, 8) x [0, 64) with the captured tile offset %r0 = 8t, and the
// store tile element (i, j) goes to Cache[Slot[%r0 + i], j].
// Memory space spelling: #ktdp.memory_space<global>.

#x_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 31 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#slot_set = affine_set<(d0) : (d0 >= 0, -d0 + 31 >= 0)>
#cache_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#block = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @indirect_scatter(%x: index, %slot: index, %cache: index) attributes {grid = [4]} {
    %id = ktdp.get_compute_tile_id : index
    %c8 = arith.constant 8 : index
    %r0 = arith.muli %id, %c8 : index
    %X = ktdp.construct_memory_view %x, sizes: [32, 64], strides: [64, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<32x64xf16>
    %Slot = ktdp.construct_memory_view %slot, sizes: [32], strides: [1] {coordinate_set = #slot_set, memory_space = #ktdp.memory_space<global>} : memref<32xi32>
    %Cache = ktdp.construct_memory_view %cache, sizes: [64, 64], strides: [64, 1] {coordinate_set = #cache_set, memory_space = #ktdp.memory_space<global>} : memref<64x64xf16>
    %tx = ktdp.construct_access_tile %X[%r0, 0] {access_tile_set = #block, access_tile_order = #id2} : memref<32x64xf16> -> !ktdp.access_tile<8x64xindex>
    %rows = ktdp.load %tx : <8x64xindex> -> tensor<8x64xf16>
    %tcache = ktdp.construct_indirect_access_tile intermediate_variables(%i, %j) %Cache[ind(%Slot[%r0 + %i]), (%j)] {variables_space_set = #block, variables_space_order = #id2} : memref<64x64xf16>, memref<32xi32> -> !ktdp.access_tile<8x64xindex>
    ktdp.store %rows, %tcache : tensor<8x64xf16>, <8x64xindex>
    return
  }
}
