// rank3_broadcast_reduce.mlir - column sums of a tile's 16x128 f16 block,
// twice: the block broadcast to 2x16x128 by linalg.broadcast and reduced
// over its middle dimension into a 2x128 partial, stored at rows 2t and
// 2t + 1 of P, on a [3, 1] grid. The 3-d reduction keeps a dimension of
// extent 2, so it stays of higher rank than the stage's tiles
// (rank-raising.test).
//
// Computes P[2t + h, c] = f16 sum of X[16t + i, c] over i < 16, h < 2.

#x_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 47 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#p_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 5 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#blk16 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#blk2 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @rank3_broadcast_reduce(%x_ptr: index,  // X: 48x128 f16 (input)
                                    %p_ptr: index)  // P: 6x128 f16 (output)
      attributes {grid = [3, 1]} {
    %pid = ktdp.get_compute_tile_id : index
    %c2 = arith.constant 2 : index
    %c16 = arith.constant 16 : index
    %X = ktdp.construct_memory_view %x_ptr, sizes: [48, 128], strides: [128, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<48x128xf16>
    %P = ktdp.construct_memory_view %p_ptr, sizes: [6, 128], strides: [128, 1] {coordinate_set = #p_set, memory_space = #ktdp.memory_space<global>} : memref<6x128xf16>
    %r0 = arith.muli %pid, %c16 : index
    %tx = ktdp.construct_access_tile %X[%r0, 0] {access_tile_set = #blk16, access_tile_order = #id2} : memref<48x128xf16> -> !ktdp.access_tile<16x128xindex>
    %x = ktdp.load %tx : <16x128xindex> -> tensor<16x128xf16>
    %zero = arith.constant dense<0.0> : tensor<2x128xf16>
    %e3 = tensor.empty() : tensor<2x16x128xf16>
    %x3 = linalg.broadcast ins(%x : tensor<16x128xf16>) outs(%e3 : tensor<2x16x128xf16>) dimensions = [0]
    %p = linalg.reduce { arith.addf } ins(%x3 : tensor<2x16x128xf16>) outs(%zero : tensor<2x128xf16>) dimensions = [1]
    %p0 = arith.muli %pid, %c2 : index
    %tp = ktdp.construct_access_tile %P[%p0, 0] {access_tile_set = #blk2, access_tile_order = #id2} : memref<6x128xf16> -> !ktdp.access_tile<2x128xindex>
    ktdp.store %p, %tp : tensor<2x128xf16>, <2x128xindex>
    return
  }
}
