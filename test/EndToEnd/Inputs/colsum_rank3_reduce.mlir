// colsum_rank3_reduce.mlir - column sums of a 48 x 128 f16 matrix over 3
// tiles, each tile's 16x128 block raised to 1x16x128 by tensor.expand_shape
// and reduced over its middle dimension into a 1x128 partial (a spelling
// that keeps the partial's unit row), then all-reduced; tile 0 stores the
// sums. ktdf-generalize drops the kept unit dimension, so the stage's 2-d
// tile is reduced over its rows (rank-raising.test).
//
// Computes S[c] = f16(f16(f16(0 + p_0) + p_1) + p_2), p_t the f16 sum of
// tile t's 16 rows of column c.

#x_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 47 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#s_set = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 127 >= 0)>
#blk16 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#all3 = affine_set<(i)[g] : (i >= 0, -i + 2 >= 0, g == 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @colsum_rank3(%x_ptr: index,  // X: 48x128 f16 (input)
                          %s_ptr: index)  // S: 1x128 f16 (output, tile 0)
      attributes {grid = [3, 1]} {
    %pid = ktdp.get_compute_tile_id : index
    %c0 = arith.constant 0 : index
    %c16 = arith.constant 16 : index
    %X = ktdp.construct_memory_view %x_ptr, sizes: [48, 128], strides: [128, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<48x128xf16>
    %r0 = arith.muli %pid, %c16 : index
    %tx = ktdp.construct_access_tile %X[%r0, 0] {access_tile_set = #blk16, access_tile_order = #id2} : memref<48x128xf16> -> !ktdp.access_tile<16x128xindex>
    %x = ktdp.load %tx : <16x128xindex> -> tensor<16x128xf16>
    %zero = arith.constant dense<0.0> : tensor<1x128xf16>
    %x3 = tensor.expand_shape %x [[0, 1], [2]] output_shape [1, 16, 128] : tensor<16x128xf16> into tensor<1x16x128xf16>
    %p = linalg.reduce { arith.addf } ins(%x3 : tensor<1x16x128xf16>) outs(%zero : tensor<1x128xf16>) dimensions = [1]
    %f = ktdp.inter_tile_produce producer_tiles_per_group = #all3
        : tensor<1x128xf16> -> !ktdp.tile_future<tensor<1x128xf16>, groups = affine_set<(g) : (g == 0)>> {
    ^bb0(%g: index):
      ktdp.yield_partial %p : tensor<1x128xf16>
    }
    %s = ktdp.inter_tile_reduce(%f) consumer_tiles_per_group = #all3, identity(%zero : tensor<1x128xf16>)
        : !ktdp.tile_future<tensor<1x128xf16>, groups = affine_set<(g) : (g == 0)>> -> tensor<1x128xf16> {
    ^bb0(%a: tensor<1x128xf16>, %b: tensor<1x128xf16>):
      %t = arith.addf %a, %b : tensor<1x128xf16>
      ktdp.yield_reduced %t : tensor<1x128xf16>
    }
    %is0 = arith.cmpi eq, %pid, %c0 : index
    scf.if %is0 {
      %S = ktdp.construct_memory_view %s_ptr, sizes: [1, 128], strides: [128, 1] {coordinate_set = #s_set, memory_space = #ktdp.memory_space<global>} : memref<1x128xf16>
      %ts = ktdp.construct_access_tile %S[0, 0] {access_tile_set = #s_set, access_tile_order = #id2} : memref<1x128xf16> -> !ktdp.access_tile<1x128xindex>
      ktdp.store %s, %ts : tensor<1x128xf16>, <1x128xindex>
    }
    return
  }
}
