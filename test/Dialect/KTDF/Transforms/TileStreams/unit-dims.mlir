// RUN: ktflow-opt %s -split-input-file --ktdf-generalize --ktdf-mapping --ktdf-route-transfers --ktdf-tile-streams | FileCheck %s

// A tile loaded with unit dimensions and collapsed (a 1x8x1x64 block of a
// 4-d view read as 8x64), computed on, then expanded back (to a 1x8x64
// block of a 3-d view) before its store: ktdf-generalize folds the
// reshapes into the generics' maps, and the compute stage streams the
// 8 rows of 64 as any 8x64 tile (the reads and writes without the unit
// dimensions; their buffers are 8x64 already). Before, the stage's
// tile was the 4-d read and the 2-loop generics did not fit it ("an op
// over 2 loops does not fit a tile of rank 4").
// CHECK-LABEL: func.func @unit_dims
// CHECK: ktdf.stage "feed"
// CHECK: ktdf.data_transfer %{{.*}} : memref<8x64xf16, "LX"> to !ktdf.fifo.slot<"core/corelet/LXLU" -> "core/corelet/SFP", 64xf16>
// CHECK: ktdf.stage "compute"
// CHECK-DAG: %[[C8:.*]] = arith.constant 8 : index
// CHECK-DAG: %[[C64:.*]] = arith.constant 64 : index
// CHECK: scf.for %{{.*}} = %{{.*}} to %[[C8]] step
// CHECK-NEXT: scf.for %{{.*}} = %{{.*}} to %[[C64]] step
// CHECK-NEXT: %[[X:.*]] = ktdf.read_from_fifo {{.*}} -> tensor<64xf16>
// CHECK: %[[Y:.*]] = linalg.generic {{.*}} ins(%[[X]] : tensor<64xf16>)
// CHECK: arith.mulf
// CHECK: ktdf.write_to_fifo %[[Y]] {{.*}} : tensor<64xf16>
// CHECK: ktdf.stage "drain"
// CHECK: ktdf.data_transfer %{{.*}} 64xf16> to memref<8x64xf16, "LX">
#xs = affine_set<(d0, d1, d2, d3) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 7 >= 0, d2 >= 0, -d2 + 1 >= 0, d3 >= 0, -d3 + 63 >= 0)>
#xt = affine_set<(d0, d1, d2, d3) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 + 7 >= 0, d2 >= 0, -d2 >= 0, d3 >= 0, -d3 + 63 >= 0)>
#ys = affine_set<(d0, d1, d2) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 7 >= 0, d2 >= 0, -d2 + 63 >= 0)>
#yt = affine_set<(d0, d1, d2) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 + 7 >= 0, d2 >= 0, -d2 + 63 >= 0)>
#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#id4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
module {
  ktdf_arch.target @spyre_like from "../../../../../examples/devices/spyre_like.mlir"
    memory_map #ktdf_arch.map<"global" = "DDR", "ct_local" = "LX">
  func.func @unit_dims(%x_ptr: index, %y_ptr: index) attributes {grid = [1]} {
    %X = ktdp.construct_memory_view %x_ptr, sizes: [2, 8, 2, 64], strides: [1024, 128, 64, 1] {coordinate_set = #xs, memory_space = #ktdp.memory_space<global>} : memref<2x8x2x64xf16>
    %Y = ktdp.construct_memory_view %y_ptr, sizes: [2, 8, 64], strides: [512, 64, 1] {coordinate_set = #ys, memory_space = #ktdp.memory_space<global>} : memref<2x8x64xf16>
    %tx = ktdp.construct_access_tile %X[1, 0, 1, 0] {access_tile_set = #xt, access_tile_order = #id4} : memref<2x8x2x64xf16> -> !ktdp.access_tile<1x8x1x64xindex>
    %ty = ktdp.construct_access_tile %Y[1, 0, 0] {access_tile_set = #yt, access_tile_order = #id3} : memref<2x8x64xf16> -> !ktdp.access_tile<1x8x64xindex>
    %x4 = ktdp.load %tx : <1x8x1x64xindex> -> tensor<1x8x1x64xf16>
    %x = tensor.collapse_shape %x4 [[0, 1], [2, 3]] : tensor<1x8x1x64xf16> into tensor<8x64xf16>
    %two = arith.constant dense<2.0> : tensor<8x64xf16>
    %y = arith.mulf %x, %two : tensor<8x64xf16>
    %y3 = tensor.expand_shape %y [[0, 1], [2]] output_shape [1, 8, 64] : tensor<8x64xf16> into tensor<1x8x64xf16>
    ktdp.store %y3, %ty : tensor<1x8x64xf16>, <1x8x64xindex>
    return
  }
}
