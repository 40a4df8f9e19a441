// RUN: ktflow-opt %s --ktdf-carry-in-scratchpad -split-input-file -verify-diagnostics

// Only statically shaped tensors can be kept in the scratchpad.

func.func @scalar(%n: index) -> f16 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %one = arith.constant 1.0 : f16
  // expected-error @+1 {{this one carries a scalar}}
  %s = scf.for %i = %c0 to %n step %c1 iter_args(%a = %one) -> f16 {
    %a2 = arith.addf %a, %one : f16
    scf.yield %a2 : f16
  }
  return %s : f16
}

// -----

func.func @rank0(%n: index, %t: tensor<f16>) -> tensor<f16> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // expected-error @+1 {{this one carries a tensor of another shape}}
  %s = scf.for %i = %c0 to %n step %c1 iter_args(%a = %t) -> tensor<f16> {
    %a2 = arith.addf %a, %a : tensor<f16>
    scf.yield %a2 : tensor<f16>
  }
  return %s : tensor<f16>
}
