// RUN: ktflow-opt %s --ktdf-import-target --ktdf-split-row-tiles | FileCheck %s --check-prefix=LANES
// RUN: ktflow-opt %s --ktdf-import-target --ktdf-split-row-tiles=use-lanes=false | FileCheck %s --check-prefix=CORES

// The instances to fill are counted as ktdf-distribute will (the tuner's
// `lanes=off` turns both off): one point, 2 trips of 4 rows on
// sample_device's 4 cores of 2 lanes. Every lane: 8 instances, each trip
// cut into 4 trips of 1 row. One lane per core: 4 instances, 2 trips of 2
// rows.

// LANES-LABEL: func.func @two_trips
// LANES: %[[C8:.*]] = arith.constant 8 : index
// LANES: scf.for %{{.*}} = %{{.*}} to %[[C8]] step
// LANES: -> !ktdp.access_tile<1x64xindex>
// CORES-LABEL: func.func @two_trips
// CORES: %[[C4:.*]] = arith.constant 4 : index
// CORES: scf.for %{{.*}} = %{{.*}} to %[[C4]] step
// CORES: -> !ktdp.access_tile<2x64xindex>
#m = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#b = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#i2 = affine_map<(d0, d1) -> (d0, d1)>
module {
  ktdf_arch.target @sample_device from "../../../../../examples/devices/sample_device.mlir"
    memory_map #ktdf_arch.map<"global" = "DDR">
  func.func @two_trips(%x: index, %y: index) attributes {grid = [1]} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %X = ktdp.construct_memory_view %x, sizes: [8, 64], strides: [64, 1] {coordinate_set = #m, memory_space = #ktdp.memory_space<global>} : memref<8x64xf16>
    %Y = ktdp.construct_memory_view %y, sizes: [8, 64], strides: [64, 1] {coordinate_set = #m, memory_space = #ktdp.memory_space<global>} : memref<8x64xf16>
    scf.for %i = %c0 to %c2 step %c1 {
      %tx = ktdp.construct_access_tile %X[%i * 4, 0] {access_tile_set = #b, access_tile_order = #i2} : memref<8x64xf16> -> !ktdp.access_tile<4x64xindex>
      %xh = ktdp.load %tx : <4x64xindex> -> tensor<4x64xf16>
      %yh = arith.addf %xh, %xh : tensor<4x64xf16>
      %ty = ktdp.construct_access_tile %Y[%i * 4, 0] {access_tile_set = #b, access_tile_order = #i2} : memref<8x64xf16> -> !ktdp.access_tile<4x64xindex>
      ktdp.store %yh, %ty : tensor<4x64xf16>, <4x64xindex>
    }
    return
  }
}
