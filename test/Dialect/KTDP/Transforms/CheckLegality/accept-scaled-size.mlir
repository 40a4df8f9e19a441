// RUN: ktflow-opt %s --ktir-check-legality | FileCheck %s

// A size scaled into a view offset (`ptr + n * 64`, field guide §1b.4) is
// not an address: the kernel is legal, %n a launch scalar.

// CHECK-LABEL: func.func @one_ptr
#v = affine_set<(d0)[s0] : (d0 >= 0, -d0 + s0 - 1 >= 0)>
func.func @one_ptr(%x: index, %n: index) {
  %c64 = arith.constant 64 : index
  %off = arith.muli %n, %c64 : index
  %x1 = arith.addi %x, %off : index
  %X0 = ktdp.construct_memory_view %x, sizes: [%n], strides: [1] {coordinate_set = #v, memory_space = #ktdp.memory_space<global>} : memref<?xf16>
  %X1 = ktdp.construct_memory_view %x1, sizes: [%n], strides: [1] {coordinate_set = #v, memory_space = #ktdp.memory_space<global>} : memref<?xf16>
  return
}
