// offset_i32_blocks.mlir - Triton-style f32 vector add whose block offset
// is an i32 carried in iter_args (`offs += NUM_PROGRAMS * BLOCK`), cast to
// index for the tiles: Z[o + j] = X[o + j] + Y[o + j] for program p < 16,
// trip i < n_iters, o = 256 p + 4096 i (in i32), j < 256; blocks past the
// views' 16384 elements are masked.
#v_set = affine_set<(d0) : (d0 >= 0, -d0 + 16383 >= 0)>
#blk = affine_set<(d0) : (d0 >= 0, -d0 + 255 >= 0)>
#id1 = affine_map<(d0) -> (d0)>
module {
  func.func @offset_i32_blocks(%x_ptr: index,   // X: 16384 f32
                               %y_ptr: index,   // Y: 16384 f32
                               %z_ptr: index,   // Z: 16384 f32 (output)
                               %n_iters: index) // blocks per program: 4
      attributes {grid = [16, 1]} {
    %pid = ktdp.get_compute_tile_id : index
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %BLOCK = arith.constant 256 : i32
    %STRIDE = arith.constant 4096 : i32
    %pid_i32 = arith.index_cast %pid : index to i32
    %start = arith.muli %pid_i32, %BLOCK : i32
    %X = ktdp.construct_memory_view %x_ptr, sizes: [16384], strides: [1] {coordinate_set = #v_set, memory_space = #ktdp.memory_space<global>} : memref<16384xf32>
    %Y = ktdp.construct_memory_view %y_ptr, sizes: [16384], strides: [1] {coordinate_set = #v_set, memory_space = #ktdp.memory_space<global>} : memref<16384xf32>
    %Z = ktdp.construct_memory_view %z_ptr, sizes: [16384], strides: [1] {coordinate_set = #v_set, memory_space = #ktdp.memory_space<global>} : memref<16384xf32>
    %end = scf.for %i = %c0 to %n_iters step %c1 iter_args(%off = %start) -> (i32) {
      %o = arith.index_cast %off : i32 to index
      %tx = ktdp.construct_access_tile %X[%o] {access_tile_set = #blk, access_tile_order = #id1} : memref<16384xf32> -> !ktdp.access_tile<256xindex>
      %ty = ktdp.construct_access_tile %Y[%o] {access_tile_set = #blk, access_tile_order = #id1} : memref<16384xf32> -> !ktdp.access_tile<256xindex>
      %x = ktdp.load %tx : <256xindex> -> tensor<256xf32>
      %y = ktdp.load %ty : <256xindex> -> tensor<256xf32>
      %z = arith.addf %x, %y : tensor<256xf32>
      %tz = ktdp.construct_access_tile %Z[%o] {access_tile_set = #blk, access_tile_order = #id1} : memref<16384xf32> -> !ktdp.access_tile<256xindex>
      ktdp.store %z, %tz : tensor<256xf32>, <256xindex>
      %next = arith.addi %off, %STRIDE : i32
      scf.yield %next : i32
    }
    return
  }
}
