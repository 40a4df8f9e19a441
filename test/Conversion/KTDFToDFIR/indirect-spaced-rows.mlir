// RUN: ktflow-opt %s --ktdf-compile=O0 --split-input-file | FileCheck %s

// A page's rows of one head in a [page, token, head, dim] cache: the
// gather's innermost variable above the run (the token, d1) reads no index,
// so its 16 runs of 32 f16 share the page's index and lie 64 elements
// (128 bytes) apart in memory, one after the other in the buffer. They
// move as the rows of one strided DMA: besides the pending DMA's table
// and buffer addresses and row bytes, its rows and memory stride ride
// along the loop. A run extends it when the DMA is one row and the run
// starts where it ends (contiguous), or when the run read no index of its
// own, the DMA's rows are one run each, the stride (the second run's gap
// to the first) is wider than a run and the run starts a stride after the
// last row; otherwise the DMA moves first.
// CHECK-LABEL: dfir.unit "tile[0]/DMA"
// CHECK: %[[RUNS:.*]]:7 = scf.for %{{.*}} = %{{.*}} to %c16 step %{{.*}} iter_args(%[[LASTAT:.*]] = %{{.*}}, %{{.*}} = %{{.*}}, %[[PMEM:.*]] = %{{.*}}, %[[PBUF:.*]] = %{{.*}}, %[[PLEN:.*]] = %{{.*}}, %[[PROWS:.*]] = %{{.*}}, %[[PSTRIDE:.*]] = %{{.*}}) -> (index, index, index, index, index, index, index)
// CHECK: arith.cmpi eq, %[[IADDR:.*]], %[[LASTAT]] : index
// CHECK: dfir.read_index "HBM"[%[[IADDR]]] : i32 below %c8
// CHECK: %[[ONEROW:.*]] = arith.cmpi eq, %[[PROWS]], %c1{{.*}} : index
// CHECK-NEXT: %[[END:.*]] = arith.addi %[[PMEM]], %[[PLEN]] : index
// CHECK-NEXT: %[[ATEND:.*]] = arith.cmpi eq, %[[SRC:.*]], %[[END]] : index
// CHECK-NEXT: %[[CONTIG:.*]] = arith.andi %[[ONEROW]], %[[ATEND]] : i1
// CHECK-NEXT: %[[GAP:.*]] = arith.subi %[[SRC]], %[[PMEM]] : index
// CHECK-NEXT: %[[STRIDE:.*]] = arith.select %[[ONEROW]], %[[GAP]], %[[PSTRIDE]] : index
// CHECK-NEXT: %[[REUSED:.*]] = arith.cmpi eq, %[[IADDR]], %[[LASTAT]] : index
// CHECK: %[[ROWBYTES:.*]] = arith.cmpi eq, %[[PLEN]], %c64{{.*}} : index
// CHECK: %[[WIDER:.*]] = arith.cmpi sgt, %[[STRIDE]], %c64{{.*}} : index
// CHECK-NEXT: %[[SPACED:.*]] = arith.andi %[[ROWBYTES]], %[[WIDER]] : i1
// CHECK-NEXT: %[[NOREAD:.*]] = arith.andi %[[REUSED]], %[[SPACED]] : i1
// CHECK-NEXT: %[[SPAN:.*]] = arith.muli %[[PROWS]], %[[STRIDE]] : index
// CHECK-NEXT: %[[NEXTROW:.*]] = arith.addi %[[PMEM]], %[[SPAN]] : index
// CHECK-NEXT: %[[ATNEXT:.*]] = arith.cmpi eq, %[[SRC]], %[[NEXTROW]] : index
// CHECK-NEXT: %[[STRIDED:.*]] = arith.andi %[[NOREAD]], %[[ATNEXT]] : i1
// CHECK-NEXT: %[[EXTENDS:.*]] = arith.ori %[[CONTIG]], %[[STRIDED]] : i1
// CHECK: %[[MOVING:.*]] = arith.select %[[EXTENDS]], %{{.*}}, %[[PROWS]] : index
// CHECK: %[[FLUSH:.*]] = arith.cmpi sgt, %[[MOVING]], %{{.*}} : index
// CHECK: %[[FLUSHES:.*]] = arith.select %[[FLUSH]], %{{.*}}, %{{.*}} : index
// CHECK-NEXT: scf.for %{{.*}} = %{{.*}} to %[[FLUSHES]] step %{{.*}} {
// CHECK-NEXT: dfir.dma %[[PLEN]] bytes from "HBM"[%[[PMEM]]] to "tile[0]/SPM"[%[[PBUF]]] rows %[[PROWS]] strides %[[PSTRIDE]], %[[PLEN]]{{$}}
// CHECK: %[[NMEM:.*]] = arith.select %[[EXTENDS]], %[[PMEM]], %[[SRC]] : index
// CHECK-NEXT: %[[NBUF:.*]] = arith.select %[[EXTENDS]], %[[PBUF]], %{{.*}} : index
// CHECK: %[[GROWN:.*]] = arith.addi %[[PLEN]], %c64{{.*}} : index
// CHECK: %[[NLEN:.*]] = arith.select %[[CONTIG]], %[[GROWN]], %c64{{.*}} : index
// CHECK: %[[MORE:.*]] = arith.addi %[[PROWS]], %c1{{.*}} : index
// CHECK: %[[NROWS:.*]] = arith.select %[[STRIDED]], %[[MORE]], %c1{{.*}} : index
// CHECK: %[[NSTRIDE:.*]] = arith.select %[[STRIDED]], %[[STRIDE]], %c0{{.*}} : index
// CHECK-NEXT: scf.yield %[[IADDR]], %{{.*}}, %[[NMEM]], %[[NBUF]], %[[NLEN]], %[[NROWS]], %[[NSTRIDE]] : index, index, index, index, index, index, index
// CHECK-NEXT: }
// CHECK-NEXT: dfir.dma %[[RUNS]]#4 bytes from "HBM"[%[[RUNS]]#2] to "tile[0]/SPM"[%[[RUNS]]#3] rows %[[RUNS]]#5 strides %[[RUNS]]#6, %[[RUNS]]#4{{$}}

#kv = affine_set<(d0, d1, d2, d3) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 15 >= 0, d2 >= 0, -d2 + 1 >= 0, d3 >= 0, -d3 + 31 >= 0)>
#bt = affine_set<(d0) : (d0 >= 0, -d0 + 1 >= 0)>
#vars = affine_set<(d0, d1, d2, d3) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 + 15 >= 0, d2 >= 0, -d2 >= 0, d3 >= 0, -d3 + 31 >= 0)>
#y = affine_set<(d0, d1, d2) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 15 >= 0, d2 >= 0, -d2 + 31 >= 0)>
#yt = affine_set<(d0, d1, d2) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 + 15 >= 0, d2 >= 0, -d2 + 31 >= 0)>
#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#id4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
ktdf_arch.target @mesh_device from "../../../examples/devices/mesh_device.mlir"
    memory_map #ktdf_arch.map<"global" = "HBM", "ct_local" = "SPM">

func.func @page(%kp: index, %btp: index, %yp: index) attributes {grid = [2]} {
  %g = ktdp.get_compute_tile_id : index
  %K = ktdp.construct_memory_view %kp, sizes: [8, 16, 2, 32], strides: [1024, 64, 32, 1] {coordinate_set = #kv, memory_space = #ktdp.memory_space<global>} : memref<8x16x2x32xf16>
  %BT = ktdp.construct_memory_view %btp, sizes: [2], strides: [1] {coordinate_set = #bt, memory_space = #ktdp.memory_space<global>} : memref<2xi32>
  %Y = ktdp.construct_memory_view %yp, sizes: [2, 16, 32], strides: [512, 32, 1] {coordinate_set = #y, memory_space = #ktdp.memory_space<global>} : memref<2x16x32xf16>
  %tk = ktdp.construct_indirect_access_tile intermediate_variables(%d0, %d1, %d2, %d3) %K[ind(%BT[%g + %d0]), (%d1), (%g + %d2), (%d3)] {variables_space_set = #vars, variables_space_order = #id4} : memref<8x16x2x32xf16>, memref<2xi32> -> !ktdp.access_tile<1x16x1x32xindex>
  %k4 = ktdp.load %tk : <1x16x1x32xindex> -> tensor<1x16x1x32xf16>
  %k3 = tensor.collapse_shape %k4 [[0], [1], [2, 3]] : tensor<1x16x1x32xf16> into tensor<1x16x32xf16>
  %w = arith.addf %k3, %k3 : tensor<1x16x32xf16>
  %ty = ktdp.construct_access_tile %Y[%g, 0, 0] {access_tile_set = #yt, access_tile_order = #id3} : memref<2x16x32xf16> -> !ktdp.access_tile<1x16x32xindex>
  ktdp.store %w, %ty : tensor<1x16x32xf16>, <1x16x32xindex>
  return
}

// -----

// Negative: the token's index read from a table (the innermost variable
// above the run, d1, reads an index): each run needs its own read, so no
// rows ride along; runs that follow each other in memory still merge.
// CHECK-LABEL: dfir.unit "tile[0]/DMA"
// CHECK: %[[RUNS:.*]]:5 = scf.for %{{.*}} = %{{.*}} to %c16 step
// CHECK-NOT: rows
// CHECK: dfir.dma %[[RUNS]]#4 bytes from "HBM"[%[[RUNS]]#2] to "tile[0]/SPM"[%[[RUNS]]#3]{{$}}

#kv = affine_set<(d0, d1, d2, d3) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 15 >= 0, d2 >= 0, -d2 + 1 >= 0, d3 >= 0, -d3 + 31 >= 0)>
#tok = affine_set<(d0) : (d0 >= 0, -d0 + 15 >= 0)>
#vars = affine_set<(d0, d1, d2, d3) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 + 15 >= 0, d2 >= 0, -d2 >= 0, d3 >= 0, -d3 + 31 >= 0)>
#y = affine_set<(d0, d1, d2) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 15 >= 0, d2 >= 0, -d2 + 31 >= 0)>
#yt = affine_set<(d0, d1, d2) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 + 15 >= 0, d2 >= 0, -d2 + 31 >= 0)>
#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#id4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
ktdf_arch.target @mesh_device from "../../../examples/devices/mesh_device.mlir"
    memory_map #ktdf_arch.map<"global" = "HBM", "ct_local" = "SPM">

func.func @tokens(%kp: index, %tp: index, %yp: index) attributes {grid = [2]} {
  %g = ktdp.get_compute_tile_id : index
  %K = ktdp.construct_memory_view %kp, sizes: [8, 16, 2, 32], strides: [1024, 64, 32, 1] {coordinate_set = #kv, memory_space = #ktdp.memory_space<global>} : memref<8x16x2x32xf16>
  %T = ktdp.construct_memory_view %tp, sizes: [16], strides: [1] {coordinate_set = #tok, memory_space = #ktdp.memory_space<global>} : memref<16xi32>
  %Y = ktdp.construct_memory_view %yp, sizes: [2, 16, 32], strides: [512, 32, 1] {coordinate_set = #y, memory_space = #ktdp.memory_space<global>} : memref<2x16x32xf16>
  %tk = ktdp.construct_indirect_access_tile intermediate_variables(%d0, %d1, %d2, %d3) %K[ind(%T[%d1]), (%d1), (%g + %d2), (%d3)] {variables_space_set = #vars, variables_space_order = #id4} : memref<8x16x2x32xf16>, memref<16xi32> -> !ktdp.access_tile<1x16x1x32xindex>
  %k4 = ktdp.load %tk : <1x16x1x32xindex> -> tensor<1x16x1x32xf16>
  %k3 = tensor.collapse_shape %k4 [[0], [1], [2, 3]] : tensor<1x16x1x32xf16> into tensor<1x16x32xf16>
  %w = arith.addf %k3, %k3 : tensor<1x16x32xf16>
  %ty = ktdp.construct_access_tile %Y[%g, 0, 0] {access_tile_set = #yt, access_tile_order = #id3} : memref<2x16x32xf16> -> !ktdp.access_tile<1x16x32xindex>
  ktdp.store %w, %ty : tensor<1x16x32xf16>, <1x16x32xindex>
  return
}
