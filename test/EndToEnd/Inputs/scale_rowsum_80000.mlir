// scale_rowsum_80000.mlir - y = x * w and the f32 row sum of y, over 3 rows of
// 80000 f16 on a [3] grid: each tile holds a whole 1x80000 row, W (80000
// f16) and the product, 480,000 bytes together: nearly all of mesh_device's
// 512 KiB scratchpad, a quarter of spyre_like's.
//
// Computes, for r < 3, c < 80000:
//   Y[r, c] = f16(x[r, c] * w[c]);   S[r] = f16(sum_c f32(Y[r, c]))

#x_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 2 >= 0, d1 >= 0, -d1 + 79999 >= 0)>
#w_set = affine_set<(d0) : (d0 >= 0, -d0 + 79999 >= 0)>
#s_set = affine_set<(d0) : (d0 >= 0, -d0 + 2 >= 0)>
#row = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 79999 >= 0)>
#one = affine_set<(d0) : (d0 == 0)>
#id1 = affine_map<(d0) -> (d0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @scale_rowsum(%x_ptr: index,  // X: 3x80000 f16 (input)
                          %w_ptr: index,  // W: 80000 f16 (input)
                          %y_ptr: index,  // Y: 3x80000 f16 (output)
                          %s_ptr: index)  // S: 3 f16 (output)
      attributes {grid = [3]} {
    %pid = ktdp.get_compute_tile_id : index
    %X = ktdp.construct_memory_view %x_ptr, sizes: [3, 80000], strides: [80000, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<3x80000xf16>
    %Y = ktdp.construct_memory_view %y_ptr, sizes: [3, 80000], strides: [80000, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<3x80000xf16>
    %W = ktdp.construct_memory_view %w_ptr, sizes: [80000], strides: [1] {coordinate_set = #w_set, memory_space = #ktdp.memory_space<global>} : memref<80000xf16>
    %S = ktdp.construct_memory_view %s_ptr, sizes: [3], strides: [1] {coordinate_set = #s_set, memory_space = #ktdp.memory_space<global>} : memref<3xf16>
    %tx = ktdp.construct_access_tile %X[%pid, 0] {access_tile_set = #row, access_tile_order = #id2} : memref<3x80000xf16> -> !ktdp.access_tile<1x80000xindex>
    %tw = ktdp.construct_access_tile %W[0] {access_tile_set = #w_set, access_tile_order = #id1} : memref<80000xf16> -> !ktdp.access_tile<80000xindex>
    %x = ktdp.load %tx : <1x80000xindex> -> tensor<1x80000xf16>
    %w = ktdp.load %tw : <80000xindex> -> tensor<80000xf16>
    %w2 = tensor.expand_shape %w [[0, 1]] output_shape [1, 80000] : tensor<80000xf16> into tensor<1x80000xf16>
    %y = arith.mulf %x, %w2 : tensor<1x80000xf16>
    %ty = ktdp.construct_access_tile %Y[%pid, 0] {access_tile_set = #row, access_tile_order = #id2} : memref<3x80000xf16> -> !ktdp.access_tile<1x80000xindex>
    ktdp.store %y, %ty : tensor<1x80000xf16>, <1x80000xindex>
    %yf = arith.extf %y : tensor<1x80000xf16> to tensor<1x80000xf32>
    %zero = arith.constant dense<0.0> : tensor<1xf32>
    %s = linalg.reduce { arith.addf } ins(%yf : tensor<1x80000xf32>) outs(%zero : tensor<1xf32>) dimensions = [1]
    %sh = arith.truncf %s : tensor<1xf32> to tensor<1xf16>
    %ts = ktdp.construct_access_tile %S[%pid] {access_tile_set = #one, access_tile_order = #id1} : memref<3xf16> -> !ktdp.access_tile<1xindex>
    ktdp.store %sh, %ts : tensor<1xf16>, <1xindex>
    return
  }
}
