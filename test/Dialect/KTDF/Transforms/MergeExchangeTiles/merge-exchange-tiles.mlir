// RUN: ktflow-opt %s -split-input-file --ktdf-import-target --ktdf-lower-inter-tile --ktdf-merge-exchange-tiles | FileCheck %s

// 16 tiles in 4 contiguous groups of 4 on sample_device's 8 lanes (4 cores
// of 2): runs of 2 tiles along the grid's one dimension stay inside their
// group, so tiles 2v and 2v + 1 become merged tile v of a grid [8]. It
// loads and folds both rows' maxima in ascending tile order (the partial
// of tile 2v the left operand), stores the fold into the exchange view,
// reduces over the merged groups of 2, and stores the result once per
// tile after the exchange (rows 2v and 2v + 1 of Y).

// CHECK-LABEL: func.func @groups_of_four
// CHECK-SAME: attributes {grid = [8]}
// CHECK: %[[V:.*]] = ktdp.get_compute_tile_id : index
// CHECK: %[[E:.*]] = ktdp.construct_memory_view %{{.*}}, sizes: [1, 64]{{.*}}ktdf.exchange
// CHECK-NEXT: %[[TE:.*]] = ktdp.construct_access_tile %[[E]][0, 0]
// CHECK: %[[T0:.*]] = arith.addi %{{.*}}, %c0{{.*}} : index
// CHECK: %[[TX0:.*]] = ktdp.construct_access_tile %{{.*}}[%[[T0]], 0]
// CHECK: %[[X0:.*]] = ktdp.load %[[TX0]]
// CHECK: %[[T1:.*]] = arith.addi %{{.*}}, %c1{{.*}} : index
// CHECK: %[[TX1:.*]] = ktdp.construct_access_tile %{{.*}}[%[[T1]], 0]
// CHECK: %[[X1:.*]] = ktdp.load %[[TX1]]
// CHECK: %[[M:.*]] = arith.maximumf %[[X0]], %[[X1]] : tensor<1x64xf16>
// CHECK-NEXT: ktdp.store %[[M]], %[[TE]]
// CHECK-NEXT: ktdf.all_reduce %[[E]], %{{.*}} {combiner = "arith.maximumf", groups = [array<i64: 0, 1>, array<i64: 2, 3>, array<i64: 4, 5>, array<i64: 6, 7>]}
// CHECK: %[[R0:.*]] = ktdp.load %[[TE]]
// CHECK: %[[TY0:.*]] = ktdp.construct_access_tile %{{.*}}[%[[T0]], 0]
// CHECK: ktdp.store %[[R0]], %[[TY0]]
// CHECK: %[[R1:.*]] = ktdp.load %[[TE]]
// CHECK: %[[TY1:.*]] = ktdp.construct_access_tile %{{.*}}[%[[T1]], 0]
// CHECK: ktdp.store %[[R1]], %[[TY1]]
// CHECK-NOT: ktdp.store

ktdf_arch.target @sample_device from "../../../../../examples/devices/sample_device.mlir"
    memory_map #ktdf_arch.map<"global" = "DDR", "ct_local" = "L1">
#x_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#row = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 63 >= 0)>
#quad = affine_set<(i)[g] : (i - 4*g >= 0, -i + 4*g + 3 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @groups_of_four(%x_ptr: index, %y_ptr: index) attributes {grid = [16]} {
  %pid = ktdp.get_compute_tile_id : index
  %X = ktdp.construct_memory_view %x_ptr, sizes: [16, 64], strides: [64, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<16x64xf16>
  %Y = ktdp.construct_memory_view %y_ptr, sizes: [16, 64], strides: [64, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<16x64xf16>
  %tx = ktdp.construct_access_tile %X[%pid, 0] {access_tile_set = #row, access_tile_order = #id2} : memref<16x64xf16> -> !ktdp.access_tile<1x64xindex>
  %x = ktdp.load %tx : <1x64xindex> -> tensor<1x64xf16>
  %ninf = arith.constant dense<0xFC00> : tensor<1x64xf16>
  %f = ktdp.inter_tile_produce producer_tiles_per_group = #quad
      : tensor<1x64xf16> -> !ktdp.tile_future<tensor<1x64xf16>, groups = affine_set<(g) : (g >= 0, -g + 3 >= 0)>> {
  ^bb0(%g: index):
    ktdp.yield_partial %x : tensor<1x64xf16>
  }
  %s = ktdp.inter_tile_reduce(%f) consumer_tiles_per_group = #quad, identity(%ninf : tensor<1x64xf16>)
      : !ktdp.tile_future<tensor<1x64xf16>, groups = affine_set<(g) : (g >= 0, -g + 3 >= 0)>> -> tensor<1x64xf16> {
  ^bb0(%a: tensor<1x64xf16>, %b: tensor<1x64xf16>):
    %r = arith.maximumf %a, %b : tensor<1x64xf16>
    ktdp.yield_reduced %r : tensor<1x64xf16>
  }
  %ty = ktdp.construct_access_tile %Y[%pid, 0] {access_tile_set = #row, access_tile_order = #id2} : memref<16x64xf16> -> !ktdp.access_tile<1x64xindex>
  ktdp.store %s, %ty : tensor<1x64xf16>, <1x64xindex>
  return
}

// -----

// splitk_pv's groups: a [2, 16] grid (x fastest in the linear id) in 2
// groups of 16, group x = i mod 2. On mesh_device's 16 lanes runs of 2
// tiles along x would mix the groups; along y they do not, so the grid
// becomes [2, 8] and merged tile (x, w) runs tiles (x, 2w) and (x, 2w + 1),
// its partials added in that order. The merged groups are x = i mod 2 of
// the 16 merged tiles.

// CHECK-LABEL: func.func @strided
// CHECK-SAME: attributes {grid = [2, 8]}
// CHECK: %[[V:.*]]:2 = ktdp.get_compute_tile_id : index, index
// CHECK: arith.muli %[[V]]#1, %c2
// CHECK: %[[A:.*]] = ktdp.load
// CHECK: arith.muli %[[V]]#1, %c2
// CHECK: %[[B:.*]] = ktdp.load
// CHECK: %[[S:.*]] = arith.addf %[[A]], %[[B]] : tensor<1x64xf32>
// CHECK-NEXT: ktdp.store %[[S]]
// CHECK-NEXT: ktdf.all_reduce {{.*}}groups = [array<i64: 0, 2, 4, 6, 8, 10, 12, 14>, array<i64: 1, 3, 5, 7, 9, 11, 13, 15>]

ktdf_arch.target @mesh_device from "../../../../../examples/devices/mesh_device.mlir"
    memory_map #ktdf_arch.map<"global" = "HBM", "ct_local" = "SPM">
#x_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 31 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#row = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 63 >= 0)>
#cols = affine_set<(i)[g] : ((i - g) mod 2 == 0, i - g >= 0, -i + g + 30 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @strided(%x_ptr: index, %y_ptr: index) attributes {grid = [2, 16]} {
  %px, %py = ktdp.get_compute_tile_id : index, index
  %c2 = arith.constant 2 : index
  %c16 = arith.constant 16 : index
  %X = ktdp.construct_memory_view %x_ptr, sizes: [32, 64], strides: [64, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<32x64xf32>
  %Y = ktdp.construct_memory_view %y_ptr, sizes: [32, 64], strides: [64, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<32x64xf32>
  %r0 = arith.muli %py, %c2 : index
  %r = arith.addi %r0, %px : index
  %tx = ktdp.construct_access_tile %X[%r, 0] {access_tile_set = #row, access_tile_order = #id2} : memref<32x64xf32> -> !ktdp.access_tile<1x64xindex>
  %x = ktdp.load %tx : <1x64xindex> -> tensor<1x64xf32>
  %zero = arith.constant dense<0.0> : tensor<1x64xf32>
  %f = ktdp.inter_tile_produce producer_tiles_per_group = #cols
      : tensor<1x64xf32> -> !ktdp.tile_future<tensor<1x64xf32>, groups = affine_set<(g) : (g >= 0, -g + 1 >= 0)>> {
  ^bb0(%g: index):
    ktdp.yield_partial %x : tensor<1x64xf32>
  }
  %s = ktdp.inter_tile_reduce(%f) consumer_tiles_per_group = #cols, identity(%zero : tensor<1x64xf32>)
      : !ktdp.tile_future<tensor<1x64xf32>, groups = affine_set<(g) : (g >= 0, -g + 1 >= 0)>> -> tensor<1x64xf32> {
  ^bb0(%a: tensor<1x64xf32>, %b: tensor<1x64xf32>):
    %t = arith.addf %a, %b : tensor<1x64xf32>
    ktdp.yield_reduced %t : tensor<1x64xf32>
  }
  %ty = ktdp.construct_access_tile %Y[%r, 0] {access_tile_set = #row, access_tile_order = #id2} : memref<32x64xf32> -> !ktdp.access_tile<1x64xindex>
  ktdp.store %s, %ty : tensor<1x64xf32>, <1x64xindex>
  return
}

// -----

// No more tiles than lanes: nothing changes.

// CHECK-LABEL: func.func @fits
// CHECK-SAME: attributes {grid = [8]}
// CHECK: ktdf.all_reduce {{.*}}groups = [array<i64: 0, 1, 2, 3, 4, 5, 6, 7>]

ktdf_arch.target @sample_device from "../../../../../examples/devices/sample_device.mlir"
    memory_map #ktdf_arch.map<"global" = "DDR", "ct_local" = "L1">
#x_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#row = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 63 >= 0)>
#all = affine_set<(i)[g] : (i >= 0, -i + 7 >= 0, g == 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @fits(%x_ptr: index, %y_ptr: index) attributes {grid = [8]} {
  %pid = ktdp.get_compute_tile_id : index
  %X = ktdp.construct_memory_view %x_ptr, sizes: [8, 64], strides: [64, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<8x64xf16>
  %tx = ktdp.construct_access_tile %X[%pid, 0] {access_tile_set = #row, access_tile_order = #id2} : memref<8x64xf16> -> !ktdp.access_tile<1x64xindex>
  %x = ktdp.load %tx : <1x64xindex> -> tensor<1x64xf16>
  %zero = arith.constant dense<0.0> : tensor<1x64xf16>
  %f = ktdp.inter_tile_produce producer_tiles_per_group = #all
      : tensor<1x64xf16> -> !ktdp.tile_future<tensor<1x64xf16>, groups = affine_set<(g) : (g == 0)>> {
  ^bb0(%g: index):
    ktdp.yield_partial %x : tensor<1x64xf16>
  }
  %s = ktdp.inter_tile_reduce(%f) consumer_tiles_per_group = #all, identity(%zero : tensor<1x64xf16>)
      : !ktdp.tile_future<tensor<1x64xf16>, groups = affine_set<(g) : (g == 0)>> -> tensor<1x64xf16> {
  ^bb0(%a: tensor<1x64xf16>, %b: tensor<1x64xf16>):
    %t = arith.addf %a, %b : tensor<1x64xf16>
    ktdp.yield_reduced %t : tensor<1x64xf16>
  }
  ktdp.store %s, %tx : tensor<1x64xf16>, <1x64xindex>
  return
}

// -----

// One group of all 16 tiles on sample_device: runs of 2 would give 8
// merged tiles, two on each of its 4 cores (the second lanes), and the
// ring sends between different cores' scratchpads; runs of 4 give one
// merged tile per core. Its four partials are added in ascending order,
// each as soon as it is loaded.

// CHECK-LABEL: func.func @one_group
// CHECK-SAME: attributes {grid = [4]}
// CHECK: %[[A:.*]] = ktdp.load
// CHECK: %[[B:.*]] = ktdp.load
// CHECK: %[[AB:.*]] = arith.addf %[[A]], %[[B]]
// CHECK: %[[C:.*]] = ktdp.load
// CHECK: %[[ABC:.*]] = arith.addf %[[AB]], %[[C]]
// CHECK: %[[D:.*]] = ktdp.load
// CHECK: %[[ABCD:.*]] = arith.addf %[[ABC]], %[[D]]
// CHECK-NEXT: ktdp.store %[[ABCD]]
// CHECK-NEXT: ktdf.all_reduce {{.*}}groups = [array<i64: 0, 1, 2, 3>]

ktdf_arch.target @sample_device from "../../../../../examples/devices/sample_device.mlir"
    memory_map #ktdf_arch.map<"global" = "DDR", "ct_local" = "L1">
#x_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#row = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 63 >= 0)>
#all = affine_set<(i)[g] : (i >= 0, -i + 15 >= 0, g == 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @one_group(%x_ptr: index, %y_ptr: index) attributes {grid = [16]} {
  %pid = ktdp.get_compute_tile_id : index
  %X = ktdp.construct_memory_view %x_ptr, sizes: [16, 64], strides: [64, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<16x64xf16>
  %Y = ktdp.construct_memory_view %y_ptr, sizes: [16, 64], strides: [64, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<16x64xf16>
  %tx = ktdp.construct_access_tile %X[%pid, 0] {access_tile_set = #row, access_tile_order = #id2} : memref<16x64xf16> -> !ktdp.access_tile<1x64xindex>
  %ty = ktdp.construct_access_tile %Y[%pid, 0] {access_tile_set = #row, access_tile_order = #id2} : memref<16x64xf16> -> !ktdp.access_tile<1x64xindex>
  %x = ktdp.load %tx : <1x64xindex> -> tensor<1x64xf16>
  %zero = arith.constant dense<0.0> : tensor<1x64xf16>
  %f = ktdp.inter_tile_produce producer_tiles_per_group = #all
      : tensor<1x64xf16> -> !ktdp.tile_future<tensor<1x64xf16>, groups = affine_set<(g) : (g == 0)>> {
  ^bb0(%g: index):
    ktdp.yield_partial %x : tensor<1x64xf16>
  }
  %s = ktdp.inter_tile_reduce(%f) consumer_tiles_per_group = #all, identity(%zero : tensor<1x64xf16>)
      : !ktdp.tile_future<tensor<1x64xf16>, groups = affine_set<(g) : (g == 0)>> -> tensor<1x64xf16> {
  ^bb0(%a: tensor<1x64xf16>, %b: tensor<1x64xf16>):
    %t = arith.addf %a, %b : tensor<1x64xf16>
    ktdp.yield_reduced %t : tensor<1x64xf16>
  }
  ktdp.store %s, %ty : tensor<1x64xf16>, <1x64xindex>
  return
}

// -----

// A broadcast (examples/kernels/realworld/broadcast_rows.mlir's): tile 0's
// scaled W to all 32 tiles of a [32, 1] grid, mesh_device's 16 lanes. Runs
// of 2 tiles take their value from one tile, and the sources (tile 0
// alone) lie at position 0 of their runs, so the merged tile stores the
// partial of its first tile into the exchange views (tile 0 consumes its
// own: the second view too) and every merged tile consumes merged tile
// 0's. After the copy, each tile of the run scales its rows.

// CHECK-LABEL: func.func @broadcast
// CHECK-SAME: attributes {grid = [16, 1]}
// CHECK: %[[W0:.*]] = ktdp.load
// CHECK: %[[S0:.*]] = arith.mulf %[[W0]]
// CHECK: ktdp.load
// CHECK: arith.mulf
// CHECK-NEXT: ktdp.store %[[S0]]
// CHECK-NEXT: ktdp.store %[[S0]]
// CHECK-NEXT: ktdf.tile_copy {{.*}}sources = array<i64: 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0>, stored_locally
// CHECK-COUNT-2: ktdp.store %{{.*}} : tensor<2x128xf16>

ktdf_arch.target @mesh_device from "../../../../../examples/devices/mesh_device.mlir"
    memory_map #ktdf_arch.map<"global" = "HBM", "ct_local" = "SPM">
#x_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#w_set = affine_set<(d0) : (d0 >= 0, -d0 + 127 >= 0)>
#rows2 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#tile0 = affine_set<(i)[g] : (i == 0, g == 0)>
#all32 = affine_set<(i)[g] : (i >= 0, -i + 31 >= 0, g == 0)>
#id1 = affine_map<(d0) -> (d0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @broadcast(%x_ptr: index, %w_ptr: index, %y_ptr: index) attributes {grid = [32, 1]} {
  %pid = ktdp.get_compute_tile_id : index
  %c2 = arith.constant 2 : index
  %half = arith.constant 5.000000e-01 : f16
  %row0 = arith.muli %pid, %c2 : index
  %W = ktdp.construct_memory_view %w_ptr, sizes: [128], strides: [1] {coordinate_set = #w_set, memory_space = #ktdp.memory_space<global>} : memref<128xf16>
  %X = ktdp.construct_memory_view %x_ptr, sizes: [64, 128], strides: [128, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<64x128xf16>
  %Y = ktdp.construct_memory_view %y_ptr, sizes: [64, 128], strides: [128, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<64x128xf16>
  %fut = ktdp.inter_tile_produce producer_tiles_per_group = #tile0
      : tensor<128xf16> -> !ktdp.tile_future<tensor<128xf16>, groups = affine_set<(g) : (g == 0)>> {
  ^bb0(%gid: index):
    %tw = ktdp.construct_access_tile %W[0] {access_tile_set = #w_set, access_tile_order = #id1} : memref<128xf16> -> !ktdp.access_tile<128xindex>
    %w = ktdp.load %tw : <128xindex> -> tensor<128xf16>
    %halves = tensor.splat %half : tensor<128xf16>
    %s = arith.mulf %w, %halves : tensor<128xf16>
    ktdp.yield_partial %s : tensor<128xf16>
  }
  %scale = ktdp.inter_tile_consume(%fut) consumer_tiles_per_group = #all32
      : !ktdp.tile_future<tensor<128xf16>, groups = affine_set<(g) : (g == 0)>> -> tensor<128xf16>
  %tx = ktdp.construct_access_tile %X[%row0, 0] {access_tile_set = #rows2, access_tile_order = #id2} : memref<64x128xf16> -> !ktdp.access_tile<2x128xindex>
  %x = ktdp.load %tx : <2x128xindex> -> tensor<2x128xf16>
  %e = tensor.empty() : tensor<2x128xf16>
  %sb = linalg.broadcast ins(%scale : tensor<128xf16>) outs(%e : tensor<2x128xf16>) dimensions = [0]
  %y = arith.mulf %x, %sb : tensor<2x128xf16>
  %ty = ktdp.construct_access_tile %Y[%row0, 0] {access_tile_set = #rows2, access_tile_order = #id2} : memref<64x128xf16> -> !ktdp.access_tile<2x128xindex>
  ktdp.store %y, %ty : tensor<2x128xf16>, <2x128xindex>
  return
}
