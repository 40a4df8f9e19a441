// vector_add_dyn.mlir - f32 vector add over a runtime element count passed
// as i32: the count becomes a dynamic view size, and the last block's tile
// reaches past it and is masked.
//
// Computes, for i < n (one f32 addition each):
//   OUT[i] = f32(X[i] + Y[i])
// n = n_elements (e.g. 2000). Blocks of 256 elements are dealt cyclically
// over a [4, 1] grid (one tile id): tile p takes blocks p, p + 4, ... below
// ceil(n / 256). The views have sizes [%n] with coordinate_set 0 <= d0 < n,
// so lanes of the last block at or past n are masked: loads read 0 there and
// the store skips them (ktir-cpu does not mask; ktflow follows the spec).

#upto_n = affine_set<(d0)[s0] : (d0 >= 0, -d0 + s0 - 1 >= 0)>
#block = affine_set<(d0) : (d0 >= 0, -d0 + 255 >= 0)>
#id1 = affine_map<(d0) -> (d0)>
module {
  func.func @add_kernel(%x_ptr: index,       // X: n f32 (input)
                        %y_ptr: index,       // Y: n f32 (input)
                        %output_ptr: index,  // OUT: n f32 (output)
                        %n_elements: i32)    // n
      attributes {grid = [4, 1]} {
    %pid = ktdp.get_compute_tile_id : index
    %c4 = arith.constant 4 : index
    %BLOCK_SIZE = arith.constant 256 : index
    %n = arith.index_cast %n_elements : i32 to index
    %n_blocks = arith.ceildivui %n, %BLOCK_SIZE : index
    %X = ktdp.construct_memory_view %x_ptr, sizes: [%n], strides: [1] {coordinate_set = #upto_n, memory_space = #ktdp.memory_space<global>} : memref<?xf32>
    %Y = ktdp.construct_memory_view %y_ptr, sizes: [%n], strides: [1] {coordinate_set = #upto_n, memory_space = #ktdp.memory_space<global>} : memref<?xf32>
    %OUT = ktdp.construct_memory_view %output_ptr, sizes: [%n], strides: [1] {coordinate_set = #upto_n, memory_space = #ktdp.memory_space<global>} : memref<?xf32>
    scf.for %blk = %pid to %n_blocks step %c4 : index {
      %offset = arith.muli %blk, %BLOCK_SIZE : index
      %tx = ktdp.construct_access_tile %X[%offset] {access_tile_set = #block, access_tile_order = #id1} : memref<?xf32> -> !ktdp.access_tile<256xindex>
      %ty = ktdp.construct_access_tile %Y[%offset] {access_tile_set = #block, access_tile_order = #id1} : memref<?xf32> -> !ktdp.access_tile<256xindex>
      %to = ktdp.construct_access_tile %OUT[%offset] {access_tile_set = #block, access_tile_order = #id1} : memref<?xf32> -> !ktdp.access_tile<256xindex>
      %x = ktdp.load %tx : <256xindex> -> tensor<256xf32>
      %y = ktdp.load %ty : <256xindex> -> tensor<256xf32>
      %sum = arith.addf %x, %y : tensor<256xf32>
      ktdp.store %sum, %to : tensor<256xf32>, <256xindex>
      scf.yield
    }
    return
  }
}
