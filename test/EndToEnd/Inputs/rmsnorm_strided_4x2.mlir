// rmsnorm_strided_4x2.mlir - RMSNorm of 32 x 256 f16 on a [4, 2] grid whose
// all-reduce groups are strided: px picks the band of 8 rows, py the column
// half, so the linear id px + 4 py puts a band's two tiles 4 apart (group
// g = {g, g + 4}, a `mod` membership set). The 8 rows of a band are one
// 8x128 tile per tile; the 8 f32 sums of squares are all-reduced.
//
// Computes, for r < 32, c < 256:
//   ss[r] = (0 + sum_{half 0} f32(x)^2) + sum_{half 1} f32(x)^2
//   Y[r, c] = f16(f32(x[r, c]) * rsqrt(ss[r] / 256 + eps))

#x_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 31 >= 0, d1 >= 0, -d1 + 255 >= 0)>
#blk = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#pairs = affine_set<(i)[g] : ((i - g) mod 4 == 0, i - g >= 0, -i + g + 4 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @rmsnorm_strided(%x_ptr: index,  // X: 32x256 f16 (input)
                             %y_ptr: index,  // Y: 32x256 f16 (output)
                             %eps: f32)      // e.g. 1e-5
      attributes {grid = [4, 2]} {
    %px, %py = ktdp.get_compute_tile_id : index, index
    %c8 = arith.constant 8 : index
    %c128 = arith.constant 128 : index
    %X = ktdp.construct_memory_view %x_ptr, sizes: [32, 256], strides: [256, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<32x256xf16>
    %Y = ktdp.construct_memory_view %y_ptr, sizes: [32, 256], strides: [256, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<32x256xf16>
    %r0 = arith.muli %px, %c8 : index
    %c0 = arith.muli %py, %c128 : index
    %tx = ktdp.construct_access_tile %X[%r0, %c0] {access_tile_set = #blk, access_tile_order = #id2} : memref<32x256xf16> -> !ktdp.access_tile<8x128xindex>
    %x = ktdp.load %tx : <8x128xindex> -> tensor<8x128xf16>
    %xf = arith.extf %x : tensor<8x128xf16> to tensor<8x128xf32>
    %sq = arith.mulf %xf, %xf : tensor<8x128xf32>
    %zero = arith.constant dense<0.0> : tensor<8xf32>
    %p = linalg.reduce { arith.addf } ins(%sq : tensor<8x128xf32>) outs(%zero : tensor<8xf32>) dimensions = [1]
    %f = ktdp.inter_tile_produce producer_tiles_per_group = #pairs
        : tensor<8xf32> -> !ktdp.tile_future<tensor<8xf32>, groups = affine_set<(g) : (g >= 0, -g + 3 >= 0)>> {
    ^bb0(%gid: index):
      ktdp.yield_partial %p : tensor<8xf32>
    }
    %ss = ktdp.inter_tile_reduce(%f) consumer_tiles_per_group = #pairs, identity(%zero : tensor<8xf32>)
        : !ktdp.tile_future<tensor<8xf32>, groups = affine_set<(g) : (g >= 0, -g + 3 >= 0)>> -> tensor<8xf32> {
    ^bb0(%a: tensor<8xf32>, %b: tensor<8xf32>):
      %t = arith.addf %a, %b : tensor<8xf32>
      ktdp.yield_reduced %t : tensor<8xf32>
    }
    %nv = arith.constant dense<2.560000e+02> : tensor<8xf32>
    %ms = arith.divf %ss, %nv : tensor<8xf32>
    %ev = tensor.splat %eps : tensor<8xf32>
    %ve = arith.addf %ms, %ev : tensor<8xf32>
    %rs = math.rsqrt %ve : tensor<8xf32>
    %e = tensor.empty() : tensor<8x128xf32>
    %y = linalg.generic {indexing_maps = [#id2, affine_map<(d0, d1) -> (d0)>, #id2], iterator_types = ["parallel", "parallel"]}
        ins(%x, %rs : tensor<8x128xf16>, tensor<8xf32>) outs(%e : tensor<8x128xf32>) {
    ^bb0(%a: f16, %s: f32, %o: f32):
      %af = arith.extf %a : f16 to f32
      %m = arith.mulf %af, %s : f32
      linalg.yield %m : f32
    } -> tensor<8x128xf32>
    %yh = arith.truncf %y : tensor<8x128xf32> to tensor<8x128xf16>
    %ty = ktdp.construct_access_tile %Y[%r0, %c0] {access_tile_set = #blk, access_tile_order = #id2} : memref<32x256xf16> -> !ktdp.access_tile<8x128xindex>
    ktdp.store %yh, %ty : tensor<8x128xf16>, <8x128xindex>
    return
  }
}
