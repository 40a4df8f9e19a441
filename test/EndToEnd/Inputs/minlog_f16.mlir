// minlog_f16.mlir - a row minimum of magnitudes and a log, f16 throughout,
// 64x128, rows cyclic over a [32, 1] grid.
//
// Computes, for r < 64, j < 128, f16 rounded per op:
//   M[r]    = min_j |X[r, j]|              (minnumf, init +inf = 0x7C00)
//   Y[r, j] = log(|X[r, j]| + M[r])

#x_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#v_set = affine_set<(d0) : (d0 >= 0, -d0 + 63 >= 0)>
#row = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 127 >= 0)>
#one = affine_set<(d0) : (d0 == 0)>
#id1 = affine_map<(d0) -> (d0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @minlog_kernel(%x_ptr: index,   // X: 64x128 f16 (input)
                          %m_ptr: index,   // M: 64 f16 row minima of |X| (output)
                          %y_ptr: index)   // Y: 64x128 f16 (output)
      attributes {grid = [32, 1]} {
    %pid = ktdp.get_compute_tile_id : index
    %c0 = arith.constant 0 : index
    %c32 = arith.constant 32 : index
    %c64 = arith.constant 64 : index
    %pinf = arith.constant 0x7C00 : f16
    %X = ktdp.construct_memory_view %x_ptr, sizes: [64, 128], strides: [128, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<64x128xf16>
    %M = ktdp.construct_memory_view %m_ptr, sizes: [64], strides: [1] {coordinate_set = #v_set, memory_space = #ktdp.memory_space<global>} : memref<64xf16>
    %Y = ktdp.construct_memory_view %y_ptr, sizes: [64, 128], strides: [128, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<64x128xf16>
    scf.for %r = %pid to %c64 step %c32 : index {
      %tx = ktdp.construct_access_tile %X[%r, 0] {access_tile_set = #row, access_tile_order = #id2} : memref<64x128xf16> -> !ktdp.access_tile<1x128xindex>
      %x = ktdp.load %tx : <1x128xindex> -> tensor<1x128xf16>
      %a = math.absf %x : tensor<1x128xf16>
      %mi = tensor.splat %pinf : tensor<1xf16>
      %mr = linalg.reduce { arith.minnumf } ins(%a : tensor<1x128xf16>) outs(%mi : tensor<1xf16>) dimensions = [1]
      %tm = ktdp.construct_access_tile %M[%r] {access_tile_set = #one, access_tile_order = #id1} : memref<64xf16> -> !ktdp.access_tile<1xindex>
      ktdp.store %mr, %tm : tensor<1xf16>, <1xindex>
      %m = tensor.extract %mr[%c0] : tensor<1xf16>
      %mb = tensor.splat %m : tensor<1x128xf16>
      %s = arith.addf %a, %mb : tensor<1x128xf16>
      %l = math.log %s : tensor<1x128xf16>
      %ty = ktdp.construct_access_tile %Y[%r, 0] {access_tile_set = #row, access_tile_order = #id2} : memref<64x128xf16> -> !ktdp.access_tile<1x128xindex>
      ktdp.store %l, %ty : tensor<1x128xf16>, <1x128xindex>
    }
    return
  }
}
