// RUN: ktflow-opt %s --ktdf-record-tensor-extents -split-input-file | FileCheck %s

// Every view at an argument counts, accessed or not: the tensor is the
// largest row-major view at its start when that covers the rest.

#r96 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 95 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#r128 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 127 >= 0, d1 >= 0, -d1 + 63 >= 0)>
// CHECK-LABEL: func.func @two_views
// CHECK-SAME: %{{.*}}: index {ktdf.tensor = tensor<128x64xf16>}
func.func @two_views(%y_ptr: index) attributes {grid = [32, 1]} {
  %a = ktdp.construct_memory_view %y_ptr, sizes: [96, 64], strides: [64, 1] {coordinate_set = #r96, memory_space = #ktdp.memory_space<global>} : memref<96x64xf16>
  %b = ktdp.construct_memory_view %y_ptr, sizes: [128, 64], strides: [64, 1] {coordinate_set = #r128, memory_space = #ktdp.memory_space<global>} : memref<128x64xf16>
  return
}

// -----

// Padded rows: no row-major view covers the 95 * 72 + 64 elements, so the
// tensor is flat. The coordinate set is tighter than the sizes; the sizes
// declare the memory.
#tight = affine_set<(d0, d1) : (d0 >= 0, -d0 + 94 >= 0, d1 >= 0, -d1 + 62 >= 0)>
// CHECK-LABEL: func.func @padded
// CHECK-SAME: %{{.*}}: index {ktdf.tensor = tensor<6904xf16>}
func.func @padded(%x_ptr: index) attributes {grid = [32, 1]} {
  %a = ktdp.construct_memory_view %x_ptr, sizes: [96, 64], strides: [72, 1] {coordinate_set = #tight, memory_space = #ktdp.memory_space<global>} : memref<96x64xf16, strided<[72, 1]>>
  return
}

// -----

// A runtime-argument size: the dimension names the argument (position 1).
#rows = affine_set<(d0, d1)[s0] : (d0 >= 0, -d0 + s0 - 1 >= 0, d1 >= 0, -d1 + 63 >= 0)>
// CHECK-LABEL: func.func @dynamic
// CHECK-SAME: %{{.*}}: index {ktdf.tensor = tensor<?x64xf16>, ktdf.tensor_dims = array<i64: 1>}
func.func @dynamic(%x_ptr: index, %M_arg: !ktdp.runtime_arg<index, upperbound = 1024>) attributes {grid = [32]} {
  %M = ktdp.runtime_arg_extract value from %M_arg : !ktdp.runtime_arg<index, upperbound = 1024> -> index
  %a = ktdp.construct_memory_view %x_ptr, sizes: [%M, 64], strides: [64, 1] {coordinate_set = #rows, memory_space = #ktdp.memory_space<global>} : memref<?x64xf16>
  %b = ktdp.construct_memory_view %x_ptr, sizes: [%M, 64], strides: [64, 1] {coordinate_set = #rows, memory_space = #ktdp.memory_space<global>} : memref<?x64xf16>
  return
}

// -----

// A size from a plain i32 argument through index_cast names that argument
// (position 2): it is bound at launch like a runtime argument.
#upto = affine_set<(d0)[s0] : (d0 >= 0, -d0 + s0 - 1 >= 0)>
// CHECK-LABEL: func.func @scalar_size
// CHECK-SAME: %arg0: index {ktdf.tensor = tensor<?xf32>, ktdf.tensor_dims = array<i64: 2>}
// CHECK-SAME: %arg1: index {ktdf.tensor = tensor<?xf32>, ktdf.tensor_dims = array<i64: 2>}
// CHECK-SAME: %arg2: i32)
func.func @scalar_size(%x_ptr: index, %y_ptr: index, %n_i32: i32) attributes {grid = [4]} {
  %n = arith.index_cast %n_i32 : i32 to index
  %a = ktdp.construct_memory_view %x_ptr, sizes: [%n], strides: [1] {coordinate_set = #upto, memory_space = #ktdp.memory_space<global>} : memref<?xf32>
  %b = ktdp.construct_memory_view %y_ptr, sizes: [%n], strides: [1] {coordinate_set = #upto, memory_space = #ktdp.memory_space<global>} : memref<?xf32>
  return
}

// -----

// A run-time row stride that is the row's size: `[64, %n]` rows %n apart is
// a 64 x n tensor (its inner dimension names the i32 argument); a stride
// written as a product (%n * 4, the sizes after it) names both sizes.
#cols = affine_set<(d0, d1)[s0] : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + s0 - 1 >= 0)>
#box3 = affine_set<(d0, d1, d2)[s0, s1] : (d0 >= 0, -d0 + s0 - 1 >= 0, d1 >= 0, -d1 + s1 - 1 >= 0, d2 >= 0, -d2 + 3 >= 0)>
// CHECK-LABEL: func.func @runtime_row_stride
// CHECK-SAME: %arg0: index {ktdf.tensor = tensor<64x?xf16>, ktdf.tensor_dims = array<i64: 3>}
// CHECK-SAME: %arg1: index {ktdf.tensor = tensor<?x?x4xf32>, ktdf.tensor_dims = array<i64: 2, 3>}
func.func @runtime_row_stride(%x_ptr: index, %y_ptr: index, %m_i32: i32, %n_i32: i32) attributes {grid = [2]} {
  %c4 = arith.constant 4 : index
  %m = arith.index_cast %m_i32 : i32 to index
  %n = arith.index_cast %n_i32 : i32 to index
  %n4 = arith.muli %n, %c4 : index
  %a = ktdp.construct_memory_view %x_ptr, sizes: [64, %n], strides: [%n, 1] {coordinate_set = #cols, memory_space = #ktdp.memory_space<global>} : memref<64x?xf16>
  %b = ktdp.construct_memory_view %y_ptr, sizes: [%m, %n, 4], strides: [%n4, 4, 1] {coordinate_set = #box3, memory_space = #ktdp.memory_space<global>} : memref<?x?x4xf32>
  return
}

// -----

// Literal addresses, one tensor each, from the views at that address.
#s64 = affine_set<(d0) : (d0 >= 0, -d0 + 63 >= 0)>
#s128 = affine_set<(d0) : (d0 >= 0, -d0 + 127 >= 0)>
// CHECK-LABEL: func.func @literals
// CHECK-SAME: ktdf.literal_tensors = {"0" = tensor<128xf16>, "4096" = tensor<64xi32>}
func.func @literals() attributes {grid = [1, 1]} {
  %c0 = arith.constant 0 : index        // activations (f16)
  %c4096 = arith.constant 4096 : index  // indices (i32)
  %a = ktdp.construct_memory_view %c0, sizes: [64], strides: [1] {coordinate_set = #s64, memory_space = #ktdp.memory_space<global>} : memref<64xf16>
  %b = ktdp.construct_memory_view %c0, sizes: [128], strides: [1] {coordinate_set = #s128, memory_space = #ktdp.memory_space<global>} : memref<128xf16>
  %c = ktdp.construct_memory_view %c4096, sizes: [64], strides: [1] {coordinate_set = #s64, memory_space = #ktdp.memory_space<global>} : memref<64xi32>
  return
}
