// if_results.mlir - scf.if with results: even rows are scaled, odd rows
// shifted, the branch chosen per row, 64x128 f16, rows cyclic over a
// [32, 1] grid.
//
// Computes, for r < 64, j < 128, f16:
//   Y[r, j] = r even ? X[r, j] * 2 : X[r, j] + 1      (one rounding)

#x_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#row = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 127 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @if_results_kernel(%x_ptr: index,   // X: 64x128 f16 (input)
                               %y_ptr: index)   // Y: 64x128 f16 (output)
      attributes {grid = [32, 1]} {
    %pid = ktdp.get_compute_tile_id : index
    %c0 = arith.constant 0 : index
    %c2 = arith.constant 2 : index
    %c32 = arith.constant 32 : index
    %c64 = arith.constant 64 : index
    %two = arith.constant dense<2.0> : tensor<1x128xf16>
    %one = arith.constant dense<1.0> : tensor<1x128xf16>
    %X = ktdp.construct_memory_view %x_ptr, sizes: [64, 128], strides: [128, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<64x128xf16>
    %Y = ktdp.construct_memory_view %y_ptr, sizes: [64, 128], strides: [128, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<64x128xf16>
    scf.for %r = %pid to %c64 step %c32 : index {
      %tx = ktdp.construct_access_tile %X[%r, 0] {access_tile_set = #row, access_tile_order = #id2} : memref<64x128xf16> -> !ktdp.access_tile<1x128xindex>
      %x = ktdp.load %tx : <1x128xindex> -> tensor<1x128xf16>
      %par = arith.remui %r, %c2 : index
      %even = arith.cmpi eq, %par, %c0 : index
      %y = scf.if %even -> (tensor<1x128xf16>) {
        %m = arith.mulf %x, %two : tensor<1x128xf16>
        scf.yield %m : tensor<1x128xf16>
      } else {
        %a = arith.addf %x, %one : tensor<1x128xf16>
        scf.yield %a : tensor<1x128xf16>
      }
      %ty = ktdp.construct_access_tile %Y[%r, 0] {access_tile_set = #row, access_tile_order = #id2} : memref<64x128xf16> -> !ktdp.access_tile<1x128xindex>
      ktdp.store %y, %ty : tensor<1x128xf16>, <1x128xindex>
      scf.yield
    }
    return
  }
}
