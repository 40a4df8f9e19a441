// RUN: ktflow-opt %s --ktdf-compile | FileCheck %s
// RUN: ktflow compile %examples/kernels/realworld/broadcast_rows.mlir --arch %examples/devices/mesh_device.mlir --emit=dataflow -o - | FileCheck %s --check-prefix=BCAST

// Two independent pipelines of a grid point (Y = exp(X), Z = W + W), one
// point a tile on mesh_device, whose tile has one DMA engine that loads
// and stores. In block order the engine loaded X, stored Y once the VPU
// had it, and only then loaded W, whose compute waited for a second
// route latency: 473 cycles. Now the run of the two pipelines is emitted
// loads first (LoadsFirstRuns.cpp): X's and W's loads, then Y's and Z's
// stores, each store still after its own drain: 327 cycles (ktflow run
// --check passes). The VST drains in block order.

// CHECK-LABEL: dfir.unit "tile[0]/DMA"
// CHECK: dfir.dma {{.*}} from "HBM"
// CHECK: dfir.sync_send @p0_full0_c0_l0
// CHECK-NOT: dfir.sync_recv @p0_full1
// CHECK: dfir.dma {{.*}} from "HBM"
// CHECK: dfir.sync_send @p1_full0_c0_l0
// CHECK: dfir.sync_recv @p0_full1_c0_l0
// CHECK: dfir.dma {{.*}} from "tile[0]/SPM"{{.*}} to "HBM"
// CHECK: dfir.sync_recv @p1_full1_c0_l0
// CHECK: dfir.dma {{.*}} from "tile[0]/SPM"{{.*}} to "HBM"
// CHECK-LABEL: dfir.unit "tile[0]/VST"
// CHECK: dfir.sync_send @p0_full1_c0_l0
// CHECK: dfir.sync_send @p1_full1_c0_l0

// The realworld broadcast_rows (its two rows a tile as two pipelines,
// after W's scale from tile 0): the rows' loads before their stores; a
// run does not cross the tile copy before it (the engine's receive of
// the scale), whose tokens order the engine: the loads stay after it
// (523 -> 414 cycles).

// BCAST-LABEL: dfir.unit "tile[15]/DMA"
// BCAST: dfir.sync_recv @p1_copied_c15_l0
// BCAST: dfir.dma {{.*}} from "HBM"
// BCAST: dfir.sync_send @p2_full0_c15_l0
// BCAST-NOT: dfir.sync_recv @p2_full1
// BCAST: dfir.dma {{.*}} from "HBM"
// BCAST: dfir.sync_send @p3_full0_c15_l0
// BCAST: dfir.sync_recv @p2_full1_c15_l0
// BCAST: dfir.dma {{.*}} from "tile[15]/SPM"{{.*}} to "HBM"
// BCAST: dfir.sync_recv @p3_full1_c15_l0
// BCAST-LABEL: dfir.unit "tile[15]/VLD"

ktdf_arch.target @mesh_device from "../../../examples/devices/mesh_device.mlir"
    memory_map #ktdf_arch.map<"global" = "HBM">

#x_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 127 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#block = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @two(%x: index, %y: index, %w: index, %z: index) attributes {grid = [16]} {
  %pid = ktdp.get_compute_tile_id : index
  %c8 = arith.constant 8 : index
  %row = arith.muli %pid, %c8 : index
  %X = ktdp.construct_memory_view %x, sizes: [128, 64], strides: [64, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<128x64xf16>
  %Y = ktdp.construct_memory_view %y, sizes: [128, 64], strides: [64, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<128x64xf16>
  %W = ktdp.construct_memory_view %w, sizes: [128, 64], strides: [64, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<128x64xf16>
  %Z = ktdp.construct_memory_view %z, sizes: [128, 64], strides: [64, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<128x64xf16>
  %tx = ktdp.construct_access_tile %X[%row, 0] {access_tile_set = #block, access_tile_order = #id2} : memref<128x64xf16> -> !ktdp.access_tile<8x64xindex>
  %ty = ktdp.construct_access_tile %Y[%row, 0] {access_tile_set = #block, access_tile_order = #id2} : memref<128x64xf16> -> !ktdp.access_tile<8x64xindex>
  %tw = ktdp.construct_access_tile %W[%row, 0] {access_tile_set = #block, access_tile_order = #id2} : memref<128x64xf16> -> !ktdp.access_tile<8x64xindex>
  %tz = ktdp.construct_access_tile %Z[%row, 0] {access_tile_set = #block, access_tile_order = #id2} : memref<128x64xf16> -> !ktdp.access_tile<8x64xindex>
  %v = ktdp.load %tx : <8x64xindex> -> tensor<8x64xf16>
  %e = math.exp %v : tensor<8x64xf16>
  ktdp.store %e, %ty : tensor<8x64xf16>, <8x64xindex>
  %u = ktdp.load %tw : <8x64xindex> -> tensor<8x64xf16>
  %s = arith.addf %u, %u : tensor<8x64xf16>
  ktdp.store %s, %tz : tensor<8x64xf16>, <8x64xindex>
  return
}
