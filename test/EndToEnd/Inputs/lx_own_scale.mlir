// Each of the 4 tiles scales what its own scratchpad holds at literal
// element address 1024 (an 8x64 f16 region no op of the kernel writes: an
// earlier kernel or the host filled it, field guide §1b.6) by 2 and stores
// it to its 8 rows of Y:
//   Y[8k + i, j] = 2 * LXk[1024 + 64i + j]      k < 4, i < 8, j < 64
// The regions are the launch's inputs `lx0@1024` ... `lx3@1024`.
#own = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#all = affine_set<(d0, d1) : (d0 >= 0, -d0 + 31 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @lx_own_scale(%y: index) attributes {grid = [4]} {
    %k = ktdp.get_compute_tile_id : index
    %c0 = arith.constant 0 : index
    %c8 = arith.constant 8 : index
    %lx = arith.constant 1024 : index
    %L = ktdp.construct_memory_view %lx, sizes: [8, 64], strides: [64, 1] {coordinate_set = #own, memory_space = #ktdp.memory_space<ct_local>} : memref<8x64xf16>
    %Y = ktdp.construct_memory_view %y, sizes: [32, 64], strides: [64, 1] {coordinate_set = #all, memory_space = #ktdp.memory_space<global>} : memref<32x64xf16>
    %t = ktdp.construct_access_tile %L[%c0, %c0] {access_tile_set = #own, access_tile_order = #id2} : memref<8x64xf16> -> !ktdp.access_tile<8x64xindex>
    %v = ktdp.load %t : <8x64xindex> -> tensor<8x64xf16>
    %two = arith.constant dense<2.0> : tensor<8x64xf16>
    %w = arith.mulf %v, %two : tensor<8x64xf16>
    %row = arith.muli %k, %c8 : index
    %ty = ktdp.construct_access_tile %Y[%row, %c0] {access_tile_set = #own, access_tile_order = #id2} : memref<32x64xf16> -> !ktdp.access_tile<8x64xindex>
    ktdp.store %w, %ty : tensor<8x64xf16>, <8x64xindex>
    return
  }
}
