// add_broadcast_blocks.mlir - a loop of run-time trips holding a tile copy:
// for each of nb column blocks, tile 0 loads W's block and scales it by
// the f16 argument alpha inside its produce body, and all 6 tiles consume
// the block and add it to their row of X.
//
// Computes, for t < 6, b < nb, c < 128:
//   Y[t, 128b + c] = f16(x[t, 128b + c] + f16(W[128b + c] * alpha))

#x_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 5 >= 0, d1 >= 0, -d1 + 1279 >= 0)>
#w_set = affine_set<(d0) : (d0 >= 0, -d0 + 1279 >= 0)>
#w_blk = affine_set<(d0) : (d0 >= 0, -d0 + 127 >= 0)>
#row_blk = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 127 >= 0)>
#tile0 = affine_set<(i)[g] : (i == 0, g == 0)>
#all6 = affine_set<(i)[g] : (i >= 0, -i + 5 >= 0, g == 0)>
#id1 = affine_map<(d0) -> (d0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @add_broadcast_blocks(%x_ptr: index,  // X: 6x1280 f16 (input)
                                  %w_ptr: index,  // W: 1280 f16 (input, read by tile 0)
                                  %y_ptr: index,  // Y: 6x1280 f16 (output)
                                  %nb: index,     // column blocks to process, at most 10
                                  %alpha: f16)    // scale of W
      attributes {grid = [6, 1]} {
    %pid = ktdp.get_compute_tile_id : index
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c128 = arith.constant 128 : index
    %X = ktdp.construct_memory_view %x_ptr, sizes: [6, 1280], strides: [1280, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<6x1280xf16>
    %Y = ktdp.construct_memory_view %y_ptr, sizes: [6, 1280], strides: [1280, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<6x1280xf16>
    %W = ktdp.construct_memory_view %w_ptr, sizes: [1280], strides: [1] {coordinate_set = #w_set, memory_space = #ktdp.memory_space<global>} : memref<1280xf16>
    %av = tensor.splat %alpha : tensor<128xf16>
    scf.for %b = %c0 to %nb step %c1 : index {
      %off = arith.muli %b, %c128 : index
      %fut = ktdp.inter_tile_produce producer_tiles_per_group = #tile0
          : tensor<128xf16> -> !ktdp.tile_future<tensor<128xf16>, groups = affine_set<(g) : (g == 0)>> {
      ^bb0(%g: index):
        %tw = ktdp.construct_access_tile %W[%off] {access_tile_set = #w_blk, access_tile_order = #id1} : memref<1280xf16> -> !ktdp.access_tile<128xindex>
        %w = ktdp.load %tw : <128xindex> -> tensor<128xf16>
        %ws = arith.mulf %w, %av : tensor<128xf16>
        ktdp.yield_partial %ws : tensor<128xf16>
      }
      %wb = ktdp.inter_tile_consume(%fut) consumer_tiles_per_group = #all6
          : !ktdp.tile_future<tensor<128xf16>, groups = affine_set<(g) : (g == 0)>> -> tensor<128xf16>
      %w2 = tensor.expand_shape %wb [[0, 1]] output_shape [1, 128] : tensor<128xf16> into tensor<1x128xf16>
      %tx = ktdp.construct_access_tile %X[%pid, %off] {access_tile_set = #row_blk, access_tile_order = #id2} : memref<6x1280xf16> -> !ktdp.access_tile<1x128xindex>
      %x = ktdp.load %tx : <1x128xindex> -> tensor<1x128xf16>
      %y = arith.addf %x, %w2 : tensor<1x128xf16>
      %ty = ktdp.construct_access_tile %Y[%pid, %off] {access_tile_set = #row_blk, access_tile_order = #id2} : memref<6x1280xf16> -> !ktdp.access_tile<1x128xindex>
      ktdp.store %y, %ty : tensor<1x128xf16>, <1x128xindex>
      scf.yield
    }
    return
  }
}
