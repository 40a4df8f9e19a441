// consume_groups_skew.mlir - consume_scale_rows in two groups on grid [6]:
// tile 3g + 1 computes s = W * 0.5 and copies it to the three tiles of
// group g (inter_tile_consume); each tile scales its 16 rows of X by it.
// Tile 3g + 2 also stores exp of its rows to Z, so it runs more pipelines.
//
// Computes, for r < 96, c < 128, all values f16:
//   Y[r, c] = f16(X[r, c] * f16(W[c] * 0.5))
//   Z[r, c] = f16(exp(X[r, c]))   (rows 16t..16t+15 of tiles t = 2, 5)
//
// Arguments: %x_ptr X (96x128 f16, input), %w_ptr W (128 f16, input),
// %y_ptr Y (96x128 f16, output), %z_ptr Z (96x128 f16, output).

#w_set = affine_set<(d0) : (d0 >= 0, -d0 + 127 >= 0)>
#m_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 95 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#rows16 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#prod = affine_set<(i)[g] : (i - 3*g - 1 == 0)>
#group3 = affine_set<(i)[g] : (i - 3*g >= 0, -i + 3*g + 2 >= 0)>
#id1 = affine_map<(d0) -> (d0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @copy6(%x_ptr: index, %w_ptr: index, %y_ptr: index, %z_ptr: index) attributes {grid = [6]} {
  %pid = ktdp.get_compute_tile_id : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c16 = arith.constant 16 : index
  %half = arith.constant 5.000000e-01 : f16
  %t = arith.remui %pid, %c3 : index
  %row = arith.muli %pid, %c16 : index
  %W = ktdp.construct_memory_view %w_ptr, sizes: [128], strides: [1] {coordinate_set = #w_set, memory_space = #ktdp.memory_space<global>} : memref<128xf16>
  %X = ktdp.construct_memory_view %x_ptr, sizes: [96, 128], strides: [128, 1] {coordinate_set = #m_set, memory_space = #ktdp.memory_space<global>} : memref<96x128xf16>
  %Y = ktdp.construct_memory_view %y_ptr, sizes: [96, 128], strides: [128, 1] {coordinate_set = #m_set, memory_space = #ktdp.memory_space<global>} : memref<96x128xf16>
  %Z = ktdp.construct_memory_view %z_ptr, sizes: [96, 128], strides: [128, 1] {coordinate_set = #m_set, memory_space = #ktdp.memory_space<global>} : memref<96x128xf16>
  %fut = ktdp.inter_tile_produce producer_tiles_per_group = #prod
      : tensor<128xf16> -> !ktdp.tile_future<tensor<128xf16>, groups = affine_set<(g) : (g >= 0, -g + 1 >= 0)>> {
  ^bb0(%gid: index):
    %tw = ktdp.construct_access_tile %W[0] {access_tile_set = #w_set, access_tile_order = #id1} : memref<128xf16> -> !ktdp.access_tile<128xindex>
    %w = ktdp.load %tw : <128xindex> -> tensor<128xf16>
    %halves = tensor.splat %half : tensor<128xf16>
    %s = arith.mulf %w, %halves : tensor<128xf16>
    ktdp.yield_partial %s : tensor<128xf16>
  }
  %scale = ktdp.inter_tile_consume(%fut) consumer_tiles_per_group = #group3
      : !ktdp.tile_future<tensor<128xf16>, groups = affine_set<(g) : (g >= 0, -g + 1 >= 0)>> -> tensor<128xf16>
  %tx = ktdp.construct_access_tile %X[%row, 0] {access_tile_set = #rows16, access_tile_order = #id2} : memref<96x128xf16> -> !ktdp.access_tile<16x128xindex>
  %x = ktdp.load %tx : <16x128xindex> -> tensor<16x128xf16>
  %slow = arith.cmpi eq, %t, %c2 : index
  scf.if %slow {
    %h1 = math.exp %x : tensor<16x128xf16>
    %tz = ktdp.construct_access_tile %Z[%row, 0] {access_tile_set = #rows16, access_tile_order = #id2} : memref<96x128xf16> -> !ktdp.access_tile<16x128xindex>
    ktdp.store %h1, %tz : tensor<16x128xf16>, <16x128xindex>
  }
  %e = tensor.empty() : tensor<16x128xf16>
  %sb = linalg.broadcast ins(%scale : tensor<128xf16>) outs(%e : tensor<16x128xf16>) dimensions = [0]
  %y = arith.mulf %x, %sb : tensor<16x128xf16>
  %ty = ktdp.construct_access_tile %Y[%row, 0] {access_tile_set = #rows16, access_tile_order = #id2} : memref<96x128xf16> -> !ktdp.access_tile<16x128xindex>
  ktdp.store %y, %ty : tensor<16x128xf16>, <16x128xindex>
  return
}
