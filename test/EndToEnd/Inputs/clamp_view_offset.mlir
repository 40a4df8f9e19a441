// Views at a computed address: tile t's 32x64 block of X and Y is a view
// at %ptr + min(t, 3) * 2048, the block index clamped to the last block
// with arith.minsi (Triton's defensive clamp; a no-op on a 4-tile grid).
#x_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 31 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @blocks(%x_ptr: index, %y_ptr: index) attributes {grid = [4, 1]} {
    %pid = ktdp.get_compute_tile_id : index
    %c2 = arith.constant 2 : index
    %c3 = arith.constant 3 : index
    %c2048 = arith.constant 2048 : index
    %b = arith.minsi %pid, %c3 : index
    %off = arith.muli %b, %c2048 : index
    %xa = arith.addi %x_ptr, %off : index
    %ya = arith.addi %y_ptr, %off : index
    %X = ktdp.construct_memory_view %xa, sizes: [32, 64], strides: [64, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<32x64xf16>
    %Y = ktdp.construct_memory_view %ya, sizes: [32, 64], strides: [64, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<32x64xf16>
    %tx = ktdp.construct_access_tile %X[0, 0] {access_tile_set = #x_set, access_tile_order = #id2} : memref<32x64xf16> -> !ktdp.access_tile<32x64xindex>
    %x = ktdp.load %tx : <32x64xindex> -> tensor<32x64xf16>
    %y = arith.addf %x, %x : tensor<32x64xf16>
    %ty = ktdp.construct_access_tile %Y[0, 0] {access_tile_set = #x_set, access_tile_order = #id2} : memref<32x64xf16> -> !ktdp.access_tile<32x64xindex>
    ktdp.store %y, %ty : tensor<32x64xf16>, <32x64xindex>
    return
  }
}
