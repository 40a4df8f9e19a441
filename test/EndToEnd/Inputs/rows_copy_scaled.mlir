// rows_copy_scaled.mlir - Y = s * X for a 128x64 f16 matrix, one 64-row
// block per grid point (grid [2]), s a run-time f16 scalar splat over the
// block: rows_copy.mlir with a multiplication between the load and the
// store, which the vector unit must do, so the block still passes through
// load unit, vector unit and store unit (test/EndToEnd/device-pass-through.test).
//
// Arguments:
//   %x_ptr  X : 128x64 f16, row-major, input
//   %y_ptr  Y : 128x64 f16, row-major, output
//   %s      the scale, f16

#all = affine_set<(d0, d1) : (d0 >= 0, -d0 + 127 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#blk = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @rows_copy_scaled(%x_ptr: index, %y_ptr: index, %s: f16) attributes {grid = [2]} {
    %pid = ktdp.get_compute_tile_id : index
    %c64 = arith.constant 64 : index
    %row = arith.muli %pid, %c64 : index
    %X = ktdp.construct_memory_view %x_ptr, sizes: [128, 64], strides: [64, 1] {coordinate_set = #all, memory_space = #ktdp.memory_space<global>} : memref<128x64xf16>
    %Y = ktdp.construct_memory_view %y_ptr, sizes: [128, 64], strides: [64, 1] {coordinate_set = #all, memory_space = #ktdp.memory_space<global>} : memref<128x64xf16>
    %tx = ktdp.construct_access_tile %X[%row, 0] {access_tile_set = #blk, access_tile_order = #id2} : memref<128x64xf16> -> !ktdp.access_tile<64x64xindex>
    %v = ktdp.load %tx : <64x64xindex> -> tensor<64x64xf16>
    %splat = tensor.splat %s : tensor<64x64xf16>
    %w = arith.mulf %v, %splat : tensor<64x64xf16>
    %ty = ktdp.construct_access_tile %Y[%row, 0] {access_tile_set = #blk, access_tile_order = #id2} : memref<128x64xf16> -> !ktdp.access_tile<64x64xindex>
    ktdp.store %w, %ty : tensor<64x64xf16>, <64x64xindex>
    return
  }
}
