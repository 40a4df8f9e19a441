// distributed_copy_rows.mlir - copy a matrix through a view distributed
// over the scratchpads of four compute tiles, in row blocks, each tile
// moving a column block.
//
// Computes   B[i, j] = A[i, j]      for 0 <= i < 64, 0 <= j < 64   (f16 copy)
// but routes every element through the scratchpads (distributed_copy.mlir
// with the roles of rows and columns exchanged):
//   1. D is a 64x64 distributed view over four ct_local parts; part k lives
//      in the scratchpad of compute tile k, at scratchpad element address
//      2048, holds the global row block i in [16k, 16k + 16) for all 64
//      columns (coordinate_set in GLOBAL coordinates), laid out row-major as
//      a 16x64 array (sizes [16, 64], strides [64, 1]). Global (i, j) is thus
//      stored in tile k = i floordiv 16's scratchpad at element
//      2048 + (i - 16k) * 64 + j   (local index = global - part lower bound).
//   2. Tile t loads its 16-column block A[:, 16t : 16t + 16] and stores it
//      through D at [0, 16t]; this one store is split over all four
//      scratchpads, along the rows.
//   3. Tile t reads its columns back from each scratchpad k through a plain
//      ct_local view L_k of the same memory in LOCAL coordinates (16x64,
//      coordinate_set [0, 16) x [0, 64)), 16x16 tile at [0, 16t], and stores
//      it to B[16k : 16k + 16, 16t : 16t + 16].
// Each tile reads only scratchpad elements it wrote itself, so no ordering
// between tiles is needed. A wrong part-to-local mapping in step 1 shows up
// as wrong values in B.
//
// Arguments (all `index`, tensor start addresses in global memory, counted in
// f16 elements):
//   %a  A : 64x64 f16, row-major (strides [64, 1]), input
//   %b  B : 64x64 f16, row-major, output
// Scratchpad use: 16 * 64 f16 at element address 2048 in each of tiles 0..3.
// Grid: [4].
// Memory space spelling: #ktdp.memory_space<global> and
// #ktdp.memory_space<ct_local, ct_id = k>.

#mat = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#part0 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#part1 = affine_set<(d0, d1) : (d0 - 16 >= 0, -d0 + 31 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#part2 = affine_set<(d0, d1) : (d0 - 32 >= 0, -d0 + 47 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#part3 = affine_set<(d0, d1) : (d0 - 48 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#local = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#cols16 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 15 >= 0)>
#sq16 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 15 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @distributed_copy_rows(%a: index, %b: index) attributes {grid = [4]} {
    %id = ktdp.get_compute_tile_id : index
    %c16 = arith.constant 16 : index
    %col0 = arith.muli %id, %c16 : index
    %sp = arith.constant 2048 : index
    %A = ktdp.construct_memory_view %a, sizes: [64, 64], strides: [64, 1] {coordinate_set = #mat, memory_space = #ktdp.memory_space<global>} : memref<64x64xf16>
    %B = ktdp.construct_memory_view %b, sizes: [64, 64], strides: [64, 1] {coordinate_set = #mat, memory_space = #ktdp.memory_space<global>} : memref<64x64xf16>

    // The four parts: same address and layout, different tile and rows.
    %P0 = ktdp.construct_memory_view %sp, sizes: [16, 64], strides: [64, 1] {coordinate_set = #part0, memory_space = #ktdp.memory_space<ct_local, ct_id = 0>} : memref<16x64xf16>
    %P1 = ktdp.construct_memory_view %sp, sizes: [16, 64], strides: [64, 1] {coordinate_set = #part1, memory_space = #ktdp.memory_space<ct_local, ct_id = 1>} : memref<16x64xf16>
    %P2 = ktdp.construct_memory_view %sp, sizes: [16, 64], strides: [64, 1] {coordinate_set = #part2, memory_space = #ktdp.memory_space<ct_local, ct_id = 2>} : memref<16x64xf16>
    %P3 = ktdp.construct_memory_view %sp, sizes: [16, 64], strides: [64, 1] {coordinate_set = #part3, memory_space = #ktdp.memory_space<ct_local, ct_id = 3>} : memref<16x64xf16>
    %D = ktdp.construct_distributed_memory_view(%P0, %P1, %P2, %P3 : memref<16x64xf16>, memref<16x64xf16>, memref<16x64xf16>, memref<16x64xf16>) : memref<64x64xf16>

    // Step 2: scatter this tile's columns of A over the four scratchpads.
    %ta = ktdp.construct_access_tile %A[0, %col0] {access_tile_set = #cols16, access_tile_order = #id2} : memref<64x64xf16> -> !ktdp.access_tile<64x16xindex>
    %td = ktdp.construct_access_tile %D[0, %col0] {access_tile_set = #cols16, access_tile_order = #id2} : memref<64x64xf16> -> !ktdp.access_tile<64x16xindex>
    %cols = ktdp.load %ta : <64x16xindex> -> tensor<64x16xf16>
    ktdp.store %cols, %td : tensor<64x16xf16>, <64x16xindex>

    // Step 3: read each scratchpad back in its local coordinates.
    %L0 = ktdp.construct_memory_view %sp, sizes: [16, 64], strides: [64, 1] {coordinate_set = #local, memory_space = #ktdp.memory_space<ct_local, ct_id = 0>} : memref<16x64xf16>
    %L1 = ktdp.construct_memory_view %sp, sizes: [16, 64], strides: [64, 1] {coordinate_set = #local, memory_space = #ktdp.memory_space<ct_local, ct_id = 1>} : memref<16x64xf16>
    %L2 = ktdp.construct_memory_view %sp, sizes: [16, 64], strides: [64, 1] {coordinate_set = #local, memory_space = #ktdp.memory_space<ct_local, ct_id = 2>} : memref<16x64xf16>
    %L3 = ktdp.construct_memory_view %sp, sizes: [16, 64], strides: [64, 1] {coordinate_set = #local, memory_space = #ktdp.memory_space<ct_local, ct_id = 3>} : memref<16x64xf16>
    %tl0 = ktdp.construct_access_tile %L0[0, %col0] {access_tile_set = #sq16, access_tile_order = #id2} : memref<16x64xf16> -> !ktdp.access_tile<16x16xindex>
    %tl1 = ktdp.construct_access_tile %L1[0, %col0] {access_tile_set = #sq16, access_tile_order = #id2} : memref<16x64xf16> -> !ktdp.access_tile<16x16xindex>
    %tl2 = ktdp.construct_access_tile %L2[0, %col0] {access_tile_set = #sq16, access_tile_order = #id2} : memref<16x64xf16> -> !ktdp.access_tile<16x16xindex>
    %tl3 = ktdp.construct_access_tile %L3[0, %col0] {access_tile_set = #sq16, access_tile_order = #id2} : memref<16x64xf16> -> !ktdp.access_tile<16x16xindex>
    %tb0 = ktdp.construct_access_tile %B[0, %col0] {access_tile_set = #sq16, access_tile_order = #id2} : memref<64x64xf16> -> !ktdp.access_tile<16x16xindex>
    %tb1 = ktdp.construct_access_tile %B[16, %col0] {access_tile_set = #sq16, access_tile_order = #id2} : memref<64x64xf16> -> !ktdp.access_tile<16x16xindex>
    %tb2 = ktdp.construct_access_tile %B[32, %col0] {access_tile_set = #sq16, access_tile_order = #id2} : memref<64x64xf16> -> !ktdp.access_tile<16x16xindex>
    %tb3 = ktdp.construct_access_tile %B[48, %col0] {access_tile_set = #sq16, access_tile_order = #id2} : memref<64x64xf16> -> !ktdp.access_tile<16x16xindex>
    %v0 = ktdp.load %tl0 : <16x16xindex> -> tensor<16x16xf16>
    %v1 = ktdp.load %tl1 : <16x16xindex> -> tensor<16x16xf16>
    %v2 = ktdp.load %tl2 : <16x16xindex> -> tensor<16x16xf16>
    %v3 = ktdp.load %tl3 : <16x16xindex> -> tensor<16x16xf16>
    ktdp.store %v0, %tb0 : tensor<16x16xf16>, <16x16xindex>
    ktdp.store %v1, %tb1 : tensor<16x16xf16>, <16x16xindex>
    ktdp.store %v2, %tb2 : tensor<16x16xf16>, <16x16xindex>
    ktdp.store %v3, %tb3 : tensor<16x16xf16>, <16x16xindex>
    return
  }
}
