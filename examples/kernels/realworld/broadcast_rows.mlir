// broadcast_rows.mlir - one tile computes a per-column scale and broadcasts
// it to all 32 tiles with inter_tile_consume; each tile scales its two
// rows by it.
//
// Computes, for r < 64, c < 128, all values f16:
//   s[c]    = f16(W[c] * 0.5)            (tile 0 only, in the produce body)
//   Y[r, c] = f16(X[r, c] * s[c])
//
// Grid [32, 1] with one tile id (the linear id): tile t owns rows 2t and
// 2t + 1 of X and Y, anchored at row pid * 2. The produce runs on tile 0
// alone (#tile0); the consume delivers its 128 values to all 32 tiles
// (#all32, one group, so one producer per consumer: no dependency set).
// The inter-tile ops use the trailing functional type with the prefixed,
// unparenthesised future type (field guide §1a.3). More tiles than
// mesh_device (16) and sample_device (8) have lanes.

#x_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#w_set = affine_set<(d0) : (d0 >= 0, -d0 + 127 >= 0)>
#rows2 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#tile0 = affine_set<(i)[g] : (i == 0, g == 0)>
#all32 = affine_set<(i)[g] : (i >= 0, -i + 31 >= 0, g == 0)>
#id1 = affine_map<(d0) -> (d0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @broadcast_rows(%x_ptr: index,  // X: 64x128 f16 (input)
                            %w_ptr: index,  // W: 128 f16 (input, read by tile 0)
                            %y_ptr: index)  // Y: 64x128 f16 (output)
      attributes {grid = [32, 1]} {
    %pid = ktdp.get_compute_tile_id : index
    %c2 = arith.constant 2 : index
    %half = arith.constant 5.000000e-01 : f16
    %row0 = arith.muli %pid, %c2 : index
    %W = ktdp.construct_memory_view %w_ptr, sizes: [128], strides: [1] {coordinate_set = #w_set, memory_space = #ktdp.memory_space<global>} : memref<128xf16>
    %X = ktdp.construct_memory_view %x_ptr, sizes: [64, 128], strides: [128, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<64x128xf16>
    %Y = ktdp.construct_memory_view %y_ptr, sizes: [64, 128], strides: [128, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<64x128xf16>
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
    %scale = ktdp.inter_tile_consume(%fut) consumer_tiles_per_group = #all32
        : !ktdp.tile_future<tensor<128xf16>, groups = affine_set<(g) : (g == 0)>> -> tensor<128xf16>
    %tx = ktdp.construct_access_tile %X[%row0, 0] {access_tile_set = #rows2, access_tile_order = #id2} : memref<64x128xf16> -> !ktdp.access_tile<2x128xindex>
    %x = ktdp.load %tx : <2x128xindex> -> tensor<2x128xf16>
    %e = tensor.empty() : tensor<2x128xf16>
    %sb = linalg.broadcast ins(%scale : tensor<128xf16>) outs(%e : tensor<2x128xf16>) dimensions = [0]
    %y = arith.mulf %x, %sb : tensor<2x128xf16>
    %ty = ktdp.construct_access_tile %Y[%row0, 0] {access_tile_set = #rows2, access_tile_order = #id2} : memref<64x128xf16> -> !ktdp.access_tile<2x128xindex>
    ktdp.store %y, %ty : tensor<2x128xf16>, <2x128xindex>
    return
  }
}
