// two_kernels.mlir - a module with two kernels, so `ktflow run` and
// `ktflow compile` need `--func` to choose one.
//
//   @scale_rows  Y[i, j] = X[i, j] * 2      (f16, exact), grid [4]
//   @negate_rows Y[i, j] = -X[i, j]         (f16, exact), grid [2]
// Arguments of both (`index`, start addresses counted in f16 elements):
//   %x  X : 16x64 f16, row-major, input
//   %y  Y : 16x64 f16, row-major, output
// Tile t of @scale_rows handles rows [4t, 4t + 4), of @negate_rows rows
// [8t, 8t + 8).

#mat = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#b4 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#b8 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @scale_rows(%x: index, %y: index) attributes {grid = [4]} {
    %id = ktdp.get_compute_tile_id : index
    %c4 = arith.constant 4 : index
    %row = arith.muli %id, %c4 : index
    %two = arith.constant dense<2.0> : tensor<4x64xf16>
    %X = ktdp.construct_memory_view %x, sizes: [16, 64], strides: [64, 1] {coordinate_set = #mat, memory_space = #ktdp.memory_space<global>} : memref<16x64xf16>
    %Y = ktdp.construct_memory_view %y, sizes: [16, 64], strides: [64, 1] {coordinate_set = #mat, memory_space = #ktdp.memory_space<global>} : memref<16x64xf16>
    %tx = ktdp.construct_access_tile %X[%row, 0] {access_tile_set = #b4, access_tile_order = #id2} : memref<16x64xf16> -> !ktdp.access_tile<4x64xindex>
    %ty = ktdp.construct_access_tile %Y[%row, 0] {access_tile_set = #b4, access_tile_order = #id2} : memref<16x64xf16> -> !ktdp.access_tile<4x64xindex>
    %v = ktdp.load %tx : <4x64xindex> -> tensor<4x64xf16>
    %s = arith.mulf %v, %two : tensor<4x64xf16>
    ktdp.store %s, %ty : tensor<4x64xf16>, <4x64xindex>
    return
  }
  func.func @negate_rows(%x: index, %y: index) attributes {grid = [2]} {
    %id = ktdp.get_compute_tile_id : index
    %c8 = arith.constant 8 : index
    %row = arith.muli %id, %c8 : index
    %X = ktdp.construct_memory_view %x, sizes: [16, 64], strides: [64, 1] {coordinate_set = #mat, memory_space = #ktdp.memory_space<global>} : memref<16x64xf16>
    %Y = ktdp.construct_memory_view %y, sizes: [16, 64], strides: [64, 1] {coordinate_set = #mat, memory_space = #ktdp.memory_space<global>} : memref<16x64xf16>
    %tx = ktdp.construct_access_tile %X[%row, 0] {access_tile_set = #b8, access_tile_order = #id2} : memref<16x64xf16> -> !ktdp.access_tile<8x64xindex>
    %ty = ktdp.construct_access_tile %Y[%row, 0] {access_tile_set = #b8, access_tile_order = #id2} : memref<16x64xf16> -> !ktdp.access_tile<8x64xindex>
    %v = ktdp.load %tx : <8x64xindex> -> tensor<8x64xf16>
    %n = arith.negf %v : tensor<8x64xf16>
    ktdp.store %n, %ty : tensor<8x64xf16>, <8x64xindex>
    return
  }
}
