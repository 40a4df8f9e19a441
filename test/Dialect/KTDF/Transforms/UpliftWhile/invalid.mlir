// RUN: ktflow-opt %s --ktdf-uplift-while -split-input-file -verify-diagnostics

// A while loop that does not count is refused at the loop, saying what it
// lacks.

func.func @unsigned_from_argument(%start: index) attributes {grid = [1]} {
  %c8 = arith.constant 8 : index
  %c1 = arith.constant 1 : index
  // expected-error @+1 {{scf.while is supported as a counted loop only: an unsigned (ult) condition needs a start and a bound known not to be negative}}
  %end = scf.while (%i = %start) : (index) -> index {
    %more = arith.cmpi ult, %i, %c8 : index
    scf.condition(%more) %i : index
  } do {
  ^bb0(%j: index):
    %next = arith.addi %j, %c1 : index
    scf.yield %next : index
  }
  return
}

// -----

func.func @counting_down() attributes {grid = [1]} {
  %c0 = arith.constant 0 : index
  %c8 = arith.constant 8 : index
  %m1 = arith.constant -1 : index
  // expected-error @+1 {{scf.while is supported as a counted loop only: its body must add a positive constant or runtime argument to the carried index}}
  %end = scf.while (%i = %c0) : (index) -> index {
    %more = arith.cmpi slt, %i, %c8 : index
    scf.condition(%more) %i : index
  } do {
  ^bb0(%j: index):
    %next = arith.addi %j, %m1 : index
    scf.yield %next : index
  }
  return
}

// -----

func.func @not_equal() attributes {grid = [1]} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  // expected-error @+1 {{scf.while is supported as a counted loop only: its condition must be `slt` or `ult`}}
  %end = scf.while (%i = %c0) : (index) -> index {
    %more = arith.cmpi ne, %i, %c8 : index
    scf.condition(%more) %i : index
  } do {
  ^bb0(%j: index):
    %next = arith.addi %j, %c1 : index
    scf.yield %next : index
  }
  return
}

// -----

func.func @computed_condition(%c: i1) attributes {grid = [1]} {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{scf.while is supported as a counted loop only: its condition must be one arith.cmpi of the carried index with a bound defined outside the loop}}
  %end = scf.while (%i = %c0) : (index) -> index {
    scf.condition(%c) %i : index
  } do {
  ^bb0(%j: index):
    scf.yield %j : index
  }
  return
}
