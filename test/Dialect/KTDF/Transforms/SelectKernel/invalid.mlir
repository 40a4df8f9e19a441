// RUN: ktflow-opt %s --ktdf-select-kernel -split-input-file -verify-diagnostics

// What cannot be inlined or is not a kernel is an error where it is.

func.func private @external(%x: tensor<4xf32>) -> tensor<4xf32>
func.func @calls_external(%p: index) attributes {grid = [1]} {
  %z = arith.constant dense<0.0> : tensor<4xf32>
  // expected-error @+1 {{cannot inline the call of @external: the module has no body for it}}
  %r = func.call @external(%z) : (tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

func.func private @down(%n: index) -> index {
  %c1 = arith.constant 1 : index
  %m = arith.subi %n, %c1 : index
  // expected-error @+1 {{cannot inline the recursive call of @down}}
  %r = func.call @down(%m) : (index) -> index
  return %r : index
}
func.func @recurses(%p: index) attributes {grid = [1]} {
  %r = func.call @down(%p) : (index) -> index
  return
}

// -----

// expected-error @+1 {{the module has several kernels (@a, @b); choose one with --func}}
module {
  func.func @a(%p: index) attributes {grid = [2]} {
    return
  }
  func.func @b(%p: index) attributes {grid = [2]} {
    return
  }
}

// -----

// expected-error @+1 {{@silu cannot run as a kernel: a kernel takes start addresses and scalars and returns nothing}}
func.func @silu(%x: tensor<4xf32>) -> tensor<4xf32> {
  return %x : tensor<4xf32>
}
