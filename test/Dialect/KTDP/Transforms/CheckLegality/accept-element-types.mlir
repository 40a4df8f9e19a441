// RUN: ktflow-opt %s > %t.ref
// RUN: ktflow-opt %s --ktir-check-legality > %t.out
// RUN: diff %t.ref %t.out
// RUN: ktflow-opt %s --ktir-check-legality | FileCheck %s

// Loads and stores whose tensors have the element type of the view their
// tile was built on, through direct, indirect and distributed views; tiles
// whose view is not visible (function arguments) are not checked.

#set = affine_set<(d0) : (d0 >= 0, -d0 + 63 >= 0)>
#id = affine_map<(d0) -> (d0)>

// CHECK-LABEL: func.func @same_types
func.func @same_types(%a: index, %idx: memref<64xi32>) {
  %v = ktdp.construct_memory_view %a, sizes: [64], strides: [1] {
    coordinate_set = #set, memory_space = #ktdp.memory_space<global>} : memref<64xbf16>
  %t = ktdp.construct_access_tile %v[0] {access_tile_set = #set, access_tile_order = #id}
       : memref<64xbf16> -> !ktdp.access_tile<64xindex>
  // CHECK: ktdp.load %{{.+}} : <64xindex> -> tensor<64xbf16>
  %x = ktdp.load %t : !ktdp.access_tile<64xindex> -> tensor<64xbf16>
  %u = ktdp.construct_indirect_access_tile intermediate_variables(%i) %v[ind(%idx[%i])] {
    variables_space_set = #set, variables_space_order = #id} : memref<64xbf16>, memref<64xi32> -> !ktdp.access_tile<64xindex>
  // CHECK: ktdp.store %{{.+}}, %{{.+}} : tensor<64xbf16>, <64xindex>
  ktdp.store %x, %u : tensor<64xbf16>, !ktdp.access_tile<64xindex>
  return
}

// CHECK-LABEL: func.func @distributed
func.func @distributed(%a: memref<32xf16, #ktdp.memory_space<ct_local, ct_id = 0>>,
                       %b: memref<32xf16, #ktdp.memory_space<ct_local, ct_id = 1>>) {
  %d = ktdp.construct_distributed_memory_view(%a, %b : memref<32xf16, #ktdp.memory_space<ct_local, ct_id = 0>>, memref<32xf16, #ktdp.memory_space<ct_local, ct_id = 1>>) : memref<64xf16>
  %t = ktdp.construct_access_tile %d[0] {access_tile_set = #set, access_tile_order = #id}
       : memref<64xf16> -> !ktdp.access_tile<64xindex>
  // CHECK: ktdp.load %{{.+}} : <64xindex> -> tensor<64xf16>
  %x = ktdp.load %t : !ktdp.access_tile<64xindex> -> tensor<64xf16>
  return
}

// CHECK-LABEL: func.func @tile_argument
func.func @tile_argument(%t: !ktdp.access_tile<64xindex>) {
  // CHECK: ktdp.load %{{.+}} : <64xindex> -> tensor<64xi8>
  %x = ktdp.load %t : !ktdp.access_tile<64xindex> -> tensor<64xi8>
  return
}
