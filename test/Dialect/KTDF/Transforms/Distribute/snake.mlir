// RUN: ktflow-opt %s -split-input-file --ktdf-mapping --ktdf-route-transfers --ktdf-tile-streams=chunk=64 --ktdf-distribute | FileCheck %s
// RUN: ktflow-opt %s -split-input-file --ktdf-mapping --ktdf-route-transfers --ktdf-tile-streams=chunk=64 --ktdf-distribute=balance=false | FileCheck %s --check-prefix=BLOCKS

// sample_device has 4 cores of 2 sub-cores: 8 instances, 4 rounds of the
// 32 points. Point t walks t / 8 + 1 rows (a causal kernel's key blocks),
// one pipeline execution each. In contiguous blocks instance 7 gets points
// 28-31, 4 + 4 + 4 + 4 = 16 executions, instance 0 gets 4; dealt in snake
// order instance k gets points k, 15 - k, 16 + k and 31 - k, 1 + 2 + 3 + 4
// = 10 executions for every k: the busiest does 10 < 16, so the pass deals.

// CHECK-LABEL: func.func @causal
// CHECK: ktdf.parallel (%{{.*}}) in [32] distribute(num_instances = 8, snake)
// BLOCKS-LABEL: func.func @causal
// BLOCKS: ktdf.parallel (%{{.*}}) in [32] distribute(num_instances = 8) {

ktdf_arch.target @sample_device from "../../../../../examples/devices/sample_device.mlir"
    memory_map #ktdf_arch.map<"global" = "DDR", "ct_local" = "L1">

#x_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 255 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#row = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 63 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @causal(%x: index, %y: index) attributes {grid = [32]} {
  %pid = ktdp.get_compute_tile_id : index
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %q = arith.divui %pid, %c8 : index
  %n = arith.addi %q, %c1 : index
  %base = arith.muli %pid, %c8 : index
  %X = ktdp.construct_memory_view %x, sizes: [256, 64], strides: [64, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<256x64xf16>
  %Y = ktdp.construct_memory_view %y, sizes: [256, 64], strides: [64, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<256x64xf16>
  scf.for %i = %c0 to %n step %c1 {
    %r = arith.addi %base, %i : index
    %tx = ktdp.construct_access_tile %X[%r, 0] {access_tile_set = #row, access_tile_order = #id2} : memref<256x64xf16> -> !ktdp.access_tile<1x64xindex>
    %ty = ktdp.construct_access_tile %Y[%r, 0] {access_tile_set = #row, access_tile_order = #id2} : memref<256x64xf16> -> !ktdp.access_tile<1x64xindex>
    %v = ktdp.load %tx : <1x64xindex> -> tensor<1x64xf16>
    %e = math.exp %v : tensor<1x64xf16>
    ktdp.store %e, %ty : tensor<1x64xf16>, <1x64xindex>
  }
  return
}

// -----

// Every point walks 4 rows: equal work, contiguous blocks.

// CHECK-LABEL: func.func @uniform
// CHECK: ktdf.parallel (%{{.*}}) in [32] distribute(num_instances = 8) {

ktdf_arch.target @sample_device from "../../../../../examples/devices/sample_device.mlir"
    memory_map #ktdf_arch.map<"global" = "DDR", "ct_local" = "L1">

#x_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 255 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#row = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 63 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @uniform(%x: index, %y: index) attributes {grid = [32]} {
  %pid = ktdp.get_compute_tile_id : index
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %base = arith.muli %pid, %c8 : index
  %X = ktdp.construct_memory_view %x, sizes: [256, 64], strides: [64, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<256x64xf16>
  %Y = ktdp.construct_memory_view %y, sizes: [256, 64], strides: [64, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<256x64xf16>
  scf.for %i = %c0 to %c4 step %c1 {
    %r = arith.addi %base, %i : index
    %tx = ktdp.construct_access_tile %X[%r, 0] {access_tile_set = #row, access_tile_order = #id2} : memref<256x64xf16> -> !ktdp.access_tile<1x64xindex>
    %ty = ktdp.construct_access_tile %Y[%r, 0] {access_tile_set = #row, access_tile_order = #id2} : memref<256x64xf16> -> !ktdp.access_tile<1x64xindex>
    %v = ktdp.load %tx : <1x64xindex> -> tensor<1x64xf16>
    %e = math.exp %v : tensor<1x64xf16>
    ktdp.store %e, %ty : tensor<1x64xf16>, <1x64xindex>
  }
  return
}

// -----

// The trip count follows from a launch scalar: min(m, t) for point t. For
// every m of 1 ... 64 snake order is no worse (m = 1: 4 and 4), and better
// from m = 2 on (m = 64: contiguous blocks give instance 7 points 28-31,
// 118 executions; dealt, the busiest runs 62), so the pass deals.

// CHECK-LABEL: func.func @runtime_bound
// CHECK: ktdf.parallel (%{{.*}}) in [32] distribute(num_instances = 8, snake)

ktdf_arch.target @sample_device from "../../../../../examples/devices/sample_device.mlir"
    memory_map #ktdf_arch.map<"global" = "DDR", "ct_local" = "L1">

#x_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 255 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#row = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 63 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @runtime_bound(%x: index, %y: index, %m: index) attributes {grid = [32]} {
  %pid = ktdp.get_compute_tile_id : index
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %n = arith.minsi %m, %pid : index
  %base = arith.muli %pid, %c8 : index
  %X = ktdp.construct_memory_view %x, sizes: [256, 64], strides: [64, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<256x64xf16>
  %Y = ktdp.construct_memory_view %y, sizes: [256, 64], strides: [64, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<256x64xf16>
  scf.for %i = %c0 to %n step %c1 {
    %r = arith.addi %base, %i : index
    %tx = ktdp.construct_access_tile %X[%r, 0] {access_tile_set = #row, access_tile_order = #id2} : memref<256x64xf16> -> !ktdp.access_tile<1x64xindex>
    %ty = ktdp.construct_access_tile %Y[%r, 0] {access_tile_set = #row, access_tile_order = #id2} : memref<256x64xf16> -> !ktdp.access_tile<1x64xindex>
    %v = ktdp.load %tx : <1x64xindex> -> tensor<1x64xf16>
    %e = math.exp %v : tensor<1x64xf16>
    ktdp.store %e, %ty : tensor<1x64xf16>, <1x64xindex>
  }
  return
}

// -----

// Triton's cyclic rows: point t walks rows t, t + 32, ... below a run-time
// row count (layernorm_rows, 67 rows: points 0-2 walk 3 rows, the others
// 2). In contiguous blocks instance 0 gets points 0-3, 11 rows; dealt, at
// most 9. No row count of 1 ... 64 makes snake order worse.

// CHECK-LABEL: func.func @cyclic_rows
// CHECK: ktdf.parallel (%{{.*}}) in [32] distribute(num_instances = 8, snake)

ktdf_arch.target @sample_device from "../../../../../examples/devices/sample_device.mlir"
    memory_map #ktdf_arch.map<"global" = "DDR", "ct_local" = "L1">

#x_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 66 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#row = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 63 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @cyclic_rows(%x: index, %y: index, %n_rows: index) attributes {grid = [32]} {
  %pid = ktdp.get_compute_tile_id : index
  %c32 = arith.constant 32 : index
  %X = ktdp.construct_memory_view %x, sizes: [67, 64], strides: [64, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<67x64xf16>
  %Y = ktdp.construct_memory_view %y, sizes: [67, 64], strides: [64, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<67x64xf16>
  scf.for %r = %pid to %n_rows step %c32 {
    %tx = ktdp.construct_access_tile %X[%r, 0] {access_tile_set = #row, access_tile_order = #id2} : memref<67x64xf16> -> !ktdp.access_tile<1x64xindex>
    %ty = ktdp.construct_access_tile %Y[%r, 0] {access_tile_set = #row, access_tile_order = #id2} : memref<67x64xf16> -> !ktdp.access_tile<1x64xindex>
    %v = ktdp.load %tx : <1x64xindex> -> tensor<1x64xf16>
    %e = math.exp %v : tensor<1x64xf16>
    ktdp.store %e, %ty : tensor<1x64xf16>, <1x64xindex>
  }
  return
}

// -----

// A run-time trip count every point shares: equal work for every value of
// m, the points stay in blocks.

// CHECK-LABEL: func.func @runtime_equal
// CHECK: ktdf.parallel (%{{.*}}) in [32] distribute(num_instances = 8) {

ktdf_arch.target @sample_device from "../../../../../examples/devices/sample_device.mlir"
    memory_map #ktdf_arch.map<"global" = "DDR", "ct_local" = "L1">

#x_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 255 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#row = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 63 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @runtime_equal(%x: index, %y: index, %m: index) attributes {grid = [32]} {
  %pid = ktdp.get_compute_tile_id : index
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %base = arith.muli %pid, %c8 : index
  %X = ktdp.construct_memory_view %x, sizes: [256, 64], strides: [64, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<256x64xf16>
  %Y = ktdp.construct_memory_view %y, sizes: [256, 64], strides: [64, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<256x64xf16>
  scf.for %i = %c0 to %m step %c1 {
    %r = arith.addi %base, %i : index
    %tx = ktdp.construct_access_tile %X[%r, 0] {access_tile_set = #row, access_tile_order = #id2} : memref<256x64xf16> -> !ktdp.access_tile<1x64xindex>
    %ty = ktdp.construct_access_tile %Y[%r, 0] {access_tile_set = #row, access_tile_order = #id2} : memref<256x64xf16> -> !ktdp.access_tile<1x64xindex>
    %v = ktdp.load %tx : <1x64xindex> -> tensor<1x64xf16>
    %e = math.exp %v : tensor<1x64xf16>
    ktdp.store %e, %ty : tensor<1x64xf16>, <1x64xindex>
  }
  return
}

// -----

// Points 0, 15 and 30 walk m rows, the others none: contiguous blocks give
// them to instances 0, 3 and 7, snake order gives points 0 and 15 both to
// instance 0 (2 m against m for every m): the points stay in blocks.

// CHECK-LABEL: func.func @runtime_worse
// CHECK: ktdf.parallel (%{{.*}}) in [32] distribute(num_instances = 8) {

ktdf_arch.target @sample_device from "../../../../../examples/devices/sample_device.mlir"
    memory_map #ktdf_arch.map<"global" = "DDR", "ct_local" = "L1">

#x_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 255 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#row = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 63 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @runtime_worse(%x: index, %y: index, %m: index) attributes {grid = [32]} {
  %pid = ktdp.get_compute_tile_id : index
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %c15 = arith.constant 15 : index
  %rem = arith.remui %pid, %c15 : index
  %walks = arith.cmpi eq, %rem, %c0 : index
  %lb = arith.select %walks, %c0, %m : index
  %base = arith.muli %pid, %c8 : index
  %X = ktdp.construct_memory_view %x, sizes: [256, 64], strides: [64, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<256x64xf16>
  %Y = ktdp.construct_memory_view %y, sizes: [256, 64], strides: [64, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<256x64xf16>
  scf.for %i = %lb to %m step %c1 {
    %r = arith.addi %base, %i : index
    %tx = ktdp.construct_access_tile %X[%r, 0] {access_tile_set = #row, access_tile_order = #id2} : memref<256x64xf16> -> !ktdp.access_tile<1x64xindex>
    %ty = ktdp.construct_access_tile %Y[%r, 0] {access_tile_set = #row, access_tile_order = #id2} : memref<256x64xf16> -> !ktdp.access_tile<1x64xindex>
    %v = ktdp.load %tx : <1x64xindex> -> tensor<1x64xf16>
    %e = math.exp %v : tensor<1x64xf16>
    ktdp.store %e, %ty : tensor<1x64xf16>, <1x64xindex>
  }
  return
}
