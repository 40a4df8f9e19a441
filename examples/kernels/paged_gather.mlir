// paged_gather.mlir - paged KV-cache gather through an indirect access tile
// (a small version of the reference's paged-tensor-copy).
//
// Computes, for 0 <= b < 2, 0 <= t < 64, 0 <= h < 2, 0 <= d < 64:
//   Y[b, t, h, d] = X[Idx[b, t floordiv 16], h, t mod 16, d]
// (a pure copy of f16 values).
//
// Arguments (all `index`, start addresses counted in elements of each
// tensor's own element type):
//   %x    X   : 16x2x16x64 f16 = [page, head, slot in page, head dim],
//               row-major (strides [2048, 1024, 64, 1]), input (the cache)
//   %idx  Idx : 2x4 i32 = [sequence, logical page], row-major (strides [4, 1]),
//               input: the page table; every entry must be a page id in
//               [0, 16) (e.g. `range:0:16`; repeated ids are allowed)
//   %y    Y   : 2x64x2x64 f16 = [sequence, token, head, head dim],
//               row-major (strides [8192, 128, 64, 1]), output
// Grid: [2]. Tile b gathers sequence b: an indirect tile over the variable
// space (h, t, d) in [0,2)x[0,64)x[0,64) (identity order, so the loaded
// tensor is 2x64x64 indexed [h, t, d]); tensor.expand_shape makes it
// 1x2x64x64, and the store tile on Y (anchor [b, 0, 0, 0], order
// (d0, d2, d1, d3)) writes tile element (0, h, t, d) to Y[b, t, h, d].
// Memory space spelling: #ktdp.spyre_memory_space<HBM>.

#x_set = affine_set<(d0, d1, d2, d3) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 1 >= 0, d2 >= 0, -d2 + 15 >= 0, d3 >= 0, -d3 + 63 >= 0)>
#idx_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 3 >= 0)>
#y_set = affine_set<(d0, d1, d2, d3) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 63 >= 0, d2 >= 0, -d2 + 1 >= 0, d3 >= 0, -d3 + 63 >= 0)>
#var_space = affine_set<(d0, d1, d2) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 63 >= 0, d2 >= 0, -d2 + 63 >= 0)>
#y_tile = affine_set<(d0, d1, d2, d3) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 + 63 >= 0, d2 >= 0, -d2 + 1 >= 0, d3 >= 0, -d3 + 63 >= 0)>
#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#swap_t_h = affine_map<(d0, d1, d2, d3) -> (d0, d2, d1, d3)>
module {
  func.func @paged_gather(%x: index, %idx: index, %y: index) attributes {grid = [2]} {
    %b = ktdp.get_compute_tile_id : index
    %X = ktdp.construct_memory_view %x, sizes: [16, 2, 16, 64], strides: [2048, 1024, 64, 1] {coordinate_set = #x_set, memory_space = #ktdp.spyre_memory_space<HBM>} : memref<16x2x16x64xf16>
    %Idx = ktdp.construct_memory_view %idx, sizes: [2, 4], strides: [4, 1] {coordinate_set = #idx_set, memory_space = #ktdp.spyre_memory_space<HBM>} : memref<2x4xi32>
    %Y = ktdp.construct_memory_view %y, sizes: [2, 64, 2, 64], strides: [8192, 128, 64, 1] {coordinate_set = #y_set, memory_space = #ktdp.spyre_memory_space<HBM>} : memref<2x64x2x64xf16>

    %tx = ktdp.construct_indirect_access_tile intermediate_variables(%h, %t, %d) %X[ind(%Idx[%b, (%t floordiv 16)]), (%h), (%t mod 16), (%d)] {variables_space_set = #var_space, variables_space_order = #id3} : memref<16x2x16x64xf16>, memref<2x4xi32> -> !ktdp.access_tile<2x64x64xindex>
    %pages = ktdp.load %tx : <2x64x64xindex> -> tensor<2x64x64xf16>
    %seq = tensor.expand_shape %pages [[0, 1], [2], [3]] output_shape [1, 2, 64, 64] : tensor<2x64x64xf16> into tensor<1x2x64x64xf16>

    %ty = ktdp.construct_access_tile %Y[%b, 0, 0, 0] {access_tile_set = #y_tile, access_tile_order = #swap_t_h} : memref<2x64x2x64xf16> -> !ktdp.access_tile<1x2x64x64xindex>
    ktdp.store %seq, %ty : tensor<1x2x64x64xf16>, <1x2x64x64xindex>
    return
  }
}
