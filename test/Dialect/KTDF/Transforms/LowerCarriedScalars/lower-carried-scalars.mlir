// RUN: ktflow-opt %s --ktdf-lower-carried-scalars -split-input-file --allow-unregistered-dialect | FileCheck %s

// Triton's persistent row loop: the row offset advances by a constant each
// trip over a run-time trip count. It becomes pid + i * 16: the loop
// carries nothing, the update is gone.

// CHECK-LABEL: func.func @row_offset
// CHECK-SAME: (%[[PID:.*]]: index, %[[N:.*]]: index)
// CHECK-DAG: %[[C16:.*]] = arith.constant 16 : index
// CHECK: scf.for %[[I:.*]] = %{{.*}} to %[[N]] step %{{.*}} {
// CHECK-NEXT: %[[K:.*]] = arith.muli %[[I]], %[[C16]] : index
// CHECK-NEXT: %[[ROW:.*]] = arith.addi %[[PID]], %[[K]] : index
// CHECK-NEXT: "use"(%[[ROW]]) : (index) -> ()
// CHECK-NEXT: }
// CHECK-NEXT: return
func.func @row_offset(%pid: index, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %last = scf.for %i = %c0 to %n step %c1 iter_args(%row = %pid) -> (index) {
    "use"(%row) : (index) -> ()
    %next = arith.addi %row, %c16 : index
    scf.yield %next : index
  }
  return
}

// -----

// A run-time stride, a lower bound and step from arguments, a subtraction:
// init - ((i - lb) / step) * stride. The update is also used in the trip
// (it stays, computed from the derived value).

// CHECK-LABEL: func.func @runtime_stride
// CHECK-SAME: (%[[START:.*]]: index, %[[LB:.*]]: index, %[[N:.*]]: index, %[[STEP:.*]]: index, %[[S:.*]]: index)
// CHECK: scf.for %[[I:.*]] = %[[LB]] to %[[N]] step %[[STEP]] {
// CHECK-NEXT: %[[D:.*]] = arith.subi %[[I]], %[[LB]] : index
// CHECK-NEXT: %[[T:.*]] = arith.divui %[[D]], %[[STEP]] : index
// CHECK-NEXT: %[[K:.*]] = arith.muli %[[T]], %[[S]] : index
// CHECK-NEXT: %[[OFF:.*]] = arith.subi %[[START]], %[[K]] : index
// CHECK-NEXT: %[[NEXT:.*]] = arith.subi %[[OFF]], %[[S]] : index
// CHECK-NEXT: "use"(%[[OFF]], %[[NEXT]]) : (index, index) -> ()
func.func @runtime_stride(%start: index, %lb: index, %n: index, %step: index, %s: index) {
  %r = scf.for %i = %lb to %n step %step iter_args(%off = %start) -> (index) {
    %next = arith.subi %off, %s : index
    "use"(%off, %next) : (index, index) -> ()
    scf.yield %next : index
  }
  return
}

// -----

// An i32 offset cast to index, advancing by 4096 over a loop of step 2:
// start + (i - 0) * 2048, computed in i32, then (the units compute no
// i32) on index values, extended from 32 bits: the trip count is known
// only at launch, so the value may leave i32 and wrap as the recurrence
// does. The update and its constant are gone.

// CHECK-LABEL: func.func @i32_offset
// CHECK-SAME: (%[[START:.*]]: i32, %[[N:.*]]: index)
// CHECK: scf.for %[[I:.*]] = %{{.*}} to %[[N]] step %{{.*}} {
// CHECK-NEXT: %[[S:.*]] = arith.index_cast %[[START]] : i32 to index
// CHECK-NEXT: %[[C:.*]] = arith.constant 2048 : index
// CHECK-NEXT: %[[K:.*]] = arith.muli %[[I]], %[[C]] : index
// CHECK-NEXT: %[[X:.*]] = arith.addi %[[S]], %[[K]] : index
// CHECK: arith.andi
// CHECK: %[[IDX:.*]] = arith.addi %{{.*}}, %{{.*}} : index
// CHECK-NEXT: "use"(%[[IDX]]) : (index) -> ()
// CHECK-NEXT: }
// CHECK-NOT: i32
// CHECK: return
func.func @i32_offset(%start: i32, %n: index) {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %r = scf.for %i = %c0 to %n step %c2 iter_args(%off = %start) -> (i32) {
    %o = arith.index_cast %off : i32 to index
    "use"(%o) : (index) -> ()
    %c4096 = arith.constant 4096 : i32
    %next = arith.addi %c4096, %off : i32
    scf.yield %next : i32
  }
  return
}

// -----

// A constant step that does not divide the amount: ((i - 1) / 3) * 4.

// CHECK-LABEL: func.func @step_not_dividing
// CHECK: scf.for %[[I:.*]] = %[[C1:.*]] to %{{.*}} step %[[C3:.*]] {
// CHECK-NEXT: %[[D:.*]] = arith.subi %[[I]], %[[C1]] : index
// CHECK-NEXT: %[[T:.*]] = arith.divui %[[D]], %[[C3]] : index
// CHECK-NEXT: %[[K:.*]] = arith.muli %[[T]], %[[C4:.*]] : index
// CHECK-NEXT: "use"(%[[K]]) : (index) -> ()
func.func @step_not_dividing(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %r = scf.for %i = %c1 to %n step %c3 iter_args(%off = %c0) -> (index) {
    "use"(%off) : (index) -> ()
    %next = arith.addi %off, %c4 : index
    scf.yield %next : index
  }
  return
}

// -----

// A tensor accumulator and a column offset, the trip number used for
// nothing else: the loop keeps the tensor and runs over the offset, from
// its init by its amount, as many trips as before (0 to n * 128 by 128;
// Triton's `for i in range(0, n)` with `off += 128` becomes `for off in
// range(0, n * 128, 128)`, the form ktdf-hoist-invariant-transfers and
// ktdf-keep-carried-chunks read).

// CHECK-LABEL: func.func @tensor_and_offset
// CHECK-SAME: (%[[N:.*]]: index, %{{.*}}: tensor<1x128xf32>)
// CHECK-DAG: %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG: %[[C128:.*]] = arith.constant 128 : index
// CHECK: %[[END:.*]] = arith.muli %[[N]], %[[C128]] : index
// CHECK-NEXT: %[[R:.*]] = scf.for %[[OFF:.*]] = %[[C0]] to %[[END]] step %[[C128]] iter_args(%[[A:.*]] = %{{.*}}) -> (tensor<1x128xf32>) {
// CHECK-NEXT: %[[X:.*]] = "load"(%[[OFF]])
// CHECK-NEXT: %[[A2:.*]] = arith.addf %[[A]], %[[X]]
// CHECK-NEXT: scf.yield %[[A2]] : tensor<1x128xf32>
// CHECK: "use"(%[[R]])
func.func @tensor_and_offset(%n: index, %zeros: tensor<1x128xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c128 = arith.constant 128 : index
  %acc, %end = scf.for %i = %c0 to %n step %c1 iter_args(%a = %zeros, %off = %c0) -> (tensor<1x128xf32>, index) {
    %x = "load"(%off) : (index) -> tensor<1x128xf32>
    %a2 = arith.addf %a, %x : tensor<1x128xf32>
    %next = arith.addi %off, %c128 : index
    scf.yield %a2, %next : tensor<1x128xf32>, index
  }
  "use"(%acc) : (tensor<1x128xf32>) -> ()
  return
}

// -----

// The same over bounds from arguments by a step of 2, with an f32 sum and
// an offset from an argument: ceil((ub - lb) / 2) trips of 64 from %start
// (no trip when ub <= lb: the end is then at most %start).

// CHECK-LABEL: func.func @sum_and_offset_by_two
// CHECK-SAME: (%[[LB:.*]]: index, %[[UB:.*]]: index, %[[START:.*]]: index)
// CHECK: %[[C2:.*]] = arith.constant 2 : index
// CHECK: %[[D:.*]] = arith.subi %[[UB]], %[[LB]] : index
// CHECK-NEXT: %[[T:.*]] = arith.ceildivsi %[[D]], %[[C2]] : index
// CHECK-NEXT: %[[C64:.*]] = arith.constant 64 : index
// CHECK-NEXT: %[[S:.*]] = arith.muli %[[T]], %[[C64]] : index
// CHECK-NEXT: %[[END:.*]] = arith.addi %[[START]], %[[S]] : index
// CHECK-NEXT: scf.for %[[OFF:.*]] = %[[START]] to %[[END]] step %[[C64]] iter_args(%{{.*}} = %{{.*}}) -> (tensor<1xf32>) {
// CHECK: "part"(%[[OFF]])
func.func @sum_and_offset_by_two(%lb: index, %ub: index, %start: index) {
  %c2 = arith.constant 2 : index
  %c64 = arith.constant 64 : index
  %zero = arith.constant 0.0 : f32
  %t, %o = scf.for %i = %lb to %ub step %c2 iter_args(%s = %zero, %off = %start) -> (f32, index) {
    %p = "part"(%off) : (index) -> f32
    %s2 = arith.addf %s, %p : f32
    %next = arith.addi %off, %c64 : index
    scf.yield %s2, %next : f32, index
  }
  "use"(%t) : (f32) -> ()
  return
}

// -----

// Kept on the trip number: a loop that uses it besides the offset, and one
// whose offset goes down (the offset is derived from it as before).

// CHECK-LABEL: func.func @trip_number_used
// CHECK: scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%{{.*}} = %{{.*}}) -> (tensor<1x128xf32>) {
// CHECK-NEXT: %[[OFF:.*]] = arith.muli %[[I]], %{{.*}} : index
// CHECK-NEXT: "load"(%[[OFF]], %[[I]])
// CHECK: scf.for %[[J:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%{{.*}} = %{{.*}}) -> (tensor<1x128xf32>) {
// CHECK-NEXT: %[[K:.*]] = arith.muli %[[J]], %{{.*}} : index
// CHECK-NEXT: %[[DOWN:.*]] = arith.subi %{{.*}}, %[[K]] : index
// CHECK-NEXT: "load"(%[[DOWN]])
func.func @trip_number_used(%n: index, %zeros: tensor<1x128xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c128 = arith.constant 128 : index
  %c384 = arith.constant 384 : index
  %acc, %end = scf.for %i = %c0 to %n step %c1 iter_args(%a = %zeros, %off = %c0) -> (tensor<1x128xf32>, index) {
    %x = "load"(%off, %i) : (index, index) -> tensor<1x128xf32>
    %a2 = arith.addf %a, %x : tensor<1x128xf32>
    %next = arith.addi %off, %c128 : index
    scf.yield %a2, %next : tensor<1x128xf32>, index
  }
  "use"(%acc) : (tensor<1x128xf32>) -> ()
  %acc2, %end2 = scf.for %i = %c0 to %n step %c1 iter_args(%a = %zeros, %off = %c384) -> (tensor<1x128xf32>, index) {
    %x = "load"(%off) : (index) -> tensor<1x128xf32>
    %a2 = arith.addf %a, %x : tensor<1x128xf32>
    %next = arith.subi %off, %c128 : index
    scf.yield %a2, %next : tensor<1x128xf32>, index
  }
  "use"(%acc2) : (tensor<1x128xf32>) -> ()
  return
}

// -----

// An f32 accumulator: carried as a tensor<1xf32> from a splat constant,
// extracted where the trip uses it, splat back into the yield; after the
// loop, the splat storing it is the carried tensor itself.

// CHECK-LABEL: func.func @f32_sum
// CHECK: %[[INIT:.*]] = arith.constant dense<0.000000e+00> : tensor<1xf32>
// CHECK: %[[R:.*]] = scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[S:.*]] = %[[INIT]]) -> (tensor<1xf32>) {
// CHECK-NEXT: %[[C0:.*]] = arith.constant 0 : index
// CHECK-NEXT: %[[V:.*]] = tensor.extract %[[S]][%[[C0]]] : tensor<1xf32>
// CHECK-NEXT: %[[P:.*]] = "part"() : () -> f32
// CHECK-NEXT: %[[S2:.*]] = arith.addf %[[V]], %[[P]] : f32
// CHECK-NEXT: %[[T:.*]] = tensor.splat %[[S2]] : tensor<1xf32>
// CHECK-NEXT: scf.yield %[[T]] : tensor<1xf32>
// CHECK-NEXT: }
// CHECK-NEXT: "store"(%[[R]]) : (tensor<1xf32>) -> ()
func.func @f32_sum(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  %total = scf.for %i = %c0 to %n step %c1 iter_args(%s = %zero) -> (f32) {
    %p = "part"() : () -> f32
    %s2 = arith.addf %s, %p : f32
    scf.yield %s2 : f32
  }
  %t = tensor.splat %total : tensor<1xf32>
  "store"(%t) : (tensor<1xf32>) -> ()
  return
}

// -----

// An f16 scalar from an argument, used after the loop as a scalar: a splat
// of the argument in, an extract of the result out.

// CHECK-LABEL: func.func @f16_scalar_after
// CHECK-SAME: (%[[N:.*]]: index, %[[E:.*]]: f16)
// CHECK: %[[INIT:.*]] = tensor.splat %[[E]] : tensor<1xf16>
// CHECK: %[[R:.*]] = scf.for {{.*}} iter_args(%{{.*}} = %[[INIT]]) -> (tensor<1xf16>) {
// CHECK: }
// CHECK-NEXT: %[[C0:.*]] = arith.constant 0 : index
// CHECK-NEXT: %[[V:.*]] = tensor.extract %[[R]][%[[C0]]] : tensor<1xf16>
// CHECK-NEXT: "use"(%[[V]]) : (f16) -> ()
func.func @f16_scalar_after(%n: index, %e: f16) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%s = %e) -> (f16) {
    %s2 = arith.mulf %s, %s : f16
    scf.yield %s2 : f16
  }
  "use"(%r) : (f16) -> ()
  return
}

// -----

// Left carried: an update that is not affine (a product), one by an amount
// computed in the trip, and an affine offset whose value after the loop is
// used. Loops that ktdf-unroll-carried-loops unrolls (constant trips, at
// most 64) are left to it.

// CHECK-LABEL: func.func @not_derived
// CHECK: scf.for {{.*}} iter_args(%{{.*}} = %{{.*}}) -> (index)
// CHECK: arith.muli
// CHECK: scf.for {{.*}} iter_args(%{{.*}} = %{{.*}}) -> (index)
// CHECK: arith.addi
// CHECK: scf.for {{.*}} iter_args(%{{.*}} = %{{.*}}) -> (index)
// CHECK: "use"
// CHECK: scf.for {{.*}} iter_args(%{{.*}} = %{{.*}}) -> (f32)
func.func @not_derived(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %zero = arith.constant 0.0 : f32
  %a = scf.for %i = %c0 to %n step %c1 iter_args(%x = %c1) -> (index) {
    "use"(%x) : (index) -> ()
    %next = arith.muli %x, %c2 : index
    scf.yield %next : index
  }
  %b = scf.for %i = %c0 to %n step %c1 iter_args(%x = %c0) -> (index) {
    "use"(%x) : (index) -> ()
    %next = arith.addi %x, %i : index
    scf.yield %next : index
  }
  %c = scf.for %i = %c0 to %n step %c1 iter_args(%x = %c0) -> (index) {
    %next = arith.addi %x, %c4 : index
    scf.yield %next : index
  }
  "use"(%c) : (index) -> ()
  %d = scf.for %i = %c0 to %c4 step %c1 iter_args(%x = %zero) -> (f32) {
    %x2 = arith.addf %x, %x : f32
    scf.yield %x2 : f32
  }
  "use"(%d) : (f32) -> ()
  return
}
