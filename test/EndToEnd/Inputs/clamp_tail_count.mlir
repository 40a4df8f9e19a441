// Triton's tail clamp: tile t adds 1 to the min(n - 32t, 32) rows from row
// 32t (n an i32 argument), the count clamped below by 0: tiles past n
// add nothing.
#x_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 127 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#row = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 63 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @tail(%x_ptr: index, %y_ptr: index, %n_i32: i32)
      attributes {grid = [4, 1]} {
    %pid = ktdp.get_compute_tile_id : index
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c32 = arith.constant 32 : index
    %one = arith.constant dense<1.0> : tensor<1x64xf16>
    %X = ktdp.construct_memory_view %x_ptr, sizes: [128, 64], strides: [64, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<128x64xf16>
    %Y = ktdp.construct_memory_view %y_ptr, sizes: [128, 64], strides: [64, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<128x64xf16>
    %n = arith.index_cast %n_i32 : i32 to index
    %start = arith.muli %pid, %c32 : index
    %left = arith.subi %n, %start : index
    %cnt0 = arith.minsi %left, %c32 : index
    %cnt = arith.maxsi %cnt0, %c0 : index
    scf.for %i = %c0 to %cnt step %c1 {
      %r = arith.addi %start, %i : index
      %tx = ktdp.construct_access_tile %X[%r, 0] {access_tile_set = #row, access_tile_order = #id2} : memref<128x64xf16> -> !ktdp.access_tile<1x64xindex>
      %x = ktdp.load %tx : <1x64xindex> -> tensor<1x64xf16>
      %y = arith.addf %x, %one : tensor<1x64xf16>
      %ty = ktdp.construct_access_tile %Y[%r, 0] {access_tile_set = #row, access_tile_order = #id2} : memref<128x64xf16> -> !ktdp.access_tile<1x64xindex>
      ktdp.store %y, %ty : tensor<1x64xf16>, <1x64xindex>
    }
    return
  }
}
