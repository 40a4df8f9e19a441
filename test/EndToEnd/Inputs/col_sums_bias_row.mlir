// col_sums_bias_row.mlir - column sums of a 16x128 tile plus a bias row
// loaded as a 1x128 tile and collapsed to 128; the sums are expanded back
// to 1x128 and stored into a [1, 128] view.
//
// Computes   Y[0, j] = sum_i (X[i, j] + B[0, j])   for 0 <= i < 16,
// 0 <= j < 128, in f16 (folded down the rows in ascending order), on a [1]
// grid.

#mat = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#row = affine_set<(d0, d1) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @col_sums_bias_row(%x: index, %b: index, %y: index) attributes {grid = [1]} {
    %X = ktdp.construct_memory_view %x, sizes: [16, 128], strides: [128, 1] {coordinate_set = #mat, memory_space = #ktdp.memory_space<global>} : memref<16x128xf16>
    %B = ktdp.construct_memory_view %b, sizes: [1, 128], strides: [128, 1] {coordinate_set = #row, memory_space = #ktdp.memory_space<global>} : memref<1x128xf16>
    %Y = ktdp.construct_memory_view %y, sizes: [1, 128], strides: [128, 1] {coordinate_set = #row, memory_space = #ktdp.memory_space<global>} : memref<1x128xf16>
    %tx = ktdp.construct_access_tile %X[0, 0] {access_tile_set = #mat, access_tile_order = #id2} : memref<16x128xf16> -> !ktdp.access_tile<16x128xindex>
    %tb = ktdp.construct_access_tile %B[0, 0] {access_tile_set = #row, access_tile_order = #id2} : memref<1x128xf16> -> !ktdp.access_tile<1x128xindex>
    %ty = ktdp.construct_access_tile %Y[0, 0] {access_tile_set = #row, access_tile_order = #id2} : memref<1x128xf16> -> !ktdp.access_tile<1x128xindex>
    %b2 = ktdp.load %tb : <1x128xindex> -> tensor<1x128xf16>
    %xt = ktdp.load %tx : <16x128xindex> -> tensor<16x128xf16>
    %b1 = tensor.collapse_shape %b2 [[0, 1]] : tensor<1x128xf16> into tensor<128xf16>
    %e = tensor.empty() : tensor<16x128xf16>
    %bb = linalg.broadcast ins(%b1 : tensor<128xf16>) outs(%e : tensor<16x128xf16>) dimensions = [0]
    %z = arith.addf %xt, %bb : tensor<16x128xf16>
    %cst = arith.constant 0.0 : f16
    %e1 = tensor.empty() : tensor<128xf16>
    %init = linalg.fill ins(%cst : f16) outs(%e1 : tensor<128xf16>) -> tensor<128xf16>
    %s = linalg.reduce ins(%z : tensor<16x128xf16>) outs(%init : tensor<128xf16>) dimensions = [0]
      (%in: f16, %acc: f16) {
        %a = arith.addf %in, %acc : f16
        linalg.yield %a : f16
      }
    %s2 = tensor.expand_shape %s [[0, 1]] output_shape [1, 128] : tensor<128xf16> into tensor<1x128xf16>
    ktdp.store %s2, %ty : tensor<1x128xf16>, <1x128xindex>
    return
  }
}
