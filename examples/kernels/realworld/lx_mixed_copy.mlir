// lx_mixed_copy.mlir - copy a matrix through the field guide's distributed
// view over three memories (§1b.6): a global part and the LX scratchpads of
// tiles 0 and 1, one of them column-major.
//
// Computes, for tiles t < 2, i < 192, j < 64, all values f16:
//   Y[192t + i, j] = X[i, j]                 (every tile writes its copy)
//
// D is a 192x64 distributed view whose parts' coordinate sets use global
// row numbers (the local index is global minus the part's lower bound):
//   * rows 0..95: X itself, in global memory (96x64, row-major);
//   * rows 96..127: tile 0's LX at element 12288, column-major
//     (sizes [32, 64], strides [1, 64]: (i, j) at 12288 + (i - 96) + 64j);
//   * rows 128..191: tile 1's LX at element 16384, row-major (64x64).
// Grid [2]. First each tile fills its own LX part from X through D, in
// 32-row blocks: block 1 at row 96 + 32t (tile 0's part, the first half of
// tile 1's), block 2 at row 192 - 32t (the second half of tile 1's; tile 0
// owns no more rows, its block 2 lies past the view's last row and writes
// nothing). Then every tile loads the whole view, 192x64, and stores it to
// its row block of Y: rows 0..95 come from global memory, 96..127 from
// tile 0's LX and 128..191 from tile 1's, so each tile reads another tile's
// scratchpad. Every tile stores before it loads and makes the same loads
// before, so in the interpreter every store has landed before any load.
// A wrong part-to-local mapping shows up as wrong values in Y.

#x_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 191 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#y_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 383 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#g   = affine_set<(d0, d1) : (d0 >= 0, -d0 + 95 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#l0  = affine_set<(d0, d1) : (d0 - 96 >= 0, -d0 + 127 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#l1  = affine_set<(d0, d1) : (d0 - 128 >= 0, -d0 + 191 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#all = affine_set<(d0, d1) : (d0 >= 0, -d0 + 191 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#blk = affine_set<(d0, d1) : (d0 >= 0, -d0 + 31 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @lx_mixed_copy(%x_ptr: index,  // X: 192x64 f16 (input)
                           %y_ptr: index)  // Y: 384x64 f16 (output, 2 copies of X)
      attributes {grid = [2]} {
    %pid = ktdp.get_compute_tile_id : index
    %c0 = arith.constant 0 : index
    %c32 = arith.constant 32 : index
    %c96 = arith.constant 96 : index
    %c160 = arith.constant 160 : index
    %c192 = arith.constant 192 : index
    %lx0 = arith.constant 12288 : index
    %lx1 = arith.constant 16384 : index
    %X = ktdp.construct_memory_view %x_ptr, sizes: [192, 64], strides: [64, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<192x64xf16>
    %Y = ktdp.construct_memory_view %y_ptr, sizes: [384, 64], strides: [64, 1] {coordinate_set = #y_set, memory_space = #ktdp.memory_space<global>} : memref<384x64xf16>

    %G = ktdp.construct_memory_view %x_ptr, sizes: [96, 64], strides: [64, 1] {coordinate_set = #g, memory_space = #ktdp.memory_space<global>} : memref<96x64xf16>
    %L0 = ktdp.construct_memory_view %lx0, sizes: [32, 64], strides: [1, 64] {coordinate_set = #l0, memory_space = #ktdp.memory_space<ct_local, ct_id = 0>} : memref<32x64xf16, strided<[1, 64]>>
    %L1 = ktdp.construct_memory_view %lx1, sizes: [64, 64], strides: [64, 1] {coordinate_set = #l1, memory_space = #ktdp.memory_space<ct_local, ct_id = 1>} : memref<64x64xf16>
    %D = ktdp.construct_distributed_memory_view(%G, %L0, %L1 : memref<96x64xf16>, memref<32x64xf16, strided<[1, 64]>>, memref<64x64xf16>) : memref<192x64xf16>

    // Each tile fills its own LX part.
    %t32 = arith.muli %pid, %c32 : index
    %r1 = arith.addi %c96, %t32 : index
    %r2 = arith.subi %c192, %t32 : index
    %tx1 = ktdp.construct_access_tile %X[%r1, 0] {access_tile_set = #blk, access_tile_order = #id2} : memref<192x64xf16> -> !ktdp.access_tile<32x64xindex>
    %tx2 = ktdp.construct_access_tile %X[%c160, 0] {access_tile_set = #blk, access_tile_order = #id2} : memref<192x64xf16> -> !ktdp.access_tile<32x64xindex>
    %td1 = ktdp.construct_access_tile %D[%r1, 0] {access_tile_set = #blk, access_tile_order = #id2} : memref<192x64xf16> -> !ktdp.access_tile<32x64xindex>
    %td2 = ktdp.construct_access_tile %D[%r2, 0] {access_tile_set = #blk, access_tile_order = #id2} : memref<192x64xf16> -> !ktdp.access_tile<32x64xindex>
    %b1 = ktdp.load %tx1 : <32x64xindex> -> tensor<32x64xf16>
    %b2 = ktdp.load %tx2 : <32x64xindex> -> tensor<32x64xf16>
    ktdp.store %b1, %td1 : tensor<32x64xf16>, <32x64xindex>
    ktdp.store %b2, %td2 : tensor<32x64xf16>, <32x64xindex>

    // The whole view, out of three memories, into this tile's copy.
    %t = ktdp.construct_access_tile %D[%c0, %c0] {access_tile_set = #all, access_tile_order = #id2} : memref<192x64xf16> -> !ktdp.access_tile<192x64xindex>
    %v = ktdp.load %t : <192x64xindex> -> tensor<192x64xf16>
    %y0 = arith.muli %pid, %c192 : index
    %ty = ktdp.construct_access_tile %Y[%y0, %c0] {access_tile_set = #all, access_tile_order = #id2} : memref<384x64xf16> -> !ktdp.access_tile<192x64xindex>
    ktdp.store %v, %ty : tensor<192x64xf16>, <192x64xindex>
    return
  }
}
