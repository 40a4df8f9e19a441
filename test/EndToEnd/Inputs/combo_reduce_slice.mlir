// combo_reduce_slice.mlir - each row minus the sum of its left half: the
// reduction reads a 1x64 window of the loaded 1x128 row, a stage of its own
// (ktdf-split-shape-groups) that hands the row's stage the sum.
#x_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#row = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 127 >= 0)>
#hrow = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 63 >= 0)>
#h_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @reduce_slice(%x_ptr: index, %y_ptr: index) attributes {grid = [32, 1]} {
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
      %l = tensor.extract_slice %x[0, 0] [1, 64] [1, 1] : tensor<1x128xf16> to tensor<1x64xf16>
      %e0 = tensor.empty() : tensor<1xf16>
      %sinit = linalg.fill ins(%zero : f16) outs(%e0 : tensor<1xf16>) -> tensor<1xf16>
      %sm = linalg.reduce ins(%l : tensor<1x64xf16>) outs(%sinit : tensor<1xf16>) dimensions = [1]
        (%in: f16, %acc: f16) {
          %a = arith.addf %in, %acc : f16
          linalg.yield %a : f16
        }
      %s = tensor.extract %sm[%c0] : tensor<1xf16>
      %sv = tensor.splat %s : tensor<1x128xf16>
      %y = arith.subf %x, %sv : tensor<1x128xf16>
      %ty = ktdp.construct_access_tile %Y[%r, 0] {access_tile_set = #row, access_tile_order = #id2} : memref<64x128xf16> -> !ktdp.access_tile<1x128xindex>
      ktdp.store %y, %ty : tensor<1x128xf16>, <1x128xindex>
    }
    return
  }
}
