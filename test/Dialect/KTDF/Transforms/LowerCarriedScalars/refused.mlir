// RUN: ktflow-opt %s --ktdf-lower-carried-scalars --ktdf-carry-in-scratchpad -split-input-file -verify-diagnostics --allow-unregistered-dialect

// What ktdf-lower-carried-scalars leaves carried over a run-time trip count
// is refused at the loop: an integer whose update is not the same
// loop-invariant amount each trip (doubled here) ...

func.func @doubled(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  // expected-error @+1 {{this one carries an integer that is not an offset to which each trip adds the same loop-invariant amount, or one whose value after the loop is used (ktdf-lower-carried-scalars derives only those from the induction variable)}}
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%x = %c1) -> (index) {
    "use"(%x) : (index) -> ()
    %next = arith.muli %x, %c2 : index
    scf.yield %next : index
  }
  return
}

// -----

// ... and an offset whose value after the loop is used (the last row a
// persistent loop visited).

func.func @used_after(%n: index, %pid: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  // expected-error @+1 {{this one carries an integer that is not an offset}}
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%row = %pid) -> (index) {
    "use"(%row) : (index) -> ()
    %next = arith.addi %row, %c16 : index
    scf.yield %next : index
  }
  "use"(%r) : (index) -> ()
  return
}
