// RUN: ktflow-opt %s --ktdf-mapping --ktdf-route-transfers | FileCheck %s
// RUN: sed -e 's|../../../../../examples/devices/sample_device.mlir|%examples/devices/mesh_device.mlir|; s|@sample_device|@mesh_device|; s|"DDR"|"HBM"|; s|"L1"|"SPM"|' %s > %t.mlir
// RUN: ktflow-opt %t.mlir --ktdf-mapping --ktdf-route-transfers | FileCheck %s --check-prefix=MESH

// Transfers follow the routes of the device graph, not names: on
// sample_device DDR -> MNILU -> L1 -> L1LU -> SFU and back through L1SU and
// MNISU; on mesh_device one DMA engine both loads and stores through SPM.

ktdf_arch.target @sample_device from "../../../../../examples/devices/sample_device.mlir"
    memory_map #ktdf_arch.map<"global" = "DDR", "ct_local" = "L1">

// CHECK: ktdf.pipeline {
// CHECK-NEXT: %[[B0:.*]] = ktdf.private : memref<8x64xf16, "L1">
// CHECK-NEXT: %[[S0:.*]] = ktdf.private : !ktdf.fifo.slot<"core/subcore[0]/L1LU" -> "core/subcore[0]/SFU_Block/SFU", 8x64xf16>
// CHECK-NEXT: %[[S1:.*]] = ktdf.private : !ktdf.fifo.slot<"core/subcore[0]/SFU_Block/SFU" -> "core/subcore[0]/L1SU", 8x64xf16>
// CHECK-NEXT: %[[B1:.*]] = ktdf.private : memref<8x64xf16, "L1">
// CHECK-NEXT: %[[L:.*]] = ktdf.stage "load_0" depends_out(1) applicable_units [dma_load] unit "core/MNILU_Block/MNILU" {
// CHECK-NEXT: ktdf.data_transfer %{{.*}} to %[[B0]] : !ktdp.access_tile<8x64xindex> to memref<8x64xf16, "L1">
// CHECK: %[[F:.*]] = ktdf.stage "feed" depends_in(%[[L]]) depends_out(1) applicable_units [scratchpad_load] unit "core/subcore[0]/L1LU" {
// CHECK-NEXT: ktdf.data_transfer %[[B0]] to %[[S0]]
// CHECK: %[[C:.*]] = ktdf.stage "compute" depends_in(%[[F]]) depends_out(1) applicable_units [vector_compute] unit "core/subcore[0]/SFU_Block/SFU" {
// CHECK: ktdf.read_from_fifo %[[S0]]
// CHECK: ktdf.write_to_fifo %{{.*}} to %[[S1]]
// CHECK: %[[D:.*]] = ktdf.stage "drain" depends_in(%[[C]]) depends_out(1) applicable_units [scratchpad_store] unit "core/subcore[0]/L1SU" {
// CHECK-NEXT: ktdf.data_transfer %[[S1]] to %[[B1]]
// CHECK: ktdf.stage "store_0" depends_in(%[[D]]) depends_out(0) applicable_units [dma_store] unit "core/MNISU_Block/MNISU" {
// CHECK-NEXT: ktdf.data_transfer %[[B1]] to %{{.*}} : memref<8x64xf16, "L1"> to !ktdp.access_tile<8x64xindex>

// MESH: ktdf.private : memref<8x64xf16, "SPM">
// MESH: ktdf.stage "load_0" {{.*}}applicable_units [dma_load] unit "tile/DMA"
// MESH: ktdf.stage "feed" {{.*}}unit "tile/VLD"
// MESH: ktdf.stage "compute" {{.*}}unit "tile/VPU"
// MESH: ktdf.stage "drain" {{.*}}unit "tile/VST"
// MESH: ktdf.stage "store_0" {{.*}}applicable_units [dma_store] unit "tile/DMA"

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
