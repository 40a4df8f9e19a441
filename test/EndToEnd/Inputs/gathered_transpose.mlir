// gathered_transpose.mlir - a paged cache's pages gathered transposed (a
// paged attention's K^T, in the field guide's style): tile b reads page
// BT[b] of K (8 pages of 16 tokens x 4 heads x 32) through the block
// table, head 1's 16x32 slice walked in the order (e, t), so it loads the
// 32x16 K^T of the page, and stores twice it to rows 32b .. 32b + 31 of Y.
//   Y[32b + e, t] = 2 * K[BT[b], 128t + 32 + e]   (t < 16, e < 32)
// K: 8x2048 f16, BT: 2 i32 in [0, 8), Y: 64x16 f16. Grid [2].

#k_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 2047 >= 0)>
#bt_set = affine_set<(d0) : (d0 >= 0, -d0 + 1 >= 0)>
#y_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 15 >= 0)>
#page = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 31 >= 0)>
#y_tile = affine_set<(d0, d1) : (d0 >= 0, -d0 + 31 >= 0, d1 >= 0, -d1 + 15 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#kt_order = affine_map<(d0, d1) -> (d1, d0)>
module {
  func.func @gathered_transpose(%k_ptr: index, %bt_ptr: index, %y_ptr: index)
      attributes {grid = [2]} {
    %b = ktdp.get_compute_tile_id : index
    %c32 = arith.constant 32 : index
    %K = ktdp.construct_memory_view %k_ptr, sizes: [8, 2048], strides: [2048, 1] {coordinate_set = #k_set, memory_space = #ktdp.memory_space<global>} : memref<8x2048xf16>
    %BT = ktdp.construct_memory_view %bt_ptr, sizes: [2], strides: [1] {coordinate_set = #bt_set, memory_space = #ktdp.memory_space<global>} : memref<2xi32>
    %Y = ktdp.construct_memory_view %y_ptr, sizes: [64, 16], strides: [16, 1] {coordinate_set = #y_set, memory_space = #ktdp.memory_space<global>} : memref<64x16xf16>
    %tk = ktdp.construct_indirect_access_tile intermediate_variables(%t, %e) %K[ind(%BT[%b]), (%t * 128 + %e + 32)] {variables_space_set = #page, variables_space_order = #kt_order} : memref<8x2048xf16>, memref<2xi32> -> !ktdp.access_tile<32x16xindex>
    %kt = ktdp.load %tk : <32x16xindex> -> tensor<32x16xf16>
    %y = arith.addf %kt, %kt : tensor<32x16xf16>
    %row = arith.muli %b, %c32 : index
    %ty = ktdp.construct_access_tile %Y[%row, 0] {access_tile_set = #y_tile, access_tile_order = #id2} : memref<64x16xf16> -> !ktdp.access_tile<32x16xindex>
    ktdp.store %y, %ty : tensor<32x16xf16>, <32x16xindex>
    return
  }
}
