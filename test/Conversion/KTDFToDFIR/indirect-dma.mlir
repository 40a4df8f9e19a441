// RUN: ktflow-opt %s --ktdf-compile=O0 | FileCheck %s

// A row gather (ktdp.construct_indirect_access_tile) as index-gated DMAs:
// per row of the 16x32 tile (its innermost variable walks a contiguous run
// of 32 f16), the DMA unit reads the row's i32 index, bounded by the
// table's 64 rows, unless the previous row read the same one (the last
// address and value ride along the loop: a loop of 0 or 1 trips around
// the read), and moves the 64-byte row from TABLE + 64 index into row
// `row` of the buffer. mesh_device's DMA engine reads its SPM sooner than
// HBM, so ktdf-route-transfers staged the tile's 16 indices there: one DMA
// of 64 bytes from IDX + 4 (16 tile) into an SPM buffer, then each read at
// 4 (row) bytes into that box (the row's index, 16 tile + row, minus the
// box's anchor, 16 tile). The run cannot leave the
// table (columns 0-31 of 32): no fill, no clamp, so rows that follow each
// other in the table move as one DMA: the pending run (its table and
// buffer addresses, from -1, and its bytes) rides along the loop too; a
// row that does not start where it ends moves it first (a loop of 0 or 1
// trips around the DMA), and the last run moves after the loop.
// CHECK-LABEL: dfir.unit "tile[0]/DMA"
// CHECK: %[[IDX:.*]] = dfir.address @arg1
// CHECK: %[[BOXAT:.*]] = arith.addi %[[IDX]], %{{.*}} : index
// CHECK: %[[BOX0:.*]] = dfir.address @p0_buf0_c0_l0
// CHECK: %[[BOX:.*]] = arith.addi %[[BOX0]], %{{.*}} : index
// CHECK: dfir.dma %c64{{.*}} bytes from "HBM"[%[[BOXAT]]] to "tile[0]/SPM"[%[[BOX]]]{{$}}
// CHECK: %[[TABLE:.*]] = dfir.address @arg0
// CHECK: %[[STAGED0:.*]] = dfir.address @p0_buf0_c0_l0
// CHECK: %[[STAGED:.*]] = arith.addi %[[STAGED0]], %{{.*}} : index
// CHECK: %[[NONE:.*]] = arith.constant -1 : index
// CHECK: %[[NOMEM:.*]] = arith.constant -1 : index
// CHECK: %[[RUNS:.*]]:5 = scf.for %[[ROW:.*]] = %{{.*}} to %c16{{.*}} step %{{.*}} iter_args(%[[LASTAT:.*]] = %[[NONE]], %[[LAST:.*]] = %{{.*}}, %[[PMEM:.*]] = %[[NOMEM]], %[[PBUF:.*]] = %{{.*}}, %[[PLEN:.*]] = %{{.*}}) -> (index, index, index, index, index)
// CHECK: %[[R:.*]] = arith.remui %[[ROW]], %c16
// CHECK: %[[I:.*]] = arith.addi %{{.*}}, %[[R]] : index
// CHECK: %[[INBOX:.*]] = arith.subi %[[I]], %{{.*}} : index
// CHECK: %[[IBYTES:.*]] = arith.muli %{{.*}}, %c4{{.*}} : index
// CHECK: %[[IADDR:.*]] = arith.addi %[[STAGED]], %[[IBYTES]] : index
// CHECK: %[[SAME:.*]] = arith.cmpi eq, %[[IADDR]], %[[LASTAT]] : index
// CHECK: %[[TRIPS:.*]] = arith.select %[[SAME]], %{{.*}}, %{{.*}} : index
// CHECK: %[[V:.*]] = scf.for %{{.*}} = %{{.*}} to %[[TRIPS]] step %{{.*}} iter_args(%{{.*}} = %[[LAST]]) -> (index) {
// CHECK-NEXT: %[[READ:.*]] = dfir.read_index "tile[0]/SPM"[%[[IADDR]]] : i32 below %c64
// CHECK-NEXT: scf.yield %[[READ]] : index
// CHECK: arith.muli %[[V]], %c32
// CHECK: %[[SRC:.*]] = arith.addi %[[TABLE]], %{{.*}} : index
// CHECK-NOT: dfir.fill
// CHECK: %[[DST:.*]] = arith.addi %{{.*}}, %{{.*}} : index
// CHECK-NEXT: %[[END:.*]] = arith.addi %[[PMEM]], %[[PLEN]] : index
// CHECK-NEXT: %[[EXTENDS:.*]] = arith.cmpi eq, %[[SRC]], %[[END]] : index
// CHECK: %[[MOVING:.*]] = arith.select %[[EXTENDS]], %{{.*}}, %[[PLEN]] : index
// CHECK: %[[FLUSH:.*]] = arith.cmpi sgt, %[[MOVING]], %{{.*}} : index
// CHECK: %[[FLUSHES:.*]] = arith.select %[[FLUSH]], %{{.*}}, %{{.*}} : index
// CHECK-NEXT: scf.for %{{.*}} = %{{.*}} to %[[FLUSHES]] step %{{.*}} {
// CHECK-NEXT: dfir.dma %[[PLEN]] bytes from "HBM"[%[[PMEM]]] to "tile[0]/SPM"[%[[PBUF]]]{{$}}
// CHECK: %[[NMEM:.*]] = arith.select %[[EXTENDS]], %[[PMEM]], %[[SRC]] : index
// CHECK-NEXT: %[[NBUF:.*]] = arith.select %[[EXTENDS]], %[[PBUF]], %[[DST]] : index
// CHECK: %[[GROWN:.*]] = arith.addi %[[PLEN]], %c64{{.*}} : index
// CHECK: %[[NLEN:.*]] = arith.select %[[EXTENDS]], %[[GROWN]], %c64{{.*}} : index
// CHECK-NEXT: scf.yield %[[IADDR]], %[[V]], %[[NMEM]], %[[NBUF]], %[[NLEN]] : index, index, index, index, index
// CHECK-NEXT: }
// CHECK-NEXT: dfir.dma %[[RUNS]]#4 bytes from "HBM"[%[[RUNS]]#2] to "tile[0]/SPM"[%[[RUNS]]#3]{{$}}
// CHECK-NOT: dfir.read_index
// CHECK-LABEL: dfir.unit "tile[0]/VPU"

#t = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 31 >= 0)>
#i = affine_set<(d0) : (d0 >= 0, -d0 + 31 >= 0)>
#v = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 31 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
ktdf_arch.target @mesh_device from "../../../examples/devices/mesh_device.mlir"
    memory_map #ktdf_arch.map<"global" = "HBM", "ct_local" = "SPM">

func.func @rows(%tp: index, %ip: index, %yp: index) attributes {grid = [2]} {
  %g = ktdp.get_compute_tile_id : index
  %c16 = arith.constant 16 : index
  %r0 = arith.muli %g, %c16 : index
  %T = ktdp.construct_memory_view %tp, sizes: [64, 32], strides: [32, 1] {coordinate_set = #t, memory_space = #ktdp.memory_space<global>} : memref<64x32xf16>
  %I = ktdp.construct_memory_view %ip, sizes: [32], strides: [1] {coordinate_set = #i, memory_space = #ktdp.memory_space<global>} : memref<32xi32>
  %Y = ktdp.construct_memory_view %yp, sizes: [32, 32], strides: [32, 1] {coordinate_set = #t, memory_space = #ktdp.memory_space<global>} : memref<32x32xf16>
  %rows = ktdp.construct_indirect_access_tile intermediate_variables(%d0, %d1) %T[ind(%I[%r0 + %d0]), (%d1)] {variables_space_set = #v, variables_space_order = #id2} : memref<64x32xf16>, memref<32xi32> -> !ktdp.access_tile<16x32xindex>
  %ty = ktdp.construct_access_tile %Y[%r0, 0] {access_tile_set = #v, access_tile_order = #id2} : memref<32x32xf16> -> !ktdp.access_tile<16x32xindex>
  %x = ktdp.load %rows : <16x32xindex> -> tensor<16x32xf16>
  %w = arith.addf %x, %x : tensor<16x32xf16>
  ktdp.store %w, %ty : tensor<16x32xf16>, <16x32xindex>
  return
}
