// RUN: ktflow-opt %s -split-input-file --ktdf-lower-if --ktdf-import-target --ktdf-split-wide-reductions | FileCheck %s

// Kernels of several points that ktdf-split-wide-reductions leaves whole
// (no contraction to cut) whose tile 0 alone stores a value every tile
// holds: the all-reduced sum of squares (one group of the 4 tiles) plus a
// bias every tile loads alike. Each tile t stores its own rows of it
// instead, rows t of 4 (storeTileRows, OwnRowStores.cpp): the sum's rows
// sliced, the bias's rows loaded again, the store through the rows of its
// tile on every tile, the reduce marked `ktdf.scatter` so that
// ktdf-lower-inter-tile exchanges it as a reduce-scatter. The writer
// predicate in Triton's spelling: the tile id cast to i32, compared with
// 0.

// CHECK-LABEL: func.func @tile_rows
// CHECK: %[[ID:.*]] = ktdp.get_compute_tile_id : index
// CHECK: %[[S:.*]] = ktdp.inter_tile_reduce({{.*}}) {{.*}} {ktdf.scatter} : {{.*}} -> tensor<4x32xf32>
// CHECK: scf.for %{{.*}} = %{{.*}} to %c1
// CHECK: %[[TILE:.*]] = arith.addi %{{.*}}, %[[ID]]
// CHECK: %[[POS:.*]] = arith.divui %[[TILE]], %c1
// CHECK: %[[ROW:.*]] = arith.muli %[[POS]], %c1
// CHECK: %[[MINE:.*]] = tensor.extract_slice %[[S]][%[[ROW]], 0] [1, 32] [1, 1] : tensor<4x32xf32> to tensor<1x32xf32>
// CHECK: %[[BT:.*]] = ktdp.construct_access_tile %{{.*}}[%[[ROW]], 0] {{.*}} -> !ktdp.access_tile<1x32xindex>
// CHECK: %[[B:.*]] = ktdp.load %[[BT]] : <1x32xindex> -> tensor<1x32xf32>
// CHECK: %[[Y:.*]] = arith.addf %[[MINE]], %[[B]] : tensor<1x32xf32>
// CHECK: scf.for
// CHECK: %[[YT:.*]] = ktdp.construct_access_tile %{{.*}}[%[[ROW]], 0] {{.*}} -> !ktdp.access_tile<1x32xindex>
// CHECK: ktdp.store %[[Y]], %[[YT]] : tensor<1x32xf32>, <1x32xindex>
#x_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 31 >= 0)>
#blk = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 31 >= 0)>
#all4 = affine_set<(i)[g] : (i >= 0, -i + 3 >= 0, g == 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
module {
  ktdf_arch.target @mesh_device from "../../../../../examples/devices/mesh_device.mlir"
    memory_map #ktdf_arch.map<"global" = "HBM", "ct_local" = "SPM">
  func.func @tile_rows(%x_ptr: index, %b_ptr: index, %y_ptr: index, %z_ptr: index) attributes {grid = [4]} {
    %pid = ktdp.get_compute_tile_id : index
    %c4 = arith.constant 4 : index
    %c0 = arith.constant 0 : index
    %c0_i32 = arith.constant 0 : i32
    %X = ktdp.construct_memory_view %x_ptr, sizes: [16, 32], strides: [32, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<16x32xf32>
    %B = ktdp.construct_memory_view %b_ptr, sizes: [16, 32], strides: [32, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<16x32xf32>
    %row = arith.muli %pid, %c4 : index
    %tx = ktdp.construct_access_tile %X[%row, 0] {access_tile_set = #blk, access_tile_order = #id2} : memref<16x32xf32> -> !ktdp.access_tile<4x32xindex>
    %x = ktdp.load %tx : <4x32xindex> -> tensor<4x32xf32>
    %tb = ktdp.construct_access_tile %B[0, 0] {access_tile_set = #blk, access_tile_order = #id2} : memref<16x32xf32> -> !ktdp.access_tile<4x32xindex>
    %bias = ktdp.load %tb : <4x32xindex> -> tensor<4x32xf32>
    %zero = arith.constant dense<0.0> : tensor<4x32xf32>
    %p = arith.mulf %x, %x : tensor<4x32xf32>
    %f = ktdp.inter_tile_produce producer_tiles_per_group = #all4
        : tensor<4x32xf32> -> !ktdp.tile_future<tensor<4x32xf32>, groups = affine_set<(g) : (g == 0)>> {
    ^bb0(%g: index):
      ktdp.yield_partial %p : tensor<4x32xf32>
    }
    %s = ktdp.inter_tile_reduce(%f) consumer_tiles_per_group = #all4, identity(%zero : tensor<4x32xf32>)
        : !ktdp.tile_future<tensor<4x32xf32>, groups = affine_set<(g) : (g == 0)>> -> tensor<4x32xf32> {
    ^bb0(%a: tensor<4x32xf32>, %b: tensor<4x32xf32>):
      %r = arith.addf %a, %b : tensor<4x32xf32>
      ktdp.yield_reduced %r : tensor<4x32xf32>
    }
    %y = arith.addf %s, %bias : tensor<4x32xf32>
    %pid32 = arith.index_cast %pid : index to i32
    %w = arith.cmpi eq, %pid32, %c0_i32 : i32
    scf.if %w {
      %Y = ktdp.construct_memory_view %y_ptr, sizes: [4, 32], strides: [32, 1] {coordinate_set = #blk, memory_space = #ktdp.memory_space<global>} : memref<4x32xf32>
      %ty = ktdp.construct_access_tile %Y[0, 0] {access_tile_set = #blk, access_tile_order = #id2} : memref<4x32xf32> -> !ktdp.access_tile<4x32xindex>
      ktdp.store %y, %ty : tensor<4x32xf32>, <4x32xindex>
    }
    return
  }
}

// -----

// Refused, each keeping the whole all-reduce and tile 0's store of all 4
// rows:
//  * varying_bias: the bias is loaded at the tile's own rows (a tile id
//    places it): the value differs between tiles;
//  * rows_not_divisible: 2 rows over 4 tiles;
//  * writer_out_of_range: `scf.if %pid == 4` on a grid of 4: no tile
//    stores, and none may start;
//  * guard_with_effects: the branch also stores the bias, which must stay
//    tile 0's alone.

// CHECK-LABEL: func.func @varying_bias
// CHECK-NOT: ktdf.scatter
// CHECK-NOT: tensor.extract_slice
// CHECK: ktdp.store %{{.*}}, %{{.*}} : tensor<4x32xf32>, <4x32xindex>
#x_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 31 >= 0)>
#blk = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 31 >= 0)>
#all4 = affine_set<(i)[g] : (i >= 0, -i + 3 >= 0, g == 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
module {
  ktdf_arch.target @mesh_device from "../../../../../examples/devices/mesh_device.mlir"
    memory_map #ktdf_arch.map<"global" = "HBM", "ct_local" = "SPM">
  func.func @varying_bias(%x_ptr: index, %b_ptr: index, %y_ptr: index, %z_ptr: index) attributes {grid = [4]} {
    %pid = ktdp.get_compute_tile_id : index
    %c4 = arith.constant 4 : index
    %c0 = arith.constant 0 : index
    %c0_i32 = arith.constant 0 : i32
    %X = ktdp.construct_memory_view %x_ptr, sizes: [16, 32], strides: [32, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<16x32xf32>
    %B = ktdp.construct_memory_view %b_ptr, sizes: [16, 32], strides: [32, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<16x32xf32>
    %row = arith.muli %pid, %c4 : index
    %tx = ktdp.construct_access_tile %X[%row, 0] {access_tile_set = #blk, access_tile_order = #id2} : memref<16x32xf32> -> !ktdp.access_tile<4x32xindex>
    %x = ktdp.load %tx : <4x32xindex> -> tensor<4x32xf32>
    %tb = ktdp.construct_access_tile %B[%row, 0] {access_tile_set = #blk, access_tile_order = #id2} : memref<16x32xf32> -> !ktdp.access_tile<4x32xindex>
    %bias = ktdp.load %tb : <4x32xindex> -> tensor<4x32xf32>
    %zero = arith.constant dense<0.0> : tensor<4x32xf32>
    %p = arith.mulf %x, %x : tensor<4x32xf32>
    %f = ktdp.inter_tile_produce producer_tiles_per_group = #all4
        : tensor<4x32xf32> -> !ktdp.tile_future<tensor<4x32xf32>, groups = affine_set<(g) : (g == 0)>> {
    ^bb0(%g: index):
      ktdp.yield_partial %p : tensor<4x32xf32>
    }
    %s = ktdp.inter_tile_reduce(%f) consumer_tiles_per_group = #all4, identity(%zero : tensor<4x32xf32>)
        : !ktdp.tile_future<tensor<4x32xf32>, groups = affine_set<(g) : (g == 0)>> -> tensor<4x32xf32> {
    ^bb0(%a: tensor<4x32xf32>, %b: tensor<4x32xf32>):
      %r = arith.addf %a, %b : tensor<4x32xf32>
      ktdp.yield_reduced %r : tensor<4x32xf32>
    }
    %y = arith.addf %s, %bias : tensor<4x32xf32>
    %w = arith.cmpi eq, %pid, %c0 : index
    scf.if %w {
      %Y = ktdp.construct_memory_view %y_ptr, sizes: [4, 32], strides: [32, 1] {coordinate_set = #blk, memory_space = #ktdp.memory_space<global>} : memref<4x32xf32>
      %ty = ktdp.construct_access_tile %Y[0, 0] {access_tile_set = #blk, access_tile_order = #id2} : memref<4x32xf32> -> !ktdp.access_tile<4x32xindex>
      ktdp.store %y, %ty : tensor<4x32xf32>, <4x32xindex>
    }
    return
  }
}

// -----

// CHECK-LABEL: func.func @rows_not_divisible
// CHECK-NOT: ktdf.scatter
// CHECK: ktdp.store %{{.*}}, %{{.*}} : tensor<2x32xf32>, <2x32xindex>
#x_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 31 >= 0)>
#blk = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 31 >= 0)>
#all4 = affine_set<(i)[g] : (i >= 0, -i + 3 >= 0, g == 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
module {
  ktdf_arch.target @mesh_device from "../../../../../examples/devices/mesh_device.mlir"
    memory_map #ktdf_arch.map<"global" = "HBM", "ct_local" = "SPM">
  func.func @rows_not_divisible(%x_ptr: index, %b_ptr: index, %y_ptr: index, %z_ptr: index) attributes {grid = [4]} {
    %pid = ktdp.get_compute_tile_id : index
    %c4 = arith.constant 4 : index
    %c0 = arith.constant 0 : index
    %c0_i32 = arith.constant 0 : i32
    %X = ktdp.construct_memory_view %x_ptr, sizes: [16, 32], strides: [32, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<16x32xf32>
    %B = ktdp.construct_memory_view %b_ptr, sizes: [16, 32], strides: [32, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<16x32xf32>
    %row = arith.muli %pid, %c4 : index
    %tx = ktdp.construct_access_tile %X[%row, 0] {access_tile_set = #blk, access_tile_order = #id2} : memref<16x32xf32> -> !ktdp.access_tile<2x32xindex>
    %x = ktdp.load %tx : <2x32xindex> -> tensor<2x32xf32>
    %tb = ktdp.construct_access_tile %B[0, 0] {access_tile_set = #blk, access_tile_order = #id2} : memref<16x32xf32> -> !ktdp.access_tile<2x32xindex>
    %bias = ktdp.load %tb : <2x32xindex> -> tensor<2x32xf32>
    %zero = arith.constant dense<0.0> : tensor<2x32xf32>
    %p = arith.mulf %x, %x : tensor<2x32xf32>
    %f = ktdp.inter_tile_produce producer_tiles_per_group = #all4
        : tensor<2x32xf32> -> !ktdp.tile_future<tensor<2x32xf32>, groups = affine_set<(g) : (g == 0)>> {
    ^bb0(%g: index):
      ktdp.yield_partial %p : tensor<2x32xf32>
    }
    %s = ktdp.inter_tile_reduce(%f) consumer_tiles_per_group = #all4, identity(%zero : tensor<2x32xf32>)
        : !ktdp.tile_future<tensor<2x32xf32>, groups = affine_set<(g) : (g == 0)>> -> tensor<2x32xf32> {
    ^bb0(%a: tensor<2x32xf32>, %b: tensor<2x32xf32>):
      %r = arith.addf %a, %b : tensor<2x32xf32>
      ktdp.yield_reduced %r : tensor<2x32xf32>
    }
    %y = arith.addf %s, %bias : tensor<2x32xf32>
    %w = arith.cmpi eq, %pid, %c0 : index
    scf.if %w {
      %Y = ktdp.construct_memory_view %y_ptr, sizes: [2, 32], strides: [32, 1] {coordinate_set = #blk, memory_space = #ktdp.memory_space<global>} : memref<2x32xf32>
      %ty = ktdp.construct_access_tile %Y[0, 0] {access_tile_set = #blk, access_tile_order = #id2} : memref<2x32xf32> -> !ktdp.access_tile<2x32xindex>
      ktdp.store %y, %ty : tensor<2x32xf32>, <2x32xindex>
    }
    return
  }
}

// -----

// CHECK-LABEL: func.func @writer_out_of_range
// CHECK-NOT: ktdf.scatter
// CHECK: ktdp.store %{{.*}}, %{{.*}} : tensor<4x32xf32>, <4x32xindex>
#x_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 31 >= 0)>
#blk = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 31 >= 0)>
#all4 = affine_set<(i)[g] : (i >= 0, -i + 3 >= 0, g == 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
module {
  ktdf_arch.target @mesh_device from "../../../../../examples/devices/mesh_device.mlir"
    memory_map #ktdf_arch.map<"global" = "HBM", "ct_local" = "SPM">
  func.func @writer_out_of_range(%x_ptr: index, %b_ptr: index, %y_ptr: index, %z_ptr: index) attributes {grid = [4]} {
    %pid = ktdp.get_compute_tile_id : index
    %c4 = arith.constant 4 : index
    %c4_ = arith.constant 4 : index
    %c0_i32 = arith.constant 0 : i32
    %X = ktdp.construct_memory_view %x_ptr, sizes: [16, 32], strides: [32, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<16x32xf32>
    %B = ktdp.construct_memory_view %b_ptr, sizes: [16, 32], strides: [32, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<16x32xf32>
    %row = arith.muli %pid, %c4 : index
    %tx = ktdp.construct_access_tile %X[%row, 0] {access_tile_set = #blk, access_tile_order = #id2} : memref<16x32xf32> -> !ktdp.access_tile<4x32xindex>
    %x = ktdp.load %tx : <4x32xindex> -> tensor<4x32xf32>
    %tb = ktdp.construct_access_tile %B[0, 0] {access_tile_set = #blk, access_tile_order = #id2} : memref<16x32xf32> -> !ktdp.access_tile<4x32xindex>
    %bias = ktdp.load %tb : <4x32xindex> -> tensor<4x32xf32>
    %zero = arith.constant dense<0.0> : tensor<4x32xf32>
    %p = arith.mulf %x, %x : tensor<4x32xf32>
    %f = ktdp.inter_tile_produce producer_tiles_per_group = #all4
        : tensor<4x32xf32> -> !ktdp.tile_future<tensor<4x32xf32>, groups = affine_set<(g) : (g == 0)>> {
    ^bb0(%g: index):
      ktdp.yield_partial %p : tensor<4x32xf32>
    }
    %s = ktdp.inter_tile_reduce(%f) consumer_tiles_per_group = #all4, identity(%zero : tensor<4x32xf32>)
        : !ktdp.tile_future<tensor<4x32xf32>, groups = affine_set<(g) : (g == 0)>> -> tensor<4x32xf32> {
    ^bb0(%a: tensor<4x32xf32>, %b: tensor<4x32xf32>):
      %r = arith.addf %a, %b : tensor<4x32xf32>
      ktdp.yield_reduced %r : tensor<4x32xf32>
    }
    %y = arith.addf %s, %bias : tensor<4x32xf32>
    %w = arith.cmpi eq, %pid, %c4_ : index
    scf.if %w {
      %Y = ktdp.construct_memory_view %y_ptr, sizes: [4, 32], strides: [32, 1] {coordinate_set = #blk, memory_space = #ktdp.memory_space<global>} : memref<4x32xf32>
      %ty = ktdp.construct_access_tile %Y[0, 0] {access_tile_set = #blk, access_tile_order = #id2} : memref<4x32xf32> -> !ktdp.access_tile<4x32xindex>
      ktdp.store %y, %ty : tensor<4x32xf32>, <4x32xindex>
    }
    return
  }
}

// -----

// CHECK-LABEL: func.func @guard_with_effects
// CHECK-NOT: ktdf.scatter
// CHECK: ktdp.store %{{.*}}, %{{.*}} : tensor<4x32xf32>, <4x32xindex>
// CHECK: ktdp.store %{{.*}}, %{{.*}} : tensor<4x32xf32>, <4x32xindex>
#x_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 31 >= 0)>
#blk = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 31 >= 0)>
#all4 = affine_set<(i)[g] : (i >= 0, -i + 3 >= 0, g == 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
module {
  ktdf_arch.target @mesh_device from "../../../../../examples/devices/mesh_device.mlir"
    memory_map #ktdf_arch.map<"global" = "HBM", "ct_local" = "SPM">
  func.func @guard_with_effects(%x_ptr: index, %b_ptr: index, %y_ptr: index, %z_ptr: index) attributes {grid = [4]} {
    %pid = ktdp.get_compute_tile_id : index
    %c4 = arith.constant 4 : index
    %c0 = arith.constant 0 : index
    %c0_i32 = arith.constant 0 : i32
    %X = ktdp.construct_memory_view %x_ptr, sizes: [16, 32], strides: [32, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<16x32xf32>
    %B = ktdp.construct_memory_view %b_ptr, sizes: [16, 32], strides: [32, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<16x32xf32>
    %row = arith.muli %pid, %c4 : index
    %tx = ktdp.construct_access_tile %X[%row, 0] {access_tile_set = #blk, access_tile_order = #id2} : memref<16x32xf32> -> !ktdp.access_tile<4x32xindex>
    %x = ktdp.load %tx : <4x32xindex> -> tensor<4x32xf32>
    %tb = ktdp.construct_access_tile %B[0, 0] {access_tile_set = #blk, access_tile_order = #id2} : memref<16x32xf32> -> !ktdp.access_tile<4x32xindex>
    %bias = ktdp.load %tb : <4x32xindex> -> tensor<4x32xf32>
    %zero = arith.constant dense<0.0> : tensor<4x32xf32>
    %p = arith.mulf %x, %x : tensor<4x32xf32>
    %f = ktdp.inter_tile_produce producer_tiles_per_group = #all4
        : tensor<4x32xf32> -> !ktdp.tile_future<tensor<4x32xf32>, groups = affine_set<(g) : (g == 0)>> {
    ^bb0(%g: index):
      ktdp.yield_partial %p : tensor<4x32xf32>
    }
    %s = ktdp.inter_tile_reduce(%f) consumer_tiles_per_group = #all4, identity(%zero : tensor<4x32xf32>)
        : !ktdp.tile_future<tensor<4x32xf32>, groups = affine_set<(g) : (g == 0)>> -> tensor<4x32xf32> {
    ^bb0(%a: tensor<4x32xf32>, %b: tensor<4x32xf32>):
      %r = arith.addf %a, %b : tensor<4x32xf32>
      ktdp.yield_reduced %r : tensor<4x32xf32>
    }
    %y = arith.addf %s, %bias : tensor<4x32xf32>
    %w = arith.cmpi eq, %pid, %c0 : index
    scf.if %w {
      %Y = ktdp.construct_memory_view %y_ptr, sizes: [4, 32], strides: [32, 1] {coordinate_set = #blk, memory_space = #ktdp.memory_space<global>} : memref<4x32xf32>
      %ty = ktdp.construct_access_tile %Y[0, 0] {access_tile_set = #blk, access_tile_order = #id2} : memref<4x32xf32> -> !ktdp.access_tile<4x32xindex>
      ktdp.store %y, %ty : tensor<4x32xf32>, <4x32xindex>
      %Z = ktdp.construct_memory_view %z_ptr, sizes: [4, 32], strides: [32, 1] {coordinate_set = #blk, memory_space = #ktdp.memory_space<global>} : memref<4x32xf32>
      %tz = ktdp.construct_access_tile %Z[0, 0] {access_tile_set = #blk, access_tile_order = #id2} : memref<4x32xf32> -> !ktdp.access_tile<4x32xindex>
      ktdp.store %bias, %tz : tensor<4x32xf32>, <4x32xindex>
    }
    return
  }
}
