// consume_scale_rows.mlir - one tile computes a per-column scale and
// broadcasts it to every tile with inter_tile_consume; each tile scales
// its rows by it.
//
// Computes, for r < 64, c < 128, all values f16:
//   s[c]    = f16(W[c] * 0.5)            (tile 0 only, in the produce body)
//   Y[r, c] = f16(X[r, c] * s[c])
//
// Grid [4, 1], one tile id: tile t owns rows 16t..16t+15, read and written
// through views at the computed addresses x_ptr + 2048 t and
// y_ptr + 2048 t. The produce runs on tile 0 alone (#tile0); the consume
// delivers its 128 values to all four tiles (#all4, one group, so one
// producer per consumer: no dependency set). The inter-tile ops use the
// trailing functional type with the prefixed, unparenthesised future type.

#w_set = affine_set<(d0) : (d0 >= 0, -d0 + 127 >= 0)>
#rows16 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#tile0 = affine_set<(i)[g] : (i == 0, g == 0)>
#all4 = affine_set<(i)[g] : (i >= 0, -i + 3 >= 0, g == 0)>
#id1 = affine_map<(d0) -> (d0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @scale_rows_bcast(%x_ptr: index,  // X: 64x128 f16 (input)
                              %w_ptr: index,  // W: 128 f16 (input, read by tile 0)
                              %y_ptr: index)  // Y: 64x128 f16 (output)
      attributes {grid = [4, 1]} {
    %pid = ktdp.get_compute_tile_id : index
    %c2048 = arith.constant 2048 : index
    %half = arith.constant 5.000000e-01 : f16
    %off = arith.muli %pid, %c2048 : index
    %x_base = arith.addi %x_ptr, %off : index
    %y_base = arith.addi %y_ptr, %off : index
    %W = ktdp.construct_memory_view %w_ptr, sizes: [128], strides: [1] {coordinate_set = #w_set, memory_space = #ktdp.memory_space<global>} : memref<128xf16>
    %X = ktdp.construct_memory_view %x_base, sizes: [16, 128], strides: [128, 1] {coordinate_set = #rows16, memory_space = #ktdp.memory_space<global>} : memref<16x128xf16>
    %Y = ktdp.construct_memory_view %y_base, sizes: [16, 128], strides: [128, 1] {coordinate_set = #rows16, memory_space = #ktdp.memory_space<global>} : memref<16x128xf16>
    %fut = ktdp.inter_tile_produce producer_tiles_per_group = #tile0
        : tensor<128xf16> -> !ktdp.tile_future<tensor<128xf16>, groups = affine_set<(g) : (g == 0)>>
    {
    ^bb0(%gid: index):
      %tw = ktdp.construct_access_tile %W[0] {access_tile_set = #w_set, access_tile_order = #id1} : memref<128xf16> -> !ktdp.access_tile<128xindex>
      %w = ktdp.load %tw : <128xindex> -> tensor<128xf16>
      %halves = tensor.splat %half : tensor<128xf16>
      %s = arith.mulf %w, %halves : tensor<128xf16>
      ktdp.yield_partial %s : tensor<128xf16>
    }
    %scale = ktdp.inter_tile_consume(%fut) consumer_tiles_per_group = #all4
        : !ktdp.tile_future<tensor<128xf16>, groups = affine_set<(g) : (g == 0)>> -> tensor<128xf16>
    %tx = ktdp.construct_access_tile %X[0, 0] {access_tile_set = #rows16, access_tile_order = #id2} : memref<16x128xf16> -> !ktdp.access_tile<16x128xindex>
    %x = ktdp.load %tx : <16x128xindex> -> tensor<16x128xf16>
    %e = tensor.empty() : tensor<16x128xf16>
    %sb = linalg.broadcast ins(%scale : tensor<128xf16>) outs(%e : tensor<16x128xf16>) dimensions = [0]
    %y = arith.mulf %x, %sb : tensor<16x128xf16>
    %ty = ktdp.construct_access_tile %Y[0, 0] {access_tile_set = #rows16, access_tile_order = #id2} : memref<16x128xf16> -> !ktdp.access_tile<16x128xindex>
    ktdp.store %y, %ty : tensor<16x128xf16>, <16x128xindex>
    return
  }
}
