// RUN: ktflow-opt %s --ktdf-import-target --ktdf-generalize --ktdf-legalize-unit-types -verify-diagnostics

// The parser builds a linalg named op's body without locations;
// ktdf-generalize gives its operations the named op's, so the refusal of
// linalg.add's f32 arith.addf on a unit with f16 lanes only points at the
// linalg.add, also once fused into the multiplication's body.

#id = affine_map<(d0) -> (d0)>
module {
  ktdf_arch.target @f16_vector_device from "../../../../EndToEnd/Inputs/f16_vector_device.mlir" memory_map #ktdf_arch.map<"global" = "DDR", "ct_local" = "LX">
  func.func @f32_add(%x: tensor<64xf32>, %y: tensor<64xf32>) -> tensor<64xf32> attributes {grid = [1]} {
    %e = tensor.empty() : tensor<64xf32>
    // expected-error @+1 {{the vector unit 'core/corelet/SFP' of device 'f16_vector_device' cannot compute arith.addf (elementwise) on f32}}
    %z = linalg.add ins(%x, %y : tensor<64xf32>, tensor<64xf32>) outs(%e : tensor<64xf32>) -> tensor<64xf32>
    // expected-error @+1 {{cannot compute arith.mulf (elementwise) on f32}}
    %w = arith.mulf %z, %x : tensor<64xf32>
    return %w : tensor<64xf32>
  }
}
