// distributed_exchange.mlir - each tile writes a block into its neighbour's
// scratchpad through a distributed view; every tile then reads its own
// scratchpad, which holds data another tile wrote.
//
// Computes   B[16t + i, j] = A[16((t + 3) mod 4) + i, j]
//            for tiles 0 <= t < 4, 0 <= i < 16, 0 <= j < 64   (f16 copy)
// i.e. the four 16-row blocks of A rotated down by one block, routed through
// the scratchpads:
//   1. D is a 64x64 distributed view over four ct_local parts; part k lives
//      in the scratchpad of compute tile k, at scratchpad element address
//      4096, holds the global row block i in [16k, 16k + 16) for all 64
//      columns (coordinate_set in GLOBAL coordinates), laid out row-major as
//      a 16x64 array. Global (i, j) is thus stored in tile k = i floordiv
//      16's scratchpad at element 4096 + (i - 16k) * 64 + j.
//   2. Tile t loads its block A[16t : 16t + 16, :] and stores it through D
//      at [16((t + 1) mod 4), 0]: the whole store lands in its neighbour
//      tile (t + 1) mod 4's scratchpad.
//   3. Tile t reads its own scratchpad (a ct_local view without ct_id: the
//      executing tile's) at 4096 as 16x64 in LOCAL coordinates, which holds
//      what tile (t + 3) mod 4 stored in step 2, and stores it to
//      B[16t : 16t + 16, :].
// Ordering: every tile runs step 2 before step 3 and makes the same loads
// before it, so in the reference interpreter (tiles yield before each load,
// round-robin in tile order) every step-2 store has landed before any
// step-3 read, whatever the tile order. A compiled run must make the reader
// wait for its neighbour's remote store.
//
// Arguments (all `index`, tensor start addresses in global memory, counted in
// f16 elements):
//   %a  A : 64x64 f16, row-major (strides [64, 1]), input
//   %b  B : 64x64 f16, row-major, output
// Scratchpad use: 16 * 64 f16 at element address 4096 in each of tiles 0..3.
// Grid: [4].

#mat = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#part0 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#part1 = affine_set<(d0, d1) : (d0 - 16 >= 0, -d0 + 31 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#part2 = affine_set<(d0, d1) : (d0 - 32 >= 0, -d0 + 47 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#part3 = affine_set<(d0, d1) : (d0 - 48 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#rows16 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @distributed_exchange(%a: index, %b: index) attributes {grid = [4]} {
    %id = ktdp.get_compute_tile_id : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c16 = arith.constant 16 : index
    %row0 = arith.muli %id, %c16 : index
    %next = arith.addi %id, %c1 : index
    %neighbour = arith.remui %next, %c4 : index
    %nrow0 = arith.muli %neighbour, %c16 : index
    %sp = arith.constant 4096 : index
    %A = ktdp.construct_memory_view %a, sizes: [64, 64], strides: [64, 1] {coordinate_set = #mat, memory_space = #ktdp.memory_space<global>} : memref<64x64xf16>
    %B = ktdp.construct_memory_view %b, sizes: [64, 64], strides: [64, 1] {coordinate_set = #mat, memory_space = #ktdp.memory_space<global>} : memref<64x64xf16>

    // The four parts: same address and layout, different tile and rows.
    %P0 = ktdp.construct_memory_view %sp, sizes: [16, 64], strides: [64, 1] {coordinate_set = #part0, memory_space = #ktdp.memory_space<ct_local, ct_id = 0>} : memref<16x64xf16>
    %P1 = ktdp.construct_memory_view %sp, sizes: [16, 64], strides: [64, 1] {coordinate_set = #part1, memory_space = #ktdp.memory_space<ct_local, ct_id = 1>} : memref<16x64xf16>
    %P2 = ktdp.construct_memory_view %sp, sizes: [16, 64], strides: [64, 1] {coordinate_set = #part2, memory_space = #ktdp.memory_space<ct_local, ct_id = 2>} : memref<16x64xf16>
    %P3 = ktdp.construct_memory_view %sp, sizes: [16, 64], strides: [64, 1] {coordinate_set = #part3, memory_space = #ktdp.memory_space<ct_local, ct_id = 3>} : memref<16x64xf16>
    %D = ktdp.construct_distributed_memory_view(%P0, %P1, %P2, %P3 : memref<16x64xf16>, memref<16x64xf16>, memref<16x64xf16>, memref<16x64xf16>) : memref<64x64xf16>

    // Step 2: this tile's block into the neighbour's scratchpad.
    %ta = ktdp.construct_access_tile %A[%row0, 0] {access_tile_set = #rows16, access_tile_order = #id2} : memref<64x64xf16> -> !ktdp.access_tile<16x64xindex>
    %td = ktdp.construct_access_tile %D[%nrow0, 0] {access_tile_set = #rows16, access_tile_order = #id2} : memref<64x64xf16> -> !ktdp.access_tile<16x64xindex>
    %block = ktdp.load %ta : <16x64xindex> -> tensor<16x64xf16>
    ktdp.store %block, %td : tensor<16x64xf16>, <16x64xindex>

    // Step 3: this tile's own scratchpad, in its local coordinates.
    %L = ktdp.construct_memory_view %sp, sizes: [16, 64], strides: [64, 1] {coordinate_set = #rows16, memory_space = #ktdp.memory_space<ct_local>} : memref<16x64xf16>
    %tl = ktdp.construct_access_tile %L[0, 0] {access_tile_set = #rows16, access_tile_order = #id2} : memref<16x64xf16> -> !ktdp.access_tile<16x64xindex>
    %tb = ktdp.construct_access_tile %B[%row0, 0] {access_tile_set = #rows16, access_tile_order = #id2} : memref<64x64xf16> -> !ktdp.access_tile<16x64xindex>
    %received = ktdp.load %tl : <16x64xindex> -> tensor<16x64xf16>
    ktdp.store %received, %tb : tensor<16x64xf16>, <16x64xindex>
    return
  }
}
