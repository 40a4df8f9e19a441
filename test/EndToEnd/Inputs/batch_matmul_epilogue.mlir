// batch_matmul_epilogue.mlir - examples/kernels/batch_matmul.mlir with its
// f32 product rounded to f16 before the store: an element-wise epilogue on a
// batched product, which the scheduler refuses (test/EndToEnd/batch-matmul.test).
#ab_set = affine_set<(d0, d1, d2) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 31 >= 0, d2 >= 0, -d2 + 63 >= 0)>
#c_set = affine_set<(d0, d1, d2) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 31 >= 0, d2 >= 0, -d2 + 31 >= 0)>
#ab_tile = affine_set<(d0, d1, d2) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 + 31 >= 0, d2 >= 0, -d2 + 63 >= 0)>
#c_tile = affine_set<(d0, d1, d2) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 + 31 >= 0, d2 >= 0, -d2 + 31 >= 0)>
#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#transpose_inner = affine_map<(d0, d1, d2) -> (d0, d2, d1)>
module {
  func.func @batch_matmul_epilogue(%a: index, %bt: index, %c: index) attributes {grid = [4]} {
    %b = ktdp.get_compute_tile_id : index
    %A = ktdp.construct_memory_view %a, sizes: [4, 32, 64], strides: [2048, 64, 1] {coordinate_set = #ab_set, memory_space = #ktdp.spyre_memory_space<HBM>} : memref<4x32x64xf16>
    %Bt = ktdp.construct_memory_view %bt, sizes: [4, 32, 64], strides: [2048, 64, 1] {coordinate_set = #ab_set, memory_space = #ktdp.spyre_memory_space<HBM>} : memref<4x32x64xf16>
    %C = ktdp.construct_memory_view %c, sizes: [4, 32, 32], strides: [1024, 32, 1] {coordinate_set = #c_set, memory_space = #ktdp.spyre_memory_space<HBM>} : memref<4x32x32xf16>
    %ta = ktdp.construct_access_tile %A[%b, 0, 0] {access_tile_set = #ab_tile, access_tile_order = #id3} : memref<4x32x64xf16> -> !ktdp.access_tile<1x32x64xindex>
    %tb = ktdp.construct_access_tile %Bt[%b, 0, 0] {access_tile_set = #ab_tile, access_tile_order = #transpose_inner} : memref<4x32x64xf16> -> !ktdp.access_tile<1x64x32xindex>
    %tc = ktdp.construct_access_tile %C[%b, 0, 0] {access_tile_set = #c_tile, access_tile_order = #id3} : memref<4x32x32xf16> -> !ktdp.access_tile<1x32x32xindex>
    %at = ktdp.load %ta : <1x32x64xindex> -> tensor<1x32x64xf16>
    %btt = ktdp.load %tb : <1x64x32xindex> -> tensor<1x64x32xf16>
    %zero = arith.constant 0.0 : f32
    %empty = tensor.empty() : tensor<1x32x32xf32>
    %acc = linalg.fill ins(%zero : f32) outs(%empty : tensor<1x32x32xf32>) -> tensor<1x32x32xf32>
    %ct = linalg.batch_matmul ins(%at, %btt : tensor<1x32x64xf16>, tensor<1x64x32xf16>) outs(%acc : tensor<1x32x32xf32>) -> tensor<1x32x32xf32>
    %ch = arith.truncf %ct : tensor<1x32x32xf32> to tensor<1x32x32xf16>
    ktdp.store %ch, %tc : tensor<1x32x32xf16>, <1x32x32xindex>
    return
  }
}
