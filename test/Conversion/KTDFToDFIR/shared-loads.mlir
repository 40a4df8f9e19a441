// RUN: ktflow-opt %s --ktdf-compile --split-input-file | FileCheck %s

// Each grid point p sums rows 0 .. n - 1 of X, each loaded in trip k of its
// loop (SharedLoads.cpp). On sample_device the two lanes of a core share
// its L1 and its DMA engine (MNILU), which walks both lanes' loops
// together; core 0 runs points 0 (1 trip) and 4 (5 trips).

// Row k's offsets follow from k alone: lane 1's buffer is lane 0's, and in
// trip k the engine loads the row once for both lanes when both have trip
// k (their executions agree modulo the buffer's 4 copies), else for the
// lane that has it. Before loading it takes the tokens that free the copy
// in both lanes (counted, with the executions), at the end the rest.
// (498 -> 398 cycles, --check PASS.)

// CHECK-LABEL: dfir.kernel @shared_rows
// CHECK: dfir.buffer @p1_buf0_c0_l0 in "core[0]/L1" size 512 offset 128
// CHECK: dfir.buffer @p1_buf0_c0_l1 in "core[0]/L1" size 512 offset 128
// CHECK-LABEL: dfir.unit "core[0]/MNILU_Block/MNILU"
// CHECK: %[[SAME:.*]] = arith.cmpi eq, %{{.*}}, %{{.*}} : index
// CHECK-NEXT: %[[SHARED:.*]] = arith.andi %{{.*}}, %[[SAME]] : i1
// CHECK: %[[ONCE:.*]] = arith.select %[[SHARED]], %c1{{.*}}, %c0
// CHECK-NEXT: %[[LOAD:.*]] = arith.cmpi eq, %[[ONCE]], %c0
// CHECK: scf.for
// CHECK-NEXT: dfir.sync_recv @p1_free0_c0_l1
// CHECK: scf.for
// CHECK-NEXT: dfir.sync_recv @p1_free0_c0_l0
// CHECK: dfir.dma
// CHECK: dfir.sync_send @p1_full0_c0_l1
// CHECK: %[[N:.*]] = arith.select %[[LOAD]]
// CHECK-NEXT: scf.for %{{.*}} to %[[N]] step
// CHECK: dfir.dma
// CHECK: dfir.sync_send @p1_full0_c0_l0
// At the end, each lane's tokens not yet taken.
// CHECK: %[[LEFT:.*]] = arith.subi %{{.*}}#{{[0-9]+}}, %{{.*}}#{{[0-9]+}}
// CHECK-NEXT: scf.for %{{.*}} to %[[LEFT]] step
// CHECK-NEXT: dfir.sync_recv @p1_free0_c0_l0
// CHECK-LABEL: dfir.unit "core[0]/MNISU_Block/MNISU"

ktdf_arch.target @sample_device from "../../../examples/devices/sample_device.mlir"
    memory_map #ktdf_arch.map<"global" = "DDR", "ct_local" = "L1">

#x_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#row = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 63 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @shared_rows(%x: index, %y: index) attributes {grid = [8]} {
  %pid = ktdp.get_compute_tile_id : index
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f16
  %n = arith.addi %pid, %c1 : index
  %X = ktdp.construct_memory_view %x, sizes: [8, 64], strides: [64, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<8x64xf16>
  %Y = ktdp.construct_memory_view %y, sizes: [8, 64], strides: [64, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<8x64xf16>
  %e = tensor.empty() : tensor<1x64xf16>
  %acc0 = linalg.fill ins(%zero : f16) outs(%e : tensor<1x64xf16>) -> tensor<1x64xf16>
  %acc = scf.for %k = %c0 to %n step %c1 iter_args(%a = %acc0) -> (tensor<1x64xf16>) {
    %tx = ktdp.construct_access_tile %X[%k, 0] {access_tile_set = #row, access_tile_order = #id2} : memref<8x64xf16> -> !ktdp.access_tile<1x64xindex>
    %xk = ktdp.load %tx : <1x64xindex> -> tensor<1x64xf16>
    %s = arith.addf %a, %xk : tensor<1x64xf16>
    scf.yield %s : tensor<1x64xf16>
  }
  %ty = ktdp.construct_access_tile %Y[%pid, 0] {access_tile_set = #row, access_tile_order = #id2} : memref<8x64xf16> -> !ktdp.access_tile<1x64xindex>
  ktdp.store %acc, %ty : tensor<1x64xf16>, <1x64xindex>
  return
}

// -----

// Negative: row (k + p) mod 8 depends on the grid point: each lane loads
// into its own buffer.

// CHECK-LABEL: dfir.kernel @lane_rows
// CHECK-DAG: dfir.buffer @p1_buf0_c0_l0 in "core[0]/L1" size 512 offset 128
// CHECK-DAG: dfir.buffer @p1_buf0_c0_l1 in "core[0]/L1" size 512 offset 1280

ktdf_arch.target @sample_device from "../../../examples/devices/sample_device.mlir"
    memory_map #ktdf_arch.map<"global" = "DDR", "ct_local" = "L1">

#x_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#row = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 63 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @lane_rows(%x: index, %y: index) attributes {grid = [8]} {
  %pid = ktdp.get_compute_tile_id : index
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f16
  %n = arith.addi %pid, %c1 : index
  %X = ktdp.construct_memory_view %x, sizes: [8, 64], strides: [64, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<8x64xf16>
  %Y = ktdp.construct_memory_view %y, sizes: [8, 64], strides: [64, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<8x64xf16>
  %e = tensor.empty() : tensor<1x64xf16>
  %acc0 = linalg.fill ins(%zero : f16) outs(%e : tensor<1x64xf16>) -> tensor<1x64xf16>
  %acc = scf.for %k = %c0 to %n step %c1 iter_args(%a = %acc0) -> (tensor<1x64xf16>) {
    %kp = arith.addi %k, %pid : index
    %c8 = arith.constant 8 : index
    %r = arith.remui %kp, %c8 : index
    %tx = ktdp.construct_access_tile %X[%r, 0] {access_tile_set = #row, access_tile_order = #id2} : memref<8x64xf16> -> !ktdp.access_tile<1x64xindex>
    %xk = ktdp.load %tx : <1x64xindex> -> tensor<1x64xf16>
    %s = arith.addf %a, %xk : tensor<1x64xf16>
    scf.yield %s : tensor<1x64xf16>
  }
  %ty = ktdp.construct_access_tile %Y[%pid, 0] {access_tile_set = #row, access_tile_order = #id2} : memref<8x64xf16> -> !ktdp.access_tile<1x64xindex>
  ktdp.store %acc, %ty : tensor<1x64xf16>, <1x64xindex>
  return
}

// -----

// Negative: 16 points, n = p div 4 + 1. Core 0 runs points 0 and 4 (1 and
// 2 trips), then 15 and 11 (4 and 3): in the second round the lanes'
// executions disagree modulo 4 copies, so the loads would share no copy
// and a one-buffer lane pair would only wait for each other: each lane
// keeps its own buffer.

// CHECK-LABEL: dfir.kernel @phase_rows
// CHECK-DAG: dfir.buffer @p1_buf0_c0_l0 in "core[0]/L1" size 512 offset 128
// CHECK-DAG: dfir.buffer @p1_buf0_c0_l1 in "core[0]/L1" size 512 offset 1280
ktdf_arch.target @sample_device from "../../../examples/devices/sample_device.mlir"
    memory_map #ktdf_arch.map<"global" = "DDR", "ct_local" = "L1">

#x_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#y_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#row = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 63 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @phase_rows(%x: index, %y: index) attributes {grid = [16]} {
  %pid = ktdp.get_compute_tile_id : index
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f16
  %c8 = arith.constant 8 : index
  %c4 = arith.constant 4 : index
  %p8 = arith.divui %pid, %c4 : index
  %n = arith.addi %p8, %c1 : index
  %X = ktdp.construct_memory_view %x, sizes: [8, 64], strides: [64, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<8x64xf16>
  %Y = ktdp.construct_memory_view %y, sizes: [16, 64], strides: [64, 1] {coordinate_set = #y_set, memory_space = #ktdp.memory_space<global>} : memref<16x64xf16>
  %e = tensor.empty() : tensor<1x64xf16>
  %acc0 = linalg.fill ins(%zero : f16) outs(%e : tensor<1x64xf16>) -> tensor<1x64xf16>
  %acc = scf.for %k = %c0 to %n step %c1 iter_args(%a = %acc0) -> (tensor<1x64xf16>) {
    %tx = ktdp.construct_access_tile %X[%k, 0] {access_tile_set = #row, access_tile_order = #id2} : memref<8x64xf16> -> !ktdp.access_tile<1x64xindex>
    %xk = ktdp.load %tx : <1x64xindex> -> tensor<1x64xf16>
    %s = arith.addf %a, %xk : tensor<1x64xf16>
    scf.yield %s : tensor<1x64xf16>
  }
  %ty = ktdp.construct_access_tile %Y[%pid, 0] {access_tile_set = #row, access_tile_order = #id2} : memref<16x64xf16> -> !ktdp.access_tile<1x64xindex>
  ktdp.store %acc, %ty : tensor<1x64xf16>, <1x64xindex>
  return
}
