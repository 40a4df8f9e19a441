// RUN: ktflow-opt %s -split-input-file --ktdf-import-target --ktdf-split-index-bound-gathers | FileCheck %s

// A 32x32 gather at both coordinates (gather2d_literal's): its DMA engine
// reads two indices from device memory, one round trip each, for every
// element. On sample_device's 8 lanes (4 cores of 2) it becomes a loop
// over 8 chunks of 4x32 (1024 / 8 elements), marked for
// ktdf-spread-iterations, each chunk's offset captured in the subscripts
// and added to the destination's anchor.

// CHECK-LABEL: func.func @gather_2d
// CHECK: %[[SRC:.*]] = ktdp.construct_memory_view %c0,
// CHECK: %[[ROWS:.*]] = ktdp.construct_memory_view %c4096,
// CHECK: %[[COLS:.*]] = ktdp.construct_memory_view %c8192,
// CHECK: %[[OUT:.*]] = ktdp.construct_memory_view %c32768,
// CHECK: %[[C8:.*]] = arith.constant 8 : index
// CHECK: scf.for %[[I:.*]] = %{{.*}} to %[[C8]] step %{{.*}} {
// CHECK: %[[C4:.*]] = arith.constant 4 : index
// CHECK: %[[ROW:.*]] = arith.muli %[[I]], %[[C4]] : index
// CHECK: %[[G:.*]] = ktdp.construct_indirect_access_tile intermediate_variables(%[[M:.*]], %[[K:.*]]) %[[SRC]][ind(%[[ROWS]][%[[ROW]] + %[[M]], %[[K]]]), ind(%[[COLS]][%[[ROW]] + %[[M]], %[[K]]])]
// CHECK-SAME: -> !ktdp.access_tile<4x32xindex>
// CHECK: %[[V:.*]] = ktdp.load %[[G]] : <4x32xindex> -> tensor<4x32xf16>
// CHECK: %[[T:.*]] = ktdp.construct_access_tile %[[OUT]][%[[ROW]], 0]
// CHECK: ktdp.store %[[V]], %[[T]] : tensor<4x32xf16>, <4x32xindex>
// CHECK: } {ktdf.spread_chunks}
#src_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#sq32 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 31 >= 0, d1 >= 0, -d1 + 31 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
module {
  ktdf_arch.target @sample_device from "../../../../../examples/devices/sample_device.mlir"
    memory_map #ktdf_arch.map<"global" = "DDR">
  func.func @gather_2d() {
    %src_addr = arith.constant 0 : index
    %rows_addr = arith.constant 4096 : index
    %cols_addr = arith.constant 8192 : index
    %out_addr = arith.constant 32768 : index
    %SRC = ktdp.construct_memory_view %src_addr, sizes: [64, 64], strides: [64, 1] {coordinate_set = #src_set, memory_space = #ktdp.memory_space<global>} : memref<64x64xf16>
    %ROWS = ktdp.construct_memory_view %rows_addr, sizes: [32, 32], strides: [32, 1] {coordinate_set = #sq32, memory_space = #ktdp.memory_space<global>} : memref<32x32xi32>
    %COLS = ktdp.construct_memory_view %cols_addr, sizes: [32, 32], strides: [32, 1] {coordinate_set = #sq32, memory_space = #ktdp.memory_space<global>} : memref<32x32xi32>
    %OUT = ktdp.construct_memory_view %out_addr, sizes: [32, 32], strides: [32, 1] {coordinate_set = #sq32, memory_space = #ktdp.memory_space<global>} : memref<32x32xf16>
    %g = ktdp.construct_indirect_access_tile intermediate_variables (%m, %k) %SRC[ind(%ROWS[%m, %k]), ind(%COLS[%m, %k])] {variables_space_set = #sq32, variables_space_order = #id2} : memref<64x64xf16>, memref<32x32xi32>, memref<32x32xi32> -> !ktdp.access_tile<32x32xindex>
    %t = ktdp.construct_access_tile %OUT[0, 0] {access_tile_set = #sq32, access_tile_order = #id2} : memref<32x32xf16> -> !ktdp.access_tile<32x32xindex>
    %v = ktdp.load %g : <32x32xindex> -> tensor<32x32xf16>
    ktdp.store %v, %t : tensor<32x32xf16>, <32x32xindex>
    return
  }
}

// -----

// Whole: a grid of 8 points already fills the 8 lanes; a gather computed
// on; a body that stores something else too (ktdf-spread-iterations would
// not spread the chunks: the other store would run on every lane). A row
// gather (one index per row, its 32 elements one run) is cut too: its 32
// index reads (100 cycles each) outweigh its 2 KiB (32 cycles at 64
// B/cycle); 8 chunks of 4 rows, two on each core's DMA engine (pages.mlir).

// CHECK-LABEL: func.func @grid_fills_lanes
// CHECK-NOT: scf.for
// CHECK-LABEL: func.func @row_gather
// CHECK: scf.for
// CHECK: ktdp.construct_indirect_access_tile {{.*}}[ind(%{{.*}}[%{{.*}} + %{{.*}}, 0]), (%{{.*}})] {{.*}} -> !ktdp.access_tile<4x32xindex>
// CHECK: } {ktdf.spread_chunks}
// CHECK-LABEL: func.func @computed_on
// CHECK-NOT: scf.for
// CHECK-LABEL: func.func @other_store
// CHECK-NOT: scf.for
// CHECK: return
#src_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#sq32 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 31 >= 0, d1 >= 0, -d1 + 31 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
module {
  ktdf_arch.target @sample_device from "../../../../../examples/devices/sample_device.mlir"
    memory_map #ktdf_arch.map<"global" = "DDR">
  func.func @grid_fills_lanes() attributes {grid = [8]} {
    %src_addr = arith.constant 0 : index
    %rows_addr = arith.constant 4096 : index
    %out_addr = arith.constant 32768 : index
    %SRC = ktdp.construct_memory_view %src_addr, sizes: [64, 64], strides: [64, 1] {coordinate_set = #src_set, memory_space = #ktdp.memory_space<global>} : memref<64x64xf16>
    %ROWS = ktdp.construct_memory_view %rows_addr, sizes: [32, 32], strides: [32, 1] {coordinate_set = #sq32, memory_space = #ktdp.memory_space<global>} : memref<32x32xi32>
    %OUT = ktdp.construct_memory_view %out_addr, sizes: [32, 32], strides: [32, 1] {coordinate_set = #sq32, memory_space = #ktdp.memory_space<global>} : memref<32x32xf16>
    %g = ktdp.construct_indirect_access_tile intermediate_variables (%m, %k) %SRC[ind(%ROWS[%m, %k]), (%k)] {variables_space_set = #sq32, variables_space_order = #id2} : memref<64x64xf16>, memref<32x32xi32> -> !ktdp.access_tile<32x32xindex>
    %t = ktdp.construct_access_tile %OUT[0, 0] {access_tile_set = #sq32, access_tile_order = #id2} : memref<32x32xf16> -> !ktdp.access_tile<32x32xindex>
    %v = ktdp.load %g : <32x32xindex> -> tensor<32x32xf16>
    ktdp.store %v, %t : tensor<32x32xf16>, <32x32xindex>
    return
  }
  func.func @row_gather() {
    %src_addr = arith.constant 0 : index
    %rows_addr = arith.constant 4096 : index
    %out_addr = arith.constant 32768 : index
    %SRC = ktdp.construct_memory_view %src_addr, sizes: [64, 64], strides: [64, 1] {coordinate_set = #src_set, memory_space = #ktdp.memory_space<global>} : memref<64x64xf16>
    %ROWS = ktdp.construct_memory_view %rows_addr, sizes: [32, 32], strides: [32, 1] {coordinate_set = #sq32, memory_space = #ktdp.memory_space<global>} : memref<32x32xi32>
    %OUT = ktdp.construct_memory_view %out_addr, sizes: [32, 32], strides: [32, 1] {coordinate_set = #sq32, memory_space = #ktdp.memory_space<global>} : memref<32x32xf16>
    %g = ktdp.construct_indirect_access_tile intermediate_variables (%m, %k) %SRC[ind(%ROWS[%m, 0]), (%k)] {variables_space_set = #sq32, variables_space_order = #id2} : memref<64x64xf16>, memref<32x32xi32> -> !ktdp.access_tile<32x32xindex>
    %t = ktdp.construct_access_tile %OUT[0, 0] {access_tile_set = #sq32, access_tile_order = #id2} : memref<32x32xf16> -> !ktdp.access_tile<32x32xindex>
    %v = ktdp.load %g : <32x32xindex> -> tensor<32x32xf16>
    ktdp.store %v, %t : tensor<32x32xf16>, <32x32xindex>
    return
  }
  func.func @computed_on() {
    %src_addr = arith.constant 0 : index
    %rows_addr = arith.constant 4096 : index
    %out_addr = arith.constant 32768 : index
    %SRC = ktdp.construct_memory_view %src_addr, sizes: [64, 64], strides: [64, 1] {coordinate_set = #src_set, memory_space = #ktdp.memory_space<global>} : memref<64x64xf16>
    %ROWS = ktdp.construct_memory_view %rows_addr, sizes: [32, 32], strides: [32, 1] {coordinate_set = #sq32, memory_space = #ktdp.memory_space<global>} : memref<32x32xi32>
    %OUT = ktdp.construct_memory_view %out_addr, sizes: [32, 32], strides: [32, 1] {coordinate_set = #sq32, memory_space = #ktdp.memory_space<global>} : memref<32x32xf16>
    %g = ktdp.construct_indirect_access_tile intermediate_variables (%m, %k) %SRC[ind(%ROWS[%m, %k]), (%k)] {variables_space_set = #sq32, variables_space_order = #id2} : memref<64x64xf16>, memref<32x32xi32> -> !ktdp.access_tile<32x32xindex>
    %t = ktdp.construct_access_tile %OUT[0, 0] {access_tile_set = #sq32, access_tile_order = #id2} : memref<32x32xf16> -> !ktdp.access_tile<32x32xindex>
    %v = ktdp.load %g : <32x32xindex> -> tensor<32x32xf16>
    %w = arith.addf %v, %v : tensor<32x32xf16>
    ktdp.store %w, %t : tensor<32x32xf16>, <32x32xindex>
    return
  }
  func.func @other_store() {
    %src_addr = arith.constant 0 : index
    %rows_addr = arith.constant 4096 : index
    %out_addr = arith.constant 32768 : index
    %out2_addr = arith.constant 40960 : index
    %SRC = ktdp.construct_memory_view %src_addr, sizes: [64, 64], strides: [64, 1] {coordinate_set = #src_set, memory_space = #ktdp.memory_space<global>} : memref<64x64xf16>
    %ROWS = ktdp.construct_memory_view %rows_addr, sizes: [32, 32], strides: [32, 1] {coordinate_set = #sq32, memory_space = #ktdp.memory_space<global>} : memref<32x32xi32>
    %OUT = ktdp.construct_memory_view %out_addr, sizes: [32, 32], strides: [32, 1] {coordinate_set = #sq32, memory_space = #ktdp.memory_space<global>} : memref<32x32xf16>
    %OUT2 = ktdp.construct_memory_view %out2_addr, sizes: [32, 32], strides: [32, 1] {coordinate_set = #sq32, memory_space = #ktdp.memory_space<global>} : memref<32x32xf16>
    %g = ktdp.construct_indirect_access_tile intermediate_variables (%m, %k) %SRC[ind(%ROWS[%m, %k]), (%k)] {variables_space_set = #sq32, variables_space_order = #id2} : memref<64x64xf16>, memref<32x32xi32> -> !ktdp.access_tile<32x32xindex>
    %t = ktdp.construct_access_tile %OUT[0, 0] {access_tile_set = #sq32, access_tile_order = #id2} : memref<32x32xf16> -> !ktdp.access_tile<32x32xindex>
    %v = ktdp.load %g : <32x32xindex> -> tensor<32x32xf16>
    ktdp.store %v, %t : tensor<32x32xf16>, <32x32xindex>
    %s = ktdp.construct_access_tile %SRC[0, 0] {access_tile_set = #sq32, access_tile_order = #id2} : memref<64x64xf16> -> !ktdp.access_tile<32x32xindex>
    %x = ktdp.load %s : <32x32xindex> -> tensor<32x32xf16>
    %t2 = ktdp.construct_access_tile %OUT2[0, 0] {access_tile_set = #sq32, access_tile_order = #id2} : memref<32x32xf16> -> !ktdp.access_tile<32x32xindex>
    ktdp.store %x, %t2 : tensor<32x32xf16>, <32x32xindex>
    return
  }
}
