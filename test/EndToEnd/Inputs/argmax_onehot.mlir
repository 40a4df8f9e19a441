// argmax_onehot.mlir - argmax-like one-hot of each row's maximum, 64x128
// f16, rows cyclic over a [32, 1] grid.
//
// Computes, for r < 64, j < 128:
//   m       = max_j X[r, j]                    (maxnumf, init 0xFC00)
//   Y[r, j] = X[r, j] == m ? 1.0 : 0.0         (cmpf oeq, select; f16)

#x_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#row = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 127 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @argmax_onehot_kernel(%x_ptr: index,   // X: 64x128 f16 (input)
                                  %y_ptr: index,   // Y: 64x128 f16 one-hot (output)
                                  %n_rows: index)  // rows: 64
      attributes {grid = [32, 1]} {
    %pid = ktdp.get_compute_tile_id : index
    %c0 = arith.constant 0 : index
    %c32 = arith.constant 32 : index
    %ninf = arith.constant 0xFC00 : f16
    %ones = arith.constant dense<1.0> : tensor<1x128xf16>
    %zeros = arith.constant dense<0.0> : tensor<1x128xf16>
    %X = ktdp.construct_memory_view %x_ptr, sizes: [64, 128], strides: [128, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<64x128xf16>
    %Y = ktdp.construct_memory_view %y_ptr, sizes: [64, 128], strides: [128, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<64x128xf16>
    scf.for %r = %pid to %n_rows step %c32 : index {
      %tx = ktdp.construct_access_tile %X[%r, 0] {access_tile_set = #row, access_tile_order = #id2} : memref<64x128xf16> -> !ktdp.access_tile<1x128xindex>
      %x = ktdp.load %tx : <1x128xindex> -> tensor<1x128xf16>
      %mi = tensor.splat %ninf : tensor<1xf16>
      %mr = linalg.reduce { arith.maxnumf } ins(%x : tensor<1x128xf16>) outs(%mi : tensor<1xf16>) dimensions = [1]
      %m = tensor.extract %mr[%c0] : tensor<1xf16>
      %mb = tensor.splat %m : tensor<1x128xf16>
      %eq = arith.cmpf oeq, %x, %mb : tensor<1x128xf16>
      %y = arith.select %eq, %ones, %zeros : tensor<1x128xi1>, tensor<1x128xf16>
      %ty = ktdp.construct_access_tile %Y[%r, 0] {access_tile_set = #row, access_tile_order = #id2} : memref<64x128xf16> -> !ktdp.access_tile<1x128xindex>
      ktdp.store %y, %ty : tensor<1x128xf16>, <1x128xindex>
      scf.yield
    }
    return
  }
}
