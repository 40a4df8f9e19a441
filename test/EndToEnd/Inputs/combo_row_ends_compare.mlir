// combo_row_ends_compare.mlir - a row condition between two elements of
// the loaded row (its first and its last, tensor.extract): rows whose
// first element exceeds their last are kept, the others negated. 64x128
// f16 rows cyclic over a [32, 1] grid.
//
// Computes, for r < 64, j < 128: Y[r, j] = X[r, 0] > X[r, 127] ? X[r, j] : -X[r, j]
#x_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#row = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 127 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @row_ends_compare_kernel(%x_ptr: index,   // X: 64x128 f16 (input)
                   %y_ptr: index) attributes {grid = [32, 1]} {
    %pid = ktdp.get_compute_tile_id : index
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c32 = arith.constant 32 : index
    %c64 = arith.constant 64 : index
    %zero = arith.constant 0.0 : f16
    %ninf = arith.constant 0xFC00 : f16
    %X = ktdp.construct_memory_view %x_ptr, sizes: [64, 128], strides: [128, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<64x128xf16>
    %Y = ktdp.construct_memory_view %y_ptr, sizes: [64, 128], strides: [128, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<64x128xf16>
    scf.for %r = %pid to %c64 step %c32 : index {
      %tx = ktdp.construct_access_tile %X[%r, 0] {access_tile_set = #row, access_tile_order = #id2} : memref<64x128xf16> -> !ktdp.access_tile<1x128xindex>
      %x = ktdp.load %tx : <1x128xindex> -> tensor<1x128xf16>
      %a0 = tensor.extract %x[%c0, %c0] : tensor<1x128xf16>
      %c127 = arith.constant 127 : index
      %a1 = tensor.extract %x[%c0, %c127] : tensor<1x128xf16>
      %gt = arith.cmpf ogt, %a0, %a1 : f16
      %neg = arith.negf %x : tensor<1x128xf16>
      %y = arith.select %gt, %x, %neg : tensor<1x128xf16>
      %ty = ktdp.construct_access_tile %Y[%r, 0] {access_tile_set = #row, access_tile_order = #id2} : memref<64x128xf16> -> !ktdp.access_tile<1x128xindex>
      ktdp.store %y, %ty : tensor<1x128xf16>, <1x128xindex>
    }
    return
  }
}
