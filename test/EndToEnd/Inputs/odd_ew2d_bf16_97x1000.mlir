// odd_ew2d_bf16_97x1000.mlir - OUT = exp(X) * Y on a 97x1000 bf16 matrix
// in 32x128 tiles over a [4, 8] grid: the last row of tiles holds 1 row
// inside the view, the last column of tiles 104 columns (masked in both
// dimensions at tile [3, 7]).

#x_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 96 >= 0, d1 >= 0, -d1 + 999 >= 0)>
#blk = affine_set<(d0, d1) : (d0 >= 0, -d0 + 31 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @ew2d(%x_ptr: index, %y_ptr: index, %out_ptr: index) attributes {grid = [4, 8]} {
    %pr, %pc = ktdp.get_compute_tile_id : index, index
    %cTR = arith.constant 32 : index
    %cTC = arith.constant 128 : index
    %r0 = arith.muli %pr, %cTR : index
    %c0 = arith.muli %pc, %cTC : index
    %X = ktdp.construct_memory_view %x_ptr, sizes: [97, 1000], strides: [1000, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<97x1000xbf16>
    %Y = ktdp.construct_memory_view %y_ptr, sizes: [97, 1000], strides: [1000, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<97x1000xbf16>
    %O = ktdp.construct_memory_view %out_ptr, sizes: [97, 1000], strides: [1000, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<97x1000xbf16>
    %tx = ktdp.construct_access_tile %X[%r0, %c0] {access_tile_set = #blk, access_tile_order = #id2} : memref<97x1000xbf16> -> !ktdp.access_tile<32x128xindex>
    %ty = ktdp.construct_access_tile %Y[%r0, %c0] {access_tile_set = #blk, access_tile_order = #id2} : memref<97x1000xbf16> -> !ktdp.access_tile<32x128xindex>
    %to = ktdp.construct_access_tile %O[%r0, %c0] {access_tile_set = #blk, access_tile_order = #id2} : memref<97x1000xbf16> -> !ktdp.access_tile<32x128xindex>
    %x = ktdp.load %tx : <32x128xindex> -> tensor<32x128xbf16>
    %y = ktdp.load %ty : <32x128xindex> -> tensor<32x128xbf16>
    %e = math.exp %x : tensor<32x128xbf16>
    %o = arith.mulf %e, %y : tensor<32x128xbf16>
    ktdp.store %o, %to : tensor<32x128xbf16>, <32x128xindex>
    return
  }
}
