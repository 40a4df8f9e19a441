// consume_quad_groups_2x4.mlir - a tile copy on a [2, 4] grid (tile =
// px + 2 py): tile 4g + 1 computes s = W * 0.5 and copies it to the four
// tiles 4g .. 4g + 3 of group g (inter_tile_consume); each tile scales its
// 16 rows of X by it. In the parallel's default order the producer
// (px = 1, py = 2g) and tile 4g (px = 0) share a core of a 4-core device.
//
// Computes, for r < 128, c < 128, all values f16:
//   Y[r, c] = f16(X[r, c] * f16(W[c] * 0.5))
//
// Arguments: %x_ptr X (128x128 f16, input), %w_ptr W (128 f16, input),
// %y_ptr Y (128x128 f16, output).

#w_set = affine_set<(d0) : (d0 >= 0, -d0 + 127 >= 0)>
#m_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 127 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#rows16 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#prod = affine_set<(i)[g] : (i - 4*g - 1 == 0)>
#group4 = affine_set<(i)[g] : (i - 4*g >= 0, -i + 4*g + 3 >= 0)>
#id1 = affine_map<(d0) -> (d0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @copy_quads(%x_ptr: index, %w_ptr: index, %y_ptr: index) attributes {grid = [2, 4]} {
  %px, %py = ktdp.get_compute_tile_id : index, index
  %c2 = arith.constant 2 : index
  %c16 = arith.constant 16 : index
  %half = arith.constant 5.000000e-01 : f16
  %py2 = arith.muli %py, %c2 : index
  %pid = arith.addi %px, %py2 : index
  %row = arith.muli %pid, %c16 : index
  %W = ktdp.construct_memory_view %w_ptr, sizes: [128], strides: [1] {coordinate_set = #w_set, memory_space = #ktdp.memory_space<global>} : memref<128xf16>
  %X = ktdp.construct_memory_view %x_ptr, sizes: [128, 128], strides: [128, 1] {coordinate_set = #m_set, memory_space = #ktdp.memory_space<global>} : memref<128x128xf16>
  %Y = ktdp.construct_memory_view %y_ptr, sizes: [128, 128], strides: [128, 1] {coordinate_set = #m_set, memory_space = #ktdp.memory_space<global>} : memref<128x128xf16>
  %fut = ktdp.inter_tile_produce producer_tiles_per_group = #prod
      : tensor<128xf16> -> !ktdp.tile_future<tensor<128xf16>, groups = affine_set<(g) : (g >= 0, -g + 1 >= 0)>> {
  ^bb0(%gid: index):
    %tw = ktdp.construct_access_tile %W[0] {access_tile_set = #w_set, access_tile_order = #id1} : memref<128xf16> -> !ktdp.access_tile<128xindex>
    %w = ktdp.load %tw : <128xindex> -> tensor<128xf16>
    %halves = tensor.splat %half : tensor<128xf16>
    %s = arith.mulf %w, %halves : tensor<128xf16>
    ktdp.yield_partial %s : tensor<128xf16>
  }
  %scale = ktdp.inter_tile_consume(%fut) consumer_tiles_per_group = #group4
      : !ktdp.tile_future<tensor<128xf16>, groups = affine_set<(g) : (g >= 0, -g + 1 >= 0)>> -> tensor<128xf16>
  %tx = ktdp.construct_access_tile %X[%row, 0] {access_tile_set = #rows16, access_tile_order = #id2} : memref<128x128xf16> -> !ktdp.access_tile<16x128xindex>
  %x = ktdp.load %tx : <16x128xindex> -> tensor<16x128xf16>
  %e = tensor.empty() : tensor<16x128xf16>
  %sb = linalg.broadcast ins(%scale : tensor<128xf16>) outs(%e : tensor<16x128xf16>) dimensions = [0]
  %y = arith.mulf %x, %sb : tensor<16x128xf16>
  %ty = ktdp.construct_access_tile %Y[%row, 0] {access_tile_set = #rows16, access_tile_order = #id2} : memref<128x128xf16> -> !ktdp.access_tile<16x128xindex>
  ktdp.store %y, %ty : tensor<16x128xf16>, <16x128xindex>
  return
}
