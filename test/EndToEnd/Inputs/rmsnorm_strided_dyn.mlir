// rmsnorm_strided_dyn.mlir - RMSNorm of up to 4 bands x 100 rows of 256 f16 on
// a [4, 2] grid with strided all-reduce groups (px the band, py the column
// half, group g = {g, g + 4}), one row per trip up to a run-time row count
// per band: the all-reduce of one f32 sum of squares per trip stays in the
// loop, whose trips can spread over idle lanes.
//
// Computes, for band b, i < n_rows, r = 100 b + i, c < 256:
//   ss = (0 + sum_{half 0} f32(x)^2) + sum_{half 1} f32(x)^2
//   Y[r, c] = f16(f32(x[r, c]) * rsqrt(ss / 256 + eps))

#x_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 399 >= 0, d1 >= 0, -d1 + 255 >= 0)>
#row_blk = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 127 >= 0)>
#pairs = affine_set<(i)[g] : ((i - g) mod 4 == 0, i - g >= 0, -i + g + 4 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @rmsnorm_strided_rows(%x_ptr: index,   // X: 400x256 f16 (input)
                                  %y_ptr: index,   // Y: 400x256 f16 (output)
                                  %eps: f32,       // e.g. 1e-5
                                  %n_rows: index)  // rows per band, at most 100
      attributes {grid = [4, 2]} {
    %px, %py = ktdp.get_compute_tile_id : index, index
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c100 = arith.constant 100 : index
    %c128 = arith.constant 128 : index
    %X = ktdp.construct_memory_view %x_ptr, sizes: [400, 256], strides: [256, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<400x256xf16>
    %Y = ktdp.construct_memory_view %y_ptr, sizes: [400, 256], strides: [256, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<400x256xf16>
    %row0 = arith.muli %px, %c100 : index
    %col = arith.muli %py, %c128 : index
    %zero = arith.constant 0.000000e+00 : f32
    %z1 = tensor.splat %zero : tensor<1xf32>
    %n = arith.constant 2.560000e+02 : f32
    scf.for %i = %c0 to %n_rows step %c1 : index {
      %r = arith.addi %row0, %i : index
      %tx = ktdp.construct_access_tile %X[%r, %col] {access_tile_set = #row_blk, access_tile_order = #id2} : memref<400x256xf16> -> !ktdp.access_tile<1x128xindex>
      %x = ktdp.load %tx : <1x128xindex> -> tensor<1x128xf16>
      %xf = arith.extf %x : tensor<1x128xf16> to tensor<1x128xf32>
      %sq = arith.mulf %xf, %xf : tensor<1x128xf32>
      %p = linalg.reduce { arith.addf } ins(%sq : tensor<1x128xf32>) outs(%z1 : tensor<1xf32>) dimensions = [1]
      %f = ktdp.inter_tile_produce producer_tiles_per_group = #pairs
          : tensor<1xf32> -> !ktdp.tile_future<tensor<1xf32>, groups = affine_set<(g) : (g >= 0, -g + 3 >= 0)>> {
      ^bb0(%gid: index):
        ktdp.yield_partial %p : tensor<1xf32>
      }
      %ss = ktdp.inter_tile_reduce(%f) consumer_tiles_per_group = #pairs, identity(%z1 : tensor<1xf32>)
          : !ktdp.tile_future<tensor<1xf32>, groups = affine_set<(g) : (g >= 0, -g + 3 >= 0)>> -> tensor<1xf32> {
      ^bb0(%a: tensor<1xf32>, %b: tensor<1xf32>):
        %t = arith.addf %a, %b : tensor<1xf32>
        ktdp.yield_reduced %t : tensor<1xf32>
      }
      %s = tensor.extract %ss[%c0] : tensor<1xf32>
      %ms = arith.divf %s, %n : f32
      %ve = arith.addf %ms, %eps : f32
      %rs = math.rsqrt %ve : f32
      %rb = tensor.splat %rs : tensor<1x128xf32>
      %xf2 = arith.extf %x : tensor<1x128xf16> to tensor<1x128xf32>
      %yf = arith.mulf %xf2, %rb : tensor<1x128xf32>
      %y = arith.truncf %yf : tensor<1x128xf32> to tensor<1x128xf16>
      %ty = ktdp.construct_access_tile %Y[%r, %col] {access_tile_set = #row_blk, access_tile_order = #id2} : memref<400x256xf16> -> !ktdp.access_tile<1x128xindex>
      ktdp.store %y, %ty : tensor<1x128xf16>, <1x128xindex>
      scf.yield
    }
    return
  }
}
