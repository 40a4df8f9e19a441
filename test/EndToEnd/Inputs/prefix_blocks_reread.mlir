// prefix_blocks_reread.mlir - a running sum over the 128-wide blocks of a row:
// each trip stores its block of Y and the next trip reads it back, Y[b] = X[b]
// + Y[b - 1] (stored data re-read across trips).
#x = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 1023 >= 0)>
#blk = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 127 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @prefix_blocks(%x_ptr: index, %y_ptr: index) attributes {grid = [8]} {
    %pid = ktdp.get_compute_tile_id : index
    %c0 = arith.constant 0 : index
    %c128 = arith.constant 128 : index
    %c1024 = arith.constant 1024 : index
    %X = ktdp.construct_memory_view %x_ptr, sizes: [8, 1024], strides: [1024, 1] {coordinate_set = #x, memory_space = #ktdp.memory_space<global>} : memref<8x1024xf16>
    %Y = ktdp.construct_memory_view %y_ptr, sizes: [8, 1024], strides: [1024, 1] {coordinate_set = #x, memory_space = #ktdp.memory_space<global>} : memref<8x1024xf16>
    %t0 = ktdp.construct_access_tile %X[%pid, 0] {access_tile_set = #blk, access_tile_order = #id2} : memref<8x1024xf16> -> !ktdp.access_tile<1x128xindex>
    %x0 = ktdp.load %t0 : <1x128xindex> -> tensor<1x128xf16>
    %y0 = ktdp.construct_access_tile %Y[%pid, 0] {access_tile_set = #blk, access_tile_order = #id2} : memref<8x1024xf16> -> !ktdp.access_tile<1x128xindex>
    ktdp.store %x0, %y0 : tensor<1x128xf16>, <1x128xindex>
    scf.for %off = %c128 to %c1024 step %c128 {
      %prev = arith.subi %off, %c128 : index
      %tp = ktdp.construct_access_tile %Y[%pid, %prev] {access_tile_set = #blk, access_tile_order = #id2} : memref<8x1024xf16> -> !ktdp.access_tile<1x128xindex>
      %p = ktdp.load %tp : <1x128xindex> -> tensor<1x128xf16>
      %tx = ktdp.construct_access_tile %X[%pid, %off] {access_tile_set = #blk, access_tile_order = #id2} : memref<8x1024xf16> -> !ktdp.access_tile<1x128xindex>
      %v = ktdp.load %tx : <1x128xindex> -> tensor<1x128xf16>
      %s = arith.addf %v, %p : tensor<1x128xf16>
      %ty = ktdp.construct_access_tile %Y[%pid, %off] {access_tile_set = #blk, access_tile_order = #id2} : memref<8x1024xf16> -> !ktdp.access_tile<1x128xindex>
      ktdp.store %s, %ty : tensor<1x128xf16>, <1x128xindex>
    }
    return
  }
}
