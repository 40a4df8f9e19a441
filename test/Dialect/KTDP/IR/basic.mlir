// RUN: ktflow-opt %s | ktflow-opt | FileCheck %s

// A 32x64 view, a distributed view composing the same view twice into a
// 64x64 one (coverage and overlap are not checked), a tile, load and store.

// CHECK-LABEL: func.func @basic
func.func @basic(%a: index) {
  // CHECK: %[[V:.+]] = ktdp.construct_memory_view %{{.+}}, sizes: [32, 64], strides: [64, 1] {{.+}} : memref<32x64xf16>
  %v = ktdp.construct_memory_view %a, sizes: [32, 64], strides: [64, 1] {
    coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 31 >= 0, d1 >= 0, -d1 + 63 >= 0)>,
    memory_space = #ktdp.spyre_memory_space<HBM>
  } : memref<32x64xf16>
  // The printer emits no space before the parenthesis.
  // CHECK: %[[D:.+]] = ktdp.construct_distributed_memory_view(%[[V]], %[[V]] : memref<32x64xf16>, memref<32x64xf16>) : memref<64x64xf16>
  %d = ktdp.construct_distributed_memory_view (%v, %v : memref<32x64xf16>, memref<32x64xf16>) : memref<64x64xf16>
  // CHECK: %[[T:.+]] = ktdp.construct_access_tile %[[D]][0, 0] {{.+}} : memref<64x64xf16> -> !ktdp.access_tile<32x64xindex>
  %t = ktdp.construct_access_tile %d[0, 0] {
    access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 31 >= 0, d1 >= 0, -d1 + 63 >= 0)>,
    access_tile_order = affine_map<(d0, d1) -> (d0, d1)>
  } : memref<64x64xf16> -> !ktdp.access_tile<32x64xindex>
  // CHECK: %[[X:.+]] = ktdp.load %[[T]] : <32x64xindex> -> tensor<32x64xf16>
  %x = ktdp.load %t : !ktdp.access_tile<32x64xindex> -> tensor<32x64xf16>
  // CHECK: ktdp.store %[[X]], %[[T]] : tensor<32x64xf16>, <32x64xindex>
  ktdp.store %x, %t : tensor<32x64xf16>, !ktdp.access_tile<32x64xindex>
  return
}

// Parts in different memory spaces of both families, and a distributed view
// of no parts at all.
// CHECK-LABEL: func.func @distributed_mixed_spaces
func.func @distributed_mixed_spaces(%a: memref<32x64xf16, #ktdp.spyre_memory_space<LX, core = 0>>,
                                    %b: memref<32x64xf16, #ktdp.memory_space<ct_local, ct_id = 1>>,
                                    %c: memref<32x64xf16>) {
  // CHECK: ktdp.construct_distributed_memory_view(%{{.+}}, %{{.+}}, %{{.+}} : memref<32x64xf16, #ktdp.spyre_memory_space<LX, core = 0>>, memref<32x64xf16, #ktdp.memory_space<ct_local, ct_id = 1>>, memref<32x64xf16>) : memref<96x64xf16>
  %d = ktdp.construct_distributed_memory_view(%a, %b, %c : memref<32x64xf16, #ktdp.spyre_memory_space<LX, core = 0>>, memref<32x64xf16, #ktdp.memory_space<ct_local, ct_id = 1>>, memref<32x64xf16>) : memref<96x64xf16>
  // CHECK: ktdp.construct_distributed_memory_view() : memref<0x64xf16>
  %e = ktdp.construct_distributed_memory_view() : memref<0x64xf16>
  return
}
