// rmsnorm_256x4096_2x2.mlir - the [2, 2] variant of RMSNorm at the guide's
// size (ktir-field-guide.md §3, item 8): examples/kernels/realworld/
// rmsnorm_2x2.mlir with 256 rows x 4096 columns, X, W and Y stored as two
// column shards stitched by distributed views (the second shard at
// ptr + 524288 for X and Y, ptr + 2048 for W); each tile normalises 128
// rows x 2048 columns, one 1x2048 block per row and pass, with one 2-tile
// all-reduce of a single f16 per row (128 inter-tile reductions per tile,
// inside the row loop). The guide's variant takes 2 blocks of 1x1024 per
// pass; the arithmetic per row is the example's.
//
// Arguments: %x_ptr X (2 x 256x2048 f16 shards, input), %w_ptr W (2 x 2048
// f16, input), %y_ptr Y (2 x 256x2048 f16 shards, output), %eps (f16).

#x_half0 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 255 >= 0, d1 >= 0, -d1 + 2047 >= 0)>
#x_half1 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 255 >= 0, d1 - 2048 >= 0, -d1 + 4095 >= 0)>
#w_half0 = affine_set<(d0) : (d0 >= 0, -d0 + 2047 >= 0)>
#w_half1 = affine_set<(d0) : (d0 - 2048 >= 0, -d0 + 4095 >= 0)>
#row_blk = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 2047 >= 0)>
#w_blk = affine_set<(d0) : (d0 >= 0, -d0 + 2047 >= 0)>
#band = affine_set<(i)[g] : (i - 2*g >= 0, -i + 2*g + 1 >= 0)>
#id1 = affine_map<(d0) -> (d0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @rmsnorm_tp2(%x_ptr: index,  // X: 2 shards of 256x2048 f16 (input)
                         %w_ptr: index,  // W: 2 shards of 2048 f16 (input)
                         %y_ptr: index,  // Y: 2 shards of 256x2048 f16 (output)
                         %eps: f16)      // e.g. 1e-5
      attributes { grid = [2, 2] } {
    %px, %py = ktdp.get_compute_tile_id : index, index
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c_rows = arith.constant 128 : index
    %c_cols = arith.constant 2048 : index
    %c_shard = arith.constant 524288 : index
    %x1_ptr = arith.addi %x_ptr, %c_shard : index
    %w1_ptr = arith.addi %w_ptr, %c_cols : index
    %y1_ptr = arith.addi %y_ptr, %c_shard : index
    %X0 = ktdp.construct_memory_view %x_ptr, sizes: [256, 2048], strides: [2048, 1] {coordinate_set = #x_half0, memory_space = #ktdp.memory_space<global>} : memref<256x2048xf16>
    %X1 = ktdp.construct_memory_view %x1_ptr, sizes: [256, 2048], strides: [2048, 1] {coordinate_set = #x_half1, memory_space = #ktdp.memory_space<global>} : memref<256x2048xf16>
    %X = ktdp.construct_distributed_memory_view(%X0, %X1 : memref<256x2048xf16>, memref<256x2048xf16>) : memref<256x4096xf16>
    %W0 = ktdp.construct_memory_view %w_ptr, sizes: [2048], strides: [1] {coordinate_set = #w_half0, memory_space = #ktdp.memory_space<global>} : memref<2048xf16>
    %W1 = ktdp.construct_memory_view %w1_ptr, sizes: [2048], strides: [1] {coordinate_set = #w_half1, memory_space = #ktdp.memory_space<global>} : memref<2048xf16>
    %W = ktdp.construct_distributed_memory_view(%W0, %W1 : memref<2048xf16>, memref<2048xf16>) : memref<4096xf16>
    %Y0 = ktdp.construct_memory_view %y_ptr, sizes: [256, 2048], strides: [2048, 1] {coordinate_set = #x_half0, memory_space = #ktdp.memory_space<global>} : memref<256x2048xf16>
    %Y1 = ktdp.construct_memory_view %y1_ptr, sizes: [256, 2048], strides: [2048, 1] {coordinate_set = #x_half1, memory_space = #ktdp.memory_space<global>} : memref<256x2048xf16>
    %Y = ktdp.construct_distributed_memory_view(%Y0, %Y1 : memref<256x2048xf16>, memref<256x2048xf16>) : memref<256x4096xf16>

    %col0 = arith.muli %px, %c_cols : index
    %row0 = arith.muli %py, %c_rows : index
    %tw = ktdp.construct_access_tile %W[%col0] {access_tile_set = #w_blk, access_tile_order = #id1} : memref<4096xf16> -> !ktdp.access_tile<2048xindex>
    %w = ktdp.load %tw : <2048xindex> -> tensor<2048xf16>
    %w2 = tensor.expand_shape %w [[0, 1]] output_shape [1, 2048] : tensor<2048xf16> into tensor<1x2048xf16>
    %zero = arith.constant 0.000000e+00 : f16
    %n = arith.constant 4.096000e+03 : f16
    %zero1 = tensor.splat %zero : tensor<1xf16>
    %n1 = tensor.splat %n : tensor<1xf16>
    %eps1 = tensor.splat %eps : tensor<1xf16>
    scf.for %i = %c0 to %c_rows step %c1 : index {
      %row = arith.addi %row0, %i : index
      %tx = ktdp.construct_access_tile %X[%row, %col0] {access_tile_set = #row_blk, access_tile_order = #id2} : memref<256x4096xf16> -> !ktdp.access_tile<1x2048xindex>
      %x = ktdp.load %tx : <1x2048xindex> -> tensor<1x2048xf16>
      %sq = arith.mulf %x, %x : tensor<1x2048xf16>
      %part = linalg.reduce { arith.addf } ins(%sq : tensor<1x2048xf16>) outs(%zero1 : tensor<1xf16>) dimensions = [1]
      %f = ktdp.inter_tile_produce producer_tiles_per_group = #band -> <(tensor<1xf16>), groups = affine_set<(g) : (g >= 0, -g + 1 >= 0)>> {
      ^bb0(%gid: index):
        ktdp.yield_partial %part : tensor<1xf16>
      }
      %ss = ktdp.inter_tile_reduce(%f) consumer_tiles_per_group = #band, identity(%zero1 : tensor<1xf16>) : <(tensor<1xf16>), groups = affine_set<(g) : (g >= 0, -g + 1 >= 0)>> -> tensor<1xf16> {
      ^bb0(%lhs: tensor<1xf16>, %rhs: tensor<1xf16>):
        %s = linalg.add ins(%lhs, %rhs : tensor<1xf16>, tensor<1xf16>) outs(%lhs : tensor<1xf16>) -> tensor<1xf16>
        ktdp.yield_reduced %s : tensor<1xf16>
      }
      %ms = arith.divf %ss, %n1 : tensor<1xf16>
      %ve = arith.addf %ms, %eps1 : tensor<1xf16>
      %rms = math.sqrt %ve : tensor<1xf16>
      %r = tensor.extract %rms[%c0] : tensor<1xf16>
      %rb = tensor.splat %r : tensor<1x2048xf16>
      %xn = arith.divf %x, %rb : tensor<1x2048xf16>
      %y = arith.mulf %xn, %w2 : tensor<1x2048xf16>
      %ty = ktdp.construct_access_tile %Y[%row, %col0] {access_tile_set = #row_blk, access_tile_order = #id2} : memref<256x4096xf16> -> !ktdp.access_tile<1x2048xindex>
      ktdp.store %y, %ty : tensor<1x2048xf16>, <1x2048xindex>
      scf.yield
    }
    return
  }
}
