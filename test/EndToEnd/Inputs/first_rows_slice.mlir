// first_rows_slice.mlir - each of 16 tiles loads a 4x128 f16 block of X and
// stores twice its first two rows (a tensor.extract_slice of the loaded block)
// into Y.
#x = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#y = affine_set<(d0, d1) : (d0 >= 0, -d0 + 31 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#b4 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#b2 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @first_rows(%x_ptr: index, %y_ptr: index) attributes {grid = [16]} {
    %pid = ktdp.get_compute_tile_id : index
    %c4 = arith.constant 4 : index
    %c2 = arith.constant 2 : index
    %r = arith.muli %pid, %c4 : index
    %o = arith.muli %pid, %c2 : index
    %X = ktdp.construct_memory_view %x_ptr, sizes: [64, 128], strides: [128, 1] {coordinate_set = #x, memory_space = #ktdp.memory_space<global>} : memref<64x128xf16>
    %Y = ktdp.construct_memory_view %y_ptr, sizes: [32, 128], strides: [128, 1] {coordinate_set = #y, memory_space = #ktdp.memory_space<global>} : memref<32x128xf16>
    %tx = ktdp.construct_access_tile %X[%r, 0] {access_tile_set = #b4, access_tile_order = #id2} : memref<64x128xf16> -> !ktdp.access_tile<4x128xindex>
    %v = ktdp.load %tx : <4x128xindex> -> tensor<4x128xf16>
    %s = tensor.extract_slice %v[0, 0] [2, 128] [1, 1] : tensor<4x128xf16> to tensor<2x128xf16>
    %d = arith.addf %s, %s : tensor<2x128xf16>
    %ty = ktdp.construct_access_tile %Y[%o, 0] {access_tile_set = #b2, access_tile_order = #id2} : memref<32x128xf16> -> !ktdp.access_tile<2x128xindex>
    ktdp.store %d, %ty : tensor<2x128xf16>, <2x128xindex>
    return
  }
}
