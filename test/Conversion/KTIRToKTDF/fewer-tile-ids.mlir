// RUN: ktflow-opt %s --ktdf-map-memory-spaces --ktdf-generalize --ktir-to-ktdf | FileCheck %s

// A get_compute_tile_id with fewer results than the grid has dimensions
// takes the leading arguments of the ktdf.parallel: under [8, 1] the single
// id is the first (x) argument, i.e. the linear tile id.

ktdf_arch.target @sample_device from "../../../examples/devices/sample_device.mlir"
    memory_map #ktdf_arch.map<"global" = "DDR", "ct_local" = "L1">

#rows = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#row = affine_set<(d0, d1) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#id = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-LABEL: func.func @scale
func.func @scale(%x_ptr: index, %y_ptr: index) attributes {grid = [8, 1]} {
  // CHECK: ktdf.parallel (%[[X:[^,]*]], %[[Y:[^)]*]]) in [8, 1] {
  // CHECK-NOT: ktdp.get_compute_tile_id
  // CHECK: ktdp.construct_access_tile %{{.*}}[%[[X]], 0]
  // CHECK: ktdp.construct_access_tile %{{.*}}[%[[X]], 0]
  %tid = ktdp.get_compute_tile_id : index      // one id, grid rank 2
  %X = ktdp.construct_memory_view %x_ptr, sizes: [8, 64], strides: [64, 1] {coordinate_set = #rows, memory_space = #ktdp.memory_space<global>} : memref<8x64xf16>
  %Y = ktdp.construct_memory_view %y_ptr, sizes: [8, 64], strides: [64, 1] {coordinate_set = #rows, memory_space = #ktdp.memory_space<global>} : memref<8x64xf16>
  %two = arith.constant dense<2.0> : tensor<1x64xf16>
  %tx = ktdp.construct_access_tile %X[%tid, 0] {access_tile_set = #row, access_tile_order = #id} : memref<8x64xf16> -> !ktdp.access_tile<1x64xindex>
  %ty = ktdp.construct_access_tile %Y[%tid, 0] {access_tile_set = #row, access_tile_order = #id} : memref<8x64xf16> -> !ktdp.access_tile<1x64xindex>
  %v = ktdp.load %tx : <1x64xindex> -> tensor<1x64xf16>
  %w = arith.mulf %v, %two : tensor<1x64xf16>
  ktdp.store %w, %ty : tensor<1x64xf16>, <1x64xindex>
  return
}
