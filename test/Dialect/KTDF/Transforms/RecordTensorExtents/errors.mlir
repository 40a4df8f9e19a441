// RUN: ktflow-opt %s --ktdf-record-tensor-extents -split-input-file -verify-diagnostics

// With dynamic sizes the tensor's extent must not depend on their values
// beyond the sizes themselves: the compiler names a dynamic dimension by a
// runtime argument, nothing more.

#rows = affine_set<(d0, d1)[s0] : (d0 >= 0, -d0 + s0 - 1 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#r64 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 63 >= 0)>
func.func @different_sizes(%x_ptr: index, %M_arg: !ktdp.runtime_arg<index, upperbound = 1024>) attributes {grid = [32]} {
  %M = ktdp.runtime_arg_extract value from %M_arg : !ktdp.runtime_arg<index, upperbound = 1024> -> index
  %a = ktdp.construct_memory_view %x_ptr, sizes: [%M, 64], strides: [64, 1] {coordinate_set = #rows, memory_space = #ktdp.memory_space<global>} : memref<?x64xf16>
  // expected-error @+1 {{views with dynamic sizes at one start address must all have the same sizes and strides}}
  %b = ktdp.construct_memory_view %x_ptr, sizes: [64, 64], strides: [64, 1] {coordinate_set = #r64, memory_space = #ktdp.memory_space<global>} : memref<64x64xf16>
  return
}

// -----

#cols = affine_set<(d0, d1)[s0] : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + s0 - 1 >= 0)>
func.func @dynamic_inner_padded(%x_ptr: index, %N_arg: !ktdp.runtime_arg<index, upperbound = 128>) attributes {grid = [32]} {
  %N = ktdp.runtime_arg_extract value from %N_arg : !ktdp.runtime_arg<index, upperbound = 128> -> index
  // expected-error @+1 {{a view with dynamic sizes or strides must be row-major, each stride the product of the sizes after it}}
  %a = ktdp.construct_memory_view %x_ptr, sizes: [64, %N], strides: [128, 1] {coordinate_set = #cols, memory_space = #ktdp.memory_space<global>} : memref<64x?xf16>
  return
}

// -----

#rows = affine_set<(d0, d1)[s0] : (d0 >= 0, -d0 + s0 - 1 >= 0, d1 >= 0, -d1 + 63 >= 0)>
func.func @padded_dynamic(%x_ptr: index, %M_arg: !ktdp.runtime_arg<index, upperbound = 1024>) attributes {grid = [32]} {
  %M = ktdp.runtime_arg_extract value from %M_arg : !ktdp.runtime_arg<index, upperbound = 1024> -> index
  // expected-error @+1 {{a view with dynamic sizes or strides must be row-major, each stride the product of the sizes after it}}
  %a = ktdp.construct_memory_view %x_ptr, sizes: [%M, 64], strides: [72, 1] {coordinate_set = #rows, memory_space = #ktdp.memory_space<global>} : memref<?x64xf16, strided<[72, 1]>>
  return
}

// -----

#s = affine_set<(d0) : (d0 >= 0, -d0 + 63 >= 0)>
func.func @mixed_types(%x_ptr: index) attributes {grid = [32]} {
  %a = ktdp.construct_memory_view %x_ptr, sizes: [64], strides: [1] {coordinate_set = #s, memory_space = #ktdp.memory_space<global>} : memref<64xf16>
  // expected-error @+1 {{views of element types 'f16' and 'i32' start at the same address}}
  %b = ktdp.construct_memory_view %x_ptr, sizes: [64], strides: [1] {coordinate_set = #s, memory_space = #ktdp.memory_space<global>} : memref<64xi32>
  return
}

// -----

// A run-time row stride that is not the row's size: rows n apart holding
// n - 1 elements each.
#cols = affine_set<(d0, d1)[s0] : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + s0 - 1 >= 0)>
func.func @stride_not_row(%x_ptr: index, %n_i32: i32) attributes {grid = [2]} {
  %n = arith.index_cast %n_i32 : i32 to index
  %c1 = arith.constant 1 : index
  %m = arith.subi %n, %c1 : index
  // expected-error @+1 {{a view with dynamic sizes or strides must be row-major, each stride the product of the sizes after it}}
  %a = ktdp.construct_memory_view %x_ptr, sizes: [64, %m], strides: [%n, 1] {coordinate_set = #cols, memory_space = #ktdp.memory_space<global>} : memref<64x?xf16>
  return
}
