// RUN: ktflow-opt %s --ktdf-record-tensor-extents -split-input-file | FileCheck %s

// Views at a launch scalar times a constant past their tensor's start
// (`%x + %n * 64`): each view declares k * n elements at c * n, and the
// tensor is the largest c + k times n elements, flat (no view at the start
// declares them all), as the interpreter shapes it for each n. The
// dimension names the scalar and what it is multiplied by.

// Two halves of n rows of 64 (x, y: 128n elements; y's offset written
// 64 * n), three thirds of n rows of 32 (z: 96n elements, the views in
// no particular order), and a runtime argument.
// CHECK-LABEL: func.func @halves
// CHECK-SAME: %arg0: index {ktdf.tensor = tensor<?xf16>, ktdf.tensor_dim_scales = array<i64: 128>, ktdf.tensor_dims = array<i64: 3>}
// CHECK-SAME: %arg1: index {ktdf.tensor = tensor<?xf16>, ktdf.tensor_dim_scales = array<i64: 128>, ktdf.tensor_dims = array<i64: 3>}
// CHECK-SAME: %arg2: index {ktdf.tensor = tensor<?xf32>, ktdf.tensor_dim_scales = array<i64: 96>, ktdf.tensor_dims = array<i64: 4>}
#top = affine_set<(d0, d1)[s0] : (d0 >= 0, -d0 + s0 - 1 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#third = affine_set<(d0, d1)[s0] : (d0 >= 0, -d0 + s0 - 1 >= 0, d1 >= 0, -d1 + 31 >= 0)>
func.func @halves(%x: index, %y: index, %z: index, %n_i32: i32,
                  %k: !ktdp.runtime_arg<index>) attributes {grid = [1]} {
  %c32 = arith.constant 32 : index
  %c64 = arith.constant 64 : index
  %n = arith.index_cast %n_i32 : i32 to index
  %off = arith.muli %n, %c64 : index
  %x1 = arith.addi %x, %off : index
  %X0 = ktdp.construct_memory_view %x, sizes: [%n, 64], strides: [64, 1] {coordinate_set = #top, memory_space = #ktdp.memory_space<global>} : memref<?x64xf16>
  %X1 = ktdp.construct_memory_view %x1, sizes: [%n, 64], strides: [64, 1] {coordinate_set = #top, memory_space = #ktdp.memory_space<global>} : memref<?x64xf16>
  %yoff = arith.muli %c64, %n : index
  %y1 = arith.addi %yoff, %y : index
  %Y1 = ktdp.construct_memory_view %y1, sizes: [%n, 64], strides: [64, 1] {coordinate_set = #top, memory_space = #ktdp.memory_space<global>} : memref<?x64xf16>
  %Y0 = ktdp.construct_memory_view %y, sizes: [%n, 64], strides: [64, 1] {coordinate_set = #top, memory_space = #ktdp.memory_space<global>} : memref<?x64xf16>
  %kv = ktdp.runtime_arg_extract value from %k : !ktdp.runtime_arg<index> -> index
  %zoff = arith.muli %kv, %c32 : index
  %z1 = arith.addi %z, %zoff : index
  %zoff2 = arith.muli %kv, %c64 : index
  %z2 = arith.addi %z, %zoff2 : index
  %Z2 = ktdp.construct_memory_view %z2, sizes: [%kv, 32], strides: [32, 1] {coordinate_set = #third, memory_space = #ktdp.memory_space<global>} : memref<?x32xf32>
  %Z0 = ktdp.construct_memory_view %z, sizes: [%kv, 32], strides: [32, 1] {coordinate_set = #third, memory_space = #ktdp.memory_space<global>} : memref<?x32xf32>
  %Z1 = ktdp.construct_memory_view %z1, sizes: [%kv, 32], strides: [32, 1] {coordinate_set = #third, memory_space = #ktdp.memory_space<global>} : memref<?x32xf32>
  return
}

// -----

// Halves that overlap (the second at x + 32n) are left unrecorded for
// ktdf-check-supported to refuse, not declared as the first view's n x 64.
// CHECK-LABEL: func.func @overlap
// CHECK-SAME: (%arg0: index, %arg1: i32)
#top = affine_set<(d0, d1)[s0] : (d0 >= 0, -d0 + s0 - 1 >= 0, d1 >= 0, -d1 + 63 >= 0)>
func.func @overlap(%x: index, %n_i32: i32) attributes {grid = [1]} {
  %c32 = arith.constant 32 : index
  %n = arith.index_cast %n_i32 : i32 to index
  %off = arith.muli %n, %c32 : index
  %x1 = arith.addi %x, %off : index
  %X0 = ktdp.construct_memory_view %x, sizes: [%n, 64], strides: [64, 1] {coordinate_set = #top, memory_space = #ktdp.memory_space<global>} : memref<?x64xf16>
  %X1 = ktdp.construct_memory_view %x1, sizes: [%n, 64], strides: [64, 1] {coordinate_set = #top, memory_space = #ktdp.memory_space<global>} : memref<?x64xf16>
  return
}
