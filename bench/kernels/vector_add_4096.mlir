// vector_add_4096.mlir - the vector add of the benchmark table: the shipped
// examples/kernels/realworld/vector_add.mlir unchanged (the guide gives no
// larger shape for it). Triton-style f16 vector add over a static length: each
// program id adds one block of BLOCK_SIZE elements at pid * BLOCK_SIZE.
//
// Computes, for i < 4096 (one f16 addition, rounded to f16):
//   OUT[i] = f16(X[i] + Y[i])
//
// Grid [16, 1] with one `get_compute_tile_id : index`: the id is the block
// number 0..15. BLOCK_SIZE (256) is a constant, as a Triton constexpr is;
// the views are static, so every block provably lies inside them.

#all = affine_set<(d0) : (d0 >= 0, -d0 + 4095 >= 0)>
#block = affine_set<(d0) : (d0 >= 0, -d0 + 255 >= 0)>
#id1 = affine_map<(d0) -> (d0)>
module {
  func.func @add_kernel(%x_ptr: index,       // X: 4096 f16 (input)
                        %y_ptr: index,       // Y: 4096 f16 (input)
                        %output_ptr: index)  // OUT: 4096 f16 (output)
      attributes {grid = [16, 1]} {
    %pid = ktdp.get_compute_tile_id : index
    %BLOCK_SIZE = arith.constant 256 : index
    %block_start = arith.muli %pid, %BLOCK_SIZE : index
    %X = ktdp.construct_memory_view %x_ptr, sizes: [4096], strides: [1] {coordinate_set = #all, memory_space = #ktdp.memory_space<global>} : memref<4096xf16>
    %Y = ktdp.construct_memory_view %y_ptr, sizes: [4096], strides: [1] {coordinate_set = #all, memory_space = #ktdp.memory_space<global>} : memref<4096xf16>
    %OUT = ktdp.construct_memory_view %output_ptr, sizes: [4096], strides: [1] {coordinate_set = #all, memory_space = #ktdp.memory_space<global>} : memref<4096xf16>
    %tx = ktdp.construct_access_tile %X[%block_start] {access_tile_set = #block, access_tile_order = #id1} : memref<4096xf16> -> !ktdp.access_tile<256xindex>
    %ty = ktdp.construct_access_tile %Y[%block_start] {access_tile_set = #block, access_tile_order = #id1} : memref<4096xf16> -> !ktdp.access_tile<256xindex>
    %to = ktdp.construct_access_tile %OUT[%block_start] {access_tile_set = #block, access_tile_order = #id1} : memref<4096xf16> -> !ktdp.access_tile<256xindex>
    %x = ktdp.load %tx : <256xindex> -> tensor<256xf16>
    %y = ktdp.load %ty : <256xindex> -> tensor<256xf16>
    %output = arith.addf %x, %y : tensor<256xf16>
    ktdp.store %output, %to : tensor<256xf16>, <256xindex>
    return
  }
}
