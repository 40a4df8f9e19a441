// odd_vadd_f32_block97.mlir - an f32 vector add over n_elements (an i32
// argument) in blocks of 97 dealt out over a [7, 1] grid: the number of
// blocks, and how many each tile takes, is known only at launch, and the
// last block is masked unless 97 divides n.

#upto_n = affine_set<(d0)[s0] : (d0 >= 0, -d0 + s0 - 1 >= 0)>
#block = affine_set<(d0) : (d0 >= 0, -d0 + 96 >= 0)>
#id1 = affine_map<(d0) -> (d0)>
module {
  func.func @add_kernel(%x_ptr: index, %y_ptr: index, %output_ptr: index, %n_elements: i32) attributes {grid = [7, 1]} {
    %pid = ktdp.get_compute_tile_id : index
    %cG = arith.constant 7 : index
    %BLOCK_SIZE = arith.constant 97 : index
    %n = arith.index_cast %n_elements : i32 to index
    %n_blocks = arith.ceildivui %n, %BLOCK_SIZE : index
    %X = ktdp.construct_memory_view %x_ptr, sizes: [%n], strides: [1] {coordinate_set = #upto_n, memory_space = #ktdp.memory_space<global>} : memref<?xf32>
    %Y = ktdp.construct_memory_view %y_ptr, sizes: [%n], strides: [1] {coordinate_set = #upto_n, memory_space = #ktdp.memory_space<global>} : memref<?xf32>
    %OUT = ktdp.construct_memory_view %output_ptr, sizes: [%n], strides: [1] {coordinate_set = #upto_n, memory_space = #ktdp.memory_space<global>} : memref<?xf32>
    scf.for %blk = %pid to %n_blocks step %cG : index {
      %offset = arith.muli %blk, %BLOCK_SIZE : index
      %tx = ktdp.construct_access_tile %X[%offset] {access_tile_set = #block, access_tile_order = #id1} : memref<?xf32> -> !ktdp.access_tile<97xindex>
      %ty = ktdp.construct_access_tile %Y[%offset] {access_tile_set = #block, access_tile_order = #id1} : memref<?xf32> -> !ktdp.access_tile<97xindex>
      %to = ktdp.construct_access_tile %OUT[%offset] {access_tile_set = #block, access_tile_order = #id1} : memref<?xf32> -> !ktdp.access_tile<97xindex>
      %x = ktdp.load %tx : <97xindex> -> tensor<97xf32>
      %y = ktdp.load %ty : <97xindex> -> tensor<97xf32>
      %sum = arith.addf %x, %y : tensor<97xf32>
      ktdp.store %sum, %to : tensor<97xf32>, <97xindex>
      scf.yield
    }
    return
  }
}
