// lx_reversed_rows.mlir - a 4x128 f16 block stored into the tile's own
// scratchpad (LX) through a view with a negative row stride, and read back
// through it: Y = X, the block held upside down in LX (row r at element
// 384 - 128 r). The view starts at element 384 but spans elements 0 to
// 511, bytes [0, 1024) of the lane's region.

#x_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @lx_reversed_rows(%x_ptr: index, %y_ptr: index) attributes {grid = [1]} {
    %c384 = arith.constant 384 : index
    %X = ktdp.construct_memory_view %x_ptr, sizes: [4, 128], strides: [128, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<4x128xf16>
    %Y = ktdp.construct_memory_view %y_ptr, sizes: [4, 128], strides: [128, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<4x128xf16>
    %tx = ktdp.construct_access_tile %X[0, 0] {access_tile_set = #x_set, access_tile_order = #id2} : memref<4x128xf16> -> !ktdp.access_tile<4x128xindex>
    %x = ktdp.load %tx : <4x128xindex> -> tensor<4x128xf16>
    %R = ktdp.construct_memory_view %c384, sizes: [4, 128], strides: [-128, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<ct_local>} : memref<4x128xf16>
    %tr = ktdp.construct_access_tile %R[0, 0] {access_tile_set = #x_set, access_tile_order = #id2} : memref<4x128xf16> -> !ktdp.access_tile<4x128xindex>
    ktdp.store %x, %tr : tensor<4x128xf16>, <4x128xindex>
    %f = ktdp.load %tr : <4x128xindex> -> tensor<4x128xf16>
    %ty = ktdp.construct_access_tile %Y[0, 0] {access_tile_set = #x_set, access_tile_order = #id2} : memref<4x128xf16> -> !ktdp.access_tile<4x128xindex>
    ktdp.store %f, %ty : tensor<4x128xf16>, <4x128xindex>
    return
  }
}
