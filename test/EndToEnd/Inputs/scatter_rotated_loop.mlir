// A scatter in a loop whose index subscript wraps: tile t scatters rows
// i in [16t, 16t + 16) in two blocks of 8 (loop k), row i going to
// Cache[Slot[(i + 4) mod 32], j] * 2. The subscript `(%r0 + %i + 4) mod 32`
// mixes the captured row offset and the variable, so a unit that does
// not read device memory gets all 32 slots staged, not a box of 8.
#x_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 31 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#slot_set = affine_set<(d0) : (d0 >= 0, -d0 + 31 >= 0)>
#cache_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#block = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @scatter_rotated_loop(%x: index, %slot: index, %cache: index) attributes {grid = [2]} {
    %id = ktdp.get_compute_tile_id : index
    %c0 = arith.constant 0 : index
    %c8 = arith.constant 8 : index
    %c16 = arith.constant 16 : index
    %base = arith.muli %id, %c16 : index
    %X = ktdp.construct_memory_view %x, sizes: [32, 64], strides: [64, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<32x64xf16>
    %Slot = ktdp.construct_memory_view %slot, sizes: [32], strides: [1] {coordinate_set = #slot_set, memory_space = #ktdp.memory_space<global>} : memref<32xi32>
    %Cache = ktdp.construct_memory_view %cache, sizes: [64, 64], strides: [64, 1] {coordinate_set = #cache_set, memory_space = #ktdp.memory_space<global>} : memref<64x64xf16>
    scf.for %k = %c0 to %c16 step %c8 {
      %r0 = arith.addi %base, %k : index
      %tx = ktdp.construct_access_tile %X[%r0, 0] {access_tile_set = #block, access_tile_order = #id2} : memref<32x64xf16> -> !ktdp.access_tile<8x64xindex>
      %rows = ktdp.load %tx : <8x64xindex> -> tensor<8x64xf16>
      %twice = arith.addf %rows, %rows : tensor<8x64xf16>
      %tcache = ktdp.construct_indirect_access_tile intermediate_variables(%i, %j) %Cache[ind(%Slot[(%r0 + %i + 4) mod 32]), (%j)] {variables_space_set = #block, variables_space_order = #id2} : memref<64x64xf16>, memref<32xi32> -> !ktdp.access_tile<8x64xindex>
      ktdp.store %twice, %tcache : tensor<8x64xf16>, <8x64xindex>
    }
    return
  }
}
