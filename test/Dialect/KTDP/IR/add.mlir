// RUN: ktflow-opt %s | ktflow-opt | FileCheck %s
// RUN: ktflow-opt %s --verify-roundtrip | FileCheck %s

// The RFC 0682 matrix add without a loop: 96x64 f16 views in HBM, one 3x64
// tile per compute tile, linalg.add in between.

// CHECK-DAG: #[[SET:.+]] = affine_set<(d0, d1) : (d0 >= 0, -d0 + 95 >= 0, d1 >= 0, -d1 + 63 >= 0)>
// CHECK-DAG: #[[TSET:.+]] = affine_set<(d0, d1) : (d0 >= 0, -d0 + 2 >= 0, d1 >= 0, -d1 + 63 >= 0)>
// CHECK-DAG: #[[MAP:.+]] = affine_map<(d0, d1) -> (d0, d1)>

// CHECK-LABEL: func.func @add
// CHECK-SAME: attributes {grid = [32]}
func.func @add() attributes {grid = [32]} {
  %c0 = arith.constant 0 : index
  %c6144 = arith.constant 6144 : index
  %c12288 = arith.constant 12288 : index
  %c3 = arith.constant 3 : index
  // CHECK: %[[ID:.+]] = ktdp.get_compute_tile_id : index
  %id = ktdp.get_compute_tile_id : index
  // CHECK: %[[ROW:.+]] = arith.muli %[[ID]]
  %row = arith.muli %id, %c3 : index
  // CHECK: %[[A:.+]] = ktdp.construct_memory_view %{{.+}}, sizes: [96, 64], strides: [64, 1] {coordinate_set = #[[SET]], memory_space = #ktdp.spyre_memory_space<HBM>} : memref<96x64xf16>
  %A = ktdp.construct_memory_view %c0, sizes: [96, 64], strides: [64, 1] {
    coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 95 >= 0, d1 >= 0, -d1 + 63 >= 0)>,
    memory_space = #ktdp.spyre_memory_space<HBM>
  } : memref<96x64xf16>
  %B = ktdp.construct_memory_view %c6144, sizes: [96, 64], strides: [64, 1] {
    coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 95 >= 0, d1 >= 0, -d1 + 63 >= 0)>,
    memory_space = #ktdp.spyre_memory_space<HBM>
  } : memref<96x64xf16>
  %C = ktdp.construct_memory_view %c12288, sizes: [96, 64], strides: [64, 1] {
    coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 95 >= 0, d1 >= 0, -d1 + 63 >= 0)>,
    memory_space = #ktdp.spyre_memory_space<HBM>
  } : memref<96x64xf16>
  // CHECK: %[[TA:.+]] = ktdp.construct_access_tile %[[A]][%[[ROW]], 0] {access_tile_order = #[[MAP]], access_tile_set = #[[TSET]]} : memref<96x64xf16> -> !ktdp.access_tile<3x64xindex>
  %ta = ktdp.construct_access_tile %A[%row, 0] {
    access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 2 >= 0, d1 >= 0, -d1 + 63 >= 0)>,
    access_tile_order = affine_map<(d0, d1) -> (d0, d1)>
  } : memref<96x64xf16> -> !ktdp.access_tile<3x64xindex>
  %tb = ktdp.construct_access_tile %B[%row, 0] {
    access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 2 >= 0, d1 >= 0, -d1 + 63 >= 0)>,
    access_tile_order = affine_map<(d0, d1) -> (d0, d1)>
  } : memref<96x64xf16> -> !ktdp.access_tile<3x64xindex>
  %tc = ktdp.construct_access_tile %C[%row, 0] {
    access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 2 >= 0, d1 >= 0, -d1 + 63 >= 0)>,
    access_tile_order = affine_map<(d0, d1) -> (d0, d1)>
  } : memref<96x64xf16> -> !ktdp.access_tile<3x64xindex>
  // The full type spelling goes in, the stripped one comes out.
  // CHECK: %[[X:.+]] = ktdp.load %[[TA]] : <3x64xindex> -> tensor<3x64xf16>
  %x = ktdp.load %ta : !ktdp.access_tile<3x64xindex> -> tensor<3x64xf16>
  %y = ktdp.load %tb : !ktdp.access_tile<3x64xindex> -> tensor<3x64xf16>
  %e = tensor.empty() : tensor<3x64xf16>
  // CHECK: %[[Z:.+]] = linalg.add ins(%[[X]], %{{.+}} : tensor<3x64xf16>, tensor<3x64xf16>)
  %z = linalg.add ins(%x, %y : tensor<3x64xf16>, tensor<3x64xf16>) outs(%e : tensor<3x64xf16>) -> tensor<3x64xf16>
  // CHECK: ktdp.store %[[Z]], %{{.+}} : tensor<3x64xf16>, <3x64xindex>
  ktdp.store %z, %tc : tensor<3x64xf16>, !ktdp.access_tile<3x64xindex>
  return
}
