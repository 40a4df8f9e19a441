// bias_per_tile.mlir - bias_loop with one bias vector per grid point.
//
// Computes   Y[i, j] = X[i, j] * s[j] + b[t, j]   for rows i of tile t
// (t = i div 256), 0 <= j < 128, in f16. s is the same at every grid point
// and loop iteration; b[t] changes with the grid point but not with the
// loop. On a device whose lanes walk several points, s is loaded once per
// lane (a per_instance pipeline) and b[t] once per point before the loop,
// into a buffer that must not be refilled before the loop of the previous
// point is done with it.

#mat = affine_set<(d0, d1) : (d0 >= 0, -d0 + 4095 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#vec = affine_set<(d0) : (d0 >= 0, -d0 + 127 >= 0)>
#table = affine_set<(d0) : (d0 >= 0, -d0 + 2047 >= 0)>
#row = affine_set<(d0, d1) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#id1 = affine_map<(d0) -> (d0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @bias_per_tile(%x: index, %s: index, %b: index, %y: index) attributes {grid = [16]} {
    %id = ktdp.get_compute_tile_id : index
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c256 = arith.constant 256 : index
    %start = arith.muli %id, %c256 : index
    %X = ktdp.construct_memory_view %x, sizes: [4096, 128], strides: [128, 1] {coordinate_set = #mat, memory_space = #ktdp.memory_space<global>} : memref<4096x128xf16>
    %S = ktdp.construct_memory_view %s, sizes: [128], strides: [1] {coordinate_set = #vec, memory_space = #ktdp.memory_space<global>} : memref<128xf16>
    %B = ktdp.construct_memory_view %b, sizes: [2048], strides: [1] {coordinate_set = #table, memory_space = #ktdp.memory_space<global>} : memref<2048xf16>
    %c128 = arith.constant 128 : index
    %boff = arith.muli %id, %c128 : index
    %Y = ktdp.construct_memory_view %y, sizes: [4096, 128], strides: [128, 1] {coordinate_set = #mat, memory_space = #ktdp.memory_space<global>} : memref<4096x128xf16>
    scf.for %i = %c0 to %c256 step %c1 {
      %tx = ktdp.construct_access_tile %X[%start + %i, 0] {access_tile_set = #row, access_tile_order = #id2} : memref<4096x128xf16> -> !ktdp.access_tile<1x128xindex>
      %ts = ktdp.construct_access_tile %S[0] {access_tile_set = #vec, access_tile_order = #id1} : memref<128xf16> -> !ktdp.access_tile<128xindex>
      %tb = ktdp.construct_access_tile %B[%boff] {access_tile_set = #vec, access_tile_order = #id1} : memref<2048xf16> -> !ktdp.access_tile<128xindex>
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
