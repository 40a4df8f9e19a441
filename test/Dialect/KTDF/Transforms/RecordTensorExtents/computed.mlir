// RUN: ktflow-opt %s --ktdf-record-tensor-extents -split-input-file | FileCheck %s

// Views at computed addresses (argument + offset) declare their footprint
// at the least and the greatest offset over every tile and iteration: the
// tensor ends where the last of them ends (the interpreter, which adds each
// footprint as the view runs, ends at the same element).

// Column shards at x and x + 64 of a 16x128 matrix: 15 * 128 + 64 + 63 + 1
// = 2048 elements; no row-major view at element 0 declares them all.
// Rows at y + pid * 128 for 8 tiles: 8 * 128 elements.
// CHECK-LABEL: func.func @shards
// CHECK-SAME: %arg0: index {ktdf.tensor = tensor<2048xf16>}
// CHECK-SAME: %arg1: index {ktdf.tensor = tensor<1024xf16>}
#shard = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#row = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 127 >= 0)>
func.func @shards(%x: index, %y: index) attributes {grid = [8]} {
  %pid = ktdp.get_compute_tile_id : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %x1 = arith.addi %x, %c64 : index
  %X0 = ktdp.construct_memory_view %x, sizes: [16, 64], strides: [128, 1] {coordinate_set = #shard, memory_space = #ktdp.memory_space<global>} : memref<16x64xf16>
  %X1 = ktdp.construct_memory_view %x1, sizes: [16, 64], strides: [128, 1] {coordinate_set = #shard, memory_space = #ktdp.memory_space<global>} : memref<16x64xf16>
  %off = arith.muli %pid, %c128 : index
  %yr = arith.addi %off, %y : index
  %Y = ktdp.construct_memory_view %yr, sizes: [1, 128], strides: [128, 1] {coordinate_set = #row, memory_space = #ktdp.memory_space<global>} : memref<1x128xf16>
  return
}

// -----

// One group's output row at out + (pid / 4) * 64 for 16 tiles: 4 rows of
// 64. A view at the argument itself with the whole shape keeps its shape.
// CHECK-LABEL: func.func @groups
// CHECK-SAME: %arg0: index {ktdf.tensor = tensor<256xf16>}
// CHECK-SAME: %arg1: index {ktdf.tensor = tensor<4x64xf16>}
#o_row = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 63 >= 0)>
#all = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 63 >= 0)>
func.func @groups(%out: index, %z: index) attributes {grid = [16]} {
  %pid = ktdp.get_compute_tile_id : index
  %c4 = arith.constant 4 : index
  %c64 = arith.constant 64 : index
  %g = arith.divui %pid, %c4 : index
  %row_off = arith.muli %g, %c64 : index
  %dst = arith.addi %out, %row_off : index
  %O = ktdp.construct_memory_view %dst, sizes: [1, 64], strides: [64, 1] {coordinate_set = #o_row, memory_space = #ktdp.memory_space<global>} : memref<1x64xf16>
  %Z = ktdp.construct_memory_view %z, sizes: [4, 64], strides: [64, 1] {coordinate_set = #all, memory_space = #ktdp.memory_space<global>} : memref<4x64xf16>
  %zr = arith.addi %z, %row_off : index
  %Zr = ktdp.construct_memory_view %zr, sizes: [1, 64], strides: [64, 1] {coordinate_set = #o_row, memory_space = #ktdp.memory_space<global>} : memref<1x64xf16>
  return
}
