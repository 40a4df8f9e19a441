// loop_last_write_mod.mlir - loop_last_write.mlir with the row stored
// computed from the induction variable, Y[r % 4], which repeats: each trip
// of point p stores to row p again (r = p, p + 4, ...), so the last write
// wins as in the reference interpreter (the iterations may not be spread
// over lanes though the destination uses the induction variable).
#x_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#y_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#row = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 63 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @loop_last_write_mod(%x_ptr: index,  // X: 64x64 f16 (input)
                                 %y_ptr: index,  // Y: 4x64 f16 (output)
                                 %n: index)      // rows to visit
      attributes {grid = [4, 1]} {
    %pid = ktdp.get_compute_tile_id : index
    %c4 = arith.constant 4 : index
    %c64 = arith.constant 64 : index
    %one = arith.constant dense<1.0> : tensor<1x64xf16>
    %rows = arith.minsi %n, %c64 : index
    %X = ktdp.construct_memory_view %x_ptr, sizes: [64, 64], strides: [64, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<64x64xf16>
    %Y = ktdp.construct_memory_view %y_ptr, sizes: [4, 64], strides: [64, 1] {coordinate_set = #y_set, memory_space = #ktdp.memory_space<global>} : memref<4x64xf16>
    scf.for %r = %pid to %rows step %c4 : index {
      %tx = ktdp.construct_access_tile %X[%r, 0] {access_tile_set = #row, access_tile_order = #id2} : memref<64x64xf16> -> !ktdp.access_tile<1x64xindex>
      %x = ktdp.load %tx : <1x64xindex> -> tensor<1x64xf16>
      %q = arith.remsi %r, %c4 : index
      %ty = ktdp.construct_access_tile %Y[%q, 0] {access_tile_set = #row, access_tile_order = #id2} : memref<4x64xf16> -> !ktdp.access_tile<1x64xindex>
      %y = arith.addf %x, %one : tensor<1x64xf16>
      ktdp.store %y, %ty : tensor<1x64xf16>, <1x64xindex>
    }
    return
  }
}
