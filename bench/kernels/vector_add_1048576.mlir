// vector_add_1048576.mlir - the production vector add of issue 14 (the guide
// names a 1 M-element vector add, ktir-field-guide.md §3, without a kernel of
// that size): the guide's masked vector add
// (examples/kernels/realworld/vector_add_dyn.mlir, Triton's tutorial kernel)
// at n = 1,048,576 with Triton's BLOCK_SIZE of 1024 and a [32, 1] grid, as the
// guide's other production kernels use.
//
// Computes, for i < n (one f32 addition each):
//   OUT[i] = f32(X[i] + Y[i])
// n = n_elements (1048576 in the bench). Blocks of 1024 elements are dealt
// cyclically over the grid (one tile id): tile p takes blocks p, p + 32, ...
// below ceil(n / 1024), 32 blocks each at n = 2^20. The views have sizes [%n]
// with coordinate_set 0 <= d0 < n, so when n is not a multiple of 1024 the
// lanes of the last block at or past n are masked: loads read 0 there and the
// store skips them.

#upto_n = affine_set<(d0)[s0] : (d0 >= 0, -d0 + s0 - 1 >= 0)>
#block = affine_set<(d0) : (d0 >= 0, -d0 + 1023 >= 0)>
#id1 = affine_map<(d0) -> (d0)>
module {
  func.func @add_kernel(%x_ptr: index,       // X: n f32 (input)
                        %y_ptr: index,       // Y: n f32 (input)
                        %output_ptr: index,  // OUT: n f32 (output)
                        %n_elements: i32)    // n
      attributes {grid = [32, 1]} {
    %pid = ktdp.get_compute_tile_id : index
    %c32 = arith.constant 32 : index
    %BLOCK_SIZE = arith.constant 1024 : index
    %n = arith.index_cast %n_elements : i32 to index
    %n_blocks = arith.ceildivui %n, %BLOCK_SIZE : index
    %X = ktdp.construct_memory_view %x_ptr, sizes: [%n], strides: [1] {coordinate_set = #upto_n, memory_space = #ktdp.memory_space<global>} : memref<?xf32>
    %Y = ktdp.construct_memory_view %y_ptr, sizes: [%n], strides: [1] {coordinate_set = #upto_n, memory_space = #ktdp.memory_space<global>} : memref<?xf32>
    %OUT = ktdp.construct_memory_view %output_ptr, sizes: [%n], strides: [1] {coordinate_set = #upto_n, memory_space = #ktdp.memory_space<global>} : memref<?xf32>
    scf.for %blk = %pid to %n_blocks step %c32 : index {
      %offset = arith.muli %blk, %BLOCK_SIZE : index
      %tx = ktdp.construct_access_tile %X[%offset] {access_tile_set = #block, access_tile_order = #id1} : memref<?xf32> -> !ktdp.access_tile<1024xindex>
      %ty = ktdp.construct_access_tile %Y[%offset] {access_tile_set = #block, access_tile_order = #id1} : memref<?xf32> -> !ktdp.access_tile<1024xindex>
      %to = ktdp.construct_access_tile %OUT[%offset] {access_tile_set = #block, access_tile_order = #id1} : memref<?xf32> -> !ktdp.access_tile<1024xindex>
      %x = ktdp.load %tx : <1024xindex> -> tensor<1024xf32>
      %y = ktdp.load %ty : <1024xindex> -> tensor<1024xf32>
      %sum = arith.addf %x, %y : tensor<1024xf32>
      ktdp.store %sum, %to : tensor<1024xf32>, <1024xindex>
      scf.yield
    }
    return
  }
}
