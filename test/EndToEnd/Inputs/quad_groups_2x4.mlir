// quad_groups_2x4.mlir - a [2, 4] grid whose all-reduce groups hold four
// tiles: two column halves of two row bands each.
//
// Computes, for i < 4, all values f16 (px = column half, py = row band,
// row = 4 py + i, columns [256 px, 256 px + 256)):
//   p[px, py]  = f16(sum_j X[row, 256 px + j])             (f32 accumulation)
//   s          = f16 sum of p over the group's four tiles (ring all-reduce)
//   m          = f16(s / 1024)
//   Y[row, c]  = f16(X[row, c] - m)
//
// Tile id = px + 2 py: group g holds tiles 4g .. 4g + 3 (bands 2g, 2g + 1).
// The parallel numbers its points band first, so tiles 0 and 1 would share
// a core on a 4-core device unless the compiler orders its dimensions.

#x_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 511 >= 0)>
#row_half = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 255 >= 0)>
#quad = affine_set<(i)[g] : (i - 4*g >= 0, -i + 4*g + 3 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @quad_groups(%x_ptr: index,  // X: 16x512 f16 (input)
                         %y_ptr: index)  // Y: 16x512 f16 (output)
      attributes { grid = [2, 4] } {
    %px, %py = ktdp.get_compute_tile_id : index, index
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c256 = arith.constant 256 : index
    %X = ktdp.construct_memory_view %x_ptr, sizes: [16, 512], strides: [512, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<16x512xf16>
    %Y = ktdp.construct_memory_view %y_ptr, sizes: [16, 512], strides: [512, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<16x512xf16>
    %col = arith.muli %px, %c256 : index
    %row0 = arith.muli %py, %c4 : index
    %zero = arith.constant 0.000000e+00 : f16
    %zero1 = tensor.splat %zero : tensor<1xf16>
    %zerof = arith.constant 0.000000e+00 : f32
    %zero1f = tensor.splat %zerof : tensor<1xf32>
    %n = arith.constant 1.024000e+03 : f16
    %n1 = tensor.splat %n : tensor<1xf16>
    scf.for %i = %c0 to %c4 step %c1 : index {
      %row = arith.addi %row0, %i : index
      %tx = ktdp.construct_access_tile %X[%row, %col] {access_tile_set = #row_half, access_tile_order = #id2} : memref<16x512xf16> -> !ktdp.access_tile<1x256xindex>
      %x = ktdp.load %tx : <1x256xindex> -> tensor<1x256xf16>
      %xf = arith.extf %x : tensor<1x256xf16> to tensor<1x256xf32>
      %pf = linalg.reduce { arith.addf } ins(%xf : tensor<1x256xf32>) outs(%zero1f : tensor<1xf32>) dimensions = [1]
      %p = arith.truncf %pf : tensor<1xf32> to tensor<1xf16>
      %f = ktdp.inter_tile_produce producer_tiles_per_group = #quad -> <(tensor<1xf16>), groups = affine_set<(g) : (g >= 0, -g + 1 >= 0)>> {
      ^bb0(%gid: index):
        ktdp.yield_partial %p : tensor<1xf16>
      }
      %s = ktdp.inter_tile_reduce(%f) consumer_tiles_per_group = #quad, identity(%zero1 : tensor<1xf16>) : <(tensor<1xf16>), groups = affine_set<(g) : (g >= 0, -g + 1 >= 0)>> -> tensor<1xf16> {
      ^bb0(%lhs: tensor<1xf16>, %rhs: tensor<1xf16>):
        %a = linalg.add ins(%lhs, %rhs : tensor<1xf16>, tensor<1xf16>) outs(%lhs : tensor<1xf16>) -> tensor<1xf16>
        ktdp.yield_reduced %a : tensor<1xf16>
      }
      %m = arith.divf %s, %n1 : tensor<1xf16>
      %ms = tensor.extract %m[%c0] : tensor<1xf16>
      %mb = tensor.splat %ms : tensor<1x256xf16>
      %x2 = ktdp.load %tx : <1x256xindex> -> tensor<1x256xf16>
      %y = arith.subf %x2, %mb : tensor<1x256xf16>
      %ty = ktdp.construct_access_tile %Y[%row, %col] {access_tile_set = #row_half, access_tile_order = #id2} : memref<16x512xf16> -> !ktdp.access_tile<1x256xindex>
      ktdp.store %y, %ty : tensor<1x256xf16>, <1x256xindex>
      scf.yield
    }
    return
  }
}
