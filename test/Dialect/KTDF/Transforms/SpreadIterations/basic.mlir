// RUN: ktflow-opt %s -split-input-file --ktdf-mapping --ktdf-route-transfers --ktdf-tile-streams=chunk=64 --ktdf-spread-iterations --ktdf-distribute | FileCheck %s
// RUN: ktflow-opt %s -split-input-file --ktdf-mapping --ktdf-route-transfers --ktdf-tile-streams=chunk=64 --ktdf-spread-iterations=use-lanes=false --ktdf-distribute=use-lanes=false | FileCheck %s --check-prefix=CORES

// spyre_like has 32 cores of 2 corelets: 64 instances. An 8-point grid
// whose points walk rows cyclically up to a launch scalar (unknown trips)
// runs each point's iterations on 64 / 8 = 8 copies: a grid dimension of
// extent 8 is added, copy %j starts at row %pid + %j * 8 and steps 64, and
// the grid is distributed over all 64 instances.

// CHECK-LABEL: func.func @cyclic
// CHECK: ktdf.parallel (%[[PID:.*]], %[[J:.*]]) in [8, 8] distribute(num_instances = 64)
// CHECK: %[[OFF:.*]] = arith.muli %[[J]], %[[STEP:.*]] : index
// CHECK: %[[LB:.*]] = arith.addi %[[PID]], %[[OFF]] : index
// CHECK: %[[WIDE:.*]] = arith.constant 64 : index
// CHECK: scf.for %{{.*}} = %[[LB]] to %{{.*}} step %[[WIDE]]
// CHECK: ktdf.pipeline

// With one lane per core (the tuner's `lanes=off`), as ktdf-distribute
// counts them: 32 / 8 = 4 copies on the 32 cores, none sharing a lane.
// CORES-LABEL: func.func @cyclic
// CORES: ktdf.parallel (%{{.*}}, %{{.*}}) in [8, 4] distribute(num_instances = 32)

ktdf_arch.target @spyre_like from "../../../../../examples/devices/spyre_like.mlir"
    memory_map #ktdf_arch.map<"global" = "DDR", "ct_local" = "LX">

#x_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1023 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#row = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 63 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @cyclic(%x: index, %y: index, %n: index) attributes {grid = [8]} {
  %pid = ktdp.get_compute_tile_id : index
  %c8 = arith.constant 8 : index
  %X = ktdp.construct_memory_view %x, sizes: [1024, 64], strides: [64, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<1024x64xf16>
  %Y = ktdp.construct_memory_view %y, sizes: [1024, 64], strides: [64, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<1024x64xf16>
  scf.for %r = %pid to %n step %c8 {
    %tx = ktdp.construct_access_tile %X[%r, 0] {access_tile_set = #row, access_tile_order = #id2} : memref<1024x64xf16> -> !ktdp.access_tile<1x64xindex>
    %ty = ktdp.construct_access_tile %Y[%r, 0] {access_tile_set = #row, access_tile_order = #id2} : memref<1024x64xf16> -> !ktdp.access_tile<1x64xindex>
    %v = ktdp.load %tx : <1x64xindex> -> tensor<1x64xf16>
    %e = math.exp %v : tensor<1x64xf16>
    ktdp.store %e, %ty : tensor<1x64xf16>, <1x64xindex>
  }
  return
}

// -----

// A loop of known trip count (4 blocks from %pid * 4) spreads over at most
// that many copies, though 64 / 8 = 8 instances would be free: 32 points.

// CHECK-LABEL: func.func @four_trips
// CHECK: ktdf.parallel (%{{.*}}, %{{.*}}) in [8, 4] distribute(num_instances = 32)

ktdf_arch.target @spyre_like from "../../../../../examples/devices/spyre_like.mlir"
    memory_map #ktdf_arch.map<"global" = "DDR", "ct_local" = "LX">

#x_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1023 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#row = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 63 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @four_trips(%x: index, %y: index) attributes {grid = [8]} {
  %pid = ktdp.get_compute_tile_id : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %lb = arith.muli %pid, %c4 : index
  %ub = arith.addi %lb, %c4 : index
  %X = ktdp.construct_memory_view %x, sizes: [1024, 64], strides: [64, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<1024x64xf16>
  %Y = ktdp.construct_memory_view %y, sizes: [1024, 64], strides: [64, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<1024x64xf16>
  scf.for %r = %lb to %ub step %c1 {
    %tx = ktdp.construct_access_tile %X[%r, 0] {access_tile_set = #row, access_tile_order = #id2} : memref<1024x64xf16> -> !ktdp.access_tile<1x64xindex>
    %ty = ktdp.construct_access_tile %Y[%r, 0] {access_tile_set = #row, access_tile_order = #id2} : memref<1024x64xf16> -> !ktdp.access_tile<1x64xindex>
    %v = ktdp.load %tx : <1x64xindex> -> tensor<1x64xf16>
    %e = math.exp %v : tensor<1x64xf16>
    ktdp.store %e, %ty : tensor<1x64xf16>, <1x64xindex>
  }
  return
}

// -----

// A loop with constant bounds and step (128 trips) spreads in contiguous
// blocks: copy %j runs iterations [16 %j, 16 %j + 16), the loop keeps
// constant bounds (0 to 16) and its body sees %i + 16 %j, so ktdf-coarsen
// can still merge a copy's rows into larger transfers.

// CHECK-LABEL: func.func @coarsenable
// CHECK: ktdf.parallel (%[[PID:.*]], %[[J:.*]]) in [8, 8] distribute(num_instances = 64)
// CHECK-DAG: %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG: %[[C1:.*]] = arith.constant 1 : index
// CHECK-DAG: %[[BASE:.*]] = arith.muli %[[PID]], %{{.*}} : index
// CHECK-DAG: %[[C16:.*]] = arith.constant 16 : index
// CHECK: %[[SHIFT:.*]] = arith.muli %[[J]], %{{.*}} : index
// CHECK: scf.for %[[I:.*]] = %[[C0]] to %[[C16]] step %[[C1]] {
// CHECK-NEXT: %[[IJ:.*]] = arith.addi %[[I]], %[[SHIFT]] : index
// CHECK-NEXT: %[[R:.*]] = arith.addi %[[BASE]], %[[IJ]] : index
// CHECK-NEXT: ktdp.construct_access_tile %{{.*}}[%[[R]], 0]

ktdf_arch.target @spyre_like from "../../../../../examples/devices/spyre_like.mlir"
    memory_map #ktdf_arch.map<"global" = "DDR", "ct_local" = "LX">

#x_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1023 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#row = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 63 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @coarsenable(%x: index, %y: index) attributes {grid = [8]} {
  %pid = ktdp.get_compute_tile_id : index
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %c128 = arith.constant 128 : index
  %base = arith.muli %pid, %c128 : index
  %X = ktdp.construct_memory_view %x, sizes: [1024, 64], strides: [64, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<1024x64xf16>
  %Y = ktdp.construct_memory_view %y, sizes: [1024, 64], strides: [64, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<1024x64xf16>
  scf.for %i = %c0 to %c128 step %c1 {
    %r = arith.addi %base, %i : index
    %tx = ktdp.construct_access_tile %X[%r, 0] {access_tile_set = #row, access_tile_order = #id2} : memref<1024x64xf16> -> !ktdp.access_tile<1x64xindex>
    %ty = ktdp.construct_access_tile %Y[%r, 0] {access_tile_set = #row, access_tile_order = #id2} : memref<1024x64xf16> -> !ktdp.access_tile<1x64xindex>
    %v = ktdp.load %tx : <1x64xindex> -> tensor<1x64xf16>
    %e = math.exp %v : tensor<1x64xf16>
    ktdp.store %e, %ty : tensor<1x64xf16>, <1x64xindex>
  }
  return
}

// -----

// Not spread: a compute group outside the loop would run once per copy.

// CHECK-LABEL: func.func @group_outside
// CHECK: ktdf.parallel (%{{.*}}) in [8] distribute(num_instances = 8)

ktdf_arch.target @spyre_like from "../../../../../examples/devices/spyre_like.mlir"
    memory_map #ktdf_arch.map<"global" = "DDR", "ct_local" = "LX">

#x_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1023 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#row = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 63 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @group_outside(%x: index, %y: index, %n: index) attributes {grid = [8]} {
  %pid = ktdp.get_compute_tile_id : index
  %c8 = arith.constant 8 : index
  %c1000 = arith.constant 1000 : index
  %X = ktdp.construct_memory_view %x, sizes: [1024, 64], strides: [64, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<1024x64xf16>
  %Y = ktdp.construct_memory_view %y, sizes: [1024, 64], strides: [64, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<1024x64xf16>
  %last = arith.addi %pid, %c1000 : index
  %tl = ktdp.construct_access_tile %X[%last, 0] {access_tile_set = #row, access_tile_order = #id2} : memref<1024x64xf16> -> !ktdp.access_tile<1x64xindex>
  %tm = ktdp.construct_access_tile %Y[%last, 0] {access_tile_set = #row, access_tile_order = #id2} : memref<1024x64xf16> -> !ktdp.access_tile<1x64xindex>
  %w = ktdp.load %tl : <1x64xindex> -> tensor<1x64xf16>
  %f = math.exp %w : tensor<1x64xf16>
  ktdp.store %f, %tm : tensor<1x64xf16>, <1x64xindex>
  scf.for %r = %pid to %n step %c8 {
    %tx = ktdp.construct_access_tile %X[%r, 0] {access_tile_set = #row, access_tile_order = #id2} : memref<1024x64xf16> -> !ktdp.access_tile<1x64xindex>
    %ty = ktdp.construct_access_tile %Y[%r, 0] {access_tile_set = #row, access_tile_order = #id2} : memref<1024x64xf16> -> !ktdp.access_tile<1x64xindex>
    %v = ktdp.load %tx : <1x64xindex> -> tensor<1x64xf16>
    %e = math.exp %v : tensor<1x64xf16>
    ktdp.store %e, %ty : tensor<1x64xf16>, <1x64xindex>
  }
  return
}

// -----

// A running sum carried over a run-time trip count lives in a scratchpad
// view of each lane's own (ktdf-carry-in-scratchpad, marked ktdf.carried),
// which every execution fills before reading: the copies on other lanes
// do not share it, so the kernel spreads.

// CHECK-LABEL: func.func @carried
// CHECK: ktdf.parallel (%{{.*}}, %{{.*}}) in [8, 8] distribute(num_instances = 64)
// CHECK: ktdf.carried

ktdf_arch.target @spyre_like from "../../../../../examples/devices/spyre_like.mlir"
    memory_map #ktdf_arch.map<"global" = "DDR", "ct_local" = "LX">

#x_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1023 >= 0, d1 >= 0, -d1 + 255 >= 0)>
#r_set = affine_set<(d0) : (d0 >= 0, -d0 + 1023 >= 0)>
#blk = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 63 >= 0)>
#one = affine_set<(d0) : (d0 == 0)>
#id1 = affine_map<(d0) -> (d0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @carried(%x: index, %s: index, %n: index, %cols: index) attributes {grid = [8]} {
  %pid = ktdp.get_compute_tile_id : index
  %c0 = arith.constant 0 : index
  %c8 = arith.constant 8 : index
  %c64 = arith.constant 64 : index
  %zero = arith.constant 0.0 : f16
  %zeros = arith.constant dense<0.0> : tensor<1x64xf16>
  %X = ktdp.construct_memory_view %x, sizes: [1024, 256], strides: [256, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<1024x256xf16>
  %S = ktdp.construct_memory_view %s, sizes: [1024], strides: [1] {coordinate_set = #r_set, memory_space = #ktdp.memory_space<global>} : memref<1024xf16>
  scf.for %r = %pid to %n step %c8 {
    %acc = scf.for %off = %c0 to %cols step %c64 iter_args(%a = %zeros) -> tensor<1x64xf16> {
      %tx = ktdp.construct_access_tile %X[%r, %off] {access_tile_set = #blk, access_tile_order = #id2} : memref<1024x256xf16> -> !ktdp.access_tile<1x64xindex>
      %v = ktdp.load %tx : <1x64xindex> -> tensor<1x64xf16>
      %a2 = arith.addf %a, %v : tensor<1x64xf16>
      scf.yield %a2 : tensor<1x64xf16>
    }
    %init = tensor.splat %zero : tensor<1xf16>
    %sum = linalg.reduce ins(%acc : tensor<1x64xf16>) outs(%init : tensor<1xf16>) dimensions = [1]
      (%in: f16, %o: f16) {
        %t = arith.addf %in, %o : f16
        linalg.yield %t : f16
      }
    %ts = ktdp.construct_access_tile %S[%r] {access_tile_set = #one, access_tile_order = #id1} : memref<1024xf16> -> !ktdp.access_tile<1xindex>
    ktdp.store %sum, %ts : tensor<1xf16>, <1xindex>
  }
  return
}

// -----

// Constant bounds whose trip count (12) the 8 free copies do not divide:
// K is the largest divisor of every such count, 6 copies of 2 iterations.

// CHECK-LABEL: func.func @blocks_divide
// CHECK: ktdf.parallel (%{{.*}}, %{{.*}}) in [8, 6] distribute(num_instances = 48)
// CHECK: %[[C2:.*]] = arith.constant 2 : index
// CHECK: scf.for %{{.*}} = %{{.*}} to %[[C2]] step

ktdf_arch.target @spyre_like from "../../../../../examples/devices/spyre_like.mlir"
    memory_map #ktdf_arch.map<"global" = "DDR", "ct_local" = "LX">

#x_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1023 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#row = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 63 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @blocks_divide(%x: index, %y: index) attributes {grid = [8]} {
  %pid = ktdp.get_compute_tile_id : index
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c12 = arith.constant 12 : index
  %c128 = arith.constant 128 : index
  %base = arith.muli %pid, %c128 : index
  %X = ktdp.construct_memory_view %x, sizes: [1024, 64], strides: [64, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<1024x64xf16>
  %Y = ktdp.construct_memory_view %y, sizes: [1024, 64], strides: [64, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<1024x64xf16>
  scf.for %i = %c0 to %c12 step %c1 {
    %r = arith.addi %base, %i : index
    %tx = ktdp.construct_access_tile %X[%r, 0] {access_tile_set = #row, access_tile_order = #id2} : memref<1024x64xf16> -> !ktdp.access_tile<1x64xindex>
    %ty = ktdp.construct_access_tile %Y[%r, 0] {access_tile_set = #row, access_tile_order = #id2} : memref<1024x64xf16> -> !ktdp.access_tile<1x64xindex>
    %v = ktdp.load %tx : <1x64xindex> -> tensor<1x64xf16>
    %e = math.exp %v : tensor<1x64xf16>
    ktdp.store %e, %ty : tensor<1x64xf16>, <1x64xindex>
  }
  return
}

// -----

// Not spread: a constant lower bound and step with a trip count known only
// at run time (ktdf-coarsen may merge its iterations; spreading them one
// by one would take its tiles apart).

// CHECK-LABEL: func.func @runtime_trips
// CHECK: ktdf.parallel (%{{.*}}) in [8] distribute(num_instances = 8)

ktdf_arch.target @spyre_like from "../../../../../examples/devices/spyre_like.mlir"
    memory_map #ktdf_arch.map<"global" = "DDR", "ct_local" = "LX">

#x_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1023 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#row = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 63 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @runtime_trips(%x: index, %y: index, %n: index) attributes {grid = [8]} {
  %pid = ktdp.get_compute_tile_id : index
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c128 = arith.constant 128 : index
  %base = arith.muli %pid, %c128 : index
  %X = ktdp.construct_memory_view %x, sizes: [1024, 64], strides: [64, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<1024x64xf16>
  %Y = ktdp.construct_memory_view %y, sizes: [1024, 64], strides: [64, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<1024x64xf16>
  scf.for %i = %c0 to %n step %c1 {
    %r = arith.addi %base, %i : index
    %tx = ktdp.construct_access_tile %X[%r, 0] {access_tile_set = #row, access_tile_order = #id2} : memref<1024x64xf16> -> !ktdp.access_tile<1x64xindex>
    %ty = ktdp.construct_access_tile %Y[%r, 0] {access_tile_set = #row, access_tile_order = #id2} : memref<1024x64xf16> -> !ktdp.access_tile<1x64xindex>
    %v = ktdp.load %tx : <1x64xindex> -> tensor<1x64xf16>
    %e = math.exp %v : tensor<1x64xf16>
    ktdp.store %e, %ty : tensor<1x64xf16>, <1x64xindex>
  }
  return
}

// -----

// A weight staged into the scratchpad before the loop (the shipped
// rmsnorm's): its pipeline only writes the scratchpad, so each copy runs it
// and fills its own lane's region before its iterations read it. One grid
// point, 8 row blocks: 8 copies of one block each.

// CHECK-LABEL: func.func @staged
// CHECK: ktdf.parallel (%{{.*}}, %{{.*}}) in [1, 8] distribute(num_instances = 8)
// CHECK: ktdf.pipeline
// CHECK: scf.for

ktdf_arch.target @spyre_like from "../../../../../examples/devices/spyre_like.mlir"
    memory_map #ktdf_arch.map<"global" = "DDR", "ct_local" = "LX">

#x_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 31 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#vec = affine_set<(d0) : (d0 >= 0, -d0 + 63 >= 0)>
#blk = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#id1 = affine_map<(d0) -> (d0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @staged(%x: index, %w: index, %y: index) attributes {grid = [1]} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %X = ktdp.construct_memory_view %x, sizes: [32, 64], strides: [64, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<32x64xf16>
  %W = ktdp.construct_memory_view %w, sizes: [64], strides: [1] {coordinate_set = #vec, memory_space = #ktdp.memory_space<global>} : memref<64xf16>
  %Y = ktdp.construct_memory_view %y, sizes: [32, 64], strides: [64, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<32x64xf16>
  %Wl = ktdp.construct_memory_view %c0, sizes: [64], strides: [1] {coordinate_set = #vec, memory_space = #ktdp.memory_space<ct_local>} : memref<64xf16, #ktdp.memory_space<ct_local>>
  %tw = ktdp.construct_access_tile %W[0] {access_tile_set = #vec, access_tile_order = #id1} : memref<64xf16> -> !ktdp.access_tile<64xindex>
  %twl = ktdp.construct_access_tile %Wl[0] {access_tile_set = #vec, access_tile_order = #id1} : memref<64xf16, #ktdp.memory_space<ct_local>> -> !ktdp.access_tile<64xindex>
  %wv = ktdp.load %tw : <64xindex> -> tensor<64xf16>
  ktdp.store %wv, %twl : tensor<64xf16>, <64xindex>
  scf.for %i = %c0 to %c8 step %c1 {
    %tx = ktdp.construct_access_tile %X[%i * 4, 0] {access_tile_set = #blk, access_tile_order = #id2} : memref<32x64xf16> -> !ktdp.access_tile<4x64xindex>
    %ty = ktdp.construct_access_tile %Y[%i * 4, 0] {access_tile_set = #blk, access_tile_order = #id2} : memref<32x64xf16> -> !ktdp.access_tile<4x64xindex>
    %v = ktdp.load %tx : <4x64xindex> -> tensor<4x64xf16>
    %wl = ktdp.load %twl : <64xindex> -> tensor<64xf16>
    %wb = linalg.broadcast ins(%wl : tensor<64xf16>) outs(%v : tensor<4x64xf16>) dimensions = [0]
    %p = arith.mulf %v, %wb : tensor<4x64xf16>
    ktdp.store %p, %ty : tensor<4x64xf16>, <4x64xindex>
  }
  return
}

// -----

// Not spread: a scratchpad view the loop writes (the copies on other lanes
// would each write their own, which a later read of the view would miss).

// CHECK-LABEL: func.func @written_in_loop
// CHECK: ktdf.parallel (%{{.*}}) in [1] distribute(num_instances = 1)

ktdf_arch.target @spyre_like from "../../../../../examples/devices/spyre_like.mlir"
    memory_map #ktdf_arch.map<"global" = "DDR", "ct_local" = "LX">

#x_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 31 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#blk = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @written_in_loop(%x: index, %y: index) attributes {grid = [1]} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %X = ktdp.construct_memory_view %x, sizes: [32, 64], strides: [64, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<32x64xf16>
  %Y = ktdp.construct_memory_view %y, sizes: [32, 64], strides: [64, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<32x64xf16>
  %L = ktdp.construct_memory_view %c0, sizes: [4, 64], strides: [64, 1] {coordinate_set = #blk, memory_space = #ktdp.memory_space<ct_local>} : memref<4x64xf16, #ktdp.memory_space<ct_local>>
  %tl = ktdp.construct_access_tile %L[0, 0] {access_tile_set = #blk, access_tile_order = #id2} : memref<4x64xf16, #ktdp.memory_space<ct_local>> -> !ktdp.access_tile<4x64xindex>
  scf.for %i = %c0 to %c8 step %c1 {
    %tx = ktdp.construct_access_tile %X[%i * 4, 0] {access_tile_set = #blk, access_tile_order = #id2} : memref<32x64xf16> -> !ktdp.access_tile<4x64xindex>
    %v = ktdp.load %tx : <4x64xindex> -> tensor<4x64xf16>
    %e = math.exp %v : tensor<4x64xf16>
    ktdp.store %e, %tl : tensor<4x64xf16>, <4x64xindex>
    %ty = ktdp.construct_access_tile %Y[%i * 4, 0] {access_tile_set = #blk, access_tile_order = #id2} : memref<32x64xf16> -> !ktdp.access_tile<4x64xindex>
    ktdp.store %e, %ty : tensor<4x64xf16>, <4x64xindex>
  }
  return
}
