// RUN: ktflow-opt %s --ktdf-import-target --ktdf-legalize-unit-types -split-input-file -verify-diagnostics

// The float arithmetic of linalg.generic bodies is what the lane's vector
// unit computes: an operation on an element type the unit has no rate for,
// and that is not computed in f32 instead (legalize-bf16.mlir), is refused
// at the operation, with the unit and the types it computes.
// spyre_like's SFP computes f16 and f32; f16_vector_device's only f16.

// An f32 operation on a unit with f16 lanes only: a wider type than the
// unit computes is not legalized (legalize-bf16.mlir: a narrower one is).
#id = affine_map<(d0) -> (d0)>
module {
  ktdf_arch.target @f16_vector_device from "../../../../EndToEnd/Inputs/f16_vector_device.mlir" memory_map #ktdf_arch.map<"global" = "DDR", "ct_local" = "LX">
  func.func @f32_add(%x: tensor<64xf32>, %y: tensor<64xf32>) -> tensor<64xf32> attributes {grid = [1]} {
    %e = tensor.empty() : tensor<64xf32>
    %z = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel"]} ins(%x, %y : tensor<64xf32>, tensor<64xf32>) outs(%e : tensor<64xf32>) {
    ^bb0(%a: f32, %b: f32, %o: f32):
      // expected-error @+1 {{the vector unit 'core/corelet/SFP' of device 'f16_vector_device' cannot compute arith.addf (elementwise) on f32: it computes elementwise operations on f16}}
      %s = arith.addf %a, %b : f32
      linalg.yield %s : f32
    } -> tensor<64xf32>
    return %z : tensor<64xf32>
  }
}

// -----

// f16 arithmetic and integer mask arithmetic are accepted on spyre_like.
#id = affine_map<(d0) -> (d0)>
module {
  ktdf_arch.target @spyre_like from "../../../../../examples/devices/spyre_like.mlir" memory_map #ktdf_arch.map<"global" = "DDR", "ct_local" = "LX">
  func.func @f16_masked(%x: tensor<64xf16>) -> tensor<64xf16> attributes {grid = [1]} {
    %e = tensor.empty() : tensor<64xf16>
    %c32 = arith.constant 32 : index
    %zero = arith.constant 0.0 : f16
    %z = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%x : tensor<64xf16>) outs(%e : tensor<64xf16>) {
    ^bb0(%a: f16, %o: f16):
      %i = linalg.index 0 : index
      %in = arith.cmpi slt, %i, %c32 : index
      %d = arith.addf %a, %a : f16
      %s = arith.select %in, %d, %zero : f16
      linalg.yield %s : f16
    } -> tensor<64xf16>
    return %z : tensor<64xf16>
  }
}

// -----

// A transcendental function on f32 on a unit with f16 lanes only.
#id = affine_map<(d0) -> (d0)>
module {
  ktdf_arch.target @f16_vector_device from "../../../../EndToEnd/Inputs/f16_vector_device.mlir" memory_map #ktdf_arch.map<"global" = "DDR", "ct_local" = "LX">
  func.func @f32_exp(%x: tensor<64xf32>) -> tensor<64xf32> attributes {grid = [1]} {
    %e = tensor.empty() : tensor<64xf32>
    %z = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%x : tensor<64xf32>) outs(%e : tensor<64xf32>) {
    ^bb0(%a: f32, %o: f32):
      // expected-error @+1 {{the vector unit 'core/corelet/SFP' of device 'f16_vector_device' cannot compute math.exp (transcendental) on f32: it computes transcendental operations on f16}}
      %s = math.exp %a : f32
      linalg.yield %s : f32
    } -> tensor<64xf32>
    return %z : tensor<64xf32>
  }
}

// -----

// An operation folding into a reduction's accumulator is charged at the
// unit's reduction rate.
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
module {
  ktdf_arch.target @f16_vector_device from "../../../../EndToEnd/Inputs/f16_vector_device.mlir" memory_map #ktdf_arch.map<"global" = "DDR", "ct_local" = "LX">
  func.func @f32_row_sum(%x: tensor<4x64xf32>, %init: tensor<4xf32>) -> tensor<4xf32> attributes {grid = [1]} {
    %z = linalg.generic {indexing_maps = [#id2, #row], iterator_types = ["parallel", "reduction"]} ins(%x : tensor<4x64xf32>) outs(%init : tensor<4xf32>) {
    ^bb0(%a: f32, %acc: f32):
      // expected-error @+1 {{cannot compute arith.addf (reduction) on f32: it computes reduction operations on f16}}
      %s = arith.addf %a, %acc : f32
      linalg.yield %s : f32
    } -> tensor<4xf32>
    return %z : tensor<4xf32>
  }
}
