// scatter_tile_helper.mlir - a KV-cache write whose indirect store tile is
// built by a helper function and returned to the kernel, which stores
// through it, written in the real-world spellings of ktir-field-guide.md §5:
// 1-D `index` pointer arguments with trailing comments, a `[4, 1]` grid with
// one `get_compute_tile_id : index`, a captured tile offset in the
// subscript.
//
// Computes, for 0 <= i < 32, 0 <= j < 64:
//   Cache[Slot[i], j] = X[i, j]                  (f16 copy)
// Slot holds 32 DISTINCT slot ids in [0, 64): two equal ids would be a
// write-write race. Cache rows no slot names keep their contents.
// Grid: [4, 1]. Tile t writes rows i in [8t, 8t + 8).

#x_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 31 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#slot_set = affine_set<(d0) : (d0 >= 0, -d0 + 31 >= 0)>
#cache_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#block = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
module {
  // The cache rows the slots of rows [%r0, %r0 + 8) name.
  func.func private @slot_rows(%Cache: memref<64x64xf16>, %Slot: memref<32xi32>, %r0: index) -> !ktdp.access_tile<8x64xindex> {
    %t = ktdp.construct_indirect_access_tile intermediate_variables(%i, %j) %Cache[ind(%Slot[%r0 + %i]), (%j)] {variables_space_set = #block, variables_space_order = #id2} : memref<64x64xf16>, memref<32xi32> -> !ktdp.access_tile<8x64xindex>
    return %t : !ktdp.access_tile<8x64xindex>
  }
  func.func @kv_write(%x_ptr: index,      // X: 32x64 f16 (input, new rows)
                      %slot_ptr: index,   // Slot: 32 i32 (input, distinct)
                      %cache_ptr: index)  // Cache: 64x64 f16 (input and output)
      attributes {grid = [4, 1]} {
    %pid = ktdp.get_compute_tile_id : index
    %c8 = arith.constant 8 : index
    %r0 = arith.muli %pid, %c8 : index
    %X = ktdp.construct_memory_view %x_ptr, sizes: [32, 64], strides: [64, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<32x64xf16>
    %Slot = ktdp.construct_memory_view %slot_ptr, sizes: [32], strides: [1] {coordinate_set = #slot_set, memory_space = #ktdp.memory_space<global>} : memref<32xi32>
    %Cache = ktdp.construct_memory_view %cache_ptr, sizes: [64, 64], strides: [64, 1] {coordinate_set = #cache_set, memory_space = #ktdp.memory_space<global>} : memref<64x64xf16>
    %tx = ktdp.construct_access_tile %X[%r0, 0] {access_tile_set = #block, access_tile_order = #id2} : memref<32x64xf16> -> !ktdp.access_tile<8x64xindex>
    %rows = ktdp.load %tx : <8x64xindex> -> tensor<8x64xf16>
    %tc = func.call @slot_rows(%Cache, %Slot, %r0) : (memref<64x64xf16>, memref<32xi32>, index) -> !ktdp.access_tile<8x64xindex>
    ktdp.store %rows, %tc : tensor<8x64xf16>, <8x64xindex>
    return
  }
}
