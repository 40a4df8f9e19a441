// RUN: ktflow-opt %s --ktdf-compile=O0 | FileCheck %s

// mesh_device, -O0: the 8 grid points go to tiles 0..7 (one lane each).
// Every tile gets its buffers in its own SPM, a FIFO per pair of units and
// a pair of sync channels per buffer hand-over; its single DMA engine
// loads a tile, and stores it once the store unit has drained it.

// CHECK: dfir.kernel @scale device "mesh_device" {
// CHECK-DAG: dfir.tensor input @arg0 : tensor<64x64xf16> in "HBM"
// CHECK-DAG: dfir.tensor output @arg1 : tensor<64x64xf16> in "HBM"
// CHECK-DAG: dfir.buffer @p0_buf0_c0_l0 in "tile[0]/SPM" size 1024 offset 0
// CHECK-DAG: dfir.buffer @p0_buf1_c0_l0 in "tile[0]/SPM" size 1024 offset 1024
// CHECK-DAG: dfir.sync @p0_full0_c0_l0 from "tile[0]/DMA" to "tile[0]/VLD"
// CHECK-DAG: dfir.sync @p0_free0_c0_l0 from "tile[0]/VLD" to "tile[0]/DMA"
// CHECK-DAG: dfir.sync @p0_full1_c0_l0 from "tile[0]/VST" to "tile[0]/DMA"
// CHECK-DAG: dfir.sync @p0_free1_c0_l0 from "tile[0]/DMA" to "tile[0]/VST"
// CHECK-DAG: dfir.fifo @[[IN:fifo[0-9]+]] from "tile[0]/VLD" to "tile[0]/VPU" entry 64
// CHECK-DAG: dfir.fifo @[[OUT:fifo[0-9]+]] from "tile[0]/VPU" to "tile[0]/VST" entry 64
// CHECK-NOT: tile[8]

// CHECK-LABEL: dfir.unit "tile[0]/DMA"
// CHECK: dfir.sync_recv @p0_free0_c0_l0
// CHECK: dfir.address @arg0
// CHECK: dfir.address @p0_buf0_c0_l0
// CHECK: dfir.dma %{{.*}} bytes from "HBM"[%{{.*}}] to "tile[0]/SPM"[%{{.*}}]
// CHECK: dfir.sync_send @p0_full0_c0_l0
// CHECK: dfir.sync_recv @p0_full1_c0_l0
// CHECK: dfir.dma %{{.*}} bytes from "tile[0]/SPM"[%{{.*}}] to "HBM"[%{{.*}}]
// CHECK: dfir.sync_send @p0_free1_c0_l0

// CHECK-LABEL: dfir.unit "tile[0]/VPU"
// CHECK: %[[X:.*]] = dfir.recv @[[IN]] : vector<32xf16>
// CHECK: %[[Y:.*]] = dfir.map %[[X]]
// CHECK: arith.mulf
// CHECK: dfir.send @[[OUT]], %[[Y]] : vector<32xf16>

// CHECK-LABEL: dfir.unit "tile[0]/VST"
// CHECK: dfir.store @[[OUT]] to "tile[0]/SPM"

ktdf_arch.target @mesh_device from "../../../examples/devices/mesh_device.mlir"
    memory_map #ktdf_arch.map<"global" = "HBM", "ct_local" = "SPM">

#all = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#t = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @scale(%x: index, %y: index) attributes {grid = [8]} {
  %id = ktdp.get_compute_tile_id : index
  %c8 = arith.constant 8 : index
  %r0 = arith.muli %id, %c8 : index
  %X = ktdp.construct_memory_view %x, sizes: [64, 64], strides: [64, 1] {coordinate_set = #all, memory_space = #ktdp.memory_space<global>} : memref<64x64xf16>
  %Y = ktdp.construct_memory_view %y, sizes: [64, 64], strides: [64, 1] {coordinate_set = #all, memory_space = #ktdp.memory_space<global>} : memref<64x64xf16>
  %tx = ktdp.construct_access_tile %X[%r0, 0] {access_tile_set = #t, access_tile_order = #id} : memref<64x64xf16> -> !ktdp.access_tile<8x64xindex>
  %ty = ktdp.construct_access_tile %Y[%r0, 0] {access_tile_set = #t, access_tile_order = #id} : memref<64x64xf16> -> !ktdp.access_tile<8x64xindex>
  %v = ktdp.load %tx : <8x64xindex> -> tensor<8x64xf16>
  %two = arith.constant dense<2.0> : tensor<8x64xf16>
  %w = arith.mulf %v, %two : tensor<8x64xf16>
  ktdp.store %w, %ty : tensor<8x64xf16>, <8x64xindex>
  return
}
