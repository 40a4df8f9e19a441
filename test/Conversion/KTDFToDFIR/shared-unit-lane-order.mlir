// RUN: ktflow-opt %s --ktdf-compile | FileCheck %s

// A unit that several lanes share serves first, in each iteration of the
// loop it walks them together in, the lane with the most pipeline
// executions over its grid points (executionsOf, LaneInterleaving.cpp: the
// loop's bounds folded at each point). Tile p copies rows p, p + 8, ...
// below 8p + 1: p + 1 rows when p < 8. On sample_device's core 0, lane 0
// runs tile 0 (1 row) and lane 1 tile 4 (5 rows), so the core's DMA
// engines load and store lane 1's row before lane 0's.

// CHECK-LABEL: dfir.unit "core[0]/MNILU_Block/MNILU"
// CHECK: arith.maxui
// CHECK: %[[MOST:.*]] = arith.maxui
// CHECK-NEXT: scf.for %{{.*}} = %{{[a-z0-9_]+}} to %[[MOST]] step
// CHECK-NOT: @p0_full0_c0_l0
// CHECK: dfir.sync_send @p0_full0_c0_l1
// CHECK: dfir.sync_send @p0_full0_c0_l0
// CHECK-LABEL: dfir.unit "core[0]/MNISU_Block/MNISU"
// CHECK: arith.maxui
// CHECK: %[[MOST2:.*]] = arith.maxui
// CHECK-NEXT: scf.for %{{.*}} = %{{[a-z0-9_]+}} to %[[MOST2]] step
// CHECK-NOT: @p0_full{{[0-9]+}}_c0_l0
// CHECK: dfir.sync_recv @p0_full{{[0-9]+}}_c0_l1
// CHECK: dfir.sync_recv @p0_full{{[0-9]+}}_c0_l0

ktdf_arch.target @sample_device from "../../../examples/devices/sample_device.mlir"
    memory_map #ktdf_arch.map<"global" = "DDR", "ct_local" = "L1">

#x_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#row = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 63 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @rows(%x: index, %y: index) attributes {grid = [8]} {
  %pid = ktdp.get_compute_tile_id : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %p8 = arith.muli %pid, %c8 : index
  %end = arith.addi %p8, %c1 : index
  %X = ktdp.construct_memory_view %x, sizes: [64, 64], strides: [64, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<64x64xf16>
  %Y = ktdp.construct_memory_view %y, sizes: [64, 64], strides: [64, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<64x64xf16>
  scf.for %r = %pid to %end step %c8 {
    %tx = ktdp.construct_access_tile %X[%r, 0] {access_tile_set = #row, access_tile_order = #id2} : memref<64x64xf16> -> !ktdp.access_tile<1x64xindex>
    %ty = ktdp.construct_access_tile %Y[%r, 0] {access_tile_set = #row, access_tile_order = #id2} : memref<64x64xf16> -> !ktdp.access_tile<1x64xindex>
    %v = ktdp.load %tx : <1x64xindex> -> tensor<1x64xf16>
    %e = math.exp %v : tensor<1x64xf16>
    ktdp.store %e, %ty : tensor<1x64xf16>, <1x64xindex>
  }
  return
}
