// batch_matmul.mlir - batched A * B^T (attention-score shape), B stored
// transposed and read back through a permuted access_tile_order.
//
// Computes   C[b, m, n] = sum_{k < 64} f32(A[b, m, k]) * f32(Bt[b, n, k])
// for 0 <= b < 4, 0 <= m < 32, 0 <= n < 32; f16 inputs, f32 accumulation and
// f32 output (linalg.batch_matmul with f16 ins and an f32 init of zeros).
//
// Arguments (all `index`, start addresses counted in elements of each
// tensor's own element type):
//   %a   A  : 4x32x64 f16 = [batch, m, k], row-major (strides [2048, 64, 1]), input
//   %bt  Bt : 4x32x64 f16 = [batch, n, k], row-major (strides [2048, 64, 1]), input
//   %c   C  : 4x32x32 f32 = [batch, m, n], row-major (strides [1024, 32, 1]), output
// Grid: [4]. Tile b computes batch b. The Bt tile anchored at [b, 0, 0] has
// the set [0,1) x [0,32) x [0,64) and order (d0, d1, d2) -> (d0, d2, d1), so
// the loaded tensor is 1x64x32 with element (0, k, n) = Bt[b, n, k].
// Memory space spelling: #ktdp.spyre_memory_space<HBM>.

#ab_set = affine_set<(d0, d1, d2) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 31 >= 0, d2 >= 0, -d2 + 63 >= 0)>
#c_set = affine_set<(d0, d1, d2) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 31 >= 0, d2 >= 0, -d2 + 31 >= 0)>
#ab_tile = affine_set<(d0, d1, d2) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 + 31 >= 0, d2 >= 0, -d2 + 63 >= 0)>
#c_tile = affine_set<(d0, d1, d2) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 + 31 >= 0, d2 >= 0, -d2 + 31 >= 0)>
#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#transpose_inner = affine_map<(d0, d1, d2) -> (d0, d2, d1)>
module {
  func.func @batch_matmul(%a: index, %bt: index, %c: index) attributes {grid = [4]} {
    %b = ktdp.get_compute_tile_id : index
    %A = ktdp.construct_memory_view %a, sizes: [4, 32, 64], strides: [2048, 64, 1] {coordinate_set = #ab_set, memory_space = #ktdp.spyre_memory_space<HBM>} : memref<4x32x64xf16>
    %Bt = ktdp.construct_memory_view %bt, sizes: [4, 32, 64], strides: [2048, 64, 1] {coordinate_set = #ab_set, memory_space = #ktdp.spyre_memory_space<HBM>} : memref<4x32x64xf16>
    %C = ktdp.construct_memory_view %c, sizes: [4, 32, 32], strides: [1024, 32, 1] {coordinate_set = #c_set, memory_space = #ktdp.spyre_memory_space<HBM>} : memref<4x32x32xf32>
    %ta = ktdp.construct_access_tile %A[%b, 0, 0] {access_tile_set = #ab_tile, access_tile_order = #id3} : memref<4x32x64xf16> -> !ktdp.access_tile<1x32x64xindex>
    %tb = ktdp.construct_access_tile %Bt[%b, 0, 0] {access_tile_set = #ab_tile, access_tile_order = #transpose_inner} : memref<4x32x64xf16> -> !ktdp.access_tile<1x64x32xindex>
    %tc = ktdp.construct_access_tile %C[%b, 0, 0] {access_tile_set = #c_tile, access_tile_order = #id3} : memref<4x32x32xf32> -> !ktdp.access_tile<1x32x32xindex>
    %at = ktdp.load %ta : <1x32x64xindex> -> tensor<1x32x64xf16>
    %btt = ktdp.load %tb : <1x64x32xindex> -> tensor<1x64x32xf16>
    %zero = arith.constant 0.0 : f32
    %empty = tensor.empty() : tensor<1x32x32xf32>
    %acc = linalg.fill ins(%zero : f32) outs(%empty : tensor<1x32x32xf32>) -> tensor<1x32x32xf32>
    %ct = linalg.batch_matmul ins(%at, %btt : tensor<1x32x64xf16>, tensor<1x64x32xf16>) outs(%acc : tensor<1x32x32xf32>) -> tensor<1x32x32xf32>
    ktdp.store %ct, %tc : tensor<1x32x32xf32>, <1x32x32xindex>
    return
  }
}
