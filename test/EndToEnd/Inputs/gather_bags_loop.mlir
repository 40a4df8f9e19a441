// gather_bags_loop.mlir - embedding bags over 70 bags (kept in the loop): at
// trip b each of 2 tiles gathers 4 rows of a 500 x 128 f16 table through
// an i64 index vector (tile t reads indices 8b + 4t .. 8b + 4t + 3), sums
// them (f16, f32 accumulation), the two partials are all-reduced, and tile
// 0 stores the bag's sum times 0.125 (in an scf.if inside the loop).
//
// Computes, for b < 70, c < 128:
//   p_t = f16(sum_{i < 4} E[idx[8b + 4t + i], :])
//   OUT[b, c] = f16(f16(f16(0 + p_0) + p_1)[c] * 0.125)

#e_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 499 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#i_set = affine_set<(d0) : (d0 >= 0, -d0 + 559 >= 0)>
#o_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 69 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#vars = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#row = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 127 >= 0)>
#both = affine_set<(i)[g] : (i >= 0, -i + 1 >= 0, g == 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @bags(%e_ptr: index,    // E: 500x128 f16 table (input)
                  %idx_ptr: index,  // IDX: 560 i64 row ids (input)
                  %out_ptr: index)  // OUT: 70x128 f16 (output)
      attributes {grid = [2]} {
    %pid = ktdp.get_compute_tile_id : index
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c8 = arith.constant 8 : index
    %c64 = arith.constant 64 : index
    %c70 = arith.constant 70 : index
    %E = ktdp.construct_memory_view %e_ptr, sizes: [500, 128], strides: [128, 1] {coordinate_set = #e_set, memory_space = #ktdp.memory_space<global>} : memref<500x128xf16>
    %IDX = ktdp.construct_memory_view %idx_ptr, sizes: [560], strides: [1] {coordinate_set = #i_set, memory_space = #ktdp.memory_space<global>} : memref<560xi64>
    %OUT = ktdp.construct_memory_view %out_ptr, sizes: [70, 128], strides: [128, 1] {coordinate_set = #o_set, memory_space = #ktdp.memory_space<global>} : memref<70x128xf16>
    %t4 = arith.muli %pid, %c4 : index
    %zero = arith.constant dense<0.0> : tensor<128xf16>
    %eighth = arith.constant dense<1.250000e-01> : tensor<1x128xf16>
    %is0 = arith.cmpi eq, %pid, %c0 : index
    scf.for %b = %c0 to %c70 step %c1 : index {
      %b8 = arith.muli %b, %c8 : index
      %i0 = arith.addi %b8, %t4 : index
      %rows = ktdp.construct_indirect_access_tile intermediate_variables(%d0, %d1) %E[ind(%IDX[%i0 + %d0]), (%d1)] {variables_space_set = #vars, variables_space_order = #id2} : memref<500x128xf16>, memref<560xi64> -> !ktdp.access_tile<4x128xindex>
      %g = ktdp.load %rows : <4x128xindex> -> tensor<4x128xf16>
      %p = linalg.reduce { arith.addf } ins(%g : tensor<4x128xf16>) outs(%zero : tensor<128xf16>) dimensions = [0]
      %f = ktdp.inter_tile_produce producer_tiles_per_group = #both
          : tensor<128xf16> -> !ktdp.tile_future<tensor<128xf16>, groups = affine_set<(g) : (g == 0)>> {
      ^bb0(%gid: index):
        ktdp.yield_partial %p : tensor<128xf16>
      }
      %s = ktdp.inter_tile_reduce(%f) consumer_tiles_per_group = #both, identity(%zero : tensor<128xf16>)
          : !ktdp.tile_future<tensor<128xf16>, groups = affine_set<(g) : (g == 0)>> -> tensor<128xf16> {
      ^bb0(%a: tensor<128xf16>, %c: tensor<128xf16>):
        %t = arith.addf %a, %c : tensor<128xf16>
        ktdp.yield_reduced %t : tensor<128xf16>
      }
      %s2 = tensor.expand_shape %s [[0, 1]] output_shape [1, 128] : tensor<128xf16> into tensor<1x128xf16>
      %m = arith.mulf %s2, %eighth : tensor<1x128xf16>
      scf.if %is0 {
        %to = ktdp.construct_access_tile %OUT[%b, 0] {access_tile_set = #row, access_tile_order = #id2} : memref<70x128xf16> -> !ktdp.access_tile<1x128xindex>
        ktdp.store %m, %to : tensor<1x128xf16>, <1x128xindex>
      }
    }
    return
  }
}
