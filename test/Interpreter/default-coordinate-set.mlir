// A memory view written without `coordinate_set` holds the box of its
// sizes, so accesses past a dynamic size are masked as with the explicit
// `(d0)[s0] : (d0 >= 0, -d0 + s0 - 1 >= 0)` set.
//
// @double_plus_one: a [2, 1] grid; tile t covers elements [4t, 4t + 4) of
// n = 6 f32 elements (an i32 size argument, index_cast to a dynamic view
// size): y[i] = 2 x[i] + 1 for i < 6; positions 6 and 7 are masked.
// RUN: python3 %S/../Simulator/Inputs/check_npy.py --write %t.x.npy "<f4" 6 "i"
// RUN: ktflow interp %s --func double_plus_one --arg n_i32=6 --input x_ptr=%t.x.npy --output y_ptr=%t.y.npy | FileCheck %s --check-prefix=DYN
// DYN: y_ptr: shape=6 dtype=f32 min=1 max=11 mean=6
// RUN: python3 %S/../Simulator/Inputs/check_npy.py %t.y.npy "2 * i + 1" 6
//
// @all_twos: the `.ktir` kernel's shape: a static 4-element view without a
// set; x + x with x = 1 gives 2 everywhere.
// RUN: ktflow interp %s --func all_twos --input x_ptr=value:1 | FileCheck %s --check-prefix=TWOS
// TWOS: y_ptr: shape=4 dtype=f32 min=2 max=2 mean=2

#blk = affine_set<(d0) : (d0 >= 0, -d0 + 3 >= 0)>
#id1 = affine_map<(d0) -> (d0)>
module {
  func.func @double_plus_one(%x_ptr: index,   // n f32 input
                             %y_ptr: index,   // n f32 output
                             %n_i32: i32)     // element count
      attributes {grid = [2, 1]} {
    %tid = ktdp.get_compute_tile_id : index
    %c4 = arith.constant 4 : index
    %n = arith.index_cast %n_i32 : i32 to index
    %start = arith.muli %tid, %c4 : index
    %X = ktdp.construct_memory_view %x_ptr, sizes: [%n], strides: [1] {memory_space = #ktdp.memory_space<global>} : memref<?xf32>
    %Y = ktdp.construct_memory_view %y_ptr, sizes: [%n], strides: [1] {memory_space = #ktdp.memory_space<global>} : memref<?xf32>
    %tx = ktdp.construct_access_tile %X[%start] {access_tile_set = #blk, access_tile_order = #id1} : memref<?xf32> -> !ktdp.access_tile<4xindex>
    %ty = ktdp.construct_access_tile %Y[%start] {access_tile_set = #blk, access_tile_order = #id1} : memref<?xf32> -> !ktdp.access_tile<4xindex>
    %v = ktdp.load %tx : <4xindex> -> tensor<4xf32>
    %two = arith.constant dense<2.0> : tensor<4xf32>
    %one = arith.constant dense<1.0> : tensor<4xf32>
    %d = arith.mulf %v, %two : tensor<4xf32>
    %w = arith.addf %d, %one : tensor<4xf32>
    ktdp.store %w, %ty : tensor<4xf32>, <4xindex>
    return
  }

  func.func @all_twos(%x_ptr: index, %y_ptr: index) attributes {grid = [1]} {
    %X = ktdp.construct_memory_view %x_ptr, sizes: [4], strides: [1] {memory_space = #ktdp.memory_space<global>} : memref<4xf32>
    %Y = ktdp.construct_memory_view %y_ptr, sizes: [4], strides: [1] {memory_space = #ktdp.memory_space<global>} : memref<4xf32>
    %tx = ktdp.construct_access_tile %X[0] {access_tile_set = #blk, access_tile_order = #id1} : memref<4xf32> -> !ktdp.access_tile<4xindex>
    %ty = ktdp.construct_access_tile %Y[0] {access_tile_set = #blk, access_tile_order = #id1} : memref<4xf32> -> !ktdp.access_tile<4xindex>
    %v = ktdp.load %tx : <4xindex> -> tensor<4xf32>
    %s = arith.addf %v, %v : tensor<4xf32>
    ktdp.store %s, %ty : tensor<4xf32>, <4xindex>
    return
  }
}
