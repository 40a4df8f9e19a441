// consume_swap_pairs.mlir - tiles exchange rows in pairs: two groups of
// two tiles, each consumer taking the row of the other tile of its group,
// chosen by a (p)[c, g] dependency set.
//
// Computes, for t < 4, c < 64, all values f16:
//   Y[t, c] = f16(X[t, c] + X[t xor 1, c])
//
// Grid [4, 1], one tile id: group g holds tiles 2g and 2g + 1; consumer c
// of group g depends on producer p = 4g + 1 - c.

#x_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#row1 = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 63 >= 0)>
#pairs = affine_set<(i)[g] : (i - 2*g >= 0, -i + 2*g + 1 >= 0)>
#other = affine_set<(p)[c, g] : (p + c - 4*g - 1 == 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @swap_pairs(%x_ptr: index,  // X: 4x64 f16 (input)
                        %y_ptr: index)  // Y: 4x64 f16 (output)
      attributes {grid = [4, 1]} {
    %pid = ktdp.get_compute_tile_id : index
    %X = ktdp.construct_memory_view %x_ptr, sizes: [4, 64], strides: [64, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<4x64xf16>
    %Y = ktdp.construct_memory_view %y_ptr, sizes: [4, 64], strides: [64, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<4x64xf16>
    %tx = ktdp.construct_access_tile %X[%pid, 0] {access_tile_set = #row1, access_tile_order = #id2} : memref<4x64xf16> -> !ktdp.access_tile<1x64xindex>
    %x = ktdp.load %tx : <1x64xindex> -> tensor<1x64xf16>
    %fut = ktdp.inter_tile_produce producer_tiles_per_group = #pairs
        : tensor<1x64xf16> -> !ktdp.tile_future<tensor<1x64xf16>, groups = affine_set<(g) : (g >= 0, -g + 1 >= 0)>>
    {
    ^bb0(%gid: index):
      ktdp.yield_partial %x : tensor<1x64xf16>
    }
    %o = ktdp.inter_tile_consume(%fut) consumer_tiles_per_group = #pairs, producer_dependency_per_consumer = #other
        : !ktdp.tile_future<tensor<1x64xf16>, groups = affine_set<(g) : (g >= 0, -g + 1 >= 0)>> -> tensor<1x64xf16>
    %s = arith.addf %x, %o : tensor<1x64xf16>
    %ty = ktdp.construct_access_tile %Y[%pid, 0] {access_tile_set = #row1, access_tile_order = #id2} : memref<4x64xf16> -> !ktdp.access_tile<1x64xindex>
    ktdp.store %s, %ty : tensor<1x64xf16>, <1x64xindex>
    return
  }
}
