// odd_rope_f16_1000x14.mlir - rotary embedding (NeoX halves of 7) of 1000
// positions of a 14-wide head, 33 positions per block (31 blocks, the
// last holding 10) dealt out cyclically over a [7, 1] grid.

#x_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 999 >= 0, d1 >= 0, -d1 + 13 >= 0)>
#cs_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 999 >= 0, d1 >= 0, -d1 + 6 >= 0)>
#half = affine_set<(d0, d1) : (d0 >= 0, -d0 + 32 >= 0, d1 >= 0, -d1 + 6 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @rope(%x_ptr: index, %cos_ptr: index, %sin_ptr: index, %out_ptr: index) attributes {grid = [7, 1]} {
    %pid = ktdp.get_compute_tile_id : index
    %cG = arith.constant 7 : index
    %cST = arith.constant 33 : index
    %nb = arith.constant 31 : index
    %X = ktdp.construct_memory_view %x_ptr, sizes: [1000, 14], strides: [14, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<1000x14xf16>
    %COS = ktdp.construct_memory_view %cos_ptr, sizes: [1000, 7], strides: [7, 1] {coordinate_set = #cs_set, memory_space = #ktdp.memory_space<global>} : memref<1000x7xf16>
    %SIN = ktdp.construct_memory_view %sin_ptr, sizes: [1000, 7], strides: [7, 1] {coordinate_set = #cs_set, memory_space = #ktdp.memory_space<global>} : memref<1000x7xf16>
    %OUT = ktdp.construct_memory_view %out_ptr, sizes: [1000, 14], strides: [14, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<1000x14xf16>
    scf.for %blk = %pid to %nb step %cG : index {
      %row = arith.muli %blk, %cST : index
      %tcos = ktdp.construct_access_tile %COS[%row, 0] {access_tile_set = #half, access_tile_order = #id2} : memref<1000x7xf16> -> !ktdp.access_tile<33x7xindex>
      %tsin = ktdp.construct_access_tile %SIN[%row, 0] {access_tile_set = #half, access_tile_order = #id2} : memref<1000x7xf16> -> !ktdp.access_tile<33x7xindex>
      %cos = ktdp.load %tcos : <33x7xindex> -> tensor<33x7xf16>
      %sin = ktdp.load %tsin : <33x7xindex> -> tensor<33x7xf16>
      %t1 = ktdp.construct_access_tile %X[%row, 0] {access_tile_set = #half, access_tile_order = #id2} : memref<1000x14xf16> -> !ktdp.access_tile<33x7xindex>
      %t2 = ktdp.construct_access_tile %X[%row, 7] {access_tile_set = #half, access_tile_order = #id2} : memref<1000x14xf16> -> !ktdp.access_tile<33x7xindex>
      %x1 = ktdp.load %t1 : <33x7xindex> -> tensor<33x7xf16>
      %x2 = ktdp.load %t2 : <33x7xindex> -> tensor<33x7xf16>
      %x1c = arith.mulf %x1, %cos : tensor<33x7xf16>
      %x2s = arith.mulf %x2, %sin : tensor<33x7xf16>
      %o1 = arith.subf %x1c, %x2s : tensor<33x7xf16>
      %x2c = arith.mulf %x2, %cos : tensor<33x7xf16>
      %x1s = arith.mulf %x1, %sin : tensor<33x7xf16>
      %o2 = arith.addf %x2c, %x1s : tensor<33x7xf16>
      %u1 = ktdp.construct_access_tile %OUT[%row, 0] {access_tile_set = #half, access_tile_order = #id2} : memref<1000x14xf16> -> !ktdp.access_tile<33x7xindex>
      %u2 = ktdp.construct_access_tile %OUT[%row, 7] {access_tile_set = #half, access_tile_order = #id2} : memref<1000x14xf16> -> !ktdp.access_tile<33x7xindex>
      ktdp.store %o1, %u1 : tensor<33x7xf16>, <33x7xindex>
      ktdp.store %o2, %u2 : tensor<33x7xf16>, <33x7xindex>
      scf.yield
    }
    return
  }
}
