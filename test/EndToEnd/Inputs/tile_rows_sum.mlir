// tile_rows_sum.mlir - sum of squares over 4 tiles plus a bias, stored by
// tile 0 in Triton's spelling (`tt.get_program_id` as an i32 compared with
// 0 in `scf.if`, the output's view built inside the branch, the bias
// loaded before it and sunk into it by ktdf-lower-if).
//
// Computes, for r < 4, c < 32, all values f32:
//   Y[r, c] = (((0 + X[r, c]^2) + X[4 + r, c]^2) + X[8 + r, c]^2)
//             + X[12 + r, c]^2 + B[r, c]
// Grid [4]: tile t squares rows 4t..4t+3 of X (16x32); one group of the 4
// tiles all-reduces the 4x32 squares.

#x_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 31 >= 0)>
#blk = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 31 >= 0)>
#all4 = affine_set<(i)[g] : (i >= 0, -i + 3 >= 0, g == 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @tile_rows_sum(%x_ptr: index, // X: 16x32 f32 (input)
                           %b_ptr: index, // B: 4x32 f32 (input)
                           %y_ptr: index) // Y: 4x32 f32 (output)
      attributes {grid = [4]} {
    %pid = ktdp.get_compute_tile_id : index
    %pid_i32 = arith.index_cast %pid : index to i32
    %c0_i32 = arith.constant 0 : i32
    %c4 = arith.constant 4 : index
    %X = ktdp.construct_memory_view %x_ptr, sizes: [16, 32], strides: [32, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<16x32xf32>
    %B = ktdp.construct_memory_view %b_ptr, sizes: [4, 32], strides: [32, 1] {coordinate_set = #blk, memory_space = #ktdp.memory_space<global>} : memref<4x32xf32>
    %row = arith.muli %pid, %c4 : index
    %tx = ktdp.construct_access_tile %X[%row, 0] {access_tile_set = #blk, access_tile_order = #id2} : memref<16x32xf32> -> !ktdp.access_tile<4x32xindex>
    %x = ktdp.load %tx : <4x32xindex> -> tensor<4x32xf32>
    %tb = ktdp.construct_access_tile %B[0, 0] {access_tile_set = #blk, access_tile_order = #id2} : memref<4x32xf32> -> !ktdp.access_tile<4x32xindex>
    %bias = ktdp.load %tb : <4x32xindex> -> tensor<4x32xf32>
    %sq = arith.mulf %x, %x : tensor<4x32xf32>
    %zero = arith.constant dense<0.0> : tensor<4x32xf32>
    %f = ktdp.inter_tile_produce producer_tiles_per_group = #all4
        : tensor<4x32xf32> -> !ktdp.tile_future<tensor<4x32xf32>, groups = affine_set<(g) : (g == 0)>> {
    ^bb0(%g: index):
      ktdp.yield_partial %sq : tensor<4x32xf32>
    }
    %s = ktdp.inter_tile_reduce(%f) consumer_tiles_per_group = #all4, identity(%zero : tensor<4x32xf32>)
        : !ktdp.tile_future<tensor<4x32xf32>, groups = affine_set<(g) : (g == 0)>> -> tensor<4x32xf32> {
    ^bb0(%a: tensor<4x32xf32>, %b: tensor<4x32xf32>):
      %r = arith.addf %a, %b : tensor<4x32xf32>
      ktdp.yield_reduced %r : tensor<4x32xf32>
    }
    %y = arith.addf %s, %bias : tensor<4x32xf32>
    %is_first = arith.cmpi eq, %pid_i32, %c0_i32 : i32
    scf.if %is_first {
      %Y = ktdp.construct_memory_view %y_ptr, sizes: [4, 32], strides: [32, 1] {coordinate_set = #blk, memory_space = #ktdp.memory_space<global>} : memref<4x32xf32>
      %ty = ktdp.construct_access_tile %Y[0, 0] {access_tile_set = #blk, access_tile_order = #id2} : memref<4x32xf32> -> !ktdp.access_tile<4x32xindex>
      ktdp.store %y, %ty : tensor<4x32xf32>, <4x32xindex>
    }
    return
  }
}
