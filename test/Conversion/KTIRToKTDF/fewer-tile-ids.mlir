// RUN: ktflow-opt %s --ktir-to-ktdf | FileCheck %s

// A get_compute_tile_id with fewer results than the grid has dimensions
// takes the leading arguments of the ktdf.parallel: under [8, 1] the single
// id is the first (x) argument, i.e. the linear tile id.

// CHECK-LABEL: func.func @scale

// CHECK: ktdf.parallel (%[[X:[^,]*]], %[[Y:[^)]*]]) in [8, 1] {
// CHECK-NOT: ktdp.get_compute_tile_id
// CHECK: ktdp.construct_access_tile %{{.*}}[%[[X]], 0]
// CHECK: ktdp.construct_access_tile %{{.*}}[%[[X]], 0]

// Input: the KTIR ktir-to-ktdf receives, printed once by
// `ktflow-opt KERNEL --ktdf-map-memory-spaces --ktdf-generalize` from a KTIR kernel.

#map = affine_map<(d0, d1) -> (d0, d1)>
#set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#set1 = affine_set<(d0, d1) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 + 63 >= 0)>
module {
  ktdf_arch.target @sample_device from "../../../examples/devices/sample_device.mlir" memory_map #ktdf_arch.map<"global" = "DDR", "ct_local" = "L1">
  func.func @scale(%arg0: index, %arg1: index) attributes {grid = [8, 1]} {
    %cst = arith.constant 2.000000e+00 : f16
    %0 = ktdp.get_compute_tile_id : index
    %1 = ktdp.construct_memory_view %arg0, sizes: [8, 64], strides: [64, 1] {coordinate_set = #set, ktdf.memory = "DDR", memory_space = #ktdp.memory_space<global>} : memref<8x64xf16>
    %2 = ktdp.construct_memory_view %arg1, sizes: [8, 64], strides: [64, 1] {coordinate_set = #set, ktdf.memory = "DDR", memory_space = #ktdp.memory_space<global>} : memref<8x64xf16>
    %3 = ktdp.construct_access_tile %1[%0, 0] {access_tile_order = #map, access_tile_set = #set1} : memref<8x64xf16> -> !ktdp.access_tile<1x64xindex>
    %4 = ktdp.construct_access_tile %2[%0, 0] {access_tile_order = #map, access_tile_set = #set1} : memref<8x64xf16> -> !ktdp.access_tile<1x64xindex>
    %5 = ktdp.load %3 : <1x64xindex> -> tensor<1x64xf16>
    %6 = tensor.empty() : tensor<1x64xf16>
    %7 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%5 : tensor<1x64xf16>) outs(%6 : tensor<1x64xf16>) {
    ^bb0(%in: f16, %out: f16):
      %8 = arith.mulf %in, %cst : f16
      linalg.yield %8 : f16
    } -> tensor<1x64xf16>
    ktdp.store %7, %4 : tensor<1x64xf16>, <1x64xindex>
    return
  }
}
