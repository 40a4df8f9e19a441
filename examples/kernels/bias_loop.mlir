// bias_loop.mlir - scale and bias applied to each row, one row per scf.for
// iteration.
//
// Computes   Y[i, j] = X[i, j] * s[j] + b[j]   for 0 <= i < 4096, 0 <= j < 128
// in f16 (one f16 multiply, rounded to f16, then one f16 add, rounded).
//
// Arguments (all `index`, tensor start addresses counted in f16 elements):
//   %x  X : 4096x128 f16, row-major (strides [128, 1]), input
//   %s  s : 128 f16, contiguous, input (one scale per column)
//   %b  b : 128 f16, contiguous, input (one bias per column)
//   %y  Y : 4096x128 f16, row-major, output
// Grid: [16]. Tile t handles rows [256t, 256t + 256): an scf.for over %i
// in [0, 256) loads one 1x128 row of X anchored at [256t + %i, 0] and the
// whole of s and b (1-D 128-element tiles whose anchor does not depend on
// %i: the same data at every iteration, which the scheduler loads once
// before the loop), broadcasts them over the row and stores the row of Y.
// Memory space spelling: #ktdp.memory_space<global>.

#mat = affine_set<(d0, d1) : (d0 >= 0, -d0 + 4095 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#vec = affine_set<(d0) : (d0 >= 0, -d0 + 127 >= 0)>
#row = affine_set<(d0, d1) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#id1 = affine_map<(d0) -> (d0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @bias_loop(%x: index, %s: index, %b: index, %y: index) attributes {grid = [16]} {
    %id = ktdp.get_compute_tile_id : index
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c256 = arith.constant 256 : index
    %start = arith.muli %id, %c256 : index
    %X = ktdp.construct_memory_view %x, sizes: [4096, 128], strides: [128, 1] {coordinate_set = #mat, memory_space = #ktdp.memory_space<global>} : memref<4096x128xf16>
    %S = ktdp.construct_memory_view %s, sizes: [128], strides: [1] {coordinate_set = #vec, memory_space = #ktdp.memory_space<global>} : memref<128xf16>
    %B = ktdp.construct_memory_view %b, sizes: [128], strides: [1] {coordinate_set = #vec, memory_space = #ktdp.memory_space<global>} : memref<128xf16>
    %Y = ktdp.construct_memory_view %y, sizes: [4096, 128], strides: [128, 1] {coordinate_set = #mat, memory_space = #ktdp.memory_space<global>} : memref<4096x128xf16>
    scf.for %i = %c0 to %c256 step %c1 {
      %tx = ktdp.construct_access_tile %X[%start + %i, 0] {access_tile_set = #row, access_tile_order = #id2} : memref<4096x128xf16> -> !ktdp.access_tile<1x128xindex>
      %ts = ktdp.construct_access_tile %S[0] {access_tile_set = #vec, access_tile_order = #id1} : memref<128xf16> -> !ktdp.access_tile<128xindex>
      %tb = ktdp.construct_access_tile %B[0] {access_tile_set = #vec, access_tile_order = #id1} : memref<128xf16> -> !ktdp.access_tile<128xindex>
      %ty = ktdp.construct_access_tile %Y[%start + %i, 0] {access_tile_set = #row, access_tile_order = #id2} : memref<4096x128xf16> -> !ktdp.access_tile<1x128xindex>
      %xt = ktdp.load %tx : <1x128xindex> -> tensor<1x128xf16>
      %st = ktdp.load %ts : <128xindex> -> tensor<128xf16>
      %bt = ktdp.load %tb : <128xindex> -> tensor<128xf16>
      %e = tensor.empty() : tensor<1x128xf16>
      %sb = linalg.broadcast ins(%st : tensor<128xf16>) outs(%e : tensor<1x128xf16>) dimensions = [0]
      %bb = linalg.broadcast ins(%bt : tensor<128xf16>) outs(%e : tensor<1x128xf16>) dimensions = [0]
      %p = arith.mulf %xt, %sb : tensor<1x128xf16>
      %q = arith.addf %p, %bb : tensor<1x128xf16>
      ktdp.store %q, %ty : tensor<1x128xf16>, <1x128xindex>
    }
    return
  }
}
