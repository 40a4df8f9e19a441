// remote_rows_loop.mlir - each trip, tile t stores a row of X into its own
// scratchpad and then reads tile 1's copy back into Y (another tile's
// scratchpad, inside a loop).
#x = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#row = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 63 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @remote_rows(%x: index, %y: index) attributes {grid = [2]} {
    %pid = ktdp.get_compute_tile_id : index
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c8 = arith.constant 8 : index
    %X = ktdp.construct_memory_view %x, sizes: [16, 64], strides: [64, 1] {coordinate_set = #x, memory_space = #ktdp.memory_space<global>} : memref<16x64xf16>
    %Y = ktdp.construct_memory_view %y, sizes: [16, 64], strides: [64, 1] {coordinate_set = #x, memory_space = #ktdp.memory_space<global>} : memref<16x64xf16>
    %own = ktdp.construct_memory_view %c0, sizes: [1, 64], strides: [64, 1] {coordinate_set = #row, memory_space = #ktdp.memory_space<ct_local>} : memref<1x64xf16>
    %of1 = ktdp.construct_memory_view %c0, sizes: [1, 64], strides: [64, 1] {coordinate_set = #row, memory_space = #ktdp.memory_space<ct_local, ct_id = 1>} : memref<1x64xf16>
    scf.for %i = %c0 to %c8 step %c1 {
      %r = arith.muli %i, %c2 : index
      %rr = arith.addi %r, %pid : index
      %tx = ktdp.construct_access_tile %X[%rr, 0] {access_tile_set = #row, access_tile_order = #id2} : memref<16x64xf16> -> !ktdp.access_tile<1x64xindex>
      %v = ktdp.load %tx : <1x64xindex> -> tensor<1x64xf16>
      %town = ktdp.construct_access_tile %own[0, 0] {access_tile_set = #row, access_tile_order = #id2} : memref<1x64xf16> -> !ktdp.access_tile<1x64xindex>
      ktdp.store %v, %town : tensor<1x64xf16>, <1x64xindex>
      %t1 = ktdp.construct_access_tile %of1[0, 0] {access_tile_set = #row, access_tile_order = #id2} : memref<1x64xf16> -> !ktdp.access_tile<1x64xindex>
      %a = ktdp.load %t1 : <1x64xindex> -> tensor<1x64xf16>
      %ty = ktdp.construct_access_tile %Y[%rr, 0] {access_tile_set = #row, access_tile_order = #id2} : memref<16x64xf16> -> !ktdp.access_tile<1x64xindex>
      ktdp.store %a, %ty : tensor<1x64xf16>, <1x64xindex>
    }
    return
  }
}
