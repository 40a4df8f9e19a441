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
