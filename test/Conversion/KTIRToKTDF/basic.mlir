// RUN: ktflow-opt %s --ktir-to-ktdf | FileCheck %s

// The grid becomes a ktdf.parallel whose argument replaces the tile id; the
// load/compute/store group inside the loop becomes one pipeline: a load
// stage per loaded tile into a slot towards vector compute, the compute
// stage reading the slots and writing one per stored value, and a store
// stage, ordered by tokens.

// CHECK-LABEL: func.func @scale

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

// Input: the KTIR ktir-to-ktdf receives, printed once by
// `ktflow-opt KERNEL --ktdf-map-memory-spaces --ktdf-generalize` from a KTIR kernel.

#map = affine_map<(d0, d1) -> (d0, d1)>
#set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#set1 = affine_set<(d0, d1) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 + 63 >= 0)>
module {
  ktdf_arch.target @sample_device from "../../../examples/devices/sample_device.mlir" memory_map #ktdf_arch.map<"global" = "DDR", "ct_local" = "L1">
  func.func @scale(%arg0: index, %arg1: index) attributes {grid = [8]} {
    %cst = arith.constant 2.000000e+00 : f16
    %c8 = arith.constant 8 : index
    %c1 = arith.constant 1 : index
    %c0 = arith.constant 0 : index
    %0 = ktdp.get_compute_tile_id : index
    %1 = arith.muli %0, %c8 : index
    %2 = ktdp.construct_memory_view %arg0, sizes: [64, 64], strides: [64, 1] {coordinate_set = #set, ktdf.memory = "DDR", memory_space = #ktdp.memory_space<global>} : memref<64x64xf16>
    %3 = ktdp.construct_memory_view %arg1, sizes: [64, 64], strides: [64, 1] {coordinate_set = #set, ktdf.memory = "DDR", memory_space = #ktdp.memory_space<global>} : memref<64x64xf16>
    scf.for %arg2 = %c0 to %c8 step %c1 {
      %4 = ktdp.construct_access_tile %2[%1 + %arg2, 0] {access_tile_order = #map, access_tile_set = #set1} : memref<64x64xf16> -> !ktdp.access_tile<1x64xindex>
      %5 = ktdp.construct_access_tile %3[%1 + %arg2, 0] {access_tile_order = #map, access_tile_set = #set1} : memref<64x64xf16> -> !ktdp.access_tile<1x64xindex>
      %6 = ktdp.load %4 : <1x64xindex> -> tensor<1x64xf16>
      %7 = tensor.empty() : tensor<1x64xf16>
      %8 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%6 : tensor<1x64xf16>) outs(%7 : tensor<1x64xf16>) {
      ^bb0(%in: f16, %out: f16):
        %9 = arith.mulf %in, %cst : f16
        linalg.yield %9 : f16
      } -> tensor<1x64xf16>
      ktdp.store %8, %5 : tensor<1x64xf16>, <1x64xindex>
    }
    return
  }
}
