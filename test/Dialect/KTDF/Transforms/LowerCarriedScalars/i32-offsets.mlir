// RUN: ktflow-opt %s --ktdf-lower-carried-scalars -split-input-file --allow-unregistered-dialect | FileCheck %s

// Triton's i32 block offset, carried in iter_args and cast to index: the
// derived i32 value (256 pid + 4096 i) is computed on index values; the
// trip count is known only at launch, so the range analysis cannot bound
// it inside i32 and the cast's sign extension from 32 bits is kept:
// ((x + 2^31) & (2^32 - 1)) - 2^31. The i32 arithmetic is gone.

// CHECK-LABEL: func.func @carried_i32
// CHECK-SAME: (%[[N:.*]]: index)
// CHECK: %[[PID:.*]] = ktdp.get_compute_tile_id : index
// CHECK: scf.for %[[I:.*]] = %{{.*}} to %[[N]] step %{{.*}} {
// CHECK-DAG: %[[C256:.*]] = arith.constant 256 : index
// CHECK-DAG: %[[C4096:.*]] = arith.constant 4096 : index
// CHECK-DAG: %[[START:.*]] = arith.muli %[[PID]], %[[C256]] : index
// CHECK-DAG: %[[K:.*]] = arith.muli %[[I]], %[[C4096]] : index
// CHECK: %[[X:.*]] = arith.addi %[[START]], %[[K]] : index
// CHECK-DAG: %[[MASK:.*]] = arith.constant 4294967295 : index
// CHECK-DAG: %[[HALF:.*]] = arith.constant 2147483648 : index
// CHECK: %[[B:.*]] = arith.addi %[[X]], %[[HALF]] : index
// CHECK: %[[W:.*]] = arith.andi %[[B]], %[[MASK]] : index
// CHECK: %[[LOW:.*]] = arith.constant -2147483648 : index
// CHECK: %[[O:.*]] = arith.addi %[[W]], %[[LOW]] : index
// CHECK: "use"(%[[O]]) : (index) -> ()
// CHECK-NOT: i32
func.func @carried_i32(%n: index) attributes {grid = [16]} {
  %pid = ktdp.get_compute_tile_id : index
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %BLOCK = arith.constant 256 : i32
  %STRIDE = arith.constant 4096 : i32
  %pid_i32 = arith.index_cast %pid : index to i32
  %start = arith.muli %pid_i32, %BLOCK : i32
  %end = scf.for %i = %c0 to %n step %c1 iter_args(%off = %start) -> (i32) {
    %o = arith.index_cast %off : i32 to index
    "use"(%o) : (index) -> ()
    %next = arith.addi %off, %STRIDE : i32
    scf.yield %next : i32
  }
  return
}

// -----

// Bounded by the grid (pid < 16) and a loop of constant bounds, the i32
// value provably fits: the cast is the index arithmetic itself. An
// unsigned cast (index_castui) of a value that may be negative keeps its
// zero extension (x & (2^32 - 1)).

// CHECK-LABEL: func.func @bounded
// CHECK: %[[PID:.*]] = ktdp.get_compute_tile_id : index
// CHECK: %[[C256:.*]] = arith.constant 256 : index
// CHECK: %[[S:.*]] = arith.muli %[[PID]], %[[C256]] : index
// CHECK-NEXT: "use"(%[[S]]) : (index) -> ()
// CHECK: %[[D:.*]] = arith.subi %{{.*}}, %{{.*}} : index
// CHECK-NEXT: %[[MASK:.*]] = arith.constant 4294967295 : index
// CHECK-NEXT: %[[Z:.*]] = arith.andi %[[D]], %[[MASK]] : index
// CHECK-NEXT: "use"(%[[Z]]) : (index) -> ()
func.func @bounded() attributes {grid = [16]} {
  %pid = ktdp.get_compute_tile_id : index
  %BLOCK = arith.constant 256 : i32
  %pid_i32 = arith.index_cast %pid : index to i32
  %start = arith.muli %pid_i32, %BLOCK : i32
  %s = arith.index_cast %start : i32 to index
  "use"(%s) : (index) -> ()
  %c3 = arith.constant 3 : i32
  %d = arith.subi %pid_i32, %c3 : i32
  %u = arith.index_castui %d : i32 to index
  "use"(%u) : (index) -> ()
  return
}

// -----

// Left as they are: a kernel argument cast alone (the launch reads it as an
// index), and an i32 from anything but the arithmetic above.

// CHECK-LABEL: func.func @left
// CHECK: arith.index_cast %{{.*}} : i32 to index
// CHECK: arith.divsi %{{.*}}, %{{.*}} : i32
// CHECK: arith.index_cast %{{.*}} : i32 to index
func.func @left(%n: i32) attributes {grid = [1]} {
  %a = arith.index_cast %n : i32 to index
  "use"(%a) : (index) -> ()
  %c3 = arith.constant 3 : i32
  %q = arith.divsi %n, %c3 : i32
  %b = arith.index_cast %q : i32 to index
  "use"(%b) : (index) -> ()
  return
}
