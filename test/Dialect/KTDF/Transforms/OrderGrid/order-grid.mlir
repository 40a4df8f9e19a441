// RUN: ktflow-opt %s -split-input-file --ktdf-mapping --ktdf-order-grid | FileCheck %s

// sample_device has 4 cores of 2 lanes. A [2, 4] grid (tile = px + 2 py)
// whose all-reduce groups are the four tiles 4g .. 4g + 3: in the default
// order (point = 4 px + py, on core point mod 4) tiles 0 and 1 share core
// 0. The parallel becomes [4, 2] (point = the kernel's tile), the
// coordinates swap, and the groups name the tiles of the new grid (tile
// px + 2 py is py + 4 px): {0, 1, 2, 3} becomes {0, 4, 1, 5}, points 0 to 3
// on cores 0 to 3.

// CHECK-LABEL: func.func @quad_groups
// CHECK: ktdf.parallel (%[[PY:.*]], %[[PX:.*]]) in [4, 2] {
// CHECK: arith.muli %[[PX]], %{{.*}} : index
// CHECK: arith.muli %[[PY]], %{{.*}} : index
// CHECK: ktdf.all_reduce %{{.*}}, %{{.*}} {combiner = "arith.addf", groups = [array<i64: 0, 4, 1, 5>, array<i64: 2, 6, 3, 7>]}

ktdf_arch.target @sample_device from "../../../../../examples/devices/sample_device.mlir"
    memory_map #ktdf_arch.map<"global" = "DDR", "ct_local" = "L1">
#x_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#row = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 63 >= 0)>
#quad = affine_set<(i)[g] : (i - 4*g >= 0, -i + 4*g + 3 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @quad_groups(%x_ptr: index, %y_ptr: index) attributes {grid = [2, 4]} {
  %px, %py = ktdp.get_compute_tile_id : index, index
  %c64 = arith.constant 64 : index
  %c2 = arith.constant 2 : index
  %col = arith.muli %px, %c64 : index
  %row = arith.muli %py, %c2 : index
  %X = ktdp.construct_memory_view %x_ptr, sizes: [8, 128], strides: [128, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<8x128xf16>
  %Y = ktdp.construct_memory_view %y_ptr, sizes: [8, 128], strides: [128, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<8x128xf16>
  %tx = ktdp.construct_access_tile %X[%row, %col] {access_tile_set = #row, access_tile_order = #id2} : memref<8x128xf16> -> !ktdp.access_tile<1x64xindex>
  %ty = ktdp.construct_access_tile %Y[%row, %col] {access_tile_set = #row, access_tile_order = #id2} : memref<8x128xf16> -> !ktdp.access_tile<1x64xindex>
  %x = ktdp.load %tx : <1x64xindex> -> tensor<1x64xf16>
  %zero = arith.constant dense<0.0> : tensor<1x64xf16>
  %f = ktdp.inter_tile_produce producer_tiles_per_group = #quad
      : tensor<1x64xf16> -> !ktdp.tile_future<tensor<1x64xf16>, groups = affine_set<(g) : (g >= 0, -g + 1 >= 0)>> {
  ^bb0(%g: index):
    ktdp.yield_partial %x : tensor<1x64xf16>
  }
  %s = ktdp.inter_tile_reduce(%f) consumer_tiles_per_group = #quad, identity(%zero : tensor<1x64xf16>)
      : !ktdp.tile_future<tensor<1x64xf16>, groups = affine_set<(g) : (g >= 0, -g + 1 >= 0)>> -> tensor<1x64xf16> {
  ^bb0(%a: tensor<1x64xf16>, %b: tensor<1x64xf16>):
    %r = arith.addf %a, %b : tensor<1x64xf16>
    ktdp.yield_reduced %r : tensor<1x64xf16>
  }
  ktdp.store %s, %ty : tensor<1x64xf16>, <1x64xindex>
  return
}

// -----

// The pairs {g, g + 2} of a [2, 2] grid: four points on four cores, any
// order separates them, and the parallel keeps its order.

// CHECK-LABEL: func.func @columns
// CHECK: ktdf.parallel (%{{.*}}, %{{.*}}) in [2, 2] {
// CHECK: groups = [array<i64: 0, 2>, array<i64: 1, 3>]

ktdf_arch.target @sample_device from "../../../../../examples/devices/sample_device.mlir"
    memory_map #ktdf_arch.map<"global" = "DDR", "ct_local" = "L1">
#x_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#row = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 63 >= 0)>
#half = affine_set<(i)[g] : ((i - g) mod 2 == 0, i - g >= 0, -i + g + 2 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @columns(%x_ptr: index, %y_ptr: index) attributes {grid = [2, 2]} {
  %px, %py = ktdp.get_compute_tile_id : index, index
  %c64 = arith.constant 64 : index
  %col = arith.muli %px, %c64 : index
  %X = ktdp.construct_memory_view %x_ptr, sizes: [8, 128], strides: [128, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<8x128xf16>
  %Y = ktdp.construct_memory_view %y_ptr, sizes: [8, 128], strides: [128, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<8x128xf16>
  %tx = ktdp.construct_access_tile %X[%py, %col] {access_tile_set = #row, access_tile_order = #id2} : memref<8x128xf16> -> !ktdp.access_tile<1x64xindex>
  %ty = ktdp.construct_access_tile %Y[%py, %col] {access_tile_set = #row, access_tile_order = #id2} : memref<8x128xf16> -> !ktdp.access_tile<1x64xindex>
  %x = ktdp.load %tx : <1x64xindex> -> tensor<1x64xf16>
  %zero = arith.constant dense<0.0> : tensor<1x64xf16>
  %f = ktdp.inter_tile_produce producer_tiles_per_group = #half
      : tensor<1x64xf16> -> !ktdp.tile_future<tensor<1x64xf16>, groups = affine_set<(g) : (g >= 0, -g + 1 >= 0)>> {
  ^bb0(%g: index):
    ktdp.yield_partial %x : tensor<1x64xf16>
  }
  %s = ktdp.inter_tile_reduce(%f) consumer_tiles_per_group = #half, identity(%zero : tensor<1x64xf16>)
      : !ktdp.tile_future<tensor<1x64xf16>, groups = affine_set<(g) : (g >= 0, -g + 1 >= 0)>> -> tensor<1x64xf16> {
  ^bb0(%a: tensor<1x64xf16>, %b: tensor<1x64xf16>):
    %r = arith.addf %a, %b : tensor<1x64xf16>
    ktdp.yield_reduced %r : tensor<1x64xf16>
  }
  ktdp.store %s, %ty : tensor<1x64xf16>, <1x64xindex>
  return
}
