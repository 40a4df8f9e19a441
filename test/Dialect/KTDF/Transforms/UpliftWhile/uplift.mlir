// RUN: ktflow-opt %s --ktdf-uplift-while -split-input-file | FileCheck %s

// The shipped while_loop kernel's grid-stride loop: an unsigned condition
// on a counter that starts at the tile id, steps by 32 and stops at a
// runtime argument (neither side negative, so ult is slt) becomes scf.for.

// CHECK-LABEL: func.func @grid_stride
// CHECK: %[[ID:.*]] = ktdp.get_compute_tile_id : index
// CHECK: %[[M:.*]] = ktdp.runtime_arg_extract value from
// CHECK: %[[C32:.*]] = arith.constant 32 : index
// CHECK-NOT: scf.while
// CHECK: scf.for %[[R:.*]] = %[[ID]] to %[[M]] step %[[C32]]
// CHECK-NEXT: ktdp.construct_access_tile %{{.*}}[%[[R]], 0]
// CHECK-NOT: scf.while
#rows = affine_set<(d0, d1)[s0] : (d0 >= 0, -d0 + s0 - 1 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#row_tile = affine_set<(d0, d1) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @grid_stride(%x: index, %M_arg: !ktdp.runtime_arg<index, upperbound=512>) attributes {grid = [32]} {
  %id = ktdp.get_compute_tile_id : index
  %M = ktdp.runtime_arg_extract value from %M_arg : !ktdp.runtime_arg<index, upperbound=512> -> index
  %c32 = arith.constant 32 : index
  %X = ktdp.construct_memory_view %x, sizes: [%M, 64], strides: [64, 1] {coordinate_set = #rows, memory_space = #ktdp.memory_space<global>} : memref<?x64xf16>
  %end = scf.while (%row = %id) : (index) -> index {
    %more = arith.cmpi ult, %row, %M : index
    scf.condition(%more) %row : index
  } do {
  ^bb0(%r: index):
    %tx = ktdp.construct_access_tile %X[%r, 0] {access_tile_set = #row_tile, access_tile_order = #id2} : memref<?x64xf16> -> !ktdp.access_tile<1x64xindex>
    %xt = ktdp.load %tx : <1x64xindex> -> tensor<1x64xf16>
    ktdp.store %xt, %tx : tensor<1x64xf16>, <1x64xindex>
    %next = arith.addi %r, %c32 : index
    scf.yield %next : index
  }
  return
}

// -----

// A signed condition with the step on the left of the addition, a bound
// that is a plain constant: the uplift needs no proof.

// CHECK-LABEL: func.func @signed_count
// CHECK-NOT: scf.while
// CHECK: scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} {
func.func @signed_count(%x: index) attributes {grid = [4]} {
  %id = ktdp.get_compute_tile_id : index
  %c4 = arith.constant 4 : index
  %c10 = arith.constant 10 : index
  %end = scf.while (%i = %id) : (index) -> index {
    %more = arith.cmpi slt, %i, %c10 : index
    scf.condition(%more) %i : index
  } do {
  ^bb0(%j: index):
    %next = arith.addi %c4, %j : index
    scf.yield %next : index
  }
  return
}

// -----

// An scf.for unsigned from a tile id to a runtime_arg (neither negative)
// runs the same trips signed and loses the flag; one from a plain argument
// (maybe negative) keeps it, for ktdf-check-supported to refuse.

// CHECK-LABEL: func.func @unsigned_for
// CHECK: scf.for %{{.*}} = %{{.*}} to %{{.*}} step
// CHECK: scf.for unsigned %{{.*}} = %{{.*}} to %{{.*}} step
func.func @unsigned_for(%lo: index, %n_arg: !ktdp.runtime_arg<index>) attributes {grid = [2]} {
  %id = ktdp.get_compute_tile_id : index
  %n = ktdp.runtime_arg_extract value from %n_arg : !ktdp.runtime_arg<index> -> index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  scf.for unsigned %i = %id to %n step %c1 {
  }
  scf.for unsigned %i = %lo to %c8 step %c1 {
  }
  return
}
