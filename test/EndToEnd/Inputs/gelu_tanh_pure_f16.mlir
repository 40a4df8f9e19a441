// gelu_tanh_pure_f16.mlir - GELU, tanh form, computed in f16 throughout
// (no extf/truncf), rows of a 64x128 f16 matrix dealt cyclically over a
// [32, 1] grid up to a plain `index` row count (50: tiles 0-17 take two
// rows, tiles 18-31 one; rows 50-63 are not written).
//
// Computes, for r < n_rows, j < 128, all f16 rounded per op (x = X[r, j]):
//   u       = 0.7979 * (x + 0.044715 * x * x * x)
//   Y[r, j] = 0.5 * x * (1 + tanh(u))

#x_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#row = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 127 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @gelu_tanh_pure_kernel(%x_ptr: index,   // X: 64x128 f16, row-major (input)
                              %y_ptr: index,   // Y: 64x128 f16, row-major (output)
                              %n_rows: index)  // rows to process: 64
      attributes {grid = [32, 1]} {
    %pid = ktdp.get_compute_tile_id : index
    %c32 = arith.constant 32 : index
    %k0 = arith.constant dense<0.7979> : tensor<1x128xf16>   // sqrt(2/pi)
    %k1 = arith.constant dense<4.471500e-02> : tensor<1x128xf16>
    %half = arith.constant dense<5.000000e-01> : tensor<1x128xf16>
    %one = arith.constant dense<1.000000e+00> : tensor<1x128xf16>
    %X = ktdp.construct_memory_view %x_ptr, sizes: [64, 128], strides: [128, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<64x128xf16>
    %Y = ktdp.construct_memory_view %y_ptr, sizes: [64, 128], strides: [128, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<64x128xf16>
    scf.for %r = %pid to %n_rows step %c32 : index {
      %tx = ktdp.construct_access_tile %X[%r, 0] {access_tile_set = #row, access_tile_order = #id2} : memref<64x128xf16> -> !ktdp.access_tile<1x128xindex>
      %xh = ktdp.load %tx : <1x128xindex> -> tensor<1x128xf16>
      %x2 = arith.mulf %xh, %xh : tensor<1x128xf16>
      %x3 = arith.mulf %x2, %xh : tensor<1x128xf16>
      %t0 = arith.mulf %k1, %x3 : tensor<1x128xf16>
      %t1 = arith.addf %xh, %t0 : tensor<1x128xf16>
      %u = arith.mulf %k0, %t1 : tensor<1x128xf16>
      %th = math.tanh %u : tensor<1x128xf16>
      %p = arith.addf %one, %th : tensor<1x128xf16>
      %hx = arith.mulf %half, %xh : tensor<1x128xf16>
      %y = arith.mulf %hx, %p : tensor<1x128xf16>
      %ty = ktdp.construct_access_tile %Y[%r, 0] {access_tile_set = #row, access_tile_order = #id2} : memref<64x128xf16> -> !ktdp.access_tile<1x128xindex>
      ktdp.store %y, %ty : tensor<1x128xf16>, <1x128xindex>
      scf.yield
    }
    return
  }
}
