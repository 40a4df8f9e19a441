// lx_partials_sum.mlir - column sums of a row-distributed matrix, each tile
// reading the other tiles' partials out of their LX scratchpads.
//
// Computes, for c < 128, all values f16:
//   P[t][c] = f16(sum_{i < 32} X[32t + i, c])     (linalg.reduce, one rounding
//                                                 per addition in f16)
//   S[c]    = f16(f16(f16(P[0][c] + P[1][c]) + P[2][c]) + P[3][c])
//   Y[t, c] = S[c]                               (every tile writes its copy)
//
// Grid [4]: tile t reduces rows 32t..32t+31 of X (128x128) and stores its
// 1x128 partial into its own LX at element 0 (a ct_local view without
// ct_id). It then reads the four partials through ct_local views naming
// each tile (`ct_id = 0` .. `ct_id = 3`, the same address and layout) and
// adds them in tile order. Y (4x128) gets one row per tile, so every tile's
// copy of the sum is checked. The tiles read another core's scratchpad:
// the compiler makes each read a copy over the core interconnect.

#x_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 127 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#y_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#row = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 127 >= 0)>
#rows32 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 31 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @lx_partials_sum(%x_ptr: index,  // X: 128x128 f16 (input)
                             %y_ptr: index)  // Y: 4x128 f16 (output)
      attributes {grid = [4]} {
    %pid = ktdp.get_compute_tile_id : index
    %c0 = arith.constant 0 : index
    %c32 = arith.constant 32 : index
    %zero = arith.constant 0x0000 : f16
    %X = ktdp.construct_memory_view %x_ptr, sizes: [128, 128], strides: [128, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<128x128xf16>
    %Y = ktdp.construct_memory_view %y_ptr, sizes: [4, 128], strides: [128, 1] {coordinate_set = #y_set, memory_space = #ktdp.memory_space<global>} : memref<4x128xf16>
    %my_row = arith.muli %pid, %c32 : index
    %tx = ktdp.construct_access_tile %X[%my_row, 0] {access_tile_set = #rows32, access_tile_order = #id2} : memref<128x128xf16> -> !ktdp.access_tile<32x128xindex>
    %x = ktdp.load %tx : <32x128xindex> -> tensor<32x128xf16>
    %zeros = tensor.splat %zero : tensor<128xf16>
    %colsum = linalg.reduce { arith.addf } ins(%x : tensor<32x128xf16>) outs(%zeros : tensor<128xf16>) dimensions = [0]
    %partial = tensor.expand_shape %colsum [[0, 1]] output_shape [1, 128] : tensor<128xf16> into tensor<1x128xf16>

    // This tile's partial, in its own LX.
    %mine = ktdp.construct_memory_view %c0, sizes: [1, 128], strides: [128, 1] {coordinate_set = #row, memory_space = #ktdp.memory_space<ct_local>} : memref<1x128xf16>
    %tmine = ktdp.construct_access_tile %mine[0, 0] {access_tile_set = #row, access_tile_order = #id2} : memref<1x128xf16> -> !ktdp.access_tile<1x128xindex>
    ktdp.store %partial, %tmine : tensor<1x128xf16>, <1x128xindex>

    // The four partials, out of each tile's LX.
    %lx0 = ktdp.construct_memory_view %c0, sizes: [1, 128], strides: [128, 1] {coordinate_set = #row, memory_space = #ktdp.memory_space<ct_local, ct_id = 0>} : memref<1x128xf16>
    %lx1 = ktdp.construct_memory_view %c0, sizes: [1, 128], strides: [128, 1] {coordinate_set = #row, memory_space = #ktdp.memory_space<ct_local, ct_id = 1>} : memref<1x128xf16>
    %lx2 = ktdp.construct_memory_view %c0, sizes: [1, 128], strides: [128, 1] {coordinate_set = #row, memory_space = #ktdp.memory_space<ct_local, ct_id = 2>} : memref<1x128xf16>
    %lx3 = ktdp.construct_memory_view %c0, sizes: [1, 128], strides: [128, 1] {coordinate_set = #row, memory_space = #ktdp.memory_space<ct_local, ct_id = 3>} : memref<1x128xf16>
    %t0 = ktdp.construct_access_tile %lx0[0, 0] {access_tile_set = #row, access_tile_order = #id2} : memref<1x128xf16> -> !ktdp.access_tile<1x128xindex>
    %t1 = ktdp.construct_access_tile %lx1[0, 0] {access_tile_set = #row, access_tile_order = #id2} : memref<1x128xf16> -> !ktdp.access_tile<1x128xindex>
    %t2 = ktdp.construct_access_tile %lx2[0, 0] {access_tile_set = #row, access_tile_order = #id2} : memref<1x128xf16> -> !ktdp.access_tile<1x128xindex>
    %t3 = ktdp.construct_access_tile %lx3[0, 0] {access_tile_set = #row, access_tile_order = #id2} : memref<1x128xf16> -> !ktdp.access_tile<1x128xindex>
    %p0 = ktdp.load %t0 : <1x128xindex> -> tensor<1x128xf16>
    %p1 = ktdp.load %t1 : <1x128xindex> -> tensor<1x128xf16>
    %p2 = ktdp.load %t2 : <1x128xindex> -> tensor<1x128xf16>
    %p3 = ktdp.load %t3 : <1x128xindex> -> tensor<1x128xf16>
    %s01 = arith.addf %p0, %p1 : tensor<1x128xf16>
    %s012 = arith.addf %s01, %p2 : tensor<1x128xf16>
    %sum = arith.addf %s012, %p3 : tensor<1x128xf16>

    %ty = ktdp.construct_access_tile %Y[%pid, 0] {access_tile_set = #row, access_tile_order = #id2} : memref<4x128xf16> -> !ktdp.access_tile<1x128xindex>
    ktdp.store %sum, %ty : tensor<1x128xf16>, <1x128xindex>
    return
  }
}
