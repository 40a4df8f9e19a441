// rmsnorm_wide_row.mlir - an RMSNorm of 2 rows of 16,384 f16 on one grid
// point, written as a Triton-like lowering would: the sum of squares is a
// linalg.generic reducing the row into f32 (init 0), the normalisation a
// generic reading the row, its weight W (one value per column) and the
// row's scale. ktdf-split-wide-reductions cuts the rows and W into column
// parts over the device's cores and all-reduces the f32 sum of squares.
//
// Computes, for r < 2, c < 16384:
//   ss      = sum_c f32(X[r, c]) * f32(X[r, c])           (f32)
//   inv     = 1 / sqrt(ss / 16384 + 1e-5)                (f32)
//   Y[r, c] = f16(f32(X[r, c]) * inv * f32(W[c]))

#x_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 16383 >= 0)>
#w_set = affine_set<(d0) : (d0 >= 0, -d0 + 16383 >= 0)>
#rows = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 16383 >= 0)>
#id1 = affine_map<(d0) -> (d0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#to_row = affine_map<(d0, d1) -> (d0)>
#to_col = affine_map<(d0, d1) -> (d1)>
module {
  func.func @rmsnorm_wide_row(%x_ptr: index,  // X: 2x16384 f16
                              %w_ptr: index,  // W: 16384 f16
                              %y_ptr: index)  // Y: 2x16384 f16 (output)
      attributes {grid = [1]} {
    %zero = arith.constant 0.0 : f32
    %n = arith.constant 16384.0 : f32
    %eps = arith.constant 1.0e-5 : f32
    %one = arith.constant 1.0 : f32
    %X = ktdp.construct_memory_view %x_ptr, sizes: [2, 16384], strides: [16384, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<2x16384xf16>
    %W = ktdp.construct_memory_view %w_ptr, sizes: [16384], strides: [1] {coordinate_set = #w_set, memory_space = #ktdp.memory_space<global>} : memref<16384xf16>
    %Y = ktdp.construct_memory_view %y_ptr, sizes: [2, 16384], strides: [16384, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<2x16384xf16>
    %tx = ktdp.construct_access_tile %X[0, 0] {access_tile_set = #rows, access_tile_order = #id2} : memref<2x16384xf16> -> !ktdp.access_tile<2x16384xindex>
    %x = ktdp.load %tx : <2x16384xindex> -> tensor<2x16384xf16>
    %tw = ktdp.construct_access_tile %W[0] {access_tile_set = #w_set, access_tile_order = #id1} : memref<16384xf16> -> !ktdp.access_tile<16384xindex>
    %w = ktdp.load %tw : <16384xindex> -> tensor<16384xf16>
    %init = tensor.splat %zero : tensor<2xf32>
    %ss = linalg.generic {indexing_maps = [#id2, #to_row], iterator_types = ["parallel", "reduction"]} ins(%x : tensor<2x16384xf16>) outs(%init : tensor<2xf32>) {
    ^bb0(%in: f16, %acc: f32):
      %v = arith.extf %in : f16 to f32
      %sq = arith.mulf %v, %v : f32
      %a = arith.addf %acc, %sq : f32
      linalg.yield %a : f32
    } -> tensor<2xf32>
    %empty = tensor.empty() : tensor<2x16384xf16>
    %y = linalg.generic {indexing_maps = [#id2, #to_row, #to_col, #id2], iterator_types = ["parallel", "parallel"]} ins(%x, %ss, %w : tensor<2x16384xf16>, tensor<2xf32>, tensor<16384xf16>) outs(%empty : tensor<2x16384xf16>) {
    ^bb0(%in: f16, %s: f32, %wi: f16, %out: f16):
      %mean = arith.divf %s, %n : f32
      %ve = arith.addf %mean, %eps : f32
      %rms = math.sqrt %ve : f32
      %inv = arith.divf %one, %rms : f32
      %v = arith.extf %in : f16 to f32
      %xn = arith.mulf %v, %inv : f32
      %wf = arith.extf %wi : f16 to f32
      %p = arith.mulf %xn, %wf : f32
      %t = arith.truncf %p : f32 to f16
      linalg.yield %t : f16
    } -> tensor<2x16384xf16>
    %ty = ktdp.construct_access_tile %Y[0, 0] {access_tile_set = #rows, access_tile_order = #id2} : memref<2x16384xf16> -> !ktdp.access_tile<2x16384xindex>
    ktdp.store %y, %ty : tensor<2x16384xf16>, <2x16384xindex>
    return
  }
}
