// The interpreter's memory follows the tiles alive at once, not the grid,
// and its work and wall-clock budgets stop any run with a located error
// and exit code 1. Before tiles were created lazily, the huge grids below
// allocated one tile per grid point up front until memory ran out.
//
// RUN: not ktflow interp %s --func idle_2_62 --max-element-ops=10000 2>&1 | FileCheck %s --check-prefix=HUGE
// RUN: not ktflow interp %s --func add_1e8 --max-element-ops=100000 2>&1 | FileCheck %s --check-prefix=ADD
// RUN: not ktflow interp %s --func idle_2d --max-element-ops=10000 2>&1 | FileCheck %s --check-prefix=GRID2D
// RUN: not ktflow interp %s --func spin --max-element-ops=100000 2>&1 | FileCheck %s --check-prefix=SPIN
// RUN: not ktflow interp %s --func spin --max-seconds=1e-9 2>&1 | FileCheck %s --check-prefix=CLOCK
// Loops that cannot fit the budget are refused before their first
// iteration, under the default budget too (a campaign mutant of
// rmsnorm_2x2.mlir whose loop bound became 2^62 ran for the hour of the
// wall-clock budget), and the interpreter's scf.parallel and scf.forall
// step to the end of a dimension without overflowing.
// RUN: not ktflow interp %s --func spin --engine=interp 2>&1 | FileCheck %s --check-prefix=DEFAULT
// RUN: not ktflow interp %s --func rows_2_40 --engine=interp 2>&1 | FileCheck %s --check-prefix=ROWS
// RUN: not ktflow interp %s --func parallel_2_62 --engine=interp 2>&1 | FileCheck %s --check-prefix=PARALLEL
// RUN: not ktflow interp %s --func forall_2_62 --engine=interp 2>&1 | FileCheck %s --check-prefix=FORALL
// RUN: ktflow interp %s --func parallel_to_max --engine=interp | FileCheck %s --check-prefix=TOMAX
// The campaign's mutant (scripts/fuzz.sh mutants --seed 1715 --first 390
// --count 1), on the interpreter its `auto` run fell back to:
// RUN: sed 's/%%c8 = arith.constant 8 : index/%%c8 = arith.constant 4611686018427387904 : index/' %examples/kernels/realworld/rmsnorm_2x2.mlir > %t.mlir
// RUN: not ktflow interp %t.mlir --engine=interp --arg eps=1e-5 2>&1 | FileCheck %s --check-prefix=MUTANT
// MUTANT: .mlir:68:5: error: 'scf.for' op tile 0 (0, 0): the loop's 4611686018427387904 iterations need at least
// RUN: not ktflow interp %s --func shared_65537 2>&1 | FileCheck %s --check-prefix=SHARED
// Raising the budget lets a run through: 1000 tiles of an empty function
// cost 2 element operations each (the tile and its block).
// RUN: ktflow interp %s --func idle_1000 --max-element-ops=2000
// RUN: not ktflow interp %s --func idle_1000 --max-element-ops=1999 2>&1 | FileCheck %s --check-prefix=JUST
// RUN: not ktflow interp %s --func idle_1000 --max-seconds=-1 2>&1 | FileCheck %s --check-prefix=FLAG

// Messages name the op, the tile and the flag that raises the budget.
// A grid that cannot fit the budget at the least a tile costs (itself, its
// entry block, each op of it but the terminator) is refused before any tile
// runs, so 2^62 tiles end at once whatever the budget.
// HUGE: budgets.mlir:[[@LINE+1]]:3: error: the grid's 4611686018427387904 tiles need at least 2 element operations each, more than the work budget of 10000 allows; raise it with --max-element-ops
  func.func @idle_2_62() attributes {grid = [4611686018427387904]} {
    return
  }

// GRID2D: budgets.mlir:[[@LINE+1]]:3: error: the grid's 4294967296 tiles need at least 3 element operations each, more than the work budget of 10000 allows
  func.func @idle_2d() attributes {grid = [65536, 65536]} {
    %x, %y = ktdp.get_compute_tile_id : index, index
    return
  }

  func.func @idle_1000() attributes {grid = [1000]} {
    return
  }
// JUST: error: the grid's 1000 tiles need at least 2 element operations each, more than the work budget of 1999 allows
// FLAG: ktflow: error: --max-seconds must be a number of seconds, 0 for none

// A loop of 2^62 iterations with an empty body: each iteration enters the
// body block, which is work.
// CLOCK: budgets.mlir:{{[0-9]+}}:{{[0-9]+}}: error: '{{.*}}' op tile 0: the run exceeded the wall-clock budget of 1e-09 seconds; raise it with --max-seconds
  func.func @spin() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %n = arith.constant 4611686018427387904 : index
// SPIN: budgets.mlir:[[@LINE+2]]:5: error: 'scf.for' op tile 0: the loop's 4611686018427387904 iterations need at least 4611686018427387904 element operations, more than is left of the work budget of 100000; raise it with --max-element-ops
// DEFAULT: budgets.mlir:[[@LINE+1]]:5: error: 'scf.for' op tile 0: the loop's 4611686018427387904 iterations need at least 4611686018427387904 element operations, more than is left of the work budget of 17179869184; raise it with --max-element-ops
    scf.for %i = %c0 to %n step %c1 {
    }
    return
  }

// ceil(2^40 / 3) iterations of a body of three ops and the block entry: at
// least 4 element operations each, whatever the ops' tensors.
  func.func @rows_2_40() {
    %c0 = arith.constant 0 : index
    %c3 = arith.constant 3 : index
    %n = arith.constant 1099511627776 : index
    %x = arith.constant dense<1.0> : tensor<128xf16>
// ROWS: budgets.mlir:[[@LINE+1]]:5: error: 'scf.for' op tile 0: the loop's 366503875926 iterations need at least 1466015503704 element operations
    scf.for %i = %c0 to %n step %c3 {
      %y = arith.mulf %x, %x : tensor<128xf16>
      %z = arith.addf %y, %x : tensor<128xf16>
      %w = arith.divf %z, %x : tensor<128xf16>
    }
    return
  }

// Three dimensions of 2^21 points: 2^63 in all.
  func.func @parallel_2_62() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %n = arith.constant 2097152 : index
// PARALLEL: budgets.mlir:[[@LINE+1]]:5: error: 'scf.parallel' op tile 0: the loop's 9223372036854775808 iterations need at least 9223372036854775808 element operations
    scf.parallel (%i, %j, %k) = (%c0, %c0, %c0) to (%n, %n, %n) step (%c1, %c1, %c1) {
      scf.reduce
    }
    return
  }

// Two dimensions of 2^62 points: more than 2^64, reported as 2^64 - 1.
  func.func @forall_2_62() {
    %e = tensor.empty() : tensor<1xf32>
// FORALL: budgets.mlir:[[@LINE+1]]:10: error: 'scf.forall' op tile 0: the loop's 18446744073709551615 iterations need at least 18446744073709551615 element operations
    %r = scf.forall (%i, %j) in (4611686018427387904, 4611686018427387904) shared_outs(%o = %e) -> (tensor<1xf32>) {
    }
    return
  }

// Steps of 2^62 from 2^63 - 2: the second point would be past INT64_MAX,
// which ends the loop after one point.
#first = affine_set<(d0) : (d0 == 0)>
#order = affine_map<(d0) -> (d0)>
// TOMAX: s: shape=1 dtype=i64 min=1 max=1
  func.func @parallel_to_max(%s: index) {
    %lb = arith.constant 9223372036854775806 : index
    %ub = arith.constant 9223372036854775807 : index
    %step = arith.constant 4611686018427387904 : index
    %c0 = arith.constant 0 : index
    %one = arith.constant 1 : i64
    %zero = arith.constant 0 : i64
    %n = scf.parallel (%i) = (%lb) to (%ub) step (%step) init (%zero) -> i64 {
      scf.reduce(%one : i64) {
      ^bb0(%a: i64, %b: i64):
        %sum = arith.addi %a, %b : i64
        scf.reduce.return %sum : i64
      }
    }
    %t = tensor.from_elements %n : tensor<1xi64>
    %S = ktdp.construct_memory_view %s, sizes: [1], strides: [1] {coordinate_set = #first, memory_space = #ktdp.memory_space<global>} : memref<1xi64>
    %ts = ktdp.construct_access_tile %S[%c0] {access_tile_set = #first, access_tile_order = #order} : memref<1xi64> -> !ktdp.access_tile<1xindex>
    ktdp.store %t, %ts : tensor<1xi64>, !ktdp.access_tile<1xindex>
    return
  }

// 1000 tiles adding a 3x64 block each (add.mlir's body): the grid fits the
// budget at the least a tile costs, the work does not, and the run stops in
// the tile that crosses it (tiles share no memory: at most 64 run at once).
#set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 95 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#tset = affine_set<(d0, d1) : (d0 >= 0, -d0 + 2 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#map = affine_map<(d0, d1) -> (d0, d1)>
  func.func @add_1e8(%a: index, %b: index, %c: index) attributes {grid = [1000]} {
    %id = ktdp.get_compute_tile_id : index
    %c3 = arith.constant 3 : index
    %row = arith.muli %id, %c3 : index
    %A = ktdp.construct_memory_view %a, sizes: [96, 64], strides: [64, 1] {coordinate_set = #set, memory_space = #ktdp.memory_space<global>} : memref<96x64xf16>
    %B = ktdp.construct_memory_view %b, sizes: [96, 64], strides: [64, 1] {coordinate_set = #set, memory_space = #ktdp.memory_space<global>} : memref<96x64xf16>
    %C = ktdp.construct_memory_view %c, sizes: [96, 64], strides: [64, 1] {coordinate_set = #set, memory_space = #ktdp.memory_space<global>} : memref<96x64xf16>
    %ta = ktdp.construct_access_tile %A[%row, 0] {access_tile_set = #tset, access_tile_order = #map} : memref<96x64xf16> -> !ktdp.access_tile<3x64xindex>
    %tb = ktdp.construct_access_tile %B[%row, 0] {access_tile_set = #tset, access_tile_order = #map} : memref<96x64xf16> -> !ktdp.access_tile<3x64xindex>
    %tc = ktdp.construct_access_tile %C[%row, 0] {access_tile_set = #tset, access_tile_order = #map} : memref<96x64xf16> -> !ktdp.access_tile<3x64xindex>
    %x = ktdp.load %ta : !ktdp.access_tile<3x64xindex> -> tensor<3x64xf16>
    %y = ktdp.load %tb : !ktdp.access_tile<3x64xindex> -> tensor<3x64xf16>
// ADD: budgets.mlir:[[@LINE+1]]:10: error: '{{.*}}' op tile {{[0-9]+}}: the run exceeded the work budget of 100000 element operations
    %e = tensor.empty() : tensor<3x64xf16>
    %z = linalg.add ins(%x, %y : tensor<3x64xf16>, tensor<3x64xf16>) outs(%e : tensor<3x64xf16>) -> tensor<3x64xf16>
    ktdp.store %z, %tc : tensor<3x64xf16>, !ktdp.access_tile<3x64xindex>
    return
  }

// Each tile stores into Y and loads all of it: every tile must see the
// others' stores, so all 65537 tiles would have to run at once.
#all = affine_set<(d0) : (d0 >= 0, -d0 + 99 >= 0)>
#one = affine_set<(d0) : (d0 >= 0, -d0 >= 0)>
#id1 = affine_map<(d0) -> (d0)>
// SHARED: budgets.mlir:[[@LINE+2]]:3: error: the grid has 65537 tiles, which must all run at once because one tile may load what another stores, but at most 65536 tiles can
// SHARED: budgets.mlir:[[@LINE+5]]:10: note: tensor 'y' is both loaded and stored
  func.func @shared_65537(%y: index) attributes {grid = [65537]} {
    %id = ktdp.get_compute_tile_id : index
    %c0 = arith.constant 0 : index
    %v = arith.constant dense<1> : tensor<1xi32>
    %Y = ktdp.construct_memory_view %y, sizes: [100], strides: [1] {coordinate_set = #all, memory_space = #ktdp.memory_space<global>} : memref<100xi32>
    %mine = ktdp.construct_access_tile %Y[%id] {access_tile_set = #one, access_tile_order = #id1} : memref<100xi32> -> !ktdp.access_tile<1xindex>
    ktdp.store %v, %mine : tensor<1xi32>, !ktdp.access_tile<1xindex>
    %every = ktdp.construct_access_tile %Y[%c0] {access_tile_set = #all, access_tile_order = #id1} : memref<100xi32> -> !ktdp.access_tile<100xindex>
    %got = ktdp.load %every : !ktdp.access_tile<100xindex> -> tensor<100xi32>
    return
  }
