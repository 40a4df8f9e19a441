// crossing_groups_blocks.mlir - crossing_groups_loop with each half row
// summed and centred in 1x128 column blocks, in two column loops up to a
// plain `index` N (run-time trips, the sum carried in the scratchpad):
// the two crossing all-reduces lie between loops of the row loop's body.
//
// Computes, for i < 8, all values f16 (px = column half, py = row band,
// row = 8 py + i, n = min(N, 256) rounded up to a block of 128, columns
// [256 px, 256 px + n)):
//   a[j]       = f16 running sum over the blocks of the row's half
//   p[px, py]  = f16(sum_j a[j])                         (f32 accumulation)
//   s[py]      = f16(f16(0 + p[0, py]) + p[1, py])      (band all-reduce)
//   m[py]      = f16(s[py] / 512)
//   q          = f16(f16(0 + m[0]) + m[1])              (column all-reduce)
//   Y[row, c]  = f16(X[row, c] - q)
//
// Tile id = px + 2 py: the bands are the contiguous pairs {2g, 2g + 1},
// the column halves the strided pairs {g, g + 2}.

#x_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 511 >= 0)>
#row_blk = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 127 >= 0)>
#band = affine_set<(i)[g] : (i - 2*g >= 0, -i + 2*g + 1 >= 0)>
#half = affine_set<(i)[g] : ((i - g) mod 2 == 0, i - g >= 0, -i + g + 2 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @crossing_groups(%x_ptr: index,  // X: 16x512 f16 (input)
                             %y_ptr: index,  // Y: 16x512 f16 (output)
                             %N: index)      // columns per half: 256
      attributes { grid = [2, 2] } {
    %px, %py = ktdp.get_compute_tile_id : index, index
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %c128 = arith.constant 128 : index
    %c256 = arith.constant 256 : index
    %nb = arith.minsi %N, %c256 : index
    %zeros = arith.constant dense<0.0> : tensor<1x128xf16>
    %X = ktdp.construct_memory_view %x_ptr, sizes: [16, 512], strides: [512, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<16x512xf16>
    %Y = ktdp.construct_memory_view %y_ptr, sizes: [16, 512], strides: [512, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<16x512xf16>
    %col0 = arith.muli %px, %c256 : index
    %row0 = arith.muli %py, %c8 : index
    %zero = arith.constant 0.000000e+00 : f16
    %zero1 = tensor.splat %zero : tensor<1xf16>
    %n = arith.constant 5.120000e+02 : f16
    %n1 = tensor.splat %n : tensor<1xf16>
    scf.for %i = %c0 to %c8 step %c1 : index {
      %row = arith.addi %row0, %i : index
      %acc = scf.for %off = %c0 to %nb step %c128 iter_args(%a = %zeros) -> tensor<1x128xf16> {
        %c = arith.addi %col0, %off : index
        %tx = ktdp.construct_access_tile %X[%row, %c] {access_tile_set = #row_blk, access_tile_order = #id2} : memref<16x512xf16> -> !ktdp.access_tile<1x128xindex>
        %x = ktdp.load %tx : <1x128xindex> -> tensor<1x128xf16>
        %a2 = arith.addf %a, %x : tensor<1x128xf16>
        scf.yield %a2 : tensor<1x128xf16>
      }
      %p = linalg.reduce { arith.addf } ins(%acc : tensor<1x128xf16>) outs(%zero1 : tensor<1xf16>) dimensions = [1]
      %f = ktdp.inter_tile_produce producer_tiles_per_group = #band -> <(tensor<1xf16>), groups = affine_set<(g) : (g >= 0, -g + 1 >= 0)>> {
      ^bb0(%gid: index):
        ktdp.yield_partial %p : tensor<1xf16>
      }
      %s = ktdp.inter_tile_reduce(%f) consumer_tiles_per_group = #band, identity(%zero1 : tensor<1xf16>) : <(tensor<1xf16>), groups = affine_set<(g) : (g >= 0, -g + 1 >= 0)>> -> tensor<1xf16> {
      ^bb0(%lhs: tensor<1xf16>, %rhs: tensor<1xf16>):
        %a = linalg.add ins(%lhs, %rhs : tensor<1xf16>, tensor<1xf16>) outs(%lhs : tensor<1xf16>) -> tensor<1xf16>
        ktdp.yield_reduced %a : tensor<1xf16>
      }
      %m = arith.divf %s, %n1 : tensor<1xf16>
      %g = ktdp.inter_tile_produce producer_tiles_per_group = #half -> <(tensor<1xf16>), groups = affine_set<(g) : (g >= 0, -g + 1 >= 0)>> {
      ^bb0(%gid: index):
        ktdp.yield_partial %m : tensor<1xf16>
      }
      %q = ktdp.inter_tile_reduce(%g) consumer_tiles_per_group = #half, identity(%zero1 : tensor<1xf16>) : <(tensor<1xf16>), groups = affine_set<(g) : (g >= 0, -g + 1 >= 0)>> -> tensor<1xf16> {
      ^bb0(%lhs: tensor<1xf16>, %rhs: tensor<1xf16>):
        %a = linalg.add ins(%lhs, %rhs : tensor<1xf16>, tensor<1xf16>) outs(%lhs : tensor<1xf16>) -> tensor<1xf16>
        ktdp.yield_reduced %a : tensor<1xf16>
      }
      %qs = tensor.extract %q[%c0] : tensor<1xf16>
      %qb = tensor.splat %qs : tensor<1x128xf16>
      scf.for %off = %c0 to %nb step %c128 : index {
        %c = arith.addi %col0, %off : index
        %tx = ktdp.construct_access_tile %X[%row, %c] {access_tile_set = #row_blk, access_tile_order = #id2} : memref<16x512xf16> -> !ktdp.access_tile<1x128xindex>
        %x = ktdp.load %tx : <1x128xindex> -> tensor<1x128xf16>
        %y = arith.subf %x, %qb : tensor<1x128xf16>
        %ty = ktdp.construct_access_tile %Y[%row, %c] {access_tile_set = #row_blk, access_tile_order = #id2} : memref<16x512xf16> -> !ktdp.access_tile<1x128xindex>
        ktdp.store %y, %ty : tensor<1x128xf16>, <1x128xindex>
        scf.yield
      }
      scf.yield
    }
    return
  }
}
