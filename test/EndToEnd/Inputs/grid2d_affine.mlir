// grid2d_affine.mlir - a 2-D grid with two ids: Y = X * a + b[col] on a
// 64x256 f16 matrix, tile (pm, pn) of a [4, 2] grid owning the 16x128
// block at rows 16*pm, columns 128*pn.
//
// Computes, for i < 64, j < 256, f16 rounded per op:
//   Y[i, j] = X[i, j] * a + B[j]          (a: f16 scalar argument)

#x_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 255 >= 0)>
#b_set = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 255 >= 0)>
#blk = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#brow = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 127 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#bc = affine_map<(d0, d1) -> (0, d1)>
module {
  func.func @grid2d_kernel(%x_ptr: index,   // X: 64x256 f16 (input)
                           %b_ptr: index,   // B: 1x256 f16 bias (input)
                           %y_ptr: index,   // Y: 64x256 f16 (output)
                           %a: f16)         // scale
      attributes {grid = [4, 2]} {
    %pm, %pn = ktdp.get_compute_tile_id : index, index
    %c16 = arith.constant 16 : index
    %c128 = arith.constant 128 : index
    %r0 = arith.muli %pm, %c16 : index
    %c0 = arith.muli %pn, %c128 : index
    %X = ktdp.construct_memory_view %x_ptr, sizes: [64, 256], strides: [256, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<64x256xf16>
    %B = ktdp.construct_memory_view %b_ptr, sizes: [1, 256], strides: [256, 1] {coordinate_set = #b_set, memory_space = #ktdp.memory_space<global>} : memref<1x256xf16>
    %Y = ktdp.construct_memory_view %y_ptr, sizes: [64, 256], strides: [256, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<64x256xf16>
    %tx = ktdp.construct_access_tile %X[%r0, %c0] {access_tile_set = #blk, access_tile_order = #id2} : memref<64x256xf16> -> !ktdp.access_tile<16x128xindex>
    %tb = ktdp.construct_access_tile %B[0, %c0] {access_tile_set = #brow, access_tile_order = #id2} : memref<1x256xf16> -> !ktdp.access_tile<1x128xindex>
    %x = ktdp.load %tx : <16x128xindex> -> tensor<16x128xf16>
    %b = ktdp.load %tb : <1x128xindex> -> tensor<1x128xf16>
    %e = tensor.empty() : tensor<16x128xf16>
    %y = linalg.generic {indexing_maps = [#id2, #bc, #id2], iterator_types = ["parallel", "parallel"]}
        ins(%x, %b : tensor<16x128xf16>, tensor<1x128xf16>) outs(%e : tensor<16x128xf16>) {
      ^bb0(%xv: f16, %bv: f16, %o: f16):
        %m = arith.mulf %xv, %a : f16
        %s = arith.addf %m, %bv : f16
        linalg.yield %s : f16
    } -> tensor<16x128xf16>
    %ty = ktdp.construct_access_tile %Y[%r0, %c0] {access_tile_set = #blk, access_tile_order = #id2} : memref<64x256xf16> -> !ktdp.access_tile<16x128xindex>
    ktdp.store %y, %ty : tensor<16x128xf16>, <16x128xindex>
    return
  }
}
