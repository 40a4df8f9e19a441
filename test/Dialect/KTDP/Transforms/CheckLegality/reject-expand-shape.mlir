// RUN: ktflow-opt %s --ktir-check-legality -split-input-file -verify-diagnostics

// A tensor.expand_shape's static output_shape must agree with its result
// type (the op's verifier does not compare them): a kernel whose shapes
// were rewritten without its output_shape list (2x9x5 pages gathered, the
// list still that of 2x64x32) is refused at the op.

func.func @stale_output_shape(%x: tensor<2x9x5xf16>) -> tensor<1x2x9x5xf16> {
  // expected-error @+1 {{'tensor.expand_shape' op output_shape gives dimension 2 size 64, its result type 'tensor<1x2x9x5xf16>' gives it 9}}
  %y = tensor.expand_shape %x [[0, 1], [2], [3]] output_shape [1, 2, 64, 32] : tensor<2x9x5xf16> into tensor<1x2x9x5xf16>
  return %y : tensor<1x2x9x5xf16>
}

// -----

// Agreeing shapes, and a dynamic size, pass.
func.func @agreeing(%x: tensor<2x9x5xf16>, %n: index, %d: tensor<?x5xf16>) -> (tensor<1x2x9x5xf16>, tensor<1x?x5xf16>) {
  %y = tensor.expand_shape %x [[0, 1], [2], [3]] output_shape [1, 2, 9, 5] : tensor<2x9x5xf16> into tensor<1x2x9x5xf16>
  %z = tensor.expand_shape %d [[0, 1], [2]] output_shape [1, %n, 5] : tensor<?x5xf16> into tensor<1x?x5xf16>
  return %y, %z : tensor<1x2x9x5xf16>, tensor<1x?x5xf16>
}
