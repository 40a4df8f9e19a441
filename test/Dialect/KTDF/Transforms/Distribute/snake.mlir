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

// The trip count follows from a launch scalar: the work is unknown, the
// points stay in blocks.

// CHECK-LABEL: func.func @runtime_bound
// CHECK: ktdf.parallel (%{{.*}}) in [32] distribute(num_instances = 8) {

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
