// RUN: ktflow-opt %s | ktflow-opt | FileCheck %s

// The RFC matrix add with an scf.for over the rows of each compute tile: the
// tile anchor `%start_row + %i` is an affine expression of two SSA values,
// and the set's `-d0 + 0 >= 0` prints normalised.

// CHECK-DAG: #[[ROW:.+]] = affine_set<(d0, d1) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 + 63 >= 0)>

// CHECK-LABEL: func.func @add_with_control_flow
func.func @add_with_control_flow(%a: index, %b: index, %c: index) attributes {grid = [32]} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %id = ktdp.get_compute_tile_id : index
  %start_row = arith.muli %id, %c3 : index
  %A = ktdp.construct_memory_view %a, sizes: [96, 64], strides: [64, 1] {
    coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 95 >= 0, d1 >= 0, -d1 + 63 >= 0)>,
    memory_space = #ktdp.spyre_memory_space<HBM>
  } : memref<96x64xf16>
  %B = ktdp.construct_memory_view %b, sizes: [96, 64], strides: [64, 1] {
    coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 95 >= 0, d1 >= 0, -d1 + 63 >= 0)>,
    memory_space = #ktdp.spyre_memory_space<HBM>
  } : memref<96x64xf16>
  %C = ktdp.construct_memory_view %c, sizes: [96, 64], strides: [64, 1] {
    coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 95 >= 0, d1 >= 0, -d1 + 63 >= 0)>,
    memory_space = #ktdp.spyre_memory_space<HBM>
  } : memref<96x64xf16>
  // CHECK: %[[START:.+]] = arith.muli
  // CHECK: scf.for %[[I:.+]] = %{{.+}} to %{{.+}} step %{{.+}} {
  scf.for %i = %c0 to %c3 step %c1 {
    // CHECK: ktdp.construct_access_tile %{{.+}}[%[[START]] + %[[I]], 0] {access_tile_order = #{{.+}}, access_tile_set = #[[ROW]]} : memref<96x64xf16> -> !ktdp.access_tile<1x64xindex>
    %ta = ktdp.construct_access_tile %A[%start_row + %i, 0] {
      access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 0 >= 0, d1 >= 0, -d1 + 63 >= 0)>,
      access_tile_order = affine_map<(d0, d1) -> (d0, d1)>
    } : memref<96x64xf16> -> !ktdp.access_tile<1x64xindex>
    %tb = ktdp.construct_access_tile %B[%start_row + %i, 0] {
      access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 0 >= 0, d1 >= 0, -d1 + 63 >= 0)>,
      access_tile_order = affine_map<(d0, d1) -> (d0, d1)>
    } : memref<96x64xf16> -> !ktdp.access_tile<1x64xindex>
    %tc = ktdp.construct_access_tile %C[%start_row + %i, 0] {
      access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 0 >= 0, d1 >= 0, -d1 + 63 >= 0)>,
      access_tile_order = affine_map<(d0, d1) -> (d0, d1)>
    } : memref<96x64xf16> -> !ktdp.access_tile<1x64xindex>
    // CHECK: ktdp.load %{{.+}} : <1x64xindex> -> tensor<1x64xf16>
    %x = ktdp.load %ta : !ktdp.access_tile<1x64xindex> -> tensor<1x64xf16>
    %y = ktdp.load %tb : !ktdp.access_tile<1x64xindex> -> tensor<1x64xf16>
    %e = tensor.empty() : tensor<1x64xf16>
    %z = linalg.add ins(%x, %y : tensor<1x64xf16>, tensor<1x64xf16>) outs(%e : tensor<1x64xf16>) -> tensor<1x64xf16>
    // CHECK: ktdp.store %{{.+}}, %{{.+}} : tensor<1x64xf16>, <1x64xindex>
    ktdp.store %z, %tc : tensor<1x64xf16>, !ktdp.access_tile<1x64xindex>
  }
  return
}
