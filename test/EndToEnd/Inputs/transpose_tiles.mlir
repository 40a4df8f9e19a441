// transpose_tiles.mlir - transposes the scheduler turns into permuted
// access tiles (transposed DMAs).
//
// Computes, for 0 <= i < 64, 0 <= j < 32 (X: 32x64 f16 input, Y: 64x32 f16
// and Z: 32x64 f16 outputs):
//   Y[i, j] = f16(f32(X[j, i]) * 2)   a linalg.transpose of an extf'd load
//   Z[j, i] = Y[i, j] + 1 (in f16)    a linalg.transpose only stored
// Grid [2]: tile t handles columns [32t, 32t + 32) of X.
#x_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 31 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#y_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 31 >= 0)>
#blk_x = affine_set<(d0, d1) : (d0 >= 0, -d0 + 31 >= 0, d1 >= 0, -d1 + 31 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @transpose_tiles(%x_ptr: index, %y_ptr: index, %z_ptr: index) attributes {grid = [2]} {
    %t = ktdp.get_compute_tile_id : index
    %c32 = arith.constant 32 : index
    %c0 = arith.muli %t, %c32 : index
    %two = arith.constant dense<2.0> : tensor<32x32xf32>
    %one = arith.constant dense<1.0> : tensor<32x32xf16>
    %X = ktdp.construct_memory_view %x_ptr, sizes: [32, 64], strides: [64, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<32x64xf16>
    %Y = ktdp.construct_memory_view %y_ptr, sizes: [64, 32], strides: [32, 1] {coordinate_set = #y_set, memory_space = #ktdp.memory_space<global>} : memref<64x32xf16>
    %Z = ktdp.construct_memory_view %z_ptr, sizes: [32, 64], strides: [64, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<32x64xf16>
    %tx = ktdp.construct_access_tile %X[0, %c0] {access_tile_set = #blk_x, access_tile_order = #id2} : memref<32x64xf16> -> !ktdp.access_tile<32x32xindex>
    %xh = ktdp.load %tx : <32x32xindex> -> tensor<32x32xf16>
    %x = arith.extf %xh : tensor<32x32xf16> to tensor<32x32xf32>
    %xt_init = tensor.empty() : tensor<32x32xf32>
    %xt = linalg.transpose ins(%x : tensor<32x32xf32>) outs(%xt_init : tensor<32x32xf32>) permutation = [1, 0]
    %y = arith.mulf %xt, %two : tensor<32x32xf32>
    %yh = arith.truncf %y : tensor<32x32xf32> to tensor<32x32xf16>
    %ty = ktdp.construct_access_tile %Y[%c0, 0] {access_tile_set = #blk_x, access_tile_order = #id2} : memref<64x32xf16> -> !ktdp.access_tile<32x32xindex>
    ktdp.store %yh, %ty : tensor<32x32xf16>, <32x32xindex>
    %w = arith.addf %yh, %one : tensor<32x32xf16>
    %wt_init = tensor.empty() : tensor<32x32xf16>
    %wt = linalg.transpose ins(%w : tensor<32x32xf16>) outs(%wt_init : tensor<32x32xf16>) permutation = [1, 0]
    %tz = ktdp.construct_access_tile %Z[0, %c0] {access_tile_set = #blk_x, access_tile_order = #id2} : memref<32x64xf16> -> !ktdp.access_tile<32x32xindex>
    ktdp.store %wt, %tz : tensor<32x32xf16>, <32x32xindex>
    return
  }
}
