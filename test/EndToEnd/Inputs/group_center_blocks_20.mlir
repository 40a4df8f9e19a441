// group_center_blocks_20.mlir - column centering of a 80 x 4480 f16 matrix on 20
// tiles in 5 groups of 4 contiguous tiles (more points than mesh_device
// and sample_device have lanes, fewer than spyre_like's): tile t owns rows
// 4t .. 4t + 3; a loop over 70 column blocks of 64 (kept in the loop) sums
// the tile's rows, all-reduces the 64 sums inside the group and stores
// x - sum / 16.
//
// Computes, for group g (rows 16g .. 16g + 15), block b, all f16:
//   p_t = f16(sum of tile t's 4 rows)        (f32 accumulation, one rounding)
//   s_g = fold of the group's 4 partials from 0 (f16 addf)
//   Y[r, 64b + c] = f16(x[r, 64b + c] - f16(s_g[c] / 16))

#x_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 79 >= 0, d1 >= 0, -d1 + 4479 >= 0)>
#blk = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#grp4 = affine_set<(i)[g] : (i - 4*g >= 0, -i + 4*g + 3 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#bcast = affine_map<(d0, d1) -> (d1)>
module {
  func.func @group_center_blocks(%x_ptr: index,  // X: 80x4480 f16 (input)
                                 %y_ptr: index)  // Y: 80x4480 f16 (output)
      attributes {grid = [20, 1]} {
    %pid = ktdp.get_compute_tile_id : index
    %c0 = arith.constant 0 : index
    %c4 = arith.constant 4 : index
    %c64 = arith.constant 64 : index
    %c4480 = arith.constant 4480 : index
    %X = ktdp.construct_memory_view %x_ptr, sizes: [80, 4480], strides: [4480, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<80x4480xf16>
    %Y = ktdp.construct_memory_view %y_ptr, sizes: [80, 4480], strides: [4480, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<80x4480xf16>
    %row = arith.muli %pid, %c4 : index
    %zero = arith.constant dense<0.0> : tensor<64xf16>
    %n = arith.constant dense<16.0> : tensor<64xf16>
    scf.for %col = %c0 to %c4480 step %c64 : index {
      %tx = ktdp.construct_access_tile %X[%row, %col] {access_tile_set = #blk, access_tile_order = #id2} : memref<80x4480xf16> -> !ktdp.access_tile<4x64xindex>
      %x = ktdp.load %tx : <4x64xindex> -> tensor<4x64xf16>
      %p = linalg.reduce { arith.addf } ins(%x : tensor<4x64xf16>) outs(%zero : tensor<64xf16>) dimensions = [0]
      %f = ktdp.inter_tile_produce producer_tiles_per_group = #grp4
          : tensor<64xf16> -> !ktdp.tile_future<tensor<64xf16>, groups = affine_set<(g) : (g >= 0, -g + 4 >= 0)>> {
      ^bb0(%g: index):
        ktdp.yield_partial %p : tensor<64xf16>
      }
      %s = ktdp.inter_tile_reduce(%f) consumer_tiles_per_group = #grp4, identity(%zero : tensor<64xf16>)
          : !ktdp.tile_future<tensor<64xf16>, groups = affine_set<(g) : (g >= 0, -g + 4 >= 0)>> -> tensor<64xf16> {
      ^bb0(%a: tensor<64xf16>, %b: tensor<64xf16>):
        %t = arith.addf %a, %b : tensor<64xf16>
        ktdp.yield_reduced %t : tensor<64xf16>
      }
      %m = arith.divf %s, %n : tensor<64xf16>
      %e = tensor.empty() : tensor<4x64xf16>
      %y = linalg.generic {indexing_maps = [#id2, #bcast, #id2], iterator_types = ["parallel", "parallel"]}
          ins(%x, %m : tensor<4x64xf16>, tensor<64xf16>) outs(%e : tensor<4x64xf16>) {
      ^bb0(%a: f16, %mm: f16, %o: f16):
        %d = arith.subf %a, %mm : f16
        linalg.yield %d : f16
      } -> tensor<4x64xf16>
      %ty = ktdp.construct_access_tile %Y[%row, %col] {access_tile_set = #blk, access_tile_order = #id2} : memref<80x4480xf16> -> !ktdp.access_tile<4x64xindex>
      ktdp.store %y, %ty : tensor<4x64xf16>, <4x64xindex>
    }
    return
  }
}
