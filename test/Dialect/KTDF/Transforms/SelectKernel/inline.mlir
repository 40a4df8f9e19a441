// RUN: ktflow-opt %s --ktdf-select-kernel -split-input-file | FileCheck %s

// The kernel keeps its grid; the helpers it calls (one calling another,
// one building a view and loading a tile on its caller's tiles) are
// inlined where the calls were, and every other function is gone.

// CHECK-LABEL: func.func @gated
// CHECK-SAME: attributes {grid = [8]}
// CHECK-NOT: func.call
// CHECK: %[[ID:.*]] = ktdp.get_compute_tile_id
// CHECK: %[[ROW:.*]] = arith.muli %[[ID]]
// CHECK: %[[VIEW:.*]] = ktdp.construct_memory_view %arg0
// CHECK: %[[TILE:.*]] = ktdp.construct_access_tile %[[VIEW]][%[[ROW]], 0]
// CHECK: %[[X:.*]] = ktdp.load %[[TILE]]
// CHECK: %[[NEG:.*]] = arith.negf %[[X]]
// CHECK: %[[E:.*]] = math.exp %[[NEG]]
// CHECK: %[[DEN:.*]] = arith.addf %[[E]]
// CHECK: %[[SIG:.*]] = arith.divf %{{.*}}, %[[DEN]]
// CHECK: %[[OUT:.*]] = arith.mulf %[[X]], %[[SIG]]
// CHECK: ktdp.store %[[OUT]]
// CHECK-NOT: func.func
#mat = affine_set<(d0, d1) : (d0 >= 0, -d0 + 31 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#block = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func private @sigmoid(%x: tensor<4x64xf32>) -> tensor<4x64xf32> {
    %one = arith.constant dense<1.0> : tensor<4x64xf32>
    %neg = arith.negf %x : tensor<4x64xf32>
    %e = math.exp %neg : tensor<4x64xf32>
    %den = arith.addf %e, %one : tensor<4x64xf32>
    %s = arith.divf %one, %den : tensor<4x64xf32>
    return %s : tensor<4x64xf32>
  }
  func.func private @silu(%x: tensor<4x64xf32>) -> tensor<4x64xf32> {
    %s = func.call @sigmoid(%x) : (tensor<4x64xf32>) -> tensor<4x64xf32>
    %y = arith.mulf %x, %s : tensor<4x64xf32>
    return %y : tensor<4x64xf32>
  }
  func.func private @load_block(%p: index, %row: index) -> tensor<4x64xf32> {
    %X = ktdp.construct_memory_view %p, sizes: [32, 64], strides: [64, 1] {coordinate_set = #mat, memory_space = #ktdp.memory_space<global>} : memref<32x64xf32>
    %t = ktdp.construct_access_tile %X[%row, 0] {access_tile_set = #block, access_tile_order = #id2} : memref<32x64xf32> -> !ktdp.access_tile<4x64xindex>
    %x = ktdp.load %t : <4x64xindex> -> tensor<4x64xf32>
    return %x : tensor<4x64xf32>
  }
  func.func @gated(%x: index, %y: index) attributes {grid = [8]} {
    %id = ktdp.get_compute_tile_id : index
    %c4 = arith.constant 4 : index
    %row = arith.muli %id, %c4 : index
    %xt = func.call @load_block(%x, %row) : (index, index) -> tensor<4x64xf32>
    %o = func.call @silu(%xt) : (tensor<4x64xf32>) -> tensor<4x64xf32>
    %Y = ktdp.construct_memory_view %y, sizes: [32, 64], strides: [64, 1] {coordinate_set = #mat, memory_space = #ktdp.memory_space<global>} : memref<32x64xf32>
    %ty = ktdp.construct_access_tile %Y[%row, 0] {access_tile_set = #block, access_tile_order = #id2} : memref<32x64xf32> -> !ktdp.access_tile<4x64xindex>
    ktdp.store %o, %ty : tensor<4x64xf32>, <4x64xindex>
    return
  }
}

// -----

// A function without a grid runs on one tile.

// CHECK-LABEL: func.func @one_tile
// CHECK-SAME: attributes {grid = [1]}
func.func @one_tile(%x: index) {
  return
}
