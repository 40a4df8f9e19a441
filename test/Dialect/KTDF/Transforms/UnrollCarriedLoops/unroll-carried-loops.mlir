// RUN: ktflow-opt %s --ktdf-unroll-carried-loops -split-input-file --allow-unregistered-dialect | FileCheck %s
// RUN: ktflow-opt %s --ktdf-unroll-carried-loops=max-trips=2 -split-input-file --allow-unregistered-dialect | FileCheck %s --check-prefix=FEW

// A Triton-style column-block loop with constexpr bounds carrying a row's
// running sum: its four iterations follow one another, each loading its
// block (the induction variable becomes the block's constant column) and
// adding it to what the previous one computed; the row loop, which carries
// nothing, stays.

// CHECK-LABEL: func.func @column_blocks
// CHECK: scf.for %[[ROW:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK-NOT: iter_args
// CHECK: %[[B0:.*]] = arith.constant 0 : index
// CHECK: ktdp.construct_access_tile %{{.*}}[%[[ROW]], %[[B0]]]
// CHECK: %[[X0:.*]] = ktdp.load
// CHECK: %[[A0:.*]] = arith.addf %[[Z:.*]], %[[X0]]
// CHECK: %[[B1:.*]] = arith.constant 128 : index
// CHECK: ktdp.construct_access_tile %{{.*}}[%[[ROW]], %[[B1]]]
// CHECK: %[[X1:.*]] = ktdp.load
// CHECK: %[[A1:.*]] = arith.addf %[[A0]], %[[X1]]
// CHECK: arith.constant 256 : index
// CHECK: %[[A2:.*]] = arith.addf %[[A1]]
// CHECK: arith.constant 384 : index
// CHECK: %[[A3:.*]] = arith.addf %[[A2]]
// CHECK-NOT: arith.addf
// CHECK: ktdp.store %[[A3]]
// With at most two trips unrolled, the loop of four stays.
// FEW-LABEL: func.func @column_blocks
// FEW: scf.for {{.*}} iter_args
#x_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 511 >= 0)>
#blk = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 127 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @column_blocks(%x_ptr: index, %y_ptr: index, %n_rows: index) attributes {grid = [16, 1]} {
  %pid = ktdp.get_compute_tile_id : index
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  %N = arith.constant 512 : index
  %BLOCK_SIZE = arith.constant 128 : index
  %zeros = arith.constant dense<0.0> : tensor<1x128xf16>
  %X = ktdp.construct_memory_view %x_ptr, sizes: [64, 512], strides: [512, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<64x512xf16>
  %Y = ktdp.construct_memory_view %y_ptr, sizes: [64, 512], strides: [512, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<64x512xf16>
  scf.for %row = %pid to %n_rows step %c16 : index {
    %acc = scf.for %off = %c0 to %N step %BLOCK_SIZE iter_args(%a = %zeros) -> tensor<1x128xf16> {
      %tx = ktdp.construct_access_tile %X[%row, %off] {access_tile_set = #blk, access_tile_order = #id2} : memref<64x512xf16> -> !ktdp.access_tile<1x128xindex>
      %x = ktdp.load %tx : <1x128xindex> -> tensor<1x128xf16>
      %a2 = arith.addf %a, %x : tensor<1x128xf16>
      scf.yield %a2 : tensor<1x128xf16>
    }
    %ty = ktdp.construct_access_tile %Y[%row, 0] {access_tile_set = #blk, access_tile_order = #id2} : memref<64x512xf16> -> !ktdp.access_tile<1x128xindex>
    ktdp.store %acc, %ty : tensor<1x128xf16>, <1x128xindex>
    scf.yield
  }
  return
}

// -----

// bias_twice's shape: a carrying loop whose result nothing uses is erased
// (it writes nothing), and the outer loop of two trips unrolled.

// CHECK-LABEL: func.func @unused_inner_loop
// CHECK-NOT: scf.for
// CHECK-NOT: arith.mulf
// CHECK: %[[N0:.*]] = arith.addf %[[X:.*]], %[[ONE:.*]] : tensor<4x64xf32>
// CHECK: %[[N1:.*]] = arith.addf %[[N0]], %[[ONE]] : tensor<4x64xf32>
// CHECK-NOT: scf.for
// CHECK: ktdp.store %[[N1]]
// FEW-LABEL: func.func @unused_inner_loop
// FEW-NOT: scf.for
#box2 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @unused_inner_loop(%x_ptr: index, %y_ptr: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %X = ktdp.construct_memory_view %x_ptr, sizes: [4, 64], strides: [64, 1] {memory_space = #ktdp.memory_space<global>} : memref<4x64xf32>
  %Y = ktdp.construct_memory_view %y_ptr, sizes: [4, 64], strides: [64, 1] {memory_space = #ktdp.memory_space<global>} : memref<4x64xf32>
  %tx = ktdp.construct_access_tile %X[0, 0] {access_tile_set = #box2, access_tile_order = #id2} : memref<4x64xf32> -> !ktdp.access_tile<4x64xindex>
  %ty = ktdp.construct_access_tile %Y[0, 0] {access_tile_set = #box2, access_tile_order = #id2} : memref<4x64xf32> -> !ktdp.access_tile<4x64xindex>
  %x = ktdp.load %tx : <4x64xindex> -> tensor<4x64xf32>
  %one = arith.constant dense<1.0> : tensor<4x64xf32>
  %half = arith.constant dense<0.5> : tensor<4x64xf32>
  %y = scf.for %i = %c0 to %c2 step %c1 iter_args(%acc = %x) -> tensor<4x64xf32> {
    %next = arith.addf %acc, %one : tensor<4x64xf32>
    %unused = scf.for %j = %c0 to %c3 step %c1 iter_args(%h = %next) -> tensor<4x64xf32> {
      %h2 = arith.mulf %h, %half : tensor<4x64xf32>
      scf.yield %h2 : tensor<4x64xf32>
    }
    scf.yield %next : tensor<4x64xf32>
  }
  ktdp.store %y, %ty : tensor<4x64xf32>, <4x64xindex>
  return
}

// -----

// An inner carrying loop whose bound is the outer induction variable has
// constant bounds once the outer loop is unrolled: 0 + 1 + 2 trips. A
// loop whose trip count is known only at run time stays (with what it
// carries), as does an empty one.

// CHECK-LABEL: func.func @triangular
// CHECK-SAME: (%[[X:[^:]*]]: tensor<4xf32>
// CHECK-NOT: scf.for
// CHECK-COUNT-3: arith.addf
// CHECK-NOT: arith.addf
// CHECK: "test.use"
// CHECK: scf.for {{.*}} iter_args
// CHECK: "test.use"
// CHECK-NEXT: "test.use"(%[[X]]) :
// CHECK: return
// Three trips are too many under max-trips=2.
// FEW-LABEL: func.func @triangular
// FEW: scf.for {{.*}} iter_args
func.func @triangular(%x: tensor<4xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %one = arith.constant dense<1.0> : tensor<4xf32>
  %y = scf.for %i = %c0 to %c3 step %c1 iter_args(%acc = %x) -> tensor<4xf32> {
    %z = scf.for %j = %c0 to %i step %c1 iter_args(%b = %acc) -> tensor<4xf32> {
      %b2 = arith.addf %b, %one : tensor<4xf32>
      scf.yield %b2 : tensor<4xf32>
    }
    scf.yield %z : tensor<4xf32>
  }
  "test.use"(%y) : (tensor<4xf32>) -> ()
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %x) -> tensor<4xf32> {
    %b2 = arith.mulf %acc, %one : tensor<4xf32>
    scf.yield %b2 : tensor<4xf32>
  }
  "test.use"(%r) : (tensor<4xf32>) -> ()
  %e = scf.for %i = %c3 to %c0 step %c1 iter_args(%acc = %x) -> tensor<4xf32> {
    %b2 = arith.mulf %acc, %one : tensor<4xf32>
    scf.yield %b2 : tensor<4xf32>
  }
  "test.use"(%e) : (tensor<4xf32>) -> ()
  return
}

// -----

// A row loop that carries nothing but holds an inter-tile reduction (an
// RMSNorm's per-row all-reduce of its sum of squares) stays a loop, of
// constant trips or not: its all-reduce stays in the loop body
// (ktdf-lower-inter-tile), whose trips ktdf-spread-iterations can spread
// over idle lanes.

// CHECK-LABEL: func.func @exchange_per_row
// CHECK: scf.for %{{.*}} = %{{.*}} to %c2 step
// CHECK: ktdp.inter_tile_reduce
// CHECK: scf.for
// CHECK: ktdp.inter_tile_reduce
// CHECK-NOT: ktdp.inter_tile_reduce
// CHECK: return
#pair = affine_set<(i)[g] : (i - 2*g >= 0, -i + 2*g + 1 >= 0)>
func.func @exchange_per_row(%n: index) attributes {grid = [2]} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %zero = arith.constant dense<0.0> : tensor<1xf16>
  scf.for %i = %c0 to %c2 step %c1 {
    %p = "test.row"(%i) : (index) -> tensor<1xf16>
    %f = ktdp.inter_tile_produce producer_tiles_per_group = #pair -> <(tensor<1xf16>), groups = affine_set<(g) : (g == 0)>> {
    ^bb0(%gid: index):
      ktdp.yield_partial %p : tensor<1xf16>
    }
    %s = ktdp.inter_tile_reduce(%f) consumer_tiles_per_group = #pair, identity(%zero : tensor<1xf16>) : <(tensor<1xf16>), groups = affine_set<(g) : (g == 0)>> -> tensor<1xf16> {
    ^bb0(%a: tensor<1xf16>, %b: tensor<1xf16>):
      %r = arith.addf %a, %b : tensor<1xf16>
      ktdp.yield_reduced %r : tensor<1xf16>
    }
    "test.use"(%s) : (tensor<1xf16>) -> ()
  }
  scf.for %i = %c0 to %n step %c1 {
    %p = "test.row"(%i) : (index) -> tensor<1xf16>
    %f = ktdp.inter_tile_produce producer_tiles_per_group = #pair -> <(tensor<1xf16>), groups = affine_set<(g) : (g == 0)>> {
    ^bb0(%gid: index):
      ktdp.yield_partial %p : tensor<1xf16>
    }
    %s = ktdp.inter_tile_reduce(%f) consumer_tiles_per_group = #pair, identity(%zero : tensor<1xf16>) : <(tensor<1xf16>), groups = affine_set<(g) : (g == 0)>> -> tensor<1xf16> {
    ^bb0(%a: tensor<1xf16>, %b: tensor<1xf16>):
      %r = arith.addf %a, %b : tensor<1xf16>
      ktdp.yield_reduced %r : tensor<1xf16>
    }
    "test.use"(%s) : (tensor<1xf16>) -> ()
  }
  return
}

// -----

// A loop holding an inter-tile consume (a row copied from the other tile
// of the pair once per trip) is unrolled the same way: one tile copy per
// trip.

// CHECK-LABEL: func.func @copy_per_row
// CHECK-NOT: scf.for
// CHECK: "test.row"
// CHECK: ktdp.inter_tile_consume
// CHECK: "test.row"
// CHECK: ktdp.inter_tile_consume
// CHECK-NOT: ktdp.inter_tile_consume
// CHECK: return
#pair = affine_set<(i)[g] : (i - 2*g >= 0, -i + 2*g + 1 >= 0)>
#other = affine_set<(p)[c] : (p + c - 1 == 0)>
func.func @copy_per_row() attributes {grid = [2]} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  scf.for %i = %c0 to %c2 step %c1 {
    %p = "test.row"(%i) : (index) -> tensor<1x64xf16>
    %f = ktdp.inter_tile_produce producer_tiles_per_group = #pair -> <(tensor<1x64xf16>), groups = affine_set<(g) : (g == 0)>> {
    ^bb0(%gid: index):
      ktdp.yield_partial %p : tensor<1x64xf16>
    }
    %s = ktdp.inter_tile_consume(%f) consumer_tiles_per_group = #pair, producer_dependency_per_consumer = #other : <(tensor<1x64xf16>), groups = affine_set<(g) : (g == 0)>> -> tensor<1x64xf16>
    "test.use"(%s) : (tensor<1x64xf16>) -> ()
  }
  return
}
