// RUN: ktflow-opt %s -split-input-file --ktdf-import-target --ktdf-split-row-tiles | FileCheck %s

// A grid-stride loop of run-time trips (the field guide's column halves
// of a run-time width n, as ktdf-resolve-distributed-views leaves them:
// each 64x64 block accessed once per part, part 1 anchored at col - n,
// the copies marked ktdf.part_piece). Two points on mesh_device's 16
// cores leave 8 instances a point: the loop keeps its trips and is
// wrapped in a loop of 4 row slices of 16 rows (at least 16 rows a slice),
// each trip cut in place: the tiles stay where they were, 16 rows
// further down per slice, the marks kept. ktdf-spread-iterations deals
// the slices and the trips to the idle instances.
// The whole loop stays beside it, and the trip count picks one at run
// time: from tile 0's trips T = ceil(nblk / 2), the sliced loop's
// estimate over ceil(T / 2) trips of a slice a copy (8 copies / 4
// slices) against the whole loop's over ceil(T / 8) blocks; each loop
// runs up to nblk where it is chosen and to its lower bound (no trip)
// where not.

// CHECK-LABEL: func.func @column_halves
// CHECK:       %[[PID:.*]] = ktdp.get_compute_tile_id
// CHECK:       %[[NBLK:.*]] = arith.ceildivui
// CHECK-DAG:   %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG:   %[[C4:.*]] = arith.constant 4 : index
// CHECK-DAG:   %[[C1:.*]] = arith.constant 1 : index
// CHECK:       %[[SPAN:.*]] = arith.subi %[[NBLK]], %{{.*}} : index
// CHECK:       %[[TRIPS:.*]] = arith.ceildivsi %[[SPAN]], %c2 : index
// CHECK:       %[[C2:.*]] = arith.constant 2 : index
// CHECK:       %[[SLICE_TRIPS:.*]] = arith.ceildivsi %[[TRIPS]], %[[C2]] : index
// CHECK:       arith.muli %[[SLICE_TRIPS]]
// CHECK:       %[[SLICED:.*]] = arith.addi
// CHECK:       %[[C8:.*]] = arith.constant 8 : index
// CHECK:       %[[BLOCK_TRIPS:.*]] = arith.ceildivsi %[[TRIPS]], %[[C8]] : index
// CHECK:       arith.muli %[[BLOCK_TRIPS]]
// CHECK:       %[[WHOLE:.*]] = arith.addi
// CHECK:       %[[PAYS:.*]] = arith.cmpi slt, %[[SLICED]], %[[WHOLE]] : index
// CHECK:       %[[SLICED_UB:.*]] = arith.select %[[PAYS]], %[[NBLK]], %[[PID]] : index
// CHECK:       %[[WHOLE_UB:.*]] = arith.select %[[PAYS]], %[[PID]], %[[NBLK]] : index
// CHECK:       scf.for %[[S:.*]] = %[[C0]] to %[[C4]] step %[[C1]] {
// CHECK:         %[[ROW:.*]] = arith.muli %[[S]], %{{.*}} : index
// CHECK:         scf.for %[[B:.*]] = %[[PID]] to %[[SLICED_UB]] step %{{.*}} {
// CHECK:           %[[COL:.*]] = arith.muli %[[B]]
// CHECK:           ktdp.construct_access_tile %{{.*}}[%[[ROW]], %[[COL]]] {{.*}}ktdf.part_piece{{.*}} -> !ktdp.access_tile<16x64xindex>
// CHECK:           ktdp.construct_access_tile %{{.*}}[%[[ROW]], %[[COL]] - %{{.*}}] {{.*}}ktdf.part_piece{{.*}} -> !ktdp.access_tile<16x64xindex>
// CHECK:           ktdp.load {{.*}} -> tensor<16x64xf16>
// CHECK:           ktdp.load {{.*}} -> tensor<16x64xf16>
// CHECK:           arith.addf {{.*}} : tensor<16x64xf16>
// CHECK:           arith.addf {{.*}} : tensor<16x64xf16>
// CHECK:           ktdp.store {{.*}} : tensor<16x64xf16>, <16x64xindex>
// CHECK:           ktdp.store {{.*}} : tensor<16x64xf16>, <16x64xindex>
// CHECK-NOT:       tensor<64x64xf16>
// CHECK:       scf.for %[[WB:.*]] = %[[PID]] to %[[WHOLE_UB]] step %c2 {
// CHECK:         %[[WCOL:.*]] = arith.muli %[[WB]]
// CHECK:         ktdp.construct_access_tile %{{.*}}[0, %[[WCOL]]] {{.*}}ktdf.part_piece{{.*}} -> !ktdp.access_tile<64x64xindex>
// CHECK:         ktdp.load {{.*}} -> tensor<64x64xf16>
// CHECK:         ktdp.store {{.*}} : tensor<64x64xf16>, <64x64xindex>
// CHECK:       return
#part = affine_set<(d0, d1)[s0] : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + s0 - 1 >= 0)>
#blk = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
module {
  ktdf_arch.target @mesh_device from "../../../../../examples/devices/mesh_device.mlir"
    memory_map #ktdf_arch.map<"global" = "HBM">
  func.func @column_halves(%x0: index, %x1: index, %y0: index, %y1: index, %n: index) attributes {grid = [2, 1]} {
    %pid = ktdp.get_compute_tile_id : index
    %c2 = arith.constant 2 : index
    %c64 = arith.constant 64 : index
    %cols = arith.muli %n, %c2 : index
    %nblk = arith.ceildivui %cols, %c64 : index
    %X0 = ktdp.construct_memory_view %x0, sizes: [64, %n], strides: [%n, 1] {coordinate_set = #part, memory_space = #ktdp.memory_space<global>} : memref<64x?xf16>
    %X1 = ktdp.construct_memory_view %x1, sizes: [64, %n], strides: [%n, 1] {coordinate_set = #part, memory_space = #ktdp.memory_space<global>} : memref<64x?xf16>
    %Y0 = ktdp.construct_memory_view %y0, sizes: [64, %n], strides: [%n, 1] {coordinate_set = #part, memory_space = #ktdp.memory_space<global>} : memref<64x?xf16>
    %Y1 = ktdp.construct_memory_view %y1, sizes: [64, %n], strides: [%n, 1] {coordinate_set = #part, memory_space = #ktdp.memory_space<global>} : memref<64x?xf16>
    scf.for %b = %pid to %nblk step %c2 {
      %col = arith.muli %b, %c64 : index
      %tx0 = ktdp.construct_access_tile %X0[0, %col] {access_tile_set = #blk, access_tile_order = #id2, ktdf.part_piece} : memref<64x?xf16> -> !ktdp.access_tile<64x64xindex>
      %tx1 = ktdp.construct_access_tile %X1[0, %col - %n] {access_tile_set = #blk, access_tile_order = #id2, ktdf.part_piece} : memref<64x?xf16> -> !ktdp.access_tile<64x64xindex>
      %x0v = ktdp.load %tx0 : <64x64xindex> -> tensor<64x64xf16>
      %x1v = ktdp.load %tx1 : <64x64xindex> -> tensor<64x64xf16>
      %y0v = arith.addf %x0v, %x0v : tensor<64x64xf16>
      %y1v = arith.addf %x1v, %x1v : tensor<64x64xf16>
      %ty0 = ktdp.construct_access_tile %Y0[0, %col] {access_tile_set = #blk, access_tile_order = #id2} : memref<64x?xf16> -> !ktdp.access_tile<64x64xindex>
      %ty1 = ktdp.construct_access_tile %Y1[0, %col - %n] {access_tile_set = #blk, access_tile_order = #id2} : memref<64x?xf16> -> !ktdp.access_tile<64x64xindex>
      ktdp.store %y0v, %ty0 : tensor<64x64xf16>, <64x64xindex>
      ktdp.store %y1v, %ty1 : tensor<64x64xf16>, <64x64xindex>
    }
    return
  }
}

// -----

// Left alone: the loop stores into the tensor it loads (in place, Y at
// X's pointer): cut in place, a slice of one trip would run after slices
// of later trips, which may read what it writes.

// CHECK-LABEL: func.func @reads_what_it_writes
// CHECK-NOT:   access_tile<16x64xindex>
// CHECK:       ktdp.load {{.*}} -> tensor<64x64xf16>
#m = affine_set<(d0, d1)[s0] : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + s0 - 1 >= 0)>
#blk = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
module {
  ktdf_arch.target @mesh_device from "../../../../../examples/devices/mesh_device.mlir"
    memory_map #ktdf_arch.map<"global" = "HBM">
  func.func @reads_what_it_writes(%x: index, %n: index) attributes {grid = [2, 1]} {
    %pid = ktdp.get_compute_tile_id : index
    %c2 = arith.constant 2 : index
    %c64 = arith.constant 64 : index
    %nblk = arith.ceildivui %n, %c64 : index
    %X = ktdp.construct_memory_view %x, sizes: [64, %n], strides: [%n, 1] {coordinate_set = #m, memory_space = #ktdp.memory_space<global>} : memref<64x?xf16>
    %Y = ktdp.construct_memory_view %x, sizes: [64, %n], strides: [%n, 1] {coordinate_set = #m, memory_space = #ktdp.memory_space<global>} : memref<64x?xf16>
    scf.for %b = %pid to %nblk step %c2 {
      %col = arith.muli %b, %c64 : index
      %tx = ktdp.construct_access_tile %X[0, %col] {access_tile_set = #blk, access_tile_order = #id2} : memref<64x?xf16> -> !ktdp.access_tile<64x64xindex>
      %xv = ktdp.load %tx : <64x64xindex> -> tensor<64x64xf16>
      %yv = arith.addf %xv, %xv : tensor<64x64xf16>
      %ty = ktdp.construct_access_tile %Y[0, %col] {access_tile_set = #blk, access_tile_order = #id2} : memref<64x?xf16> -> !ktdp.access_tile<64x64xindex>
      ktdp.store %yv, %ty : tensor<64x64xf16>, <64x64xindex>
    }
    return
  }
}

// -----

// Left alone: every trip stores into the same block (the last trip's
// values win; cut in place, the slices' trips would run in another order
// across the instances).

// CHECK-LABEL: func.func @one_place
// CHECK-NOT:   access_tile<16x64xindex>
// CHECK:       ktdp.load {{.*}} -> tensor<64x64xf16>
#m = affine_set<(d0, d1)[s0] : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + s0 - 1 >= 0)>
#blk = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
module {
  ktdf_arch.target @mesh_device from "../../../../../examples/devices/mesh_device.mlir"
    memory_map #ktdf_arch.map<"global" = "HBM">
  func.func @one_place(%x: index, %y: index, %n: index) attributes {grid = [2, 1]} {
    %pid = ktdp.get_compute_tile_id : index
    %c2 = arith.constant 2 : index
    %c64 = arith.constant 64 : index
    %nblk = arith.ceildivui %n, %c64 : index
    %X = ktdp.construct_memory_view %x, sizes: [64, %n], strides: [%n, 1] {coordinate_set = #m, memory_space = #ktdp.memory_space<global>} : memref<64x?xf16>
    %Y = ktdp.construct_memory_view %y, sizes: [64, %n], strides: [%n, 1] {coordinate_set = #m, memory_space = #ktdp.memory_space<global>} : memref<64x?xf16>
    scf.for %b = %pid to %nblk step %c2 {
      %col = arith.muli %b, %c64 : index
      %tx = ktdp.construct_access_tile %X[0, %col] {access_tile_set = #blk, access_tile_order = #id2} : memref<64x?xf16> -> !ktdp.access_tile<64x64xindex>
      %xv = ktdp.load %tx : <64x64xindex> -> tensor<64x64xf16>
      %yv = arith.addf %xv, %xv : tensor<64x64xf16>
      %ty = ktdp.construct_access_tile %Y[0, %pid] {access_tile_set = #blk, access_tile_order = #id2} : memref<64x?xf16> -> !ktdp.access_tile<64x64xindex>
      ktdp.store %yv, %ty : tensor<64x64xf16>, <64x64xindex>
    }
    return
  }
}

// -----

// Left alone: 16 points fill mesh_device's 16 instances.

// CHECK-LABEL: func.func @no_idle_instances
// CHECK-NOT:   access_tile<16x64xindex>
// CHECK:       ktdp.load {{.*}} -> tensor<64x64xf16>
#m = affine_set<(d0, d1)[s0] : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + s0 - 1 >= 0)>
#blk = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
module {
  ktdf_arch.target @mesh_device from "../../../../../examples/devices/mesh_device.mlir"
    memory_map #ktdf_arch.map<"global" = "HBM">
  func.func @no_idle_instances(%x: index, %y: index, %n: index) attributes {grid = [16, 1]} {
    %pid = ktdp.get_compute_tile_id : index
    %c16 = arith.constant 16 : index
    %c64 = arith.constant 64 : index
    %nblk = arith.ceildivui %n, %c64 : index
    %X = ktdp.construct_memory_view %x, sizes: [64, %n], strides: [%n, 1] {coordinate_set = #m, memory_space = #ktdp.memory_space<global>} : memref<64x?xf16>
    %Y = ktdp.construct_memory_view %y, sizes: [64, %n], strides: [%n, 1] {coordinate_set = #m, memory_space = #ktdp.memory_space<global>} : memref<64x?xf16>
    scf.for %b = %pid to %nblk step %c16 {
      %col = arith.muli %b, %c64 : index
      %tx = ktdp.construct_access_tile %X[0, %col] {access_tile_set = #blk, access_tile_order = #id2} : memref<64x?xf16> -> !ktdp.access_tile<64x64xindex>
      %xv = ktdp.load %tx : <64x64xindex> -> tensor<64x64xf16>
      %yv = arith.addf %xv, %xv : tensor<64x64xf16>
      %ty = ktdp.construct_access_tile %Y[0, %col] {access_tile_set = #blk, access_tile_order = #id2} : memref<64x?xf16> -> !ktdp.access_tile<64x64xindex>
      ktdp.store %yv, %ty : tensor<64x64xf16>, <64x64xindex>
    }
    return
  }
}

// -----

// Left alone: a step known only at launch (a grid of a run-time width):
// the trips a copy takes, which the run-time choice weighs, are not known
// in the compiled program.

// CHECK-LABEL: func.func @runtime_step
// CHECK-NOT:   access_tile<16x64xindex>
// CHECK-NOT:   arith.select
// CHECK:       ktdp.load {{.*}} -> tensor<64x64xf16>
#m = affine_set<(d0, d1)[s0] : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + s0 - 1 >= 0)>
#blk = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
module {
  ktdf_arch.target @mesh_device from "../../../../../examples/devices/mesh_device.mlir"
    memory_map #ktdf_arch.map<"global" = "HBM">
  func.func @runtime_step(%x: index, %y: index, %n: index, %stride: index) attributes {grid = [2, 1]} {
    %pid = ktdp.get_compute_tile_id : index
    %c64 = arith.constant 64 : index
    %nblk = arith.ceildivui %n, %c64 : index
    %X = ktdp.construct_memory_view %x, sizes: [64, %n], strides: [%n, 1] {coordinate_set = #m, memory_space = #ktdp.memory_space<global>} : memref<64x?xf16>
    %Y = ktdp.construct_memory_view %y, sizes: [64, %n], strides: [%n, 1] {coordinate_set = #m, memory_space = #ktdp.memory_space<global>} : memref<64x?xf16>
    scf.for %b = %pid to %nblk step %stride {
      %col = arith.muli %b, %c64 : index
      %tx = ktdp.construct_access_tile %X[0, %col] {access_tile_set = #blk, access_tile_order = #id2} : memref<64x?xf16> -> !ktdp.access_tile<64x64xindex>
      %xv = ktdp.load %tx : <64x64xindex> -> tensor<64x64xf16>
      %yv = arith.addf %xv, %xv : tensor<64x64xf16>
      %ty = ktdp.construct_access_tile %Y[0, %col] {access_tile_set = #blk, access_tile_order = #id2} : memref<64x?xf16> -> !ktdp.access_tile<64x64xindex>
      ktdp.store %yv, %ty : tensor<64x64xf16>, <64x64xindex>
    }
    return
  }
}
