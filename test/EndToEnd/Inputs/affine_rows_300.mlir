// affine_rows_300.mlir - y = f16(f32(x) * w + b) over rows of 300 f16
// columns walked in three 1x128 column blocks (the last masked past column
// 300), with W and B f32 vectors read in the same blocks in every row (a
// loop-invariant row span). Rows are dealt cyclically over a [4, 1] grid up
// to a run-time row count.
//
// Computes, for r < n_rows, c < 300:
//   Y[r, c] = f16(f32(x[r, c]) * w[c] + b[c])     (f32 mulf then addf)

#x_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 39 >= 0, d1 >= 0, -d1 + 299 >= 0)>
#v_set = affine_set<(d0) : (d0 >= 0, -d0 + 299 >= 0)>
#row_blk = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 127 >= 0)>
#v_blk = affine_set<(d0) : (d0 >= 0, -d0 + 127 >= 0)>
#id1 = affine_map<(d0) -> (d0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @affine_rows(%x_ptr: index,   // X: 40x300 f16 (input)
                         %w_ptr: index,   // W: 300 f32 (input)
                         %b_ptr: index,   // B: 300 f32 (input)
                         %y_ptr: index,   // Y: 40x300 f16 (output)
                         %n_rows: index)  // rows to process, at most 40
      attributes {grid = [4, 1]} {
    %pid = ktdp.get_compute_tile_id : index
    %c0 = arith.constant 0 : index
    %c4 = arith.constant 4 : index
    %c128 = arith.constant 128 : index
    %c384 = arith.constant 384 : index
    %X = ktdp.construct_memory_view %x_ptr, sizes: [40, 300], strides: [300, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<40x300xf16>
    %Y = ktdp.construct_memory_view %y_ptr, sizes: [40, 300], strides: [300, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<40x300xf16>
    %W = ktdp.construct_memory_view %w_ptr, sizes: [300], strides: [1] {coordinate_set = #v_set, memory_space = #ktdp.memory_space<global>} : memref<300xf32>
    %B = ktdp.construct_memory_view %b_ptr, sizes: [300], strides: [1] {coordinate_set = #v_set, memory_space = #ktdp.memory_space<global>} : memref<300xf32>
    scf.for %r = %pid to %n_rows step %c4 : index {
      scf.for %off = %c0 to %c384 step %c128 : index {
        %tx = ktdp.construct_access_tile %X[%r, %off] {access_tile_set = #row_blk, access_tile_order = #id2} : memref<40x300xf16> -> !ktdp.access_tile<1x128xindex>
        %tw = ktdp.construct_access_tile %W[%off] {access_tile_set = #v_blk, access_tile_order = #id1} : memref<300xf32> -> !ktdp.access_tile<128xindex>
        %tb = ktdp.construct_access_tile %B[%off] {access_tile_set = #v_blk, access_tile_order = #id1} : memref<300xf32> -> !ktdp.access_tile<128xindex>
        %x = ktdp.load %tx : <1x128xindex> -> tensor<1x128xf16>
        %w = ktdp.load %tw : <128xindex> -> tensor<128xf32>
        %b = ktdp.load %tb : <128xindex> -> tensor<128xf32>
        %w2 = tensor.expand_shape %w [[0, 1]] output_shape [1, 128] : tensor<128xf32> into tensor<1x128xf32>
        %b2 = tensor.expand_shape %b [[0, 1]] output_shape [1, 128] : tensor<128xf32> into tensor<1x128xf32>
        %xf = arith.extf %x : tensor<1x128xf16> to tensor<1x128xf32>
        %xw = arith.mulf %xf, %w2 : tensor<1x128xf32>
        %yb = arith.addf %xw, %b2 : tensor<1x128xf32>
        %y = arith.truncf %yb : tensor<1x128xf32> to tensor<1x128xf16>
        %ty = ktdp.construct_access_tile %Y[%r, %off] {access_tile_set = #row_blk, access_tile_order = #id2} : memref<40x300xf16> -> !ktdp.access_tile<1x128xindex>
        ktdp.store %y, %ty : tensor<1x128xf16>, <1x128xindex>
      }
    }
    return
  }
}
