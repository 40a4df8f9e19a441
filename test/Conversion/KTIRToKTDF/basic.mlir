// RUN: ktflow-opt %s --ktdf-map-memory-spaces --ktdf-generalize --ktir-to-ktdf | FileCheck %s

// The grid becomes a ktdf.parallel whose argument replaces the tile id; the
// load/compute/store group inside the loop becomes one pipeline: a load
// stage per loaded tile into a slot towards vector compute, the compute
// stage reading the slots and writing one per stored value, and a store
// stage, ordered by tokens.

ktdf_arch.target @sample_device from "../../../examples/devices/sample_device.mlir"
    memory_map #ktdf_arch.map<"global" = "DDR", "ct_local" = "L1">

#rows = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#row = affine_set<(d0, d1) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#id = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-LABEL: func.func @scale
func.func @scale(%x: index, %y: index) attributes {grid = [8]} {
  // CHECK: ktdf.parallel (%[[T:.*]]) in [8] {
  // CHECK: %[[R0:.*]] = arith.muli %[[T]]
  // CHECK: scf.for
  // CHECK: %[[TX:.*]] = ktdp.construct_access_tile
  // CHECK: %[[TY:.*]] = ktdp.construct_access_tile
  // CHECK: ktdf.pipeline {
  // CHECK-NEXT: %[[IN:.*]] = ktdf.private : !ktdf.fifo.slot<DDR -> vector_compute, 1x64xf16>
  // CHECK-NEXT: %[[OUT:.*]] = ktdf.private : !ktdf.fifo.slot<vector_compute -> DDR, 1x64xf16>
  // CHECK-NEXT: %[[L:.*]] = ktdf.stage "load_0" depends_out(1) applicable_units [dma_load, scratchpad_load] {
  // CHECK-NEXT: ktdf.data_transfer %[[TX]] to %[[IN]]
  // CHECK: %[[C:.*]] = ktdf.stage "compute" depends_in(%[[L]]) depends_out(1) applicable_units [vector_compute] {
  // CHECK-NEXT: %[[V:.*]] = ktdf.read_from_fifo %[[IN]]
  // CHECK: %[[G:.*]] = linalg.generic
  // CHECK: arith.mulf
  // CHECK: ktdf.write_to_fifo %[[G]] to %[[OUT]]
  // CHECK: ktdf.stage "store_0" depends_in(%[[C]]) depends_out(0) applicable_units [scratchpad_store, dma_store] {
  // CHECK-NEXT: ktdf.data_transfer %[[OUT]] to %[[TY]]
  // CHECK-NOT: ktdp.load
  // CHECK-NOT: ktdp.store
  // CHECK-NOT: ktdp.get_compute_tile_id
  %id = ktdp.get_compute_tile_id : index
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %r0 = arith.muli %id, %c8 : index
  %X = ktdp.construct_memory_view %x, sizes: [64, 64], strides: [64, 1] {coordinate_set = #rows, memory_space = #ktdp.memory_space<global>} : memref<64x64xf16>
  %Y = ktdp.construct_memory_view %y, sizes: [64, 64], strides: [64, 1] {coordinate_set = #rows, memory_space = #ktdp.memory_space<global>} : memref<64x64xf16>
  %two = arith.constant dense<2.0> : tensor<1x64xf16>
  scf.for %i = %c0 to %c8 step %c1 {
    %tx = ktdp.construct_access_tile %X[%r0 + %i, 0] {access_tile_set = #row, access_tile_order = #id} : memref<64x64xf16> -> !ktdp.access_tile<1x64xindex>
    %ty = ktdp.construct_access_tile %Y[%r0 + %i, 0] {access_tile_set = #row, access_tile_order = #id} : memref<64x64xf16> -> !ktdp.access_tile<1x64xindex>
    %v = ktdp.load %tx : <1x64xindex> -> tensor<1x64xf16>
    %w = arith.mulf %v, %two : tensor<1x64xf16>
    ktdp.store %w, %ty : tensor<1x64xf16>, <1x64xindex>
  }
  return
}
