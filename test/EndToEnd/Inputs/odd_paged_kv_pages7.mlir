// odd_paged_kv_pages7.mlir - paged_kv_gather.mlir (realworld) at odd sizes:
// a cache of 97 pages of 7 positions x 4 heads x 33 dims, a 2x5 page
// table, each tile gathering 2 heads of 35 positions of one sequence.


#pool_set = affine_set<(d0, d1, d2, d3) : (d0 >= 0, -d0 + 96 >= 0, d1 >= 0, -d1 + 3 >= 0, d2 >= 0, -d2 + 6 >= 0, d3 >= 0, -d3 + 32 >= 0)>
#pt_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 4 >= 0)>
#out_set = affine_set<(d0, d1, d2, d3) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 34 >= 0, d2 >= 0, -d2 + 3 >= 0, d3 >= 0, -d3 + 32 >= 0)>
#vars = affine_set<(d0, d1, d2) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 34 >= 0, d2 >= 0, -d2 + 32 >= 0)>
#out_tile = affine_set<(d0, d1, d2, d3) : (d0 == 0, d1 >= 0, -d1 + 34 >= 0, d2 >= 0, -d2 + 1 >= 0, d3 >= 0, -d3 + 32 >= 0)>
#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#t_h_swapped = affine_map<(d0, d1, d2, d3) -> (d0, d2, d1, d3)>
module {
  func.func @gather_kv_pages(%pool_ptr: index,  // POOL: 97x4x7x33 f16 (input, the cache)
                             %pt_ptr: index,    // PT:   2x5 i32 page table (input)
                             %out_ptr: index)   // OUT:  2x35x4x33 f16 (output)
      attributes {grid = [2, 2]} {
    %b, %hg = ktdp.get_compute_tile_id : index, index
    %c2 = arith.constant 2 : index
    %h0 = arith.muli %hg, %c2 : index
    %POOL = ktdp.construct_memory_view %pool_ptr, sizes : [97, 4, 7, 33], strides : [924, 231, 33, 1] {coordinate_set = #pool_set, memory_space = #ktdp.memory_space<global>} : memref<97x4x7x33xf16>
    %PT = ktdp.construct_memory_view %pt_ptr, sizes: [2, 5], strides: [5, 1] {coordinate_set = #pt_set, memory_space = #ktdp.memory_space<global>} : memref<2x5xi32>
    %OUT = ktdp.construct_memory_view %out_ptr, sizes: [2, 35, 4, 33], strides: [4620, 132, 33, 1] {coordinate_set = #out_set, memory_space = #ktdp.memory_space<global>} : memref<2x35x4x33xf16>
    %src = ktdp.construct_indirect_access_tile intermediate_variables(%h, %t, %d) %POOL[ind(%PT[%b, (%t floordiv 7)]), (%h0 + %h), (%t mod 7), (%d)] {variables_space_set = #vars, variables_space_order = #id3} : memref<97x4x7x33xf16>, memref<2x5xi32>
        -> !ktdp.access_tile<2x35x33xindex>
    %kv = ktdp.load %src : <2x35x33xindex> -> tensor<2x35x33xf16>
    %kv4 = tensor.expand_shape %kv [[0, 1], [2], [3]] output_shape [1, 2, 35, 33] : tensor<2x35x33xf16> into tensor<1x2x35x33xf16>
    %dst = ktdp.construct_access_tile %OUT[%b, 0, %h0, 0] {access_tile_order = #t_h_swapped, access_tile_set = #out_tile} : memref<2x35x4x33xf16> -> !ktdp.access_tile<1x2x35x33xindex>
    ktdp.store %kv4, %dst : tensor<1x2x35x33xf16>, <1x2x35x33xindex>
    return
  }
}
