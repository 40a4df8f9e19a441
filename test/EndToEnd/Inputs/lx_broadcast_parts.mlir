// lx_broadcast_parts.mlir - every tile reads both LX parts of a view that
// each tile filled (EndToEnd/lx-broadcast-parts.test), the field guide's
// §1b.6 spelling: a distributed view over the LX scratchpads of tiles 0
// and 1, tile 0's part column-major.
//
// Computes, for t < 2, i < 32, j < 32, all values f16:
//   Y[32t + i, j] = 2 * X[i, j]
//
// D is a 32x32 view: rows 0..15 in tile 0's LX at element 4096, column-
// major (sizes [16, 32], strides [1, 16]: (i, j) at 4096 + i + 16j), rows
// 16..31 in tile 1's LX at element 8192, row-major. Grid [2]: tile t
// loads X's rows 16t..16t + 15 and stores them through D into its own
// part; then every tile loads the whole of D, doubles it with a
// linalg.generic and stores it to its row block of Y. Each tile's block
// is read by both tiles: the scheduler sends it to the other tile and
// keeps its own copy (two views filled by one load, DMAs straight from X).
#x_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 31 >= 0, d1 >= 0, -d1 + 31 >= 0)>
#y_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 31 >= 0)>
#p0 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 31 >= 0)>
#p1 = affine_set<(d0, d1) : (d0 - 16 >= 0, -d0 + 31 >= 0, d1 >= 0, -d1 + 31 >= 0)>
#blk = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 31 >= 0)>
#all = affine_set<(d0, d1) : (d0 >= 0, -d0 + 31 >= 0, d1 >= 0, -d1 + 31 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @lx_broadcast_parts(%x_ptr: index,  // X: 32x32 f16 (input)
                                %y_ptr: index)  // Y: 64x32 f16 (output)
      attributes {grid = [2]} {
    %pid = ktdp.get_compute_tile_id : index
    %c0 = arith.constant 0 : index
    %c16 = arith.constant 16 : index
    %c32 = arith.constant 32 : index
    %lx0 = arith.constant 4096 : index
    %lx1 = arith.constant 8192 : index
    %X = ktdp.construct_memory_view %x_ptr, sizes: [32, 32], strides: [32, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<32x32xf16>
    %Y = ktdp.construct_memory_view %y_ptr, sizes: [64, 32], strides: [32, 1] {coordinate_set = #y_set, memory_space = #ktdp.memory_space<global>} : memref<64x32xf16>
    %L0 = ktdp.construct_memory_view %lx0, sizes: [16, 32], strides: [1, 16] {coordinate_set = #p0, memory_space = #ktdp.memory_space<ct_local, ct_id = 0>} : memref<16x32xf16, strided<[1, 16]>>
    %L1 = ktdp.construct_memory_view %lx1, sizes: [16, 32], strides: [32, 1] {coordinate_set = #p1, memory_space = #ktdp.memory_space<ct_local, ct_id = 1>} : memref<16x32xf16>
    %D = ktdp.construct_distributed_memory_view(%L0, %L1 : memref<16x32xf16, strided<[1, 16]>>, memref<16x32xf16>) : memref<32x32xf16>

    // Each tile fills its own part.
    %r = arith.muli %pid, %c16 : index
    %tx = ktdp.construct_access_tile %X[%r, %c0] {access_tile_set = #blk, access_tile_order = #id2} : memref<32x32xf16> -> !ktdp.access_tile<16x32xindex>
    %td = ktdp.construct_access_tile %D[%r, %c0] {access_tile_set = #blk, access_tile_order = #id2} : memref<32x32xf16> -> !ktdp.access_tile<16x32xindex>
    %b = ktdp.load %tx : <16x32xindex> -> tensor<16x32xf16>
    ktdp.store %b, %td : tensor<16x32xf16>, <16x32xindex>

    // Both parts, doubled, into this tile's copy.
    %ta = ktdp.construct_access_tile %D[%c0, %c0] {access_tile_set = #all, access_tile_order = #id2} : memref<32x32xf16> -> !ktdp.access_tile<32x32xindex>
    %v = ktdp.load %ta : <32x32xindex> -> tensor<32x32xf16>
    %e = tensor.empty() : tensor<32x32xf16>
    %w = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]} ins(%v : tensor<32x32xf16>) outs(%e : tensor<32x32xf16>) {
    ^bb0(%in: f16, %out: f16):
      %s = arith.addf %in, %in : f16
      linalg.yield %s : f16
    } -> tensor<32x32xf16>
    %y0 = arith.muli %pid, %c32 : index
    %ty = ktdp.construct_access_tile %Y[%y0, %c0] {access_tile_set = #all, access_tile_order = #id2} : memref<64x32xf16> -> !ktdp.access_tile<32x32xindex>
    ktdp.store %w, %ty : tensor<32x32xf16>, <32x32xindex>
    return
  }
}
