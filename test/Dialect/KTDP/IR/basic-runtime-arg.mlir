// RUN: ktflow-opt %s | ktflow-opt | FileCheck %s

// A runtime_arg fed with the *stripped* type spelling (`: <index, ...>`),
// a dynamic view size, and a tile whose set is bounded by the symbol bound
// through `symbols(%M)`. The tile type says 32x64 although the set is
// 0..M-1: like the reference, the verifier checks only the rank.

// CHECK-LABEL: func.func @basic_runtime_arg
func.func @basic_runtime_arg(%M_sym: !ktdp.runtime_arg<index, granularity=3, upperbound=300>, %a: index) {
  // CHECK: %[[M:.+]] = ktdp.runtime_arg_extract value from %{{.+}} : <index, granularity=3, upperbound=300> -> index
  %M = ktdp.runtime_arg_extract value from %M_sym : <index, granularity=3, upperbound=300> -> index
  // CHECK: %[[V:.+]] = ktdp.construct_memory_view %{{.+}}, sizes: [%[[M]], 64], strides: [64, 1] {{.+}} : memref<?x64xf16>
  %v = ktdp.construct_memory_view %a, sizes: [%M, 64], strides: [64, 1] {
    coordinate_set = affine_set<(d0, d1)[s0] : (d0 >= 0, -d0 + s0 - 1 >= 0, d1 >= 0, -d1 + 63 >= 0)>,
    memory_space = #ktdp.spyre_memory_space<HBM>
  } : memref<?x64xf16>
  // CHECK: ktdp.construct_access_tile %[[V]][0, 0] symbols(%[[M]]) {{.+}} : memref<?x64xf16> -> !ktdp.access_tile<32x64xindex>
  %t = ktdp.construct_access_tile %v[0, 0] symbols(%M) {
    access_tile_set = affine_set<(d0, d1)[s0] : (d0 >= 0, -d0 + s0 - 1 >= 0, d1 >= 0, -d1 + 63 >= 0)>,
    access_tile_order = affine_map<(d0, d1) -> (d0, d1)>
  } : memref<?x64xf16> -> !ktdp.access_tile<32x64xindex>
  %x = ktdp.load %t : !ktdp.access_tile<32x64xindex> -> tensor<32x64xf16>
  ktdp.store %x, %t : tensor<32x64xf16>, !ktdp.access_tile<32x64xindex>
  return
}
