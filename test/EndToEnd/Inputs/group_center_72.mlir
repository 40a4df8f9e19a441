// group_center_72.mlir - per-group column sums on 72 tiles (more points
// than any shipped device has lanes): 9 groups of 8 contiguous tiles, each
// tile summing its 2 rows of a 144 x 64 f16 matrix, then an all-reduce of
// the 64 sums inside the group, and every tile storing X - sum / 16.
//
// Computes, for group g (rows 16g .. 16g + 15), c < 64, all f16:
//   p_t[c] = f16(x[2t, c] + x[2t + 1, c])   (f32 accumulation, one rounding)
//   s_g[c] = fold over the group's 8 tiles from 0 (f16 addf)
//   Y[r, c] = f16(x[r, c] - f16(s_g[c] / 16))

#x_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 143 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#blk = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#grp8 = affine_set<(i)[g] : (i - 8*g >= 0, -i + 8*g + 7 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @group_center(%x_ptr: index,  // X: 144x64 f16 (input)
                          %y_ptr: index)  // Y: 144x64 f16 (output)
      attributes {grid = [72, 1]} {
    %pid = ktdp.get_compute_tile_id : index
    %c2 = arith.constant 2 : index
    %X = ktdp.construct_memory_view %x_ptr, sizes: [144, 64], strides: [64, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<144x64xf16>
    %Y = ktdp.construct_memory_view %y_ptr, sizes: [144, 64], strides: [64, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<144x64xf16>
    %r0 = arith.muli %pid, %c2 : index
    %tx = ktdp.construct_access_tile %X[%r0, 0] {access_tile_set = #blk, access_tile_order = #id2} : memref<144x64xf16> -> !ktdp.access_tile<2x64xindex>
    %x = ktdp.load %tx : <2x64xindex> -> tensor<2x64xf16>
    %zero = arith.constant dense<0.0> : tensor<64xf16>
    %p = linalg.reduce { arith.addf } ins(%x : tensor<2x64xf16>) outs(%zero : tensor<64xf16>) dimensions = [0]
    %f = ktdp.inter_tile_produce producer_tiles_per_group = #grp8
        : tensor<64xf16> -> !ktdp.tile_future<tensor<64xf16>, groups = affine_set<(g) : (g >= 0, -g + 8 >= 0)>> {
    ^bb0(%g: index):
      ktdp.yield_partial %p : tensor<64xf16>
    }
    %s = ktdp.inter_tile_reduce(%f) consumer_tiles_per_group = #grp8, identity(%zero : tensor<64xf16>)
        : !ktdp.tile_future<tensor<64xf16>, groups = affine_set<(g) : (g >= 0, -g + 8 >= 0)>> -> tensor<64xf16> {
    ^bb0(%a: tensor<64xf16>, %b: tensor<64xf16>):
      %t = arith.addf %a, %b : tensor<64xf16>
      ktdp.yield_reduced %t : tensor<64xf16>
    }
    %n = arith.constant dense<16.0> : tensor<64xf16>
    %m = arith.divf %s, %n : tensor<64xf16>
    %e = tensor.empty() : tensor<2x64xf16>
    %mb = linalg.broadcast ins(%m : tensor<64xf16>) outs(%e : tensor<2x64xf16>) dimensions = [0]
    %y = arith.subf %x, %mb : tensor<2x64xf16>
    %ty = ktdp.construct_access_tile %Y[%r0, 0] {access_tile_set = #blk, access_tile_order = #id2} : memref<144x64xf16> -> !ktdp.access_tile<2x64xindex>
    ktdp.store %y, %ty : tensor<2x64xf16>, <2x64xindex>
    return
  }
}
