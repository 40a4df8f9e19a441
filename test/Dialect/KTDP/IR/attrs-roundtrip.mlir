// RUN: ktflow-opt %s | ktflow-opt | FileCheck %s

// Both memory-space families, every variant, as memref memory spaces in
// function signatures and as the memory_space attribute of
// construct_memory_view.

// CHECK-LABEL: func.func @spyre_memory_spaces
// CHECK-SAME: memref<64xf32, #ktdp.spyre_memory_space<HBM>>
// CHECK-SAME: memref<64xf32, #ktdp.spyre_memory_space<LX>>
// CHECK-SAME: memref<64xf32, #ktdp.spyre_memory_space<L0>>
// CHECK-SAME: memref<64xf32, #ktdp.spyre_memory_space<unspecified>>
// CHECK-SAME: memref<64xf32, #ktdp.spyre_memory_space<LX, core = 7>>
// CHECK-SAME: memref<64xf32, #ktdp.spyre_memory_space<L0, core = 3>>
// CHECK-SAME: memref<64xf32, #ktdp.spyre_memory_space<LX, core = 0>>
func.func @spyre_memory_spaces(
    %hbm: memref<64xf32, #ktdp.spyre_memory_space<HBM>>,
    %lx: memref<64xf32, #ktdp.spyre_memory_space<LX>>,
    %l0: memref<64xf32, #ktdp.spyre_memory_space<L0>>,
    %unspec: memref<64xf32, #ktdp.spyre_memory_space<unspecified>>,
    %lx7: memref<64xf32, #ktdp.spyre_memory_space<LX, core = 7>>,
    %l03: memref<64xf32, #ktdp.spyre_memory_space<L0, core = 3>>,
    %lx0: memref<64xf32, #ktdp.spyre_memory_space<LX, core = 0>>) {
  return
}

// CHECK-LABEL: func.func @memory_spaces
// CHECK-SAME: memref<64xf16, #ktdp.memory_space<global>>
// CHECK-SAME: memref<64xf16, #ktdp.memory_space<ct_local>>
// CHECK-SAME: memref<64xf16, #ktdp.memory_space<ct_local, ct_id = 5>>
// CHECK-SAME: memref<64xf16, #ktdp.memory_space<ct_local, ct_id = 0>>
func.func @memory_spaces(
    %g: memref<64xf16, #ktdp.memory_space<global>>,
    %l: memref<64xf16, #ktdp.memory_space<ct_local>>,
    %l5: memref<64xf16, #ktdp.memory_space<ct_local, ct_id = 5>>,
    %l0: memref<64xf16, #ktdp.memory_space<ct_local, ct_id = 0>>) {
  return
}

// CHECK-LABEL: func.func @as_op_attributes
func.func @as_op_attributes(%a: index) {
  // CHECK: memory_space = #ktdp.spyre_memory_space<HBM>} : memref<64xf16>
  %0 = ktdp.construct_memory_view %a, sizes: [64], strides: [1] {
    coordinate_set = affine_set<(d0) : (d0 >= 0, -d0 + 63 >= 0)>,
    memory_space = #ktdp.spyre_memory_space<HBM>} : memref<64xf16>
  // CHECK: memory_space = #ktdp.spyre_memory_space<LX, core = 7>} : memref<64xf16>
  %1 = ktdp.construct_memory_view %a, sizes: [64], strides: [1] {
    coordinate_set = affine_set<(d0) : (d0 >= 0, -d0 + 63 >= 0)>,
    memory_space = #ktdp.spyre_memory_space<LX, core = 7>} : memref<64xf16>
  // CHECK: memory_space = #ktdp.spyre_memory_space<L0, core = 3>} : memref<64xf16>
  %2 = ktdp.construct_memory_view %a, sizes: [64], strides: [1] {
    coordinate_set = affine_set<(d0) : (d0 >= 0, -d0 + 63 >= 0)>,
    memory_space = #ktdp.spyre_memory_space<L0, core = 3>} : memref<64xf16>
  // CHECK: memory_space = #ktdp.spyre_memory_space<unspecified>} : memref<64xf16>
  %3 = ktdp.construct_memory_view %a, sizes: [64], strides: [1] {
    coordinate_set = affine_set<(d0) : (d0 >= 0, -d0 + 63 >= 0)>,
    memory_space = #ktdp.spyre_memory_space<unspecified>} : memref<64xf16>
  // CHECK: memory_space = #ktdp.memory_space<global>} : memref<64xf16>
  %4 = ktdp.construct_memory_view %a, sizes: [64], strides: [1] {
    coordinate_set = affine_set<(d0) : (d0 >= 0, -d0 + 63 >= 0)>,
    memory_space = #ktdp.memory_space<global>} : memref<64xf16>
  // CHECK: memory_space = #ktdp.memory_space<ct_local>} : memref<64xf16>
  %5 = ktdp.construct_memory_view %a, sizes: [64], strides: [1] {
    coordinate_set = affine_set<(d0) : (d0 >= 0, -d0 + 63 >= 0)>,
    memory_space = #ktdp.memory_space<ct_local>} : memref<64xf16>
  // CHECK: memory_space = #ktdp.memory_space<ct_local, ct_id = 3>} : memref<64xf16, #ktdp.memory_space<ct_local, ct_id = 3>>
  %6 = ktdp.construct_memory_view %a, sizes: [64], strides: [1] {
    coordinate_set = affine_set<(d0) : (d0 >= 0, -d0 + 63 >= 0)>,
    memory_space = #ktdp.memory_space<ct_local, ct_id = 3>} : memref<64xf16, #ktdp.memory_space<ct_local, ct_id = 3>>
  // The memory space of the result type may use the other family.
  // CHECK: memory_space = #ktdp.spyre_memory_space<LX, core = 1>} : memref<64xf16, #ktdp.memory_space<ct_local, ct_id = 1>>
  %7 = ktdp.construct_memory_view %a, sizes: [64], strides: [1] {
    coordinate_set = affine_set<(d0) : (d0 >= 0, -d0 + 63 >= 0)>,
    memory_space = #ktdp.spyre_memory_space<LX, core = 1>} : memref<64xf16, #ktdp.memory_space<ct_local, ct_id = 1>>
  return
}
