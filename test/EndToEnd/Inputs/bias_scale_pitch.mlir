// bias_scale_pitch.mlir - bias + scale of a 96 x 96 f16 matrix into a
// strided output: Y's rows are 160 elements apart (a 96-column window of
// a wider buffer), and each of 3 tiles handles a 32 x 96 row block.
//
// Computes, for r < 96, c < 96 (f16 arithmetic, each op rounded):
//   Y[r, c] = f16(f16(x[r, c] + b[c]) * s)      (Y at y_ptr + 160 r + c)

#x_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 95 >= 0, d1 >= 0, -d1 + 95 >= 0)>
#b_set = affine_set<(d0) : (d0 >= 0, -d0 + 95 >= 0)>
#blk = affine_set<(d0, d1) : (d0 >= 0, -d0 + 31 >= 0, d1 >= 0, -d1 + 95 >= 0)>
#id1 = affine_map<(d0) -> (d0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @bias_scale_window(%x_ptr: index,  // X: 96x96 f16 (input)
                               %b_ptr: index,  // B: 96 f16 (input)
                               %y_ptr: index,  // Y: 96 rows of 96 f16, row pitch 160 (output)
                               %s: f16)       // scale
      attributes {grid = [3]} {
    %pid = ktdp.get_compute_tile_id : index
    %c32 = arith.constant 32 : index
    %X = ktdp.construct_memory_view %x_ptr, sizes: [96, 96], strides: [96, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<96x96xf16>
    %B = ktdp.construct_memory_view %b_ptr, sizes: [96], strides: [1] {coordinate_set = #b_set, memory_space = #ktdp.memory_space<global>} : memref<96xf16>
    %Y = ktdp.construct_memory_view %y_ptr, sizes: [96, 96], strides: [160, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<96x96xf16, strided<[160, 1]>>
    %r0 = arith.muli %pid, %c32 : index
    %tb = ktdp.construct_access_tile %B[0] {access_tile_set = #b_set, access_tile_order = #id1} : memref<96xf16> -> !ktdp.access_tile<96xindex>
    %b = ktdp.load %tb : <96xindex> -> tensor<96xf16>
    %tx = ktdp.construct_access_tile %X[%r0, 0] {access_tile_set = #blk, access_tile_order = #id2} : memref<96x96xf16> -> !ktdp.access_tile<32x96xindex>
    %x = ktdp.load %tx : <32x96xindex> -> tensor<32x96xf16>
    %e = tensor.empty() : tensor<32x96xf16>
    %bb = linalg.broadcast ins(%b : tensor<96xf16>) outs(%e : tensor<32x96xf16>) dimensions = [0]
    %xb = arith.addf %x, %bb : tensor<32x96xf16>
    %sv = tensor.splat %s : tensor<32x96xf16>
    %y = arith.mulf %xb, %sv : tensor<32x96xf16>
    %ty = ktdp.construct_access_tile %Y[%r0, 0] {access_tile_set = #blk, access_tile_order = #id2} : memref<96x96xf16, strided<[160, 1]>> -> !ktdp.access_tile<32x96xindex>
    ktdp.store %y, %ty : tensor<32x96xf16>, <32x96xindex>
    return
  }
}
