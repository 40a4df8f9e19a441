// RUN: ktflow-opt %s --ktdf-lower-if -split-input-file --allow-unregistered-dialect | FileCheck %s

// A writer predicate: the branch becomes a loop of select(%w, 1, 0) trips,
// and the load and the sum only the branch uses sink into it first, so the
// compute group lies whole inside the loop.

// CHECK-LABEL: func.func @single_writer
// CHECK: %[[W:.*]] = arith.cmpi eq
// CHECK-NOT: scf.if
// CHECK: %[[N:.*]] = arith.select %[[W]], %[[C1:.*]], %[[C0:.*]] : index
// CHECK: scf.for %{{.*}} = %[[C0]] to %[[N]] step %[[C1]] {
// CHECK: ktdp.load
// CHECK: arith.addf
// CHECK: ktdp.construct_memory_view
// CHECK: ktdp.store
// CHECK: }
// CHECK-NEXT: return
#row = affine_set<(d0, d1) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @single_writer(%x: index, %z: index) attributes {grid = [4]} {
  %pid = ktdp.get_compute_tile_id : index
  %c0 = arith.constant 0 : index
  %one = arith.constant dense<1.0> : tensor<1x64xf16>
  %X = ktdp.construct_memory_view %x, sizes: [1, 64], strides: [64, 1] {coordinate_set = #row, memory_space = #ktdp.memory_space<global>} : memref<1x64xf16>
  %tx = ktdp.construct_access_tile %X[0, 0] {access_tile_set = #row, access_tile_order = #id2} : memref<1x64xf16> -> !ktdp.access_tile<1x64xindex>
  %v = ktdp.load %tx : <1x64xindex> -> tensor<1x64xf16>
  %s = arith.addf %v, %one : tensor<1x64xf16>
  %w = arith.cmpi eq, %pid, %c0 : index
  scf.if %w {
    %Z = ktdp.construct_memory_view %z, sizes: [1, 64], strides: [64, 1] {coordinate_set = #row, memory_space = #ktdp.memory_space<global>} : memref<1x64xf16>
    %tz = ktdp.construct_access_tile %Z[0, 0] {access_tile_set = #row, access_tile_order = #id2} : memref<1x64xf16> -> !ktdp.access_tile<1x64xindex>
    ktdp.store %s, %tz : tensor<1x64xf16>, <1x64xindex>
  }
  return
}

// -----

// An else branch runs select(%c, 0, 1) times. MLIR's canonicalization
// turns an if whose branches yield values defined outside it into
// arith.select, and inside a branch the condition is known: the then
// branch sees %rows = 1.

// CHECK-LABEL: func.func @else_and_values
// CHECK-NOT: scf.if
// CHECK: %[[ONE:.*]] = arith.constant 1 : index
// CHECK: %[[ROWS:.*]] = arith.select %[[LAST:.*]], %[[ONE]], %{{.*}} : index
// CHECK: %[[THEN:.*]] = arith.select %[[LAST]], %[[C1:.*]], %[[C0:.*]] : index
// CHECK: scf.for %{{.*}} = %[[C0]] to %[[THEN]] step %[[C1]] {
// CHECK-NEXT: "test.then"(%[[ONE]])
// CHECK: %[[ELSE:.*]] = arith.select %[[LAST]], %[[C0]], %[[C1]] : index
// CHECK: scf.for %{{.*}} = %[[C0]] to %[[ELSE]] step %[[C1]] {
// CHECK: "test.else"()
func.func @else_and_values() attributes {grid = [4]} {
  %pid = ktdp.get_compute_tile_id : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %last = arith.cmpi eq, %pid, %c3 : index
  %rows = scf.if %last -> (index) {
    scf.yield %c1 : index
  } else {
    scf.yield %c3 : index
  }
  scf.if %last {
    "test.then"(%rows) : (index) -> ()
  } else {
    "test.else"() : () -> ()
  }
  // CHECK: "test.after"(%[[ROWS]])
  "test.after"(%rows) : (index) -> ()
  return
}

// -----

// Branches that compute the tensors they yield: the store of the result
// (and the access tile it stores through, built after the if) moves into
// both branches, which then become loops. The row's parity picks per row.

// CHECK-LABEL: func.func @computed_tensors
// CHECK-NOT: scf.if
// CHECK: %[[EVEN:.*]] = arith.cmpi eq
// CHECK: %[[TY:.*]] = ktdp.construct_access_tile
// CHECK: %[[THEN:.*]] = arith.select %[[EVEN]], %[[C1:.*]], %[[C0:.*]] : index
// CHECK: scf.for %{{.*}} = %[[C0]] to %[[THEN]] step %[[C1]] {
// CHECK-NEXT: %[[M:.*]] = arith.mulf
// CHECK-NEXT: ktdp.store %[[M]], %[[TY]]
// CHECK: %[[ELSE:.*]] = arith.select %[[EVEN]], %[[C0]], %[[C1]] : index
// CHECK: scf.for %{{.*}} = %[[C0]] to %[[ELSE]] step %[[C1]] {
// CHECK-NEXT: %[[A:.*]] = arith.addf
// CHECK-NEXT: ktdp.store %[[A]], %[[TY]]
#mat = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#row = affine_set<(d0, d1) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @computed_tensors(%x: index, %y: index) attributes {grid = [64]} {
  %r = ktdp.get_compute_tile_id : index
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %two = arith.constant dense<2.0> : tensor<1x64xf16>
  %X = ktdp.construct_memory_view %x, sizes: [64, 64], strides: [64, 1] {coordinate_set = #mat, memory_space = #ktdp.memory_space<global>} : memref<64x64xf16>
  %Y = ktdp.construct_memory_view %y, sizes: [64, 64], strides: [64, 1] {coordinate_set = #mat, memory_space = #ktdp.memory_space<global>} : memref<64x64xf16>
  %tx = ktdp.construct_access_tile %X[%r, 0] {access_tile_set = #row, access_tile_order = #id2} : memref<64x64xf16> -> !ktdp.access_tile<1x64xindex>
  %v = ktdp.load %tx : <1x64xindex> -> tensor<1x64xf16>
  %par = arith.remui %r, %c2 : index
  %even = arith.cmpi eq, %par, %c0 : index
  %w = scf.if %even -> (tensor<1x64xf16>) {
    %m = arith.mulf %v, %two : tensor<1x64xf16>
    scf.yield %m : tensor<1x64xf16>
  } else {
    %a = arith.addf %v, %two : tensor<1x64xf16>
    scf.yield %a : tensor<1x64xf16>
  }
  %ty = ktdp.construct_access_tile %Y[%r, 0] {access_tile_set = #row, access_tile_order = #id2} : memref<64x64xf16> -> !ktdp.access_tile<1x64xindex>
  ktdp.store %w, %ty : tensor<1x64xf16>, <1x64xindex>
  return
}

// -----

// A select of whole tensors by one i1 is picked the same way: each branch
// stores its own tensor.

// CHECK-LABEL: func.func @select_tensors
// CHECK-NOT: arith.select %{{.*}} : tensor
// CHECK: %[[FIRST:.*]] = arith.cmpi eq
// CHECK: %[[THEN:.*]] = arith.select %[[FIRST]], %[[C1:.*]], %[[C0:.*]] : index
// CHECK: scf.for %{{.*}} = %[[C0]] to %[[THEN]] step %[[C1]] {
// CHECK-NEXT: %[[ONES:.*]] = arith.constant dense<1.0
// CHECK-NEXT: "test.use"(%[[ONES]])
// CHECK: %[[ELSE:.*]] = arith.select %[[FIRST]], %[[C0]], %[[C1]] : index
// CHECK: scf.for %{{.*}} = %[[C0]] to %[[ELSE]] step %[[C1]] {
// CHECK-NEXT: %[[ZEROS:.*]] = arith.constant dense<0.0
// CHECK-NEXT: "test.use"(%[[ZEROS]])
func.func @select_tensors() attributes {grid = [4]} {
  %pid = ktdp.get_compute_tile_id : index
  %c0 = arith.constant 0 : index
  %ones = arith.constant dense<1.0> : tensor<1x64xf16>
  %zeros = arith.constant dense<0.0> : tensor<1x64xf16>
  %first = arith.cmpi eq, %pid, %c0 : index
  %t = arith.select %first, %ones, %zeros : tensor<1x64xf16>
  "test.use"(%t) : (tensor<1x64xf16>) -> ()
  return
}

// -----

// Scalars the branches compute from values outside them are computed
// before the if, which becomes a select.

// CHECK-LABEL: func.func @computed_scalar
// CHECK-NOT: scf.if
// CHECK: %[[FIRST:.*]] = arith.cmpi eq
// CHECK: %[[SQ:.*]] = arith.muli %[[A:.*]], %[[A]] : index
// CHECK: %[[R:.*]] = arith.select %[[FIRST]], %[[SQ]], %[[A]] : index
// CHECK: "test.use"(%[[R]])
func.func @computed_scalar(%a: index) attributes {grid = [2]} {
  %pid = ktdp.get_compute_tile_id : index
  %c0 = arith.constant 0 : index
  %first = arith.cmpi eq, %pid, %c0 : index
  %r = scf.if %first -> (index) {
    %d = arith.muli %a, %a : index
    scf.yield %d : index
  } else {
    scf.yield %a : index
  }
  "test.use"(%r) : (index) -> ()
  return
}

// -----

// A select of tensors by a comparison of a row's element stays a select:
// ktdf-generalize compares per element (ScalarIdioms.h).

// CHECK-LABEL: func.func @row_condition
// CHECK-NOT: scf.for
// CHECK: %[[POS:.*]] = arith.cmpf ogt
// CHECK: arith.select %[[POS]], %{{.*}}, %{{.*}} : tensor<1x64xf16>
func.func @row_condition(%t: tensor<1xf16>, %x: tensor<1x64xf16>) attributes {grid = [4]} {
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0.0 : f16
  %s = tensor.extract %t[%c0] : tensor<1xf16>
  %pos = arith.cmpf ogt, %s, %zero : f16
  %neg = arith.negf %x : tensor<1x64xf16>
  %y = arith.select %pos, %x, %neg : tensor<1x64xf16>
  "test.use"(%y) : (tensor<1x64xf16>) -> ()
  return
}

// -----

// So does a select by a comparison of two elements of a larger tensor
// (a loaded row's first and last), which ktdf-lift-slices, after this
// pass, loads alone.

// CHECK-LABEL: func.func @row_condition_elements
// CHECK-NOT: scf.for
// CHECK: %[[GT:.*]] = arith.cmpf ogt
// CHECK: arith.select %[[GT]], %{{.*}}, %{{.*}} : tensor<1x64xf16>
func.func @row_condition_elements(%x: tensor<1x64xf16>) attributes {grid = [4]} {
  %c0 = arith.constant 0 : index
  %c63 = arith.constant 63 : index
  %first = tensor.extract %x[%c0, %c0] : tensor<1x64xf16>
  %last = tensor.extract %x[%c0, %c63] : tensor<1x64xf16>
  %gt = arith.cmpf ogt, %first, %last : f16
  %neg = arith.negf %x : tensor<1x64xf16>
  %y = arith.select %gt, %x, %neg : tensor<1x64xf16>
  "test.use"(%y) : (tensor<1x64xf16>) -> ()
  return
}

// -----

// An if on a row condition whose branches only compute tensors becomes a
// select of both branches' results, not control flow on the row's data.

// CHECK-LABEL: func.func @row_condition_if
// CHECK-NOT: scf.if
// CHECK-NOT: scf.for
// CHECK: %[[POS:.*]] = arith.cmpf ogt
// CHECK: %[[DIV:.*]] = arith.divf
// CHECK: %[[NEG:.*]] = arith.negf
// CHECK: %[[Y:.*]] = arith.select %[[POS]], %[[DIV]], %[[NEG]] : tensor<1x64xf16>
// CHECK: "test.use"(%[[Y]])
func.func @row_condition_if(%t: tensor<1xf16>, %x: tensor<1x64xf16>) attributes {grid = [4]} {
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0.0 : f16
  %s = tensor.extract %t[%c0] : tensor<1xf16>
  %pos = arith.cmpf ogt, %s, %zero : f16
  %y = scf.if %pos -> (tensor<1x64xf16>) {
    %sv = tensor.splat %s : tensor<1x64xf16>
    %d = arith.divf %x, %sv : tensor<1x64xf16>
    scf.yield %d : tensor<1x64xf16>
  } else {
    %n = arith.negf %x : tensor<1x64xf16>
    scf.yield %n : tensor<1x64xf16>
  }
  "test.use"(%y) : (tensor<1x64xf16>) -> ()
  return
}
