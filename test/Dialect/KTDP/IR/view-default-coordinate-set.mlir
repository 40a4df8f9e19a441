// RUN: ktflow-opt %s | ktflow-opt | FileCheck %s
// RUN: ktflow-opt %s --verify-roundtrip | FileCheck %s

// construct_memory_view without a coordinate_set holds the box of its
// sizes, 0 <= d_i < size_i; a dynamic size is the next symbol (symbols bind
// to the dynamic sizes, left to right). The parser adds the set, so it is
// printed.

// CHECK-DAG: #[[BOX4:.+]] = affine_set<(d0) : (d0 >= 0, -d0 + 3 >= 0)>
// CHECK-DAG: #[[BOX16x8:.+]] = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 7 >= 0)>
// CHECK-DAG: #[[DYN:.+]] = affine_set<(d0, d1)[s0] : (d0 >= 0, -d0 + s0 - 1 >= 0, d1 >= 0, -d1 + 63 >= 0)>
// CHECK-DAG: #[[DYN2:.+]] = affine_set<(d0, d1, d2)[s0, s1] : (d0 >= 0, -d0 + s0 - 1 >= 0, d1 >= 0, -d1 + 1 >= 0, d2 >= 0, -d2 + s1 - 1 >= 0)>
// CHECK-DAG: #[[EMPTY:.+]] = affine_set<(d0) : (d0 >= 0, -d0 - 1 >= 0)>
// CHECK-DAG: #[[POINT:.+]] = affine_set<() : (0 == 0)>
// CHECK-DAG: #[[GIVEN:.+]] = affine_set<(d0) : (d0 - 8 >= 0, -d0 + 11 >= 0)>

// CHECK-LABEL: func.func @views
func.func @views(%p: index, %n: index, %m: index) {
  // The `.ktir` kernel's spelling.
  // CHECK: ktdp.construct_memory_view %{{.+}}, sizes: [4], strides: [1] {coordinate_set = #[[BOX4]], memory_space = #ktdp.memory_space<global>} : memref<4xf32>
  %a = ktdp.construct_memory_view %p, sizes: [4], strides: [1] {memory_space = #ktdp.memory_space<global>} : memref<4xf32>
  // A space before the colons (field guide §1a.10).
  // CHECK: ktdp.construct_memory_view %{{.+}}, sizes: [16, 8], strides: [8, 1] {coordinate_set = #[[BOX16x8]], memory_space = #ktdp.memory_space<global>} : memref<16x8xf16>
  %b = ktdp.construct_memory_view %p, sizes : [16, 8], strides : [8, 1] {memory_space = #ktdp.memory_space<global>} : memref<16x8xf16>
  // CHECK: ktdp.construct_memory_view %{{.+}}, sizes: [%{{.+}}, 64], strides: [64, 1] {coordinate_set = #[[DYN]], memory_space = #ktdp.memory_space<global>} : memref<?x64xf16>
  %c = ktdp.construct_memory_view %p, sizes: [%n, 64], strides: [64, 1] {memory_space = #ktdp.memory_space<global>} : memref<?x64xf16>
  // CHECK: ktdp.construct_memory_view %{{.+}}, sizes: [%{{.+}}, 2, %{{.+}}], strides: [%{{.+}}, 1, 2] {coordinate_set = #[[DYN2]], memory_space = #ktdp.memory_space<global>} : memref<?x2x?xf16>
  %d = ktdp.construct_memory_view %p, sizes: [%n, 2, %m], strides: [%m, 1, 2] {memory_space = #ktdp.memory_space<global>} : memref<?x2x?xf16>
  // CHECK: ktdp.construct_memory_view %{{.+}}, sizes: [0], strides: [1] {coordinate_set = #[[EMPTY]], memory_space = #ktdp.memory_space<global>} : memref<0xf32>
  %e = ktdp.construct_memory_view %p, sizes: [0], strides: [1] {memory_space = #ktdp.memory_space<global>} : memref<0xf32>
  // CHECK: ktdp.construct_memory_view %{{.+}}, sizes: [], strides: [] {coordinate_set = #[[POINT]], memory_space = #ktdp.memory_space<global>} : memref<f32>
  %f = ktdp.construct_memory_view %p, sizes: [], strides: [] {memory_space = #ktdp.memory_space<global>} : memref<f32>
  // A given set is kept, whatever the attribute order.
  // CHECK: ktdp.construct_memory_view %{{.+}}, sizes: [4], strides: [1] {coordinate_set = #[[GIVEN]], memory_space = #ktdp.memory_space<ct_local>} : memref<4xf32>
  %g = ktdp.construct_memory_view %p, sizes: [4], strides: [1] {memory_space = #ktdp.memory_space<ct_local>, coordinate_set = affine_set<(d0) : (d0 - 8 >= 0, -d0 + 11 >= 0)>} : memref<4xf32>
  return
}
