// RUN: ktflow-opt %s --ktdf-compile | FileCheck %s
// RUN: ktflow run %s --arch %examples/devices/mesh_device.mlir --arg n=100 --check | FileCheck %s --check-prefix=EXACT

// Three pipelines of a grid point on mesh_device, whose tile has one DMA
// engine that loads and stores: Y = exp(X), Z = W + W, then V = Y + Y,
// which reloads Y (over a run-time row count the last block may be masked,
// so ktdf-forward-stores cannot hand it the stored tensor). No region
// channel orders the store of Y and its reload, both on the engine: only
// program order. The first two pipelines are a run, loads first
// (LoadsFirstRuns.cpp); the run stops before the reload, which follows
// Y's store. A run of all three read Y before it was stored (wrong V).

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
// CHECK: dfir.sync_recv @p2_free0_c0_l0
// CHECK: dfir.dma {{.*}} from "HBM"
// CHECK: dfir.sync_send @p2_full0_c0_l0
// CHECK: dfir.sync_recv @p2_full1_c0_l0
// CHECK: dfir.dma {{.*}} from "tile[0]/SPM"{{.*}} to "HBM"
// CHECK-LABEL: dfir.unit "tile[0]/VLD"

// EXACT: check v: 100x64 f16, max abs error 0.000e+00 PASS
// EXACT-NEXT: {{^PASS$}}

ktdf_arch.target @mesh_device from "../../../examples/devices/mesh_device.mlir"
    memory_map #ktdf_arch.map<"global" = "HBM">

#x_set = affine_set<(d0, d1)[s0] : (d0 >= 0, -d0 + s0 - 1 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#block = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @cut(%x: index, %y: index, %w: index, %z: index, %v: index, %n: index) attributes {grid = [16]} {
  %pid = ktdp.get_compute_tile_id : index
  %c8 = arith.constant 8 : index
  %row = arith.muli %pid, %c8 : index
  %X = ktdp.construct_memory_view %x, sizes: [%n, 64], strides: [64, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<?x64xf16>
  %Y = ktdp.construct_memory_view %y, sizes: [%n, 64], strides: [64, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<?x64xf16>
  %W = ktdp.construct_memory_view %w, sizes: [%n, 64], strides: [64, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<?x64xf16>
  %Z = ktdp.construct_memory_view %z, sizes: [%n, 64], strides: [64, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<?x64xf16>
  %V = ktdp.construct_memory_view %v, sizes: [%n, 64], strides: [64, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<?x64xf16>
  %tx = ktdp.construct_access_tile %X[%row, 0] {access_tile_set = #block, access_tile_order = #id2} : memref<?x64xf16> -> !ktdp.access_tile<8x64xindex>
  %ty = ktdp.construct_access_tile %Y[%row, 0] {access_tile_set = #block, access_tile_order = #id2} : memref<?x64xf16> -> !ktdp.access_tile<8x64xindex>
  %tw = ktdp.construct_access_tile %W[%row, 0] {access_tile_set = #block, access_tile_order = #id2} : memref<?x64xf16> -> !ktdp.access_tile<8x64xindex>
  %tz = ktdp.construct_access_tile %Z[%row, 0] {access_tile_set = #block, access_tile_order = #id2} : memref<?x64xf16> -> !ktdp.access_tile<8x64xindex>
  %tv = ktdp.construct_access_tile %V[%row, 0] {access_tile_set = #block, access_tile_order = #id2} : memref<?x64xf16> -> !ktdp.access_tile<8x64xindex>
  %a = ktdp.load %tx : <8x64xindex> -> tensor<8x64xf16>
  %e = math.exp %a : tensor<8x64xf16>
  ktdp.store %e, %ty : tensor<8x64xf16>, <8x64xindex>
  %u = ktdp.load %tw : <8x64xindex> -> tensor<8x64xf16>
  %s = arith.addf %u, %u : tensor<8x64xf16>
  ktdp.store %s, %tz : tensor<8x64xf16>, <8x64xindex>
  %r = ktdp.load %ty : <8x64xindex> -> tensor<8x64xf16>
  %d = arith.addf %r, %r : tensor<8x64xf16>
  ktdp.store %d, %tv : tensor<8x64xf16>, <8x64xindex>
  return
}
