// RUN: ktflow-opt %s --ktdf-mapping --ktdf-route-transfers --ktdf-tile-streams --ktdf-distribute=use-lanes=false --ktdf-coarsen=factor=2 | FileCheck %s
// RUN: ktflow run %s --check | FileCheck %s --check-prefix=E2E

// Two compute groups under the same loop are sibling pipelines: they share
// the loop's iterations, so they are coarsened together (merging iterations
// for one of them alone would skip them for the other): with a forced
// factor of 2 the loop steps 16 rows and both pipelines move 16-row tiles
// through 16-row buffers. The kernel still verifies.

ktdf_arch.target @sample_device from "../../../../../examples/devices/sample_device.mlir"
    memory_map #ktdf_arch.map<"global" = "DDR", "ct_local" = "L1">

// CHECK: ktdf.parallel (%{{.*}}) in [8] distribute(num_instances = 4)
// CHECK: %[[C16:.*]] = arith.constant 16 : index
// CHECK: scf.for %{{.*}} = %{{.*}} to %{{.*}} step %[[C16]]
// CHECK-COUNT-5: !ktdp.access_tile<16x64xindex>
// CHECK-NOT: 8x64
// CHECK: ktdf.pipeline {
// CHECK-COUNT-3: ktdf.private : memref<16x64xf16, "L1">
// CHECK-NOT: 8x64
// CHECK: ktdf.pipeline {
// CHECK-COUNT-2: ktdf.private : memref<16x64xf16, "L1">
// CHECK-NOT: 8x64

// E2E: check d: 128x64 f16, max abs error 0.000e+00 PASS
// E2E-NEXT: check p: 128x64 f16, max abs error 0.000e+00 PASS
// E2E-NEXT: PASS

#mat = affine_set<(d0, d1) : (d0 >= 0, -d0 + 127 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#block = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
  func.func @sibling_groups(%a: index, %b: index, %c: index, %d: index, %p: index) attributes {grid = [8]} {
    %id = ktdp.get_compute_tile_id : index
    %c0 = arith.constant 0 : index
    %c8 = arith.constant 8 : index
    %c16 = arith.constant 16 : index
    %first = arith.muli %id, %c16 : index
    %A = ktdp.construct_memory_view %a, sizes: [128, 64], strides: [64, 1] {coordinate_set = #mat, memory_space = #ktdp.memory_space<global>} : memref<128x64xf16>
    %B = ktdp.construct_memory_view %b, sizes: [128, 64], strides: [64, 1] {coordinate_set = #mat, memory_space = #ktdp.memory_space<global>} : memref<128x64xf16>
    %C = ktdp.construct_memory_view %c, sizes: [128, 64], strides: [64, 1] {coordinate_set = #mat, memory_space = #ktdp.memory_space<global>} : memref<128x64xf16>
    %D = ktdp.construct_memory_view %d, sizes: [128, 64], strides: [64, 1] {coordinate_set = #mat, memory_space = #ktdp.memory_space<global>} : memref<128x64xf16>
    %P = ktdp.construct_memory_view %p, sizes: [128, 64], strides: [64, 1] {coordinate_set = #mat, memory_space = #ktdp.memory_space<global>} : memref<128x64xf16>
    scf.for %i = %c0 to %c16 step %c8 {
      %row = arith.addi %first, %i : index
      %ta = ktdp.construct_access_tile %A[%row, 0] {access_tile_set = #block, access_tile_order = #id2} : memref<128x64xf16> -> !ktdp.access_tile<8x64xindex>
      %tb = ktdp.construct_access_tile %B[%row, 0] {access_tile_set = #block, access_tile_order = #id2} : memref<128x64xf16> -> !ktdp.access_tile<8x64xindex>
      %tc = ktdp.construct_access_tile %C[%row, 0] {access_tile_set = #block, access_tile_order = #id2} : memref<128x64xf16> -> !ktdp.access_tile<8x64xindex>
      %td = ktdp.construct_access_tile %D[%row, 0] {access_tile_set = #block, access_tile_order = #id2} : memref<128x64xf16> -> !ktdp.access_tile<8x64xindex>
      %tp = ktdp.construct_access_tile %P[%row, 0] {access_tile_set = #block, access_tile_order = #id2} : memref<128x64xf16> -> !ktdp.access_tile<8x64xindex>
      %x = ktdp.load %ta : <8x64xindex> -> tensor<8x64xf16>
      %y = ktdp.load %tb : <8x64xindex> -> tensor<8x64xf16>
      %z = ktdp.load %tc : <8x64xindex> -> tensor<8x64xf16>
      %diff = arith.subf %x, %y : tensor<8x64xf16>
      %sq = arith.mulf %z, %z : tensor<8x64xf16>
      ktdp.store %diff, %td : tensor<8x64xf16>, <8x64xindex>
      ktdp.store %sq, %tp : tensor<8x64xf16>, <8x64xindex>
    }
    return
  }
