// paged_kv_gather.mlir - gather a paged KV cache into a contiguous
// [sequence, token, head, head_dim] layout through a page table, with the
// head offset of the tile captured inside the indirect subscripts.
//
// Computes, for b < 2, t < 64, h < 4, d < 32 (a pure f16 copy):
//   OUT[b, t, h, d] = POOL[PT[b, t floordiv 16], h, t mod 16, d]
//
// POOL is 32 pages x 4 heads x 16 slots x 32, PT is 2 x 4 i32 page ids (each
// in [0, 32): `range:0:32`; pages may repeat). Grid [2, 2], comma-form ids:
// tile (b, hg) gathers sequence b, heads [2hg, 2hg + 2). The indirect tile
// runs over (h, t, d) in [0, 2) x [0, 64) x [0, 32); the loaded 2x64x32
// tensor is [h, t, d]. The store tile on OUT uses order (d0, d2, d1, d3),
// so tile element (0, h, t, d) lands at OUT[b, t, 2hg + h, d].

#pool_set = affine_set<(d0, d1, d2, d3) : (d0 >= 0, -d0 + 31 >= 0, d1 >= 0, -d1 + 3 >= 0, d2 >= 0, -d2 + 15 >= 0, d3 >= 0, -d3 + 31 >= 0)>
#pt_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 3 >= 0)>
#out_set = affine_set<(d0, d1, d2, d3) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 63 >= 0, d2 >= 0, -d2 + 3 >= 0, d3 >= 0, -d3 + 31 >= 0)>
#vars = affine_set<(d0, d1, d2) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 63 >= 0, d2 >= 0, -d2 + 31 >= 0)>
#out_tile = affine_set<(d0, d1, d2, d3) : (d0 == 0, d1 >= 0, -d1 + 63 >= 0, d2 >= 0, -d2 + 1 >= 0, d3 >= 0, -d3 + 31 >= 0)>
#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#t_h_swapped = affine_map<(d0, d1, d2, d3) -> (d0, d2, d1, d3)>
module {
  func.func @gather_kv_pages(%pool_ptr: index,  // POOL: 32x4x16x32 f16 (input, the cache)
                             %pt_ptr: index,    // PT:   2x4 i32 page table (input)
                             %out_ptr: index)   // OUT:  2x64x4x32 f16 (output)
      attributes {grid = [2, 2]} {
    %b, %hg = ktdp.get_compute_tile_id : index, index
    %c2 = arith.constant 2 : index
    %h0 = arith.muli %hg, %c2 : index
    %POOL = ktdp.construct_memory_view %pool_ptr, sizes : [32, 4, 16, 32], strides : [2048, 512, 32, 1] {coordinate_set = #pool_set, memory_space = #ktdp.memory_space<global>} : memref<32x4x16x32xf16>
    %PT = ktdp.construct_memory_view %pt_ptr, sizes: [2, 4], strides: [4, 1] {coordinate_set = #pt_set, memory_space = #ktdp.memory_space<global>} : memref<2x4xi32>
    %OUT = ktdp.construct_memory_view %out_ptr, sizes: [2, 64, 4, 32], strides: [8192, 128, 32, 1] {coordinate_set = #out_set, memory_space = #ktdp.memory_space<global>} : memref<2x64x4x32xf16>
    %src = ktdp.construct_indirect_access_tile intermediate_variables(%h, %t, %d) %POOL[ind(%PT[%b, (%t floordiv 16)]), (%h0 + %h), (%t mod 16), (%d)] {variables_space_set = #vars, variables_space_order = #id3} : memref<32x4x16x32xf16>, memref<2x4xi32>
        -> !ktdp.access_tile<2x64x32xindex>
    %kv = ktdp.load %src : <2x64x32xindex> -> tensor<2x64x32xf16>
    %kv4 = tensor.expand_shape %kv [[0, 1], [2], [3]] output_shape [1, 2, 64, 32] : tensor<2x64x32xf16> into tensor<1x2x64x32xf16>
    %dst = ktdp.construct_access_tile %OUT[%b, 0, %h0, 0] {access_tile_order = #t_h_swapped, access_tile_set = #out_tile} : memref<2x64x4x32xf16> -> !ktdp.access_tile<1x2x64x32xindex>
    ktdp.store %kv4, %dst : tensor<1x2x64x32xf16>, <1x2x64x32xindex>
    return
  }
}
