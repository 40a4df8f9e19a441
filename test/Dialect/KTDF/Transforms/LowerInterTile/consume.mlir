// RUN: ktflow-opt %s --ktdf-lower-inter-tile -split-input-file | FileCheck %s

// A broadcast: tile 0 alone produces (its body loads and scales W), all
// four tiles consume. The body runs on every tile before the exchange; the
// partial is stored into an exchange view (128 elements at element 0) and,
// since tile 0 consumes its own value, into the second one (at 128) too;
// the tile copy sends tile 0's view to every tile, and the result is
// loaded from the second view.

#v = affine_set<(d0) : (d0 >= 0, -d0 + 127 >= 0)>
#tile0 = affine_set<(i)[g] : (i == 0, g == 0)>
#all4 = affine_set<(i)[g] : (i >= 0, -i + 3 >= 0, g == 0)>
#id1 = affine_map<(d0) -> (d0)>
// CHECK-LABEL: func.func @broadcast
// CHECK-DAG: %[[RADDR:.*]] = arith.constant 128 : index
// CHECK-DAG: %[[EADDR:.*]] = arith.constant 0 : index
// CHECK-DAG: %[[R:.*]] = ktdp.construct_memory_view %[[RADDR]], sizes: [128], strides: [1] {coordinate_set = #{{.*}}, ktdf.exchange, memory_space = #ktdp.memory_space<ct_local, ct_id = 0>}
// CHECK-DAG: %[[TR:.*]] = ktdp.construct_access_tile %[[R]][0]
// CHECK-DAG: %[[E:.*]] = ktdp.construct_memory_view %[[EADDR]], sizes: [128], strides: [1] {coordinate_set = #{{.*}}, ktdf.exchange, memory_space = #ktdp.memory_space<ct_local, ct_id = 0>}
// CHECK-DAG: %[[TE:.*]] = ktdp.construct_access_tile %[[E]][0]
// CHECK: %[[W:.*]] = ktdp.load
// CHECK: %[[S:.*]] = arith.mulf %[[W]]
// CHECK-NEXT: ktdp.store %[[S]], %[[TE]]
// CHECK-NEXT: ktdp.store %[[S]], %[[TR]]
// CHECK-NEXT: ktdf.tile_copy %[[E]], %[[R]] {sources = array<i64: 0, 0, 0, 0>, stored_locally}
// CHECK-NEXT: %[[V:.*]] = ktdp.load %[[TR]] : <128xindex> -> tensor<128xf16>
// CHECK: ktdp.store %[[V]]
// CHECK-NOT: inter_tile
func.func @broadcast(%w_ptr: index, %y_ptr: index) attributes {grid = [4]} {
  %pid = ktdp.get_compute_tile_id : index
  %c128 = arith.constant 128 : index
  %half = arith.constant 5.000000e-01 : f16
  %W = ktdp.construct_memory_view %w_ptr, sizes: [128], strides: [1] {coordinate_set = #v, memory_space = #ktdp.memory_space<global>} : memref<128xf16>
  %fut = ktdp.inter_tile_produce producer_tiles_per_group = #tile0
      : tensor<128xf16> -> !ktdp.tile_future<tensor<128xf16>, groups = affine_set<(g) : (g == 0)>> {
  ^bb0(%gid: index):
    %tw = ktdp.construct_access_tile %W[0] {access_tile_set = #v, access_tile_order = #id1} : memref<128xf16> -> !ktdp.access_tile<128xindex>
    %w = ktdp.load %tw : <128xindex> -> tensor<128xf16>
    %halves = tensor.splat %half : tensor<128xf16>
    %s = arith.mulf %w, %halves : tensor<128xf16>
    ktdp.yield_partial %s : tensor<128xf16>
  }
  %scale = ktdp.inter_tile_consume(%fut) consumer_tiles_per_group = #all4
      : !ktdp.tile_future<tensor<128xf16>, groups = affine_set<(g) : (g == 0)>> -> tensor<128xf16>
  %y_base = arith.muli %pid, %c128 : index
  %y_at = arith.addi %y_ptr, %y_base : index
  %Y = ktdp.construct_memory_view %y_at, sizes: [128], strides: [1] {coordinate_set = #v, memory_space = #ktdp.memory_space<global>} : memref<128xf16>
  %ty = ktdp.construct_access_tile %Y[0] {access_tile_set = #v, access_tile_order = #id1} : memref<128xf16> -> !ktdp.access_tile<128xindex>
  ktdp.store %scale, %ty : tensor<128xf16>, <128xindex>
  return
}

// -----

// A ring shift routed by a dependency set (consumer c takes the row of
// p = (c + 3) mod 4), in two groups of two tiles on a [2, 2] grid with a
// (p)[c, g] set: no tile consumes its own value, so nothing is stored into
// the second view locally (no stored_locally). The row loaded before the
// exchange and used after it is loaded again after it.

#x = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#row1 = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 63 >= 0)>
#pairs = affine_set<(i)[g] : (i - 2*g >= 0, -i + 2*g + 1 >= 0)>
#other = affine_set<(p)[c, g] : (p + c - 4*g - 1 == 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-LABEL: func.func @swap_pairs
// CHECK: %[[X:.*]] = ktdp.load
// CHECK-NEXT: ktdp.store %[[X]], %[[TE:.*]] :
// CHECK-NEXT: ktdf.tile_copy %{{.*}}, %{{.*}} {sources = array<i64: 1, 0, 3, 2>}
// CHECK-NEXT: %[[V:.*]] = ktdp.load
// CHECK-NEXT: %[[X2:.*]] = ktdp.load
// CHECK-NEXT: arith.addf %[[X2]], %[[V]]
func.func @swap_pairs(%x_ptr: index, %y_ptr: index) attributes {grid = [2, 2]} {
  %pid = ktdp.get_compute_tile_id : index
  %X = ktdp.construct_memory_view %x_ptr, sizes: [4, 64], strides: [64, 1] {coordinate_set = #x, memory_space = #ktdp.memory_space<global>} : memref<4x64xf16>
  %Y = ktdp.construct_memory_view %y_ptr, sizes: [4, 64], strides: [64, 1] {coordinate_set = #x, memory_space = #ktdp.memory_space<global>} : memref<4x64xf16>
  %tx = ktdp.construct_access_tile %X[%pid, 0] {access_tile_set = #row1, access_tile_order = #id2} : memref<4x64xf16> -> !ktdp.access_tile<1x64xindex>
  %x = ktdp.load %tx : <1x64xindex> -> tensor<1x64xf16>
  %fut = ktdp.inter_tile_produce producer_tiles_per_group = #pairs
      -> <(tensor<1x64xf16>), groups = affine_set<(g) : (g >= 0, -g + 1 >= 0)>> {
  ^bb0(%gid: index):
    ktdp.yield_partial %x : tensor<1x64xf16>
  }
  %o = ktdp.inter_tile_consume(%fut) consumer_tiles_per_group = #pairs, producer_dependency_per_consumer = #other
      : <(tensor<1x64xf16>), groups = affine_set<(g) : (g >= 0, -g + 1 >= 0)>> -> tensor<1x64xf16>
  %s = arith.addf %x, %o : tensor<1x64xf16>
  %ty = ktdp.construct_access_tile %Y[%pid, 0] {access_tile_set = #row1, access_tile_order = #id2} : memref<4x64xf16> -> !ktdp.access_tile<1x64xindex>
  ktdp.store %s, %ty : tensor<1x64xf16>, <1x64xindex>
  return
}
