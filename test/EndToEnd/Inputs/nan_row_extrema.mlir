// nan_row_extrema.mlir - Triton-style row extrema and relu of a 16x256 f16
// matrix that may hold NaN, one row per iteration, rows dealt out
// cyclically over a [8, 1] grid.
//
// Computes, for r < n_rows (16), c < 256, all values f16:
//   MAX[r]    = maxnum_c X[r, c]    (linalg.reduce { arith.maxnumf }, init -inf)
//   MIN[r]    = minnum_c X[r, c]    (linalg.reduce { arith.minnumf }, init +inf)
//   SEL[r]    = the same maximum as the two-op body of real kernels,
//               select(cmpf ogt %in, %acc), %in, %acc), init -inf
//   RELU[r,c] = maxnumf(X[r, c], 0)
// maxnumf/minnumf return the operand that is not NaN, and the ordered
// compare is false for a NaN element, so every output skips the NaNs of its
// row: an all-NaN row gives -inf, +inf and -inf, and a relu of 0 where X is
// NaN.

#x_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 255 >= 0)>
#v_set = affine_set<(d0) : (d0 >= 0, -d0 + 15 >= 0)>
#row = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 255 >= 0)>
#one = affine_set<(d0) : (d0 == 0)>
#id1 = affine_map<(d0) -> (d0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @nan_row_extrema(%x_ptr: index,    // X: 16x256 f16 (input)
                             %max_ptr: index,  // MAX: 16 f16 (output)
                             %min_ptr: index,  // MIN: 16 f16 (output)
                             %sel_ptr: index,  // SEL: 16 f16 (output)
                             %relu_ptr: index, // RELU: 16x256 f16 (output)
                             %n_rows: index)   // rows to process: 16
      attributes {grid = [8, 1]} {
    %tid = ktdp.get_compute_tile_id : index
    %c8 = arith.constant 8 : index
    %ninf = arith.constant 0xFC00 : f16  // -inf
    %pinf = arith.constant 0x7C00 : f16  // +inf
    %zero = arith.constant 0.000000e+00 : f16
    %X = ktdp.construct_memory_view %x_ptr, sizes: [16, 256], strides: [256, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<16x256xf16>
    %MAX = ktdp.construct_memory_view %max_ptr, sizes: [16], strides: [1] {coordinate_set = #v_set, memory_space = #ktdp.memory_space<global>} : memref<16xf16>
    %MIN = ktdp.construct_memory_view %min_ptr, sizes: [16], strides: [1] {coordinate_set = #v_set, memory_space = #ktdp.memory_space<global>} : memref<16xf16>
    %SEL = ktdp.construct_memory_view %sel_ptr, sizes: [16], strides: [1] {coordinate_set = #v_set, memory_space = #ktdp.memory_space<global>} : memref<16xf16>
    %RELU = ktdp.construct_memory_view %relu_ptr, sizes: [16, 256], strides: [256, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<16x256xf16>
    scf.for %r = %tid to %n_rows step %c8 : index {
      %tx = ktdp.construct_access_tile %X[%r, 0] {access_tile_set = #row, access_tile_order = #id2} : memref<16x256xf16> -> !ktdp.access_tile<1x256xindex>
      %x = ktdp.load %tx : <1x256xindex> -> tensor<1x256xf16>
      %max_init = tensor.splat %ninf : tensor<1xf16>
      %max = linalg.reduce { arith.maxnumf } ins(%x : tensor<1x256xf16>) outs(%max_init : tensor<1xf16>) dimensions = [1]
      %min_init = tensor.splat %pinf : tensor<1xf16>
      %min = linalg.reduce { arith.minnumf } ins(%x : tensor<1x256xf16>) outs(%min_init : tensor<1xf16>) dimensions = [1]
      %sel = linalg.reduce ins(%x : tensor<1x256xf16>) outs(%max_init : tensor<1xf16>) dimensions = [1]
        (%in : f16, %acc : f16) {
          %gt = arith.cmpf ogt, %in, %acc : f16
          %mx = arith.select %gt, %in, %acc : f16
          linalg.yield %mx : f16
        }
      %zeros = tensor.splat %zero : tensor<1x256xf16>
      %relu = arith.maxnumf %x, %zeros : tensor<1x256xf16>
      %tm = ktdp.construct_access_tile %MAX[%r] {access_tile_set = #one, access_tile_order = #id1} : memref<16xf16> -> !ktdp.access_tile<1xindex>
      %tn = ktdp.construct_access_tile %MIN[%r] {access_tile_set = #one, access_tile_order = #id1} : memref<16xf16> -> !ktdp.access_tile<1xindex>
      %ts = ktdp.construct_access_tile %SEL[%r] {access_tile_set = #one, access_tile_order = #id1} : memref<16xf16> -> !ktdp.access_tile<1xindex>
      %tr = ktdp.construct_access_tile %RELU[%r, 0] {access_tile_set = #row, access_tile_order = #id2} : memref<16x256xf16> -> !ktdp.access_tile<1x256xindex>
      ktdp.store %max, %tm : tensor<1xf16>, <1xindex>
      ktdp.store %min, %tn : tensor<1xf16>, <1xindex>
      ktdp.store %sel, %ts : tensor<1xf16>, <1xindex>
      ktdp.store %relu, %tr : tensor<1x256xf16>, <1x256xindex>
      scf.yield
    }
    return
  }
}
