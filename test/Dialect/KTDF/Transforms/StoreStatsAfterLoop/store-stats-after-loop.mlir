// RUN: ktflow-opt %s -split-input-file --arch %examples/devices/sample_device.mlir --ktdf-import-target --ktdf-store-stats-after-loop | FileCheck %s
// RUN: ktflow-opt %s -split-input-file --arch %examples/devices/spyre_like.mlir --ktdf-import-target --ktdf-store-stats-after-loop | FileCheck %s --check-prefix=SPYRE
// RUN: ktflow-opt %s -split-input-file --arch %examples/devices/mesh_device.mlir --ktdf-import-target --ktdf-store-stats-after-loop | FileCheck %s --check-prefix=MESH

// A grid-stride row loop's one-element stores (row_stats: 16 points on
// sample_device's 8 lanes, 4 rows a point, two outputs: 32 stores on a
// core's store engine of 4 slots) go to a scratchpad view of one element
// a trip (and one for the trips past the output) for each of the 16
// points, element pid * 5 + min((r - pid) / 16, 4), so that two points of
// a lane keep apart what they store; after the loop the point's 4
// elements from pid * 5 are stored as the rows of a 2-d view of the
// output, 16 elements a row, at column pid, as many rows as trips stored
// inside the output. On
// spyre_like the 16 points take 16 cores, one store engine of 8 slots
// each for the point's 8 stores: nothing changes.

#x_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 255 >= 0)>
#v_set = affine_set<(d0) : (d0 >= 0, -d0 + 63 >= 0)>
#row = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 255 >= 0)>
#one = affine_set<(d0) : (d0 == 0)>
#id1 = affine_map<(d0) -> (d0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-LABEL: func.func @row_stats
// CHECK: %[[KSUM:.*]] = ktdp.construct_memory_view %{{.*}}, sizes: [80], strides: [1] {{{.*}}ktdf.carried, ktdf.row_stats, memory_space = #ktdp.memory_space<ct_local, ct_id = 0>}
// CHECK: %[[KEPT:.*]] = ktdp.construct_memory_view %{{.*}}, sizes: [80], strides: [1] {{{.*}}ktdf.carried, ktdf.row_stats, memory_space = #ktdp.memory_space<ct_local, ct_id = 0>}
// CHECK: %[[PID:.*]] = ktdp.get_compute_tile_id
// CHECK: scf.for %[[R:.*]] = %[[PID]] to %[[N:.*]] step %{{.*}} {
// CHECK: %[[D:.*]] = arith.subi %[[R]], %[[PID]]
// CHECK: %[[TRIP:.*]] = arith.divui %[[D]], %{{.*}}
// CHECK: %[[BASE:.*]] = arith.muli %[[PID]], %[[C5:.*]] : index
// CHECK: %[[K:.*]] = arith.minui %[[TRIP]], %{{.*}}
// CHECK: %[[AT:.*]] = arith.addi %[[BASE]], %[[K]]
// CHECK: %[[ONE:.*]] = ktdp.construct_access_tile %[[KEPT]][%[[AT]]]
// CHECK-NEXT: ktdp.store %{{.*}}, %[[ONE]] : tensor<1xf16>, <1xindex>
// CHECK: %[[K2:.*]] = arith.minui %[[TRIP]], %{{.*}}
// CHECK: %[[AT2:.*]] = arith.addi %{{.*}}, %[[K2]]
// CHECK: ktdp.construct_access_tile %[[KSUM]][%[[AT2]]]
// CHECK: }
// CHECK: %[[END:.*]] = arith.minsi %[[N]], %{{.*}}
// CHECK: %[[LEFT:.*]] = arith.subi %[[END]], %[[PID]]
// CHECK: %[[UP:.*]] = arith.addi %[[LEFT]], %{{.*}}
// CHECK: %[[Q:.*]] = arith.divsi %[[UP]], %{{.*}}
// CHECK: %[[T:.*]] = arith.maxsi %[[Q]], %{{.*}}
// CHECK: %[[FIRST:.*]] = ktdp.construct_access_tile %[[KEPT]][%[[PID]] * 5] {{.*}} -> !ktdp.access_tile<4xindex>
// CHECK: %[[V:.*]] = ktdp.load %[[FIRST]] : <4xindex> -> tensor<4xf16>
// CHECK: %[[COL:.*]] = tensor.expand_shape %[[V]] {{\[\[}}0, 1]] output_shape [4, 1]
// CHECK: %[[OUT:.*]] = ktdp.construct_memory_view %arg1, sizes: [%[[T]], 16], strides: [16, 1] {{.*}} : memref<?x16xf16>
// CHECK: %[[TILE:.*]] = ktdp.construct_access_tile %[[OUT]][0, %[[PID]]] {{.*}} -> !ktdp.access_tile<4x1xindex>
// CHECK: ktdp.store %[[COL]], %[[TILE]] : tensor<4x1xf16>, <4x1xindex>
// CHECK: ktdp.construct_memory_view %arg2, sizes: [%{{.*}}, 16], strides: [16, 1]
// CHECK: return
// SPYRE-LABEL: func.func @row_stats
// SPYRE-NOT: ktdf.row_stats
// SPYRE: ktdp.store %{{.*}}, %{{.*}} : tensor<1xf16>, <1xindex>
// SPYRE: ktdp.store %{{.*}}, %{{.*}} : tensor<1xf16>, <1xindex>
// SPYRE-NOT: ktdp.store
// SPYRE: return
func.func @row_stats(%x_ptr: index, %max_ptr: index, %sum_ptr: index, %n_rows: index) attributes {grid = [16, 1]} {
  %tid = ktdp.get_compute_tile_id : index
  %c16 = arith.constant 16 : index
  %ninf = arith.constant 0xFC00 : f16
  %zero = arith.constant 0.000000e+00 : f16
  %X = ktdp.construct_memory_view %x_ptr, sizes: [64, 256], strides: [256, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<64x256xf16>
  %MAX = ktdp.construct_memory_view %max_ptr, sizes: [64], strides: [1] {coordinate_set = #v_set, memory_space = #ktdp.memory_space<global>} : memref<64xf16>
  %SUM = ktdp.construct_memory_view %sum_ptr, sizes: [64], strides: [1] {coordinate_set = #v_set, memory_space = #ktdp.memory_space<global>} : memref<64xf16>
  scf.for %r = %tid to %n_rows step %c16 : index {
    %tx = ktdp.construct_access_tile %X[%r, 0] {access_tile_set = #row, access_tile_order = #id2} : memref<64x256xf16> -> !ktdp.access_tile<1x256xindex>
    %x = ktdp.load %tx : <1x256xindex> -> tensor<1x256xf16>
    %max_init = tensor.splat %ninf : tensor<1xf16>
    %max = linalg.reduce { arith.maxnumf } ins(%x : tensor<1x256xf16>) outs(%max_init : tensor<1xf16>) dimensions = [1]
    %empty = tensor.empty() : tensor<1xf16>
    %sum_init = linalg.fill ins(%zero : f16) outs(%empty : tensor<1xf16>) -> tensor<1xf16>
    %sum = linalg.reduce { arith.addf } ins(%x : tensor<1x256xf16>) outs(%sum_init : tensor<1xf16>) dimensions = [1]
    %tm = ktdp.construct_access_tile %MAX[%r] {access_tile_set = #one, access_tile_order = #id1} : memref<64xf16> -> !ktdp.access_tile<1xindex>
    %ts = ktdp.construct_access_tile %SUM[%r] {access_tile_set = #one, access_tile_order = #id1} : memref<64xf16> -> !ktdp.access_tile<1xindex>
    ktdp.store %max, %tm : tensor<1xf16>, <1xindex>
    ktdp.store %sum, %ts : tensor<1xf16>, <1xindex>
    scf.yield
  }
  return
}

// -----

// Left alone: an output the loop also reads (a running value another
// trip reads back), a loop starting at a point that may lie past its step
// (the 2-d view's column would leave the row: pid + 16 from step 16), a
// step known only at run time, and an output whose kept view would take
// more than an eighth of a lane's scratchpad (1,048,576 rows of step 8:
// 131,073 elements for each of the 8 starts, 2 MiB, against sample_device's
// 512 KiB of L1 a lane).

#v_set = affine_set<(d0) : (d0 >= 0, -d0 + 63 >= 0)>
#big_set = affine_set<(d0) : (d0 >= 0, -d0 + 1048575 >= 0)>
#one = affine_set<(d0) : (d0 == 0)>
#id1 = affine_map<(d0) -> (d0)>
// CHECK-LABEL: func.func @left_alone
// CHECK-NOT: ktdf.row_stats
// CHECK-COUNT-4: ktdp.store %{{.*}}, %{{.*}} : tensor<1xf16>, <1xindex>
// CHECK-NOT: ktdp.store
// CHECK: return
func.func @left_alone(%a_ptr: index, %b_ptr: index, %c_ptr: index, %d_ptr: index, %n_rows: index, %step: index) attributes {grid = [16, 1]} {
  %tid = ktdp.get_compute_tile_id : index
  %c8 = arith.constant 8 : index
  %c16 = arith.constant 16 : index
  %one_f = arith.constant dense<1.0> : tensor<1xf16>
  %A = ktdp.construct_memory_view %a_ptr, sizes: [64], strides: [1] {coordinate_set = #v_set, memory_space = #ktdp.memory_space<global>} : memref<64xf16>
  %B = ktdp.construct_memory_view %b_ptr, sizes: [64], strides: [1] {coordinate_set = #v_set, memory_space = #ktdp.memory_space<global>} : memref<64xf16>
  %C = ktdp.construct_memory_view %c_ptr, sizes: [64], strides: [1] {coordinate_set = #v_set, memory_space = #ktdp.memory_space<global>} : memref<64xf16>
  %D = ktdp.construct_memory_view %d_ptr, sizes: [1048576], strides: [1] {coordinate_set = #big_set, memory_space = #ktdp.memory_space<global>} : memref<1048576xf16>
  scf.for %r = %tid to %n_rows step %c16 : index {
    %ta = ktdp.construct_access_tile %A[%r] {access_tile_set = #one, access_tile_order = #id1} : memref<64xf16> -> !ktdp.access_tile<1xindex>
    %a = ktdp.load %ta : <1xindex> -> tensor<1xf16>
    %a2 = arith.addf %a, %one_f : tensor<1xf16>
    %ta2 = ktdp.construct_access_tile %A[%r] {access_tile_set = #one, access_tile_order = #id1} : memref<64xf16> -> !ktdp.access_tile<1xindex>
    ktdp.store %a2, %ta2 : tensor<1xf16>, <1xindex>
  }
  %late = arith.addi %tid, %c16 : index
  scf.for %r = %late to %n_rows step %c16 : index {
    %tb = ktdp.construct_access_tile %B[%r] {access_tile_set = #one, access_tile_order = #id1} : memref<64xf16> -> !ktdp.access_tile<1xindex>
    ktdp.store %one_f, %tb : tensor<1xf16>, <1xindex>
  }
  scf.for %r = %tid to %n_rows step %step : index {
    %tc = ktdp.construct_access_tile %C[%r] {access_tile_set = #one, access_tile_order = #id1} : memref<64xf16> -> !ktdp.access_tile<1xindex>
    ktdp.store %one_f, %tc : tensor<1xf16>, <1xindex>
  }
  %tid8 = arith.remui %tid, %c8 : index
  scf.for %r = %tid8 to %n_rows step %c8 : index {
    %td = ktdp.construct_access_tile %D[%r] {access_tile_set = #one, access_tile_order = #id1} : memref<1048576xf16> -> !ktdp.access_tile<1xindex>
    ktdp.store %one_f, %td : tensor<1xf16>, <1xindex>
  }
  return
}

// -----

// No cap on the trips a point keeps (64 before the DMA from the view): 4096
// rows of step 8, 512 trips a point, kept in 8 x 513 elements (8 KiB of
// the lane's 512 KiB) and stored after the loop as 512 rows.

#big_set = affine_set<(d0) : (d0 >= 0, -d0 + 4095 >= 0)>
#one = affine_set<(d0) : (d0 == 0)>
#id1 = affine_map<(d0) -> (d0)>
// CHECK-LABEL: func.func @many_trips
// CHECK: ktdp.construct_memory_view %{{.*}}, sizes: [4104], strides: [1] {{{.*}}ktdf.row_stats
// CHECK: scf.for
// CHECK: ktdp.store %{{.*}}, %{{.*}} : tensor<1xf16>, <1xindex>
// CHECK: }
// CHECK: ktdp.load %{{.*}} : <512xindex> -> tensor<512xf16>
// CHECK: ktdp.store %{{.*}}, %{{.*}} : tensor<512x1xf16>, <512x1xindex>
func.func @many_trips(%d_ptr: index, %n_rows: index) attributes {grid = [8, 1]} {
  %tid = ktdp.get_compute_tile_id : index
  %c8 = arith.constant 8 : index
  %one_f = arith.constant dense<1.0> : tensor<1xf16>
  %D = ktdp.construct_memory_view %d_ptr, sizes: [4096], strides: [1] {coordinate_set = #big_set, memory_space = #ktdp.memory_space<global>} : memref<4096xf16>
  scf.for %r = %tid to %n_rows step %c8 : index {
    %td = ktdp.construct_access_tile %D[%r] {access_tile_set = #one, access_tile_order = #id1} : memref<4096xf16> -> !ktdp.access_tile<1xindex>
    ktdp.store %one_f, %td : tensor<1xf16>, <1xindex>
  }
  return
}

// -----

// A loop that also stores wide rows: on sample_device each trip's 8 KiB
// row takes its store engine 128 cycles against 27 of the mean's slot
// (4 slots of 107 cycles), so the mean stays in the loop (the 1151x8192
// layernorm: after the loop, its kept view ordering the trips' drains,
// 38,379 -> 46,622 cycles on spyre_like). With rows of 128 (256 bytes, 4
// cycles) it goes after the loop; on mesh_device, whose one DMA engine
// a lane loads and stores, it stays with any other store in the loop.

#x_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 4095 >= 0)>
#n_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#v_set = affine_set<(d0) : (d0 >= 0, -d0 + 63 >= 0)>
#row = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 4095 >= 0)>
#nrow = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 127 >= 0)>
#one = affine_set<(d0) : (d0 == 0)>
#id1 = affine_map<(d0) -> (d0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-LABEL: func.func @wide_rows
// CHECK-NOT: ktdf.row_stats
// CHECK: ktdp.store %{{.*}}, %{{.*}} : tensor<1xf16>, <1xindex>
// CHECK-LABEL: func.func @narrow_rows
// CHECK: ktdf.row_stats
// CHECK: scf.for
// CHECK: ktdp.store %{{.*}}, %{{.*}} : tensor<1x128xf16>, <1x128xindex>
// CHECK: }
// CHECK: ktdp.store %{{.*}}, %{{.*}} : tensor<4x1xf16>, <4x1xindex>
// MESH-LABEL: func.func @narrow_rows
// MESH-NOT: ktdf.row_stats
// MESH: return
func.func @wide_rows(%x_ptr: index, %y_ptr: index, %m_ptr: index, %n_rows: index) attributes {grid = [16, 1]} {
  %tid = ktdp.get_compute_tile_id : index
  %c16 = arith.constant 16 : index
  %X = ktdp.construct_memory_view %x_ptr, sizes: [64, 4096], strides: [4096, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<64x4096xf16>
  %Y = ktdp.construct_memory_view %y_ptr, sizes: [64, 4096], strides: [4096, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<64x4096xf16>
  %M = ktdp.construct_memory_view %m_ptr, sizes: [64], strides: [1] {coordinate_set = #v_set, memory_space = #ktdp.memory_space<global>} : memref<64xf16>
  scf.for %r = %tid to %n_rows step %c16 : index {
    %tx = ktdp.construct_access_tile %X[%r, 0] {access_tile_set = #row, access_tile_order = #id2} : memref<64x4096xf16> -> !ktdp.access_tile<1x4096xindex>
    %x = ktdp.load %tx : <1x4096xindex> -> tensor<1x4096xf16>
    %init = arith.constant dense<0.0> : tensor<1xf16>
    %sum = linalg.reduce { arith.addf } ins(%x : tensor<1x4096xf16>) outs(%init : tensor<1xf16>) dimensions = [1]
    %y = arith.addf %x, %x : tensor<1x4096xf16>
    %ty = ktdp.construct_access_tile %Y[%r, 0] {access_tile_set = #row, access_tile_order = #id2} : memref<64x4096xf16> -> !ktdp.access_tile<1x4096xindex>
    ktdp.store %y, %ty : tensor<1x4096xf16>, <1x4096xindex>
    %tm = ktdp.construct_access_tile %M[%r] {access_tile_set = #one, access_tile_order = #id1} : memref<64xf16> -> !ktdp.access_tile<1xindex>
    ktdp.store %sum, %tm : tensor<1xf16>, <1xindex>
  }
  return
}
func.func @narrow_rows(%x_ptr: index, %y_ptr: index, %m_ptr: index, %n_rows: index) attributes {grid = [16, 1]} {
  %tid = ktdp.get_compute_tile_id : index
  %c16 = arith.constant 16 : index
  %X = ktdp.construct_memory_view %x_ptr, sizes: [64, 128], strides: [128, 1] {coordinate_set = #n_set, memory_space = #ktdp.memory_space<global>} : memref<64x128xf16>
  %Y = ktdp.construct_memory_view %y_ptr, sizes: [64, 128], strides: [128, 1] {coordinate_set = #n_set, memory_space = #ktdp.memory_space<global>} : memref<64x128xf16>
  %M = ktdp.construct_memory_view %m_ptr, sizes: [64], strides: [1] {coordinate_set = #v_set, memory_space = #ktdp.memory_space<global>} : memref<64xf16>
  scf.for %r = %tid to %n_rows step %c16 : index {
    %tx = ktdp.construct_access_tile %X[%r, 0] {access_tile_set = #nrow, access_tile_order = #id2} : memref<64x128xf16> -> !ktdp.access_tile<1x128xindex>
    %x = ktdp.load %tx : <1x128xindex> -> tensor<1x128xf16>
    %init = arith.constant dense<0.0> : tensor<1xf16>
    %sum = linalg.reduce { arith.addf } ins(%x : tensor<1x128xf16>) outs(%init : tensor<1xf16>) dimensions = [1]
    %y = arith.addf %x, %x : tensor<1x128xf16>
    %ty = ktdp.construct_access_tile %Y[%r, 0] {access_tile_set = #nrow, access_tile_order = #id2} : memref<64x128xf16> -> !ktdp.access_tile<1x128xindex>
    ktdp.store %y, %ty : tensor<1x128xf16>, <1x128xindex>
    %tm = ktdp.construct_access_tile %M[%r] {access_tile_set = #one, access_tile_order = #id1} : memref<64xf16> -> !ktdp.access_tile<1xindex>
    ktdp.store %sum, %tm : tensor<1xf16>, <1xindex>
  }
  return
}
