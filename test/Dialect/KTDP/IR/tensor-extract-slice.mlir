// RUN: ktflow-opt %s | ktflow-opt | FileCheck %s

// The add kernel with a tensor.extract_slice of the 3x64 sum down to one
// row before the store: upstream tensor ops mix freely with ktdp.

// CHECK-LABEL: func.func @add_slice
func.func @add_slice(%a: index, %c: index) attributes {grid = [32]} {
  %c3 = arith.constant 3 : index
  %id = ktdp.get_compute_tile_id : index
  %row = arith.muli %id, %c3 : index
  %A = ktdp.construct_memory_view %a, sizes: [96, 64], strides: [64, 1] {
    coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 95 >= 0, d1 >= 0, -d1 + 63 >= 0)>,
    memory_space = #ktdp.spyre_memory_space<HBM>
  } : memref<96x64xf16>
  %C = ktdp.construct_memory_view %c, sizes: [32, 64], strides: [64, 1] {
    coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 31 >= 0, d1 >= 0, -d1 + 63 >= 0)>,
    memory_space = #ktdp.spyre_memory_space<HBM>
  } : memref<32x64xf16>
  %ta = ktdp.construct_access_tile %A[%row, 0] {
    access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 2 >= 0, d1 >= 0, -d1 + 63 >= 0)>,
    access_tile_order = affine_map<(d0, d1) -> (d0, d1)>
  } : memref<96x64xf16> -> !ktdp.access_tile<3x64xindex>
  %tc = ktdp.construct_access_tile %C[%id, 0] {
    access_tile_set = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 63 >= 0)>,
    access_tile_order = affine_map<(d0, d1) -> (d0, d1)>
  } : memref<32x64xf16> -> !ktdp.access_tile<1x64xindex>
  // CHECK: %[[X:.+]] = ktdp.load
  %x = ktdp.load %ta : !ktdp.access_tile<3x64xindex> -> tensor<3x64xf16>
  %e = tensor.empty() : tensor<3x64xf16>
  // CHECK: %[[S:.+]] = linalg.add ins(%[[X]], %[[X]]
  %s = linalg.add ins(%x, %x : tensor<3x64xf16>, tensor<3x64xf16>) outs(%e : tensor<3x64xf16>) -> tensor<3x64xf16>
  // CHECK: %[[R:.+]] = tensor.extract_slice %[[S]][0, 0] [1, 64] [1, 1] : tensor<3x64xf16> to tensor<1x64xf16>
  %r = tensor.extract_slice %s[0, 0] [1, 64] [1, 1] : tensor<3x64xf16> to tensor<1x64xf16>
  // CHECK: ktdp.store %[[R]], %{{.+}} : tensor<1x64xf16>, <1x64xindex>
  ktdp.store %r, %tc : tensor<1x64xf16>, !ktdp.access_tile<1x64xindex>
  return
}
