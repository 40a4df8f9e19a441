// matmul_k2048.mlir - C (64x64) = A (64x2048) . B (2048x64), f16, on an
// [8] grid: each tile multiplies its 8 rows of A by the whole of B (256 KiB,
// half of mesh_device's scratchpad) in one linalg.matmul. Grid points that
// share B are candidates for merging into the matrix unit's rows.
//
// Computes C[8t:8t+8, :] = f16(A[8t:8t+8, :] . B)   (f32 accumulation)

#a_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 2047 >= 0)>
#b_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 2047 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#c_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#a_blk = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 2047 >= 0)>
#c_blk = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @matmul_k2048(%a_ptr: index,  // A: 64x2048 f16
                          %b_ptr: index,  // B: 2048x64 f16
                          %c_ptr: index)  // C: 64x64 f16 (output)
      attributes {grid = [8, 1]} {
    %pid = ktdp.get_compute_tile_id : index
    %c8 = arith.constant 8 : index
    %r0 = arith.muli %pid, %c8 : index
    %A = ktdp.construct_memory_view %a_ptr, sizes: [64, 2048], strides: [2048, 1] {coordinate_set = #a_set, memory_space = #ktdp.memory_space<global>} : memref<64x2048xf16>
    %B = ktdp.construct_memory_view %b_ptr, sizes: [2048, 64], strides: [64, 1] {coordinate_set = #b_set, memory_space = #ktdp.memory_space<global>} : memref<2048x64xf16>
    %C = ktdp.construct_memory_view %c_ptr, sizes: [64, 64], strides: [64, 1] {coordinate_set = #c_set, memory_space = #ktdp.memory_space<global>} : memref<64x64xf16>
    %ta = ktdp.construct_access_tile %A[%r0, 0] {access_tile_set = #a_blk, access_tile_order = #id2} : memref<64x2048xf16> -> !ktdp.access_tile<8x2048xindex>
    %tb = ktdp.construct_access_tile %B[0, 0] {access_tile_set = #b_set, access_tile_order = #id2} : memref<2048x64xf16> -> !ktdp.access_tile<2048x64xindex>
    %a = ktdp.load %ta : <8x2048xindex> -> tensor<8x2048xf16>
    %b = ktdp.load %tb : <2048x64xindex> -> tensor<2048x64xf16>
    %e = tensor.empty() : tensor<8x64xf16>
    %c = linalg.matmul ins(%a, %b : tensor<8x2048xf16>, tensor<2048x64xf16>) outs(%e : tensor<8x64xf16>) -> tensor<8x64xf16>
    %tc = ktdp.construct_access_tile %C[%r0, 0] {access_tile_set = #c_blk, access_tile_order = #id2} : memref<64x64xf16> -> !ktdp.access_tile<8x64xindex>
    ktdp.store %c, %tc : tensor<8x64xf16>, <8x64xindex>
    return
  }
}
