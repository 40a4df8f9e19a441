// rows_copy.mlir - Y = X for a 128x64 f16 matrix, one 64-row block per
// grid point (grid [2]): each point loads its block and stores it, nothing
// computed in between, so ktdf-to-dfir moves it in DMA alone
// (PassThroughDma.cpp; test/EndToEnd/device-pass-through.test).
//
// Arguments (tensor start addresses, f16 elements):
//   %x_ptr  X : 128x64 f16, row-major, input
//   %y_ptr  Y : 128x64 f16, row-major, output

#all = affine_set<(d0, d1) : (d0 >= 0, -d0 + 127 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#blk = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @rows_copy(%x_ptr: index, %y_ptr: index) attributes {grid = [2]} {
    %pid = ktdp.get_compute_tile_id : index
    %c64 = arith.constant 64 : index
    %row = arith.muli %pid, %c64 : index
    %X = ktdp.construct_memory_view %x_ptr, sizes: [128, 64], strides: [64, 1] {coordinate_set = #all, memory_space = #ktdp.memory_space<global>} : memref<128x64xf16>
    %Y = ktdp.construct_memory_view %y_ptr, sizes: [128, 64], strides: [64, 1] {coordinate_set = #all, memory_space = #ktdp.memory_space<global>} : memref<128x64xf16>
    %tx = ktdp.construct_access_tile %X[%row, 0] {access_tile_set = #blk, access_tile_order = #id2} : memref<128x64xf16> -> !ktdp.access_tile<64x64xindex>
    %v = ktdp.load %tx : <64x64xindex> -> tensor<64x64xf16>
    %ty = ktdp.construct_access_tile %Y[%row, 0] {access_tile_set = #blk, access_tile_order = #id2} : memref<128x64xf16> -> !ktdp.access_tile<64x64xindex>
    ktdp.store %v, %ty : tensor<64x64xf16>, <64x64xindex>
    return
  }
}
