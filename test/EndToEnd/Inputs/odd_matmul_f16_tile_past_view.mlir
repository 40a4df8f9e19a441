// odd_matmul_f16_tile_past_view.mlir - C = A * B with A 3x7, B 7x5, f16,
// in one 64x64 block on a [1, 1] grid: the tile is far larger than the
// views, 3 of its 64 rows and 5 of its 64 columns lie inside.

#a_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 2 >= 0, d1 >= 0, -d1 + 6 >= 0)>
#b_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 6 >= 0, d1 >= 0, -d1 + 4 >= 0)>
#c_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 2 >= 0, d1 >= 0, -d1 + 4 >= 0)>
#a_blk = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 6 >= 0)>
#b_blk = affine_set<(d0, d1) : (d0 >= 0, -d0 + 6 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#c_blk = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @matmul(%a_ptr: index, %b_ptr: index, %c_ptr: index) attributes {grid = [1, 1]} {
    %pm, %pn = ktdp.get_compute_tile_id : index, index
    %cBM = arith.constant 64 : index
    %cBN = arith.constant 64 : index
    %om = arith.muli %pm, %cBM : index
    %on = arith.muli %pn, %cBN : index
    %A = ktdp.construct_memory_view %a_ptr, sizes: [3, 7], strides: [7, 1] {coordinate_set = #a_set, memory_space = #ktdp.memory_space<global>} : memref<3x7xf16>
    %B = ktdp.construct_memory_view %b_ptr, sizes: [7, 5], strides: [5, 1] {coordinate_set = #b_set, memory_space = #ktdp.memory_space<global>} : memref<7x5xf16>
    %C = ktdp.construct_memory_view %c_ptr, sizes: [3, 5], strides: [5, 1] {coordinate_set = #c_set, memory_space = #ktdp.memory_space<global>} : memref<3x5xf16>
    %ta = ktdp.construct_access_tile %A[%om, 0] {access_tile_set = #a_blk, access_tile_order = #id2} : memref<3x7xf16> -> !ktdp.access_tile<64x7xindex>
    %tb = ktdp.construct_access_tile %B[0, %on] {access_tile_set = #b_blk, access_tile_order = #id2} : memref<7x5xf16> -> !ktdp.access_tile<7x64xindex>
    %a = ktdp.load %ta : <64x7xindex> -> tensor<64x7xf16>
    %b = ktdp.load %tb : <7x64xindex> -> tensor<7x64xf16>
    %zero = arith.constant dense<0.0> : tensor<64x64xf16>
    %c = linalg.matmul ins(%a, %b : tensor<64x7xf16>, tensor<7x64xf16>) outs(%zero : tensor<64x64xf16>) -> tensor<64x64xf16>
    %tc = ktdp.construct_access_tile %C[%om, %on] {access_tile_set = #c_blk, access_tile_order = #id2} : memref<3x5xf16> -> !ktdp.access_tile<64x64xindex>
    ktdp.store %c, %tc : tensor<64x64xf16>, <64x64xindex>
    return
  }
}
