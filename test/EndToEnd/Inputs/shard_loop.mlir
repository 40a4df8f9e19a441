// shard_loop.mlir - Y = X + X for a 16x256 f16 X stored as two column
// shards of 16x128 (shard h at x + 2048 h, coordinate sets in global
// columns), read through a distributed view by a loop over the columns,
// 128 a trip: each trip's 4x128 tile lies in shard col floordiv 128.
// Grid [4]: tile t does rows [4t, 4t + 4). Y is a plain 16x256 row-major
// tensor.
#h0 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#h1 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 - 128 >= 0, -d1 + 255 >= 0)>
#blk = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @shard_loop(%x: index, %y: index) attributes {grid = [4]} {
  %pid = ktdp.get_compute_tile_id : index
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %c128 = arith.constant 128 : index
  %c256 = arith.constant 256 : index
  %c2048 = arith.constant 2048 : index
  %x1 = arith.addi %x, %c2048 : index
  %X0 = ktdp.construct_memory_view %x, sizes: [16, 128], strides: [128, 1] {coordinate_set = #h0, memory_space = #ktdp.memory_space<global>} : memref<16x128xf16>
  %X1 = ktdp.construct_memory_view %x1, sizes: [16, 128], strides: [128, 1] {coordinate_set = #h1, memory_space = #ktdp.memory_space<global>} : memref<16x128xf16>
  %X = ktdp.construct_distributed_memory_view(%X0, %X1 : memref<16x128xf16>, memref<16x128xf16>) : memref<16x256xf16>
  %Y = ktdp.construct_memory_view %y, sizes: [16, 256], strides: [256, 1] {memory_space = #ktdp.memory_space<global>} : memref<16x256xf16>
  %row = arith.muli %pid, %c4 : index
  scf.for %col = %c0 to %c256 step %c128 {
    %tx = ktdp.construct_access_tile %X[%row, %col] {access_tile_set = #blk, access_tile_order = #id2} : memref<16x256xf16> -> !ktdp.access_tile<4x128xindex>
    %v = ktdp.load %tx : <4x128xindex> -> tensor<4x128xf16>
    %s = arith.addf %v, %v : tensor<4x128xf16>
    %ty = ktdp.construct_access_tile %Y[%row, %col] {access_tile_set = #blk, access_tile_order = #id2} : memref<16x256xf16> -> !ktdp.access_tile<4x128xindex>
    ktdp.store %s, %ty : tensor<4x128xf16>, <4x128xindex>
  }
  return
}
