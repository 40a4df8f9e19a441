// layernorm_tp2_rows.mlir - tensor-parallel layernorm of 210 x 256 f16 on a
// [2, 3] grid: pc picks the column half, pb the band of 70 rows. Each trip
// (70 per band, more than ktdf-unroll-carried-loops unrolls) all-reduces
// the f32 row sum and the f32 row sum of squares over the two tiles of the
// band: two independent all-reduces in one loop, both fed by the load.
//
// Computes, for each row r, c < 256:
//   s1 = (0 + sum_{half 0} f32(x)) + sum_{half 1} f32(x)
//   s2 = (0 + sum_{half 0} f32(x)^2) + sum_{half 1} f32(x)^2
//   mu = s1 / 256;  rs = rsqrt(s2 / 256 - mu * mu + eps)      (f32)
//   Y[r, c] = f16((f32(x[r, c]) - mu) * rs * f32(G[c]))
//
// Linear tile id = pc + 2 pb: group g = pb is the pair {2 pb, 2 pb + 1}.

#x_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 209 >= 0, d1 >= 0, -d1 + 255 >= 0)>
#g_set = affine_set<(d0) : (d0 >= 0, -d0 + 255 >= 0)>
#g_blk = affine_set<(d0) : (d0 >= 0, -d0 + 127 >= 0)>
#row_blk = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 127 >= 0)>
#band = affine_set<(i)[g] : (i - 2*g >= 0, -i + 2*g + 1 >= 0)>
#id1 = affine_map<(d0) -> (d0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @layernorm_tp2(%x_ptr: index,  // X: 210x256 f16 (input)
                           %g_ptr: index,  // G: 256 f16 gain (input)
                           %y_ptr: index,  // Y: 210x256 f16 (output)
                           %eps: f32)      // e.g. 1e-5
      attributes {grid = [2, 3]} {
    %pc, %pb = ktdp.get_compute_tile_id : index, index
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c70 = arith.constant 70 : index
    %c128 = arith.constant 128 : index
    %X = ktdp.construct_memory_view %x_ptr, sizes: [210, 256], strides: [256, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<210x256xf16>
    %Y = ktdp.construct_memory_view %y_ptr, sizes: [210, 256], strides: [256, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<210x256xf16>
    %G = ktdp.construct_memory_view %g_ptr, sizes: [256], strides: [1] {coordinate_set = #g_set, memory_space = #ktdp.memory_space<global>} : memref<256xf16>
    %col = arith.muli %pc, %c128 : index
    %row0 = arith.muli %pb, %c70 : index
    %tg = ktdp.construct_access_tile %G[%col] {access_tile_set = #g_blk, access_tile_order = #id1} : memref<256xf16> -> !ktdp.access_tile<128xindex>
    %g = ktdp.load %tg : <128xindex> -> tensor<128xf16>
    %gf = arith.extf %g : tensor<128xf16> to tensor<128xf32>
    %g2 = tensor.expand_shape %gf [[0, 1]] output_shape [1, 128] : tensor<128xf32> into tensor<1x128xf32>
    %zero = arith.constant 0.000000e+00 : f32
    %n = arith.constant 2.560000e+02 : f32
    %z1 = tensor.splat %zero : tensor<1xf32>
    scf.for %i = %c0 to %c70 step %c1 : index {
      %r = arith.addi %row0, %i : index
      %tx = ktdp.construct_access_tile %X[%r, %col] {access_tile_set = #row_blk, access_tile_order = #id2} : memref<210x256xf16> -> !ktdp.access_tile<1x128xindex>
      %x = ktdp.load %tx : <1x128xindex> -> tensor<1x128xf16>
      %xf = arith.extf %x : tensor<1x128xf16> to tensor<1x128xf32>
      %sq = arith.mulf %xf, %xf : tensor<1x128xf32>
      %p1 = linalg.reduce { arith.addf } ins(%xf : tensor<1x128xf32>) outs(%z1 : tensor<1xf32>) dimensions = [1]
      %p2 = linalg.reduce { arith.addf } ins(%sq : tensor<1x128xf32>) outs(%z1 : tensor<1xf32>) dimensions = [1]
      %f1 = ktdp.inter_tile_produce producer_tiles_per_group = #band
          : tensor<1xf32> -> !ktdp.tile_future<tensor<1xf32>, groups = affine_set<(g) : (g >= 0, -g + 2 >= 0)>> {
      ^bb0(%gid: index):
        ktdp.yield_partial %p1 : tensor<1xf32>
      }
      %s1 = ktdp.inter_tile_reduce(%f1) consumer_tiles_per_group = #band, identity(%z1 : tensor<1xf32>)
          : !ktdp.tile_future<tensor<1xf32>, groups = affine_set<(g) : (g >= 0, -g + 2 >= 0)>> -> tensor<1xf32> {
      ^bb0(%a: tensor<1xf32>, %b: tensor<1xf32>):
        %t = arith.addf %a, %b : tensor<1xf32>
        ktdp.yield_reduced %t : tensor<1xf32>
      }
      %f2 = ktdp.inter_tile_produce producer_tiles_per_group = #band
          : tensor<1xf32> -> !ktdp.tile_future<tensor<1xf32>, groups = affine_set<(g) : (g >= 0, -g + 2 >= 0)>> {
      ^bb0(%gid: index):
        ktdp.yield_partial %p2 : tensor<1xf32>
      }
      %s2 = ktdp.inter_tile_reduce(%f2) consumer_tiles_per_group = #band, identity(%z1 : tensor<1xf32>)
          : !ktdp.tile_future<tensor<1xf32>, groups = affine_set<(g) : (g >= 0, -g + 2 >= 0)>> -> tensor<1xf32> {
      ^bb0(%a: tensor<1xf32>, %b: tensor<1xf32>):
        %t = arith.addf %a, %b : tensor<1xf32>
        ktdp.yield_reduced %t : tensor<1xf32>
      }
      %t1 = tensor.extract %s1[%c0] : tensor<1xf32>
      %t2 = tensor.extract %s2[%c0] : tensor<1xf32>
      %mu = arith.divf %t1, %n : f32
      %ex2 = arith.divf %t2, %n : f32
      %mu2 = arith.mulf %mu, %mu : f32
      %var = arith.subf %ex2, %mu2 : f32
      %ve = arith.addf %var, %eps : f32
      %rs = math.rsqrt %ve : f32
      %mub = tensor.splat %mu : tensor<1x128xf32>
      %rsb = tensor.splat %rs : tensor<1x128xf32>
      %xf2 = arith.extf %x : tensor<1x128xf16> to tensor<1x128xf32>
      %d = arith.subf %xf2, %mub : tensor<1x128xf32>
      %yn = arith.mulf %d, %rsb : tensor<1x128xf32>
      %yg = arith.mulf %yn, %g2 : tensor<1x128xf32>
      %y = arith.truncf %yg : tensor<1x128xf32> to tensor<1x128xf16>
      %ty = ktdp.construct_access_tile %Y[%r, %col] {access_tile_set = #row_blk, access_tile_order = #id2} : memref<210x256xf16> -> !ktdp.access_tile<1x128xindex>
      ktdp.store %y, %ty : tensor<1x128xf16>, <1x128xindex>
      scf.yield
    }
    return
  }
}
