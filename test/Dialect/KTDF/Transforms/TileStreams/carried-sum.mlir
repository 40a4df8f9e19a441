// RUN: ktflow-opt %s --arch %examples/devices/mesh_device.mlir --ktdf-mapping --ktdf-apply-device-patterns=checkpoint=pre_scheduling --ktdf-route-transfers --ktdf-tile-streams | FileCheck %s

// A row's running sum over a run-time number of 1x1024 blocks, carried in
// a scratchpad view, then reduced. ktdf-keep-carried-chunks keeps the
// sum's chunks in the VPU across the blocks (the feed no longer reads the
// sum) and folds each into the row's total where it ends: a reduce and an
// accumulate per chunk. With the chunk's fold counted and the sum's reads
// left out of the FIFO bytes, mesh_device's 1024 columns (VPU 32 f16 a
// cycle, FIFO 64 B a cycle) cost, per chunk width w, (1024 / w) x (1 +
// w / 32) + 2 x w / 32 cycles: 66 at 32, 52 at 64, 48 at 128, 52 at 256.
// Counted as a plain FIFO read, every width from 32 up tied at 64 and the
// narrowest, 32, was chosen (32 folds a row instead of 8). The fill of
// the sum with zeros (no carried read) keeps its width; the reduction
// reads chunks of 128, a multiple of the kept one.

// CHECK: ktdf.pipeline {
// CHECK-NEXT: ktdf.private : !ktdf.fifo.slot<"tile/VPU" -> "tile/VST", 32xf16>
// CHECK: scf.for %{{.*}} step %c1024 {
// CHECK: ktdf.pipeline {
// CHECK-NEXT: ktdf.private : memref<1x1024xf16, "SPM">
// CHECK-NEXT: ktdf.private : !ktdf.fifo.slot<"tile/VLD" -> "tile/VPU", 128xf16>
// CHECK-NEXT: ktdf.private : !ktdf.fifo.slot<"tile/VLD" -> "tile/VPU", 128xf16>
// CHECK-NEXT: ktdf.private : !ktdf.fifo.slot<"tile/VPU" -> "tile/VST", 128xf16>
// CHECK: arith.addf
// CHECK: ktdf.pipeline {
// CHECK-NEXT: ktdf.private : !ktdf.fifo.slot<"tile/VLD" -> "tile/VPU", 128xf16>
// CHECK-NEXT: ktdf.private : !ktdf.fifo.slot<"tile/VPU" -> "tile/VST", 1xf16>

#x_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 2047 >= 0)>
#r_set = affine_set<(d0) : (d0 >= 0, -d0 + 15 >= 0)>
#blk = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 1023 >= 0)>
#one = affine_set<(d0) : (d0 == 0)>
#id1 = affine_map<(d0) -> (d0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @row_mean(%x_ptr: index, %mean_ptr: index, %N: index)
      attributes {grid = [16, 1]} {
    %row = ktdp.get_compute_tile_id : index
    %c0 = arith.constant 0 : index
    %c2048 = arith.constant 2048 : index
    %BLOCK_SIZE = arith.constant 1024 : index
    %zero = arith.constant 0x0000 : f16
    %zeros = arith.constant dense<0.0> : tensor<1x1024xf16>
    %n = arith.minsi %N, %c2048 : index
    %X = ktdp.construct_memory_view %x_ptr, sizes: [16, 2048], strides: [2048, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<16x2048xf16>
    %MEAN = ktdp.construct_memory_view %mean_ptr, sizes: [16], strides: [1] {coordinate_set = #r_set, memory_space = #ktdp.memory_space<global>} : memref<16xf16>
    %acc = scf.for %off = %c0 to %n step %BLOCK_SIZE iter_args(%a = %zeros) -> tensor<1x1024xf16> {
      %tx = ktdp.construct_access_tile %X[%row, %off] {access_tile_set = #blk, access_tile_order = #id2} : memref<16x2048xf16> -> !ktdp.access_tile<1x1024xindex>
      %x = ktdp.load %tx : <1x1024xindex> -> tensor<1x1024xf16>
      %a2 = arith.addf %a, %x : tensor<1x1024xf16>
      scf.yield %a2 : tensor<1x1024xf16>
    }
    %sum_init = tensor.splat %zero : tensor<1xf16>
    %sum = linalg.reduce ins(%acc : tensor<1x1024xf16>) outs(%sum_init : tensor<1xf16>) dimensions = [1]
      (%in: f16, %init: f16) {
        %s = arith.addf %in, %init : f16
        linalg.yield %s : f16
      }
    %tm = ktdp.construct_access_tile %MEAN[%row] {access_tile_set = #one, access_tile_order = #id1} : memref<16xf16> -> !ktdp.access_tile<1xindex>
    ktdp.store %sum, %tm : tensor<1xf16>, <1xindex>
    return
  }
}
