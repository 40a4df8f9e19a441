// RUN: ktflow-opt %s --ktdf-import-target --ktdf-generalize --ktdf-check-unit-types -verify-diagnostics

// The parser builds a linalg named op's body without locations;
// ktdf-generalize gives its operations the named op's, so the refusal of
// linalg.add's bf16 arith.addf points at the linalg.add, also once fused
// into the multiplication's body.

#id = affine_map<(d0) -> (d0)>
module {
  ktdf_arch.target @spyre_like from "../../../../../examples/devices/spyre_like.mlir" memory_map #ktdf_arch.map<"global" = "DDR", "ct_local" = "LX">
  func.func @bf16_add(%x: tensor<64xbf16>, %y: tensor<64xbf16>) -> tensor<64xbf16> attributes {grid = [1]} {
    %e = tensor.empty() : tensor<64xbf16>
    // expected-error @+1 {{the vector unit 'core/corelet/SFP' of device 'spyre_like' cannot compute arith.addf (elementwise) on bf16}}
    %z = linalg.add ins(%x, %y : tensor<64xbf16>, tensor<64xbf16>) outs(%e : tensor<64xbf16>) -> tensor<64xbf16>
    // expected-error @+1 {{cannot compute arith.mulf (elementwise) on bf16}}
    %w = arith.mulf %z, %x : tensor<64xbf16>
    return %w : tensor<64xbf16>
  }
}
