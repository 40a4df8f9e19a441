// Anchors clamped with arith.maxsi / arith.minsi: tile t stores into rows
// 32t.. of Y the 32 rows of X starting at max(32t - 16, 0) plus the 32 rows
// starting at min(32t + 16, 96).
#x_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 127 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#blk = affine_set<(d0, d1) : (d0 >= 0, -d0 + 31 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @halo(%x_ptr: index, %y_ptr: index) attributes {grid = [4, 1]} {
    %pid = ktdp.get_compute_tile_id : index
    %c0 = arith.constant 0 : index
    %c16 = arith.constant 16 : index
    %c32 = arith.constant 32 : index
    %c96 = arith.constant 96 : index
    %X = ktdp.construct_memory_view %x_ptr, sizes: [128, 64], strides: [64, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<128x64xf16>
    %Y = ktdp.construct_memory_view %y_ptr, sizes: [128, 64], strides: [64, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<128x64xf16>
    %q0 = arith.muli %pid, %c32 : index
    %b0 = arith.subi %q0, %c16 : index
    %below = arith.maxsi %b0, %c0 : index
    %a0 = arith.addi %q0, %c16 : index
    %above = arith.minsi %a0, %c96 : index
    %tb = ktdp.construct_access_tile %X[%below, 0] {access_tile_set = #blk, access_tile_order = #id2} : memref<128x64xf16> -> !ktdp.access_tile<32x64xindex>
    %ta = ktdp.construct_access_tile %X[%above, 0] {access_tile_set = #blk, access_tile_order = #id2} : memref<128x64xf16> -> !ktdp.access_tile<32x64xindex>
    %xb = ktdp.load %tb : <32x64xindex> -> tensor<32x64xf16>
    %xa = ktdp.load %ta : <32x64xindex> -> tensor<32x64xf16>
    %y = arith.addf %xb, %xa : tensor<32x64xf16>
    %ty = ktdp.construct_access_tile %Y[%q0, 0] {access_tile_set = #blk, access_tile_order = #id2} : memref<128x64xf16> -> !ktdp.access_tile<32x64xindex>
    ktdp.store %y, %ty : tensor<32x64xf16>, <32x64xindex>
    return
  }
}
