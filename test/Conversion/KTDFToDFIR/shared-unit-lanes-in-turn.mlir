// RUN: ktflow-opt %s --ktdf-compile | FileCheck %s

// A unit several lanes share serves an iteration lane after lane when the
// first lane has the most iterations, no other shared unit waits in the
// body's loops, and no lane's inner trips outnumber the copies the unit
// hands back (both at run time). On sample_device core[0] serves grid
// points 0 (chunks 0 and 8) and 4 (chunk 4); each chunk loads a scale row
// and stores 4 rows, and the store buffers have 4 copies. The store
// engine's chunk loop holds both walks of an iteration under 0/1-trip
// guards: lane 0's 4 rows whole, then lane 1's; otherwise row by row.
// (layernorm_rows, n_rows=67 N=512, on spyre_like: 899 -> 853 cycles.)
// The load engine, which runs nothing in the row loop, walks as before.

// CHECK-LABEL: dfir.unit "core[0]/MNILU_Block/MNILU"
// CHECK-NOT: arith.cmpi ule
// CHECK-LABEL: dfir.unit "core[0]/MNISU_Block/MNISU"
// CHECK: %[[FIRST:.*]] = arith.cmpi eq, %[[T0:[0-9]+]], %[[MOST:[0-9]+]]
// CHECK-NEXT: %[[MORE:.*]] = arith.cmpi ult, %{{[0-9]+}}, %[[T0]]
// CHECK-NEXT: %[[LEADS:.*]] = arith.andi %[[FIRST]], %[[MORE]]
// CHECK-NEXT: scf.for %{{.*}} to %[[MOST]] step
// CHECK: %[[FIT0:.*]] = arith.cmpi ule, %{{.*}}, %c4
// CHECK: %[[FIT1:.*]] = arith.cmpi ule, %{{.*}}, %c4
// CHECK-NEXT: %[[FITS:.*]] = arith.andi %[[FIT0]], %[[FIT1]]
// CHECK-NEXT: %[[TURN:.*]] = arith.andi %[[FITS]], %[[LEADS]]
// CHECK: %[[ONCE:.*]] = arith.select %[[TURN]]
// CHECK-NEXT: scf.for %{{.*}} to %[[ONCE]] step
// CHECK: scf.for
// CHECK: scf.for
// CHECK: dfir.sync_recv @p1_full0_c0_l0
// CHECK: dfir.sync_send @p1_free0_c0_l0
// CHECK-NOT: dfir.sync_recv
// CHECK: scf.yield
// CHECK: scf.for
// CHECK: scf.for
// CHECK: dfir.sync_recv @p1_full0_c0_l1
// CHECK: dfir.sync_send @p1_free0_c0_l1
// CHECK: %[[AGAIN:.*]] = arith.select %[[TURN]]
// CHECK-NEXT: %[[WALK:.*]] = arith.cmpi eq, %[[AGAIN]], %c0
// CHECK: %[[N:.*]] = arith.select %[[WALK]]
// CHECK-NEXT: scf.for %{{.*}} to %[[N]] step
// CHECK: arith.maxui
// CHECK: %[[ROWS:.*]] = arith.maxui
// CHECK-NEXT: scf.for %{{.*}} to %[[ROWS]] step
// CHECK: dfir.sync_recv @p1_full0_c0_l0
// CHECK: dfir.sync_recv @p1_full0_c0_l1
// CHECK-LABEL: dfir.unit "core[0]/subcore[0]/L1LU"

ktdf_arch.target @sample_device from "../../../examples/devices/sample_device.mlir"
    memory_map #ktdf_arch.map<"global" = "DDR", "ct_local" = "L1">

#s_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 11 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#y_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 47 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#row = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 63 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @squared_rows(%s: index, %y: index) attributes {grid = [8]} {
  %pid = ktdp.get_compute_tile_id : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %c12 = arith.constant 12 : index
  %S = ktdp.construct_memory_view %s, sizes: [12, 64], strides: [64, 1] {coordinate_set = #s_set, memory_space = #ktdp.memory_space<global>} : memref<12x64xf16>
  %Y = ktdp.construct_memory_view %y, sizes: [48, 64], strides: [64, 1] {coordinate_set = #y_set, memory_space = #ktdp.memory_space<global>} : memref<48x64xf16>
  scf.for %c = %pid to %c12 step %c8 {
    %ts = ktdp.construct_access_tile %S[%c, 0] {access_tile_set = #row, access_tile_order = #id2} : memref<12x64xf16> -> !ktdp.access_tile<1x64xindex>
    %sc = ktdp.load %ts : <1x64xindex> -> tensor<1x64xf16>
    %r0 = arith.muli %c, %c4 : index
    %r1 = arith.addi %r0, %c4 : index
    scf.for %r = %r0 to %r1 step %c1 {
      %ty = ktdp.construct_access_tile %Y[%r, 0] {access_tile_set = #row, access_tile_order = #id2} : memref<48x64xf16> -> !ktdp.access_tile<1x64xindex>
      %e = arith.mulf %sc, %sc : tensor<1x64xf16>
      ktdp.store %e, %ty : tensor<1x64xf16>, <1x64xindex>
    }
  }
  return
}
