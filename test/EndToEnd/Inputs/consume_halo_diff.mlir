// consume_halo_diff.mlir - a row difference across tile boundaries: each
// tile gets the last row of the previous tile's block (cyclically) with
// inter_tile_consume and a producer_dependency_per_consumer set.
//
// Computes, for t < 4, r < 16, c < 64, all values f16:
//   D[16t + r, c] = f16(X[16t + r, c] - X[16t + r - 1, c])   for r > 0
//   D[16t, c]     = f16(X[16t, c] - X[16((t + 3) mod 4) + 15, c])
//
// Grid [4, 1], one tile id: tile t owns rows 16t..16t+15. Every tile
// produces its last row; consumer c takes the row of producer
// p = (c + 3) mod 4 (#prev: a ring shift). The previous rows of the block
// are the block itself loaded one row up (X[16t - 1 + r] for r >= 1), the
// first of them replaced by the halo row.

#x_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#rows16 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#rows15 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 14 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#row1 = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 63 >= 0)>
#all4 = affine_set<(i)[g] : (i >= 0, -i + 3 >= 0, g == 0)>
#prev = affine_set<(p)[c] : (p - (c + 3) mod 4 == 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @halo_diff(%x_ptr: index,  // X: 64x64 f16 (input)
                       %d_ptr: index)  // D: 64x64 f16 (output)
      attributes {grid = [4, 1]} {
    %pid = ktdp.get_compute_tile_id : index
    %c1 = arith.constant 1 : index
    %c15 = arith.constant 15 : index
    %c16 = arith.constant 16 : index
    %row0 = arith.muli %pid, %c16 : index
    %last_row = arith.addi %row0, %c15 : index
    %next_row = arith.addi %row0, %c1 : index
    %X = ktdp.construct_memory_view %x_ptr, sizes: [64, 64], strides: [64, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<64x64xf16>
    %D = ktdp.construct_memory_view %d_ptr, sizes: [64, 64], strides: [64, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<64x64xf16>
    %tlast = ktdp.construct_access_tile %X[%last_row, 0] {access_tile_set = #row1, access_tile_order = #id2} : memref<64x64xf16> -> !ktdp.access_tile<1x64xindex>
    %last = ktdp.load %tlast : <1x64xindex> -> tensor<1x64xf16>
    %fut = ktdp.inter_tile_produce producer_tiles_per_group = #all4
        : tensor<1x64xf16> -> !ktdp.tile_future<tensor<1x64xf16>, groups = affine_set<(g) : (g == 0)>>
    {
    ^bb0(%gid: index):
      ktdp.yield_partial %last : tensor<1x64xf16>
    }
    %halo = ktdp.inter_tile_consume(%fut) consumer_tiles_per_group = #all4, producer_dependency_per_consumer = #prev
        : !ktdp.tile_future<tensor<1x64xf16>, groups = affine_set<(g) : (g == 0)>> -> tensor<1x64xf16>
    // First row: X[16t] - halo.
    %tfirst = ktdp.construct_access_tile %X[%row0, 0] {access_tile_set = #row1, access_tile_order = #id2} : memref<64x64xf16> -> !ktdp.access_tile<1x64xindex>
    %first = ktdp.load %tfirst : <1x64xindex> -> tensor<1x64xf16>
    %d0 = arith.subf %first, %halo : tensor<1x64xf16>
    %td0 = ktdp.construct_access_tile %D[%row0, 0] {access_tile_set = #row1, access_tile_order = #id2} : memref<64x64xf16> -> !ktdp.access_tile<1x64xindex>
    ktdp.store %d0, %td0 : tensor<1x64xf16>, <1x64xindex>
    // Rows 1..15: X[16t + r] - X[16t + r - 1].
    %tcur = ktdp.construct_access_tile %X[%next_row, 0] {access_tile_set = #rows15, access_tile_order = #id2} : memref<64x64xf16> -> !ktdp.access_tile<15x64xindex>
    %tprv = ktdp.construct_access_tile %X[%row0, 0] {access_tile_set = #rows15, access_tile_order = #id2} : memref<64x64xf16> -> !ktdp.access_tile<15x64xindex>
    %cur = ktdp.load %tcur : <15x64xindex> -> tensor<15x64xf16>
    %prv = ktdp.load %tprv : <15x64xindex> -> tensor<15x64xf16>
    %d = arith.subf %cur, %prv : tensor<15x64xf16>
    %td = ktdp.construct_access_tile %D[%next_row, 0] {access_tile_set = #rows15, access_tile_order = #id2} : memref<64x64xf16> -> !ktdp.access_tile<15x64xindex>
    ktdp.store %d, %td : tensor<15x64xf16>, <15x64xindex>
    return
  }
}
