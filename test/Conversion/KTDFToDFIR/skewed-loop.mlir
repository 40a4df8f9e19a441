// RUN: ktflow-opt %s --ktdf-compile | FileCheck %s

// mesh_device gives each core one DMA engine that both loads and stores.
// Emitted in order, an iteration's store waits for its compute and the
// next iteration's load waits behind that store, so the engine and the
// VPU take turns. With N copies of the row buffer (here 4) the engine's
// loop is skewed N - 1 iterations: the first three rows' loads before the
// loop (each guarded: not past the last row), then per iteration the load
// of the row three ahead (guarded) before this row's store, into the copy
// of execution + 3. One iteration ahead, the load of the next row was
// issued only as this row's compute ended, and an execution of less
// compute than the HBM's 80-cycle latency left the VPU waiting for it.
// The loop carries `dfir.skewed`, which the bundle keeps for the
// estimate. The VPU's loop is not skewed.

// CHECK-LABEL: dfir.unit "tile[0]/DMA"
// CHECK: arith.cmpi slt
// CHECK: scf.for
// CHECK: dfir.dma {{.*}} from "HBM"
// CHECK: arith.addi %{{.*}}, %c1
// CHECK: arith.cmpi slt
// CHECK: scf.for
// CHECK: dfir.dma {{.*}} from "HBM"
// CHECK: arith.addi %{{.*}}, %c2
// CHECK: arith.cmpi slt
// CHECK: scf.for
// CHECK: dfir.dma {{.*}} from "HBM"
// CHECK: scf.for %[[I:arg[0-9]+]] = {{.*}} iter_args(%[[E:arg[0-9]+]] =
// CHECK-NEXT: %[[C3:.*]] = arith.constant 3 : index
// CHECK-NEXT: %[[D:.*]] = arith.muli %{{.*}}, %[[C3]]
// CHECK-NEXT: %[[AHEAD:.*]] = arith.addi %[[I]], %[[D]]
// CHECK: %[[EX:.*]] = arith.addi %[[E]], %{{.*}}
// CHECK: arith.cmpi slt, %[[AHEAD]]
// CHECK: scf.for
// CHECK: arith.remui %[[EX]], %c4
// CHECK: dfir.dma {{.*}} from "HBM"
// CHECK: dfir.sync_recv @p0_full
// CHECK: dfir.dma {{.*}} to "HBM"
// CHECK: } {dfir.skewed = 3 : i64}
// CHECK-LABEL: dfir.unit "tile[0]/VPU"
// CHECK-NOT: dfir.skewed
// CHECK: dfir.unit

ktdf_arch.target @mesh_device from "../../../examples/devices/mesh_device.mlir"
    memory_map #ktdf_arch.map<"global" = "HBM">

#x_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#row = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 63 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @rows(%x: index, %y: index) attributes {grid = [8]} {
  %pid = ktdp.get_compute_tile_id : index
  %c8 = arith.constant 8 : index
  %c64 = arith.constant 64 : index
  %X = ktdp.construct_memory_view %x, sizes: [64, 64], strides: [64, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<64x64xf16>
  %Y = ktdp.construct_memory_view %y, sizes: [64, 64], strides: [64, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<64x64xf16>
  scf.for %r = %pid to %c64 step %c8 {
    %tx = ktdp.construct_access_tile %X[%r, 0] {access_tile_set = #row, access_tile_order = #id2} : memref<64x64xf16> -> !ktdp.access_tile<1x64xindex>
    %ty = ktdp.construct_access_tile %Y[%r, 0] {access_tile_set = #row, access_tile_order = #id2} : memref<64x64xf16> -> !ktdp.access_tile<1x64xindex>
    %v = ktdp.load %tx : <1x64xindex> -> tensor<1x64xf16>
    %e = math.exp %v : tensor<1x64xf16>
    ktdp.store %e, %ty : tensor<1x64xf16>, <1x64xindex>
  }
  return
}
