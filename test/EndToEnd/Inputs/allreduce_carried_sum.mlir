// allreduce_carried_sum.mlir - the sum of a 128x256 f16 matrix on a [2]
// grid: tile p sums columns [128p, 128p + 128) of each row in f32, the two
// tiles add their row sums with an all-reduce inside the row loop, and the
// loop carries the f32 total across its 128 trips (iter_args), more than
// ktdf-unroll-carried-loops unrolls.
//
// Computes, for p < 2 (all sums in f32, X f16):
//   s_r  = (0 + sum_{c < 128} X[r, c]) + sum_{c < 128} X[r, 128 + c]
//   Y[p] = sum_{r < 128} s_r            (in row order, from 0)
#x_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 127 >= 0, d1 >= 0, -d1 + 255 >= 0)>
#y_set = affine_set<(d0) : (d0 >= 0, -d0 + 1 >= 0)>
#row_blk = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 127 >= 0)>
#one = affine_set<(d0) : (d0 == 0)>
#pair = affine_set<(i)[g] : (i >= 0, -i + 1 >= 0)>
#id1 = affine_map<(d0) -> (d0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @allreduce_carried_sum(%x_ptr: index, %y_ptr: index) attributes {grid = [2]} {
    %p = ktdp.get_compute_tile_id : index
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %rows = arith.constant 128 : index
    %c128 = arith.constant 128 : index
    %zero = arith.constant 0.000000e+00 : f32
    %zero1 = tensor.splat %zero : tensor<1xf32>
    %X = ktdp.construct_memory_view %x_ptr, sizes: [128, 256], strides: [256, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<128x256xf16>
    %Y = ktdp.construct_memory_view %y_ptr, sizes: [2], strides: [1] {coordinate_set = #y_set, memory_space = #ktdp.memory_space<global>} : memref<2xf32>
    %col0 = arith.muli %p, %c128 : index
    %total = scf.for %r = %c0 to %rows step %c1 iter_args(%acc = %zero1) -> (tensor<1xf32>) {
      %tx = ktdp.construct_access_tile %X[%r, %col0] {access_tile_set = #row_blk, access_tile_order = #id2} : memref<128x256xf16> -> !ktdp.access_tile<1x128xindex>
      %x = ktdp.load %tx : <1x128xindex> -> tensor<1x128xf16>
      %e = tensor.empty() : tensor<1x128xf32>
      %xf = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<1x128xf16>) outs(%e : tensor<1x128xf32>) {
      ^bb0(%in: f16, %out: f32):
        %w = arith.extf %in : f16 to f32
        linalg.yield %w : f32
      } -> tensor<1x128xf32>
      %part = linalg.reduce { arith.addf } ins(%xf : tensor<1x128xf32>) outs(%zero1 : tensor<1xf32>) dimensions = [1]
      %f = ktdp.inter_tile_produce producer_tiles_per_group = #pair -> <(tensor<1xf32>), groups = affine_set<(g) : (g == 0)>> {
      ^bb0(%gid: index):
        ktdp.yield_partial %part : tensor<1xf32>
      }
      %rs = ktdp.inter_tile_reduce(%f) consumer_tiles_per_group = #pair, identity(%zero1 : tensor<1xf32>) : <(tensor<1xf32>), groups = affine_set<(g) : (g == 0)>> -> tensor<1xf32> {
      ^bb0(%lhs: tensor<1xf32>, %rhs: tensor<1xf32>):
        %s = linalg.add ins(%lhs, %rhs : tensor<1xf32>, tensor<1xf32>) outs(%lhs : tensor<1xf32>) -> tensor<1xf32>
        ktdp.yield_reduced %s : tensor<1xf32>
      }
      %next = arith.addf %acc, %rs : tensor<1xf32>
      scf.yield %next : tensor<1xf32>
    }
    %ty = ktdp.construct_access_tile %Y[%p] {access_tile_set = #one, access_tile_order = #id1} : memref<2xf32> -> !ktdp.access_tile<1xindex>
    ktdp.store %total, %ty : tensor<1xf32>, <1xindex>
    return
  }
}
