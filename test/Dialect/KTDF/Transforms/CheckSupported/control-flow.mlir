// RUN: ktflow-opt %s --ktdf-check-supported -split-input-file -verify-diagnostics --allow-unregistered-dialect

// Run alone, the check answers as the pipeline does: it accepts the
// scf.while loops ktdf-uplift-while turns into scf.for and the scf.if
// ktdf-lower-if removes, and refuses the others with the reason those
// passes give.

// A counted while (ult from a tile id to a constant) and an if whose
// results are defined outside it (it becomes arith.select): accepted.
func.func @lowered(%n: index) attributes {grid = [4]} {
  %pid = ktdp.get_compute_tile_id : index
  %c4 = arith.constant 4 : index
  %c64 = arith.constant 64 : index
  %end = scf.while (%i = %pid) : (index) -> index {
    %more = arith.cmpi ult, %i, %c64 : index
    scf.condition(%more) %i : index
  } do {
  ^bb0(%j: index):
    %next = arith.addi %j, %c4 : index
    scf.yield %next : index
  }
  %small = arith.cmpi slt, %n, %c64 : index
  %rows = scf.if %small -> (index) {
    scf.yield %n : index
  } else {
    scf.yield %c64 : index
  }
  "test.use"(%end, %rows) : (index, index) -> ()
  return
}

// -----

func.func @unsigned_from_argument(%start: index) attributes {grid = [1]} {
  %c8 = arith.constant 8 : index
  %c1 = arith.constant 1 : index
  // expected-error @+1 {{scf.while is supported as a counted loop only (see ktdf-uplift-while): an unsigned (ult) condition needs a start and a bound known not to be negative}}
  %end = scf.while (%i = %start) : (index) -> index {
    %more = arith.cmpi ult, %i, %c8 : index
    scf.condition(%more) %i : index
  } do {
  ^bb0(%j: index):
    %next = arith.addi %j, %c1 : index
    scf.yield %next : index
  }
  "test.use"(%end) : (index) -> ()
  return
}

// -----

// An if whose branches compute the tensors a loop carries: its results
// leave the block, so its users cannot move into its branches.
func.func @carried_result(%a: index) attributes {grid = [2]} {
  %pid = ktdp.get_compute_tile_id : index
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %zeros = arith.constant dense<0.0> : tensor<1x64xf16>
  %ones = arith.constant dense<1.0> : tensor<1x64xf16>
  %first = arith.cmpi eq, %pid, %c0 : index
  %sum = scf.for %i = %c0 to %c4 step %c1 iter_args(%acc = %zeros) -> (tensor<1x64xf16>) {
    // expected-error @+1 {{scf.if with results is supported only when its branches yield values defined outside it or scalars computed from them (it becomes arith.select), or when every user of its results can move into both branches (see ktdf-lower-if)}}
    %next = scf.if %first -> (tensor<1x64xf16>) {
      %p = arith.addf %acc, %ones : tensor<1x64xf16>
      scf.yield %p : tensor<1x64xf16>
    } else {
      %m = arith.subf %acc, %ones : tensor<1x64xf16>
      scf.yield %m : tensor<1x64xf16>
    }
    scf.yield %next : tensor<1x64xf16>
  }
  "test.use"(%sum) : (tensor<1x64xf16>) -> ()
  return
}

// -----

// An unsigned loop from a plain argument, which may be negative (from -2
// to 3 it runs no trip, compared signed five); from a tile id to a
// runtime_arg it is the signed loop (ktdf-uplift-while drops the flag).
func.func @unsigned_for(%lo: index, %n_arg: !ktdp.runtime_arg<index>) attributes {grid = [2]} {
  %id = ktdp.get_compute_tile_id : index
  %n = ktdp.runtime_arg_extract value from %n_arg : !ktdp.runtime_arg<index> -> index
  %c8 = arith.constant 8 : index
  %c1 = arith.constant 1 : index
  scf.for unsigned %i = %id to %n step %c1 {
    "test.use"(%i) : (index) -> ()
  }
  // expected-error @+1 {{an unsigned (scf.for unsigned) loop needs a lower and an upper bound known not to be negative}}
  scf.for unsigned %i = %lo to %c8 step %c1 {
    "test.use"(%i) : (index) -> ()
  }
  return
}
