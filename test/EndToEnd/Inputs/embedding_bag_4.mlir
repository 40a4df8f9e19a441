// embedding_bag_4.mlir - embedding bag: 4 tiles each gather 8 rows of a
// 100 x 64 f16 table by an i32 index vector (tile t reads indices
// 8t .. 8t + 7), sum them in f32, all-reduce the 64 sums over the tiles
// and tile 0 stores the mean in f16.
//
// Computes, for c < 64:
//   p_t[c] = sum_{8t <= i < 8t + 8} f32(E[idx[i], c])
//   s[c]   = (((0 + p_0) + p_1) + p_2) + p_3            (f32)
//   OUT[c] = f16(s[c] * 0.03125)

#e_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 99 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#i_set = affine_set<(d0) : (d0 >= 0, -d0 + 31 >= 0)>
#o_set = affine_set<(d0) : (d0 >= 0, -d0 + 63 >= 0)>
#vars = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#all4 = affine_set<(i)[g] : (i >= 0, -i + 3 >= 0, g == 0)>
#id1 = affine_map<(d0) -> (d0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @embedding_bag(%e_ptr: index,    // E: 100x64 f16 table (input)
                           %idx_ptr: index,  // IDX: 32 i32 row ids (input)
                           %out_ptr: index)  // OUT: 64 f16 (output, tile 0)
      attributes {grid = [4, 1]} {
    %pid = ktdp.get_compute_tile_id : index
    %c0 = arith.constant 0 : index
    %c8 = arith.constant 8 : index
    %E = ktdp.construct_memory_view %e_ptr, sizes: [100, 64], strides: [64, 1] {coordinate_set = #e_set, memory_space = #ktdp.memory_space<global>} : memref<100x64xf16>
    %IDX = ktdp.construct_memory_view %idx_ptr, sizes: [32], strides: [1] {coordinate_set = #i_set, memory_space = #ktdp.memory_space<global>} : memref<32xi32>
    %i0 = arith.muli %pid, %c8 : index
    %rows = ktdp.construct_indirect_access_tile intermediate_variables(%d0, %d1) %E[ind(%IDX[%i0 + %d0]), (%d1)] {variables_space_set = #vars, variables_space_order = #id2} : memref<100x64xf16>, memref<32xi32> -> !ktdp.access_tile<8x64xindex>
    %g = ktdp.load %rows : <8x64xindex> -> tensor<8x64xf16>
    %gf = arith.extf %g : tensor<8x64xf16> to tensor<8x64xf32>
    %zero = arith.constant dense<0.0> : tensor<64xf32>
    %p = linalg.reduce ins(%gf : tensor<8x64xf32>) outs(%zero : tensor<64xf32>) dimensions = [0]
      (%in: f32, %acc: f32) {
        %s = arith.addf %in, %acc : f32
        linalg.yield %s : f32
      }
    %f = ktdp.inter_tile_produce producer_tiles_per_group = #all4
        : tensor<64xf32> -> !ktdp.tile_future<tensor<64xf32>, groups = affine_set<(g) : (g == 0)>> {
    ^bb0(%gid: index):
      ktdp.yield_partial %p : tensor<64xf32>
    }
    %s = ktdp.inter_tile_reduce(%f) consumer_tiles_per_group = #all4, identity(%zero : tensor<64xf32>)
        : !ktdp.tile_future<tensor<64xf32>, groups = affine_set<(g) : (g == 0)>> -> tensor<64xf32> {
    ^bb0(%a: tensor<64xf32>, %b: tensor<64xf32>):
      %t = arith.addf %a, %b : tensor<64xf32>
      ktdp.yield_reduced %t : tensor<64xf32>
    }
    %is0 = arith.cmpi eq, %pid, %c0 : index
    scf.if %is0 {
      %inv = arith.constant dense<3.125000e-02> : tensor<64xf32>
      %m = arith.mulf %s, %inv : tensor<64xf32>
      %mh = arith.truncf %m : tensor<64xf32> to tensor<64xf16>
      %OUT = ktdp.construct_memory_view %out_ptr, sizes: [64], strides: [1] {coordinate_set = #o_set, memory_space = #ktdp.memory_space<global>} : memref<64xf16>
      %to = ktdp.construct_access_tile %OUT[0] {access_tile_set = #o_set, access_tile_order = #id1} : memref<64xf16> -> !ktdp.access_tile<64xindex>
      ktdp.store %mh, %to : tensor<64xf16>, <64xindex>
    }
    return
  }
}
