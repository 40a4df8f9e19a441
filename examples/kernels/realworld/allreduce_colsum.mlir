// allreduce_colsum.mlir - column sums of a row-distributed matrix by an
// inter-tile all-reduce, done once per row chunk inside a loop and
// accumulated; tile 0 alone writes the result.
//
// Computes, for c < 128, all values f16:
//   P[j, t][c] = f16(sum_{i < 16} X[64j + 16t + i, c])   (linalg.reduce, f32
//                                                         accumulation, one rounding)
//   T[j][c]    = f16(f16(f16(f16(0 + P[j,0]) + P[j,1]) + P[j,2]) + P[j,3])
//                                                   (fold from the identity, tile order)
//   S[0, c]    = f16(T[0][c] + T[1][c])             (acc starts at 0: f16(0 + T[0]) = T[0])
//
// Grid [4]: tile t reduces rows 16t..16t+15 of each 64-row chunk j (2
// chunks). The inter-tile ops use the trailing functional type with the
// prefixed, unparenthesised future type, and the reduce declares the
// rank-reduced result tensor<128xf16> of the 1x128 partials; the sum is
// expanded back to 1x128 for the store, which tile 0 does inside scf.if.

#x_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 127 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#s_set = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 127 >= 0)>
#rows16 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#grp4 = affine_set<(i)[g] : (i - 4*g >= 0, -i + 4*g + 3 >= 0)>
#one_group = affine_set<(g) : (g == 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @colsum_allreduce(%in_ptr: index,  // X: 128x128 f16 (input)
                              %out_ptr: index) // S: 1x128 f16 (output)
      attributes {grid = [4]} {
    %pid = ktdp.get_compute_tile_id : index
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c16 = arith.constant 16 : index
    %c64 = arith.constant 64 : index
    %zero = arith.constant 0x0000 : f16
    %X = ktdp.construct_memory_view %in_ptr, sizes: [128, 128], strides: [128, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<128x128xf16>
    %my_row = arith.muli %pid, %c16 : index
    %zeros = tensor.splat %zero : tensor<128xf16>
    %ident = arith.constant dense<0.000000e+00> : tensor<1x128xf16>
    %acc = scf.for %j = %c0 to %c2 step %c1 iter_args(%running = %zeros) -> (tensor<128xf16>) {
      %chunk = arith.muli %j, %c64 : index
      %row = arith.addi %chunk, %my_row : index
      %tx = ktdp.construct_access_tile %X[%row, 0] {access_tile_set = #rows16, access_tile_order = #id2} : memref<128x128xf16> -> !ktdp.access_tile<16x128xindex>
      %x = ktdp.load %tx : <16x128xindex> -> tensor<16x128xf16>
      %colsum = linalg.reduce { arith.addf } ins(%x : tensor<16x128xf16>) outs(%zeros : tensor<128xf16>) dimensions = [0]
      %partial = tensor.expand_shape %colsum [[0, 1]] output_shape [1, 128] : tensor<128xf16> into tensor<1x128xf16>
      %fut = ktdp.inter_tile_produce producer_tiles_per_group = #grp4
          : tensor<1x128xf16> -> !ktdp.tile_future<tensor<1x128xf16>, groups = affine_set<(g) : (g == 0)>>
      {
      ^bb0(%gid: index):
        ktdp.yield_partial %partial : tensor<1x128xf16>
      }
      %total = ktdp.inter_tile_reduce(%fut) consumer_tiles_per_group = #grp4, identity(%ident : tensor<1x128xf16>)
          : !ktdp.tile_future<tensor<1x128xf16>, groups = affine_set<(g) : (g == 0)>> -> tensor<128xf16>
      {
      ^bb0(%lhs: tensor<1x128xf16>, %rhs: tensor<1x128xf16>):
        %s = arith.addf %lhs, %rhs : tensor<1x128xf16>
        ktdp.yield_reduced %s : tensor<1x128xf16>
      }
      %next = arith.addf %running, %total : tensor<128xf16>
      scf.yield %next : tensor<128xf16>
    }
    %result = tensor.expand_shape %acc [[0, 1]] output_shape [1, 128] : tensor<128xf16> into tensor<1x128xf16>
    %is_writer = arith.cmpi eq, %pid, %c0 : index
    scf.if %is_writer {
      %S = ktdp.construct_memory_view %out_ptr, sizes: [1, 128], strides: [128, 1] {coordinate_set = #s_set, memory_space = #ktdp.memory_space<global>} : memref<1x128xf16>
      %ts = ktdp.construct_access_tile %S[0, 0] {access_tile_set = #s_set, access_tile_order = #id2} : memref<1x128xf16> -> !ktdp.access_tile<1x128xindex>
      ktdp.store %result, %ts : tensor<1x128xf16>, <1x128xindex>
    }
    return
  }
}
