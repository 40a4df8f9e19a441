// odd_matmul_f16_97x33x100.mlir - C = A * B with A 97x100, B 100x33, f16,
// one 32x16 block of C per tile over a [4, 3] grid, the whole K = 100 in
// one product: the last row and column of blocks are masked.

#a_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 96 >= 0, d1 >= 0, -d1 + 99 >= 0)>
#b_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 99 >= 0, d1 >= 0, -d1 + 32 >= 0)>
#c_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 96 >= 0, d1 >= 0, -d1 + 32 >= 0)>
#a_blk = affine_set<(d0, d1) : (d0 >= 0, -d0 + 31 >= 0, d1 >= 0, -d1 + 99 >= 0)>
#b_blk = affine_set<(d0, d1) : (d0 >= 0, -d0 + 99 >= 0, d1 >= 0, -d1 + 15 >= 0)>
#c_blk = affine_set<(d0, d1) : (d0 >= 0, -d0 + 31 >= 0, d1 >= 0, -d1 + 15 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @matmul(%a_ptr: index, %b_ptr: index, %c_ptr: index) attributes {grid = [4, 3]} {
    %pm, %pn = ktdp.get_compute_tile_id : index, index
    %cBM = arith.constant 32 : index
    %cBN = arith.constant 16 : index
    %om = arith.muli %pm, %cBM : index
    %on = arith.muli %pn, %cBN : index
    %A = ktdp.construct_memory_view %a_ptr, sizes: [97, 100], strides: [100, 1] {coordinate_set = #a_set, memory_space = #ktdp.memory_space<global>} : memref<97x100xf16>
    %B = ktdp.construct_memory_view %b_ptr, sizes: [100, 33], strides: [33, 1] {coordinate_set = #b_set, memory_space = #ktdp.memory_space<global>} : memref<100x33xf16>
    %C = ktdp.construct_memory_view %c_ptr, sizes: [97, 33], strides: [33, 1] {coordinate_set = #c_set, memory_space = #ktdp.memory_space<global>} : memref<97x33xf16>
    %ta = ktdp.construct_access_tile %A[%om, 0] {access_tile_set = #a_blk, access_tile_order = #id2} : memref<97x100xf16> -> !ktdp.access_tile<32x100xindex>
    %tb = ktdp.construct_access_tile %B[0, %on] {access_tile_set = #b_blk, access_tile_order = #id2} : memref<100x33xf16> -> !ktdp.access_tile<100x16xindex>
    %a = ktdp.load %ta : <32x100xindex> -> tensor<32x100xf16>
    %b = ktdp.load %tb : <100x16xindex> -> tensor<100x16xf16>
    %zero = arith.constant dense<0.0> : tensor<32x16xf16>
    %c = linalg.matmul ins(%a, %b : tensor<32x100xf16>, tensor<100x16xf16>) outs(%zero : tensor<32x16xf16>) -> tensor<32x16xf16>
    %tc = ktdp.construct_access_tile %C[%om, %on] {access_tile_set = #c_blk, access_tile_order = #id2} : memref<97x33xf16> -> !ktdp.access_tile<32x16xindex>
    ktdp.store %c, %tc : tensor<32x16xf16>, <32x16xindex>
    return
  }
}
