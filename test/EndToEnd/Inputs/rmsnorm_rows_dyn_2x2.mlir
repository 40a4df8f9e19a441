// rmsnorm_rows_dyn_2x2.mlir - Inputs/rmsnorm_rows_2x2.mlir with the rows
// of a band a launch argument: the row loop runs %n_rows trips (at most
// 100, the rows each band's shards hold), its per-row all-reduce of one
// f16 inside it, its trips dealt round robin over idle lanes
// (ktdf-spread-iterations), copy j of the band's two tiles running the
// same rows. X, Y: two column shards of 200x128 f16 (the second at
// ptr + 25600); W: two of 128 (ptr + 128).

#x_half0 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 199 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#x_half1 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 199 >= 0, d1 - 128 >= 0, -d1 + 255 >= 0)>
#w_half0 = affine_set<(d0) : (d0 >= 0, -d0 + 127 >= 0)>
#w_half1 = affine_set<(d0) : (d0 - 128 >= 0, -d0 + 255 >= 0)>
#row_blk = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 127 >= 0)>
#w_blk = affine_set<(d0) : (d0 >= 0, -d0 + 127 >= 0)>
#band = affine_set<(i)[g] : (i - 2*g >= 0, -i + 2*g + 1 >= 0)>
#id1 = affine_map<(d0) -> (d0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @rmsnorm_tp2(%x_ptr: index,  // X: 2 shards of 200x128 f16 (input)
                         %w_ptr: index,  // W: 2 shards of 128 f16 (input)
                         %y_ptr: index,  // Y: 2 shards of 200x128 f16 (output)
                         %eps: f16,       // e.g. 1e-5
                         %n_rows: index) // rows per band, at most 100
      attributes { grid = [2, 2] } {
    %px, %py = ktdp.get_compute_tile_id : index, index
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c100 = arith.constant 100 : index
    %c128 = arith.constant 128 : index
    %c25600 = arith.constant 25600 : index
    %x1_ptr = arith.addi %x_ptr, %c25600 : index
    %w1_ptr = arith.addi %w_ptr, %c128 : index
    %y1_ptr = arith.addi %y_ptr, %c25600 : index
    %X0 = ktdp.construct_memory_view %x_ptr, sizes: [200, 128], strides: [128, 1] {coordinate_set = #x_half0, memory_space = #ktdp.memory_space<global>} : memref<200x128xf16>
    %X1 = ktdp.construct_memory_view %x1_ptr, sizes: [200, 128], strides: [128, 1] {coordinate_set = #x_half1, memory_space = #ktdp.memory_space<global>} : memref<200x128xf16>
    %X = ktdp.construct_distributed_memory_view(%X0, %X1 : memref<200x128xf16>, memref<200x128xf16>) : memref<200x256xf16>
    %W0 = ktdp.construct_memory_view %w_ptr, sizes: [128], strides: [1] {coordinate_set = #w_half0, memory_space = #ktdp.memory_space<global>} : memref<128xf16>
    %W1 = ktdp.construct_memory_view %w1_ptr, sizes: [128], strides: [1] {coordinate_set = #w_half1, memory_space = #ktdp.memory_space<global>} : memref<128xf16>
    %W = ktdp.construct_distributed_memory_view(%W0, %W1 : memref<128xf16>, memref<128xf16>) : memref<256xf16>
    %Y0 = ktdp.construct_memory_view %y_ptr, sizes: [200, 128], strides: [128, 1] {coordinate_set = #x_half0, memory_space = #ktdp.memory_space<global>} : memref<200x128xf16>
    %Y1 = ktdp.construct_memory_view %y1_ptr, sizes: [200, 128], strides: [128, 1] {coordinate_set = #x_half1, memory_space = #ktdp.memory_space<global>} : memref<200x128xf16>
    %Y = ktdp.construct_distributed_memory_view(%Y0, %Y1 : memref<200x128xf16>, memref<200x128xf16>) : memref<200x256xf16>

    %col0 = arith.muli %px, %c128 : index
    %row0 = arith.muli %py, %c100 : index
    %tw = ktdp.construct_access_tile %W[%col0] {access_tile_set = #w_blk, access_tile_order = #id1} : memref<256xf16> -> !ktdp.access_tile<128xindex>
    %w = ktdp.load %tw : <128xindex> -> tensor<128xf16>
    %w2 = tensor.expand_shape %w [[0, 1]] output_shape [1, 128] : tensor<128xf16> into tensor<1x128xf16>
    %zero = arith.constant 0.000000e+00 : f16
    %n = arith.constant 2.560000e+02 : f16
    %zero1 = tensor.splat %zero : tensor<1xf16>
    %n1 = tensor.splat %n : tensor<1xf16>
    %eps1 = tensor.splat %eps : tensor<1xf16>
    scf.for %i = %c0 to %n_rows step %c1 : index {
      %row = arith.addi %row0, %i : index
      %tx = ktdp.construct_access_tile %X[%row, %col0] {access_tile_set = #row_blk, access_tile_order = #id2} : memref<200x256xf16> -> !ktdp.access_tile<1x128xindex>
      %x = ktdp.load %tx : <1x128xindex> -> tensor<1x128xf16>
      %sq = arith.mulf %x, %x : tensor<1x128xf16>
      %part = linalg.reduce { arith.addf } ins(%sq : tensor<1x128xf16>) outs(%zero1 : tensor<1xf16>) dimensions = [1]
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
      %rb = tensor.splat %r : tensor<1x128xf16>
      %xn = arith.divf %x, %rb : tensor<1x128xf16>
      %y = arith.mulf %xn, %w2 : tensor<1x128xf16>
      %ty = ktdp.construct_access_tile %Y[%row, %col0] {access_tile_set = #row_blk, access_tile_order = #id2} : memref<200x256xf16> -> !ktdp.access_tile<1x128xindex>
      ktdp.store %y, %ty : tensor<1x128xf16>, <1x128xindex>
      scf.yield
    }
    return
  }
}
