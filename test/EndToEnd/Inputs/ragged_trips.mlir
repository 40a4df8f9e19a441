// ragged_trips.mlir - tile t doubles rows [8t, 8t + t + 1) of X into Y: the
// trip count differs between tiles (the rows no tile writes keep their initial
// zeros).
#x = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#blk = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 127 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @ragged_rows(%x_ptr: index, %y_ptr: index) attributes {grid = [8]} {
    %pid = ktdp.get_compute_tile_id : index
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %base = arith.muli %pid, %c8 : index
    %n = arith.addi %pid, %c1 : index
    %X = ktdp.construct_memory_view %x_ptr, sizes: [64, 128], strides: [128, 1] {coordinate_set = #x, memory_space = #ktdp.memory_space<global>} : memref<64x128xf16>
    %Y = ktdp.construct_memory_view %y_ptr, sizes: [64, 128], strides: [128, 1] {coordinate_set = #x, memory_space = #ktdp.memory_space<global>} : memref<64x128xf16>
    scf.for %i = %c0 to %n step %c1 {
      %r = arith.addi %base, %i : index
      %tx = ktdp.construct_access_tile %X[%r, 0] {access_tile_set = #blk, access_tile_order = #id2} : memref<64x128xf16> -> !ktdp.access_tile<1x128xindex>
      %v = ktdp.load %tx : <1x128xindex> -> tensor<1x128xf16>
      %w = arith.addf %v, %v : tensor<1x128xf16>
      %ty = ktdp.construct_access_tile %Y[%r, 0] {access_tile_set = #blk, access_tile_order = #id2} : memref<64x128xf16> -> !ktdp.access_tile<1x128xindex>
      ktdp.store %w, %ty : tensor<1x128xf16>, <1x128xindex>
    }
    return
  }
}
