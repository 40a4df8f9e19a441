// RUN: ktflow-opt %s --ktdf-import-target --ktdf-legalize-unit-types -split-input-file -verify-diagnostics

// An operation of a linalg.generic body that no compute unit has an
// instruction for (ScalarInstruction.h) is refused here, before
// scheduling, at the operation: it used to reach the bundle emitter and
// fail there as "not supported in a dfir.map body".

// math.powf by a run-time exponent: only 2.0 and 1.0 are computed
// (powf-exact.mlir).
#id = affine_map<(d0) -> (d0)>
module {
  ktdf_arch.target @spyre_like from "../../../../../examples/devices/spyre_like.mlir" memory_map #ktdf_arch.map<"global" = "DDR", "ct_local" = "LX">
  func.func @powf_runtime(%x: tensor<64xf32>, %p: f32) -> tensor<64xf32> attributes {grid = [1]} {
    %e = tensor.empty() : tensor<64xf32>
    %z = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%x : tensor<64xf32>) outs(%e : tensor<64xf32>) {
    ^bb0(%a: f32, %o: f32):
      // expected-error @+1 {{no compute unit of device 'spyre_like' computes math.powf (its vector unit 'core/corelet/SFP' has no instruction for it); math.powf is computed only by the constant exponents 2.0 (as x * x), -1.0 (as 1 / x), 1.0 and 0.0, where it is exact: other exponents would be exp(y * log(x)), which is not exact against the reference's pow in double}}
      %s = math.powf %a, %p : f32
      linalg.yield %s : f32
    } -> tensor<64xf32>
    return %z : tensor<64xf32>
  }
}

// -----

// math.exp2 on a unit that computes math.exp on its type.
#id = affine_map<(d0) -> (d0)>
module {
  ktdf_arch.target @mesh_device from "../../../../../examples/devices/mesh_device.mlir" memory_map #ktdf_arch.map<"global" = "HBM", "ct_local" = "SPM">
  func.func @exp2(%x: tensor<64xf32>) -> tensor<64xf32> attributes {grid = [1]} {
    %e = tensor.empty() : tensor<64xf32>
    %z = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%x : tensor<64xf32>) outs(%e : tensor<64xf32>) {
    ^bb0(%a: f32, %o: f32):
      // expected-error @+1 {{no compute unit of device 'mesh_device' computes math.exp2 (its vector unit 'tile/VPU' has no instruction for it); write exp2(x) as math.exp(x * 0.6931471805599453) (x times ln 2), which the unit computes}}
      %s = math.exp2 %a : f32
      linalg.yield %s : f32
    } -> tensor<64xf32>
    return %z : tensor<64xf32>
  }
}

// -----

// An i32 shift on sample_device, whose SFU computes i32 add, multiply and
// mask but has no shift.
#id = affine_map<(d0) -> (d0)>
module {
  ktdf_arch.target @sample_device from "../../../../../examples/devices/sample_device.mlir" memory_map #ktdf_arch.map<"global" = "DDR", "ct_local" = "L1">
  func.func @shrsi(%x: tensor<64xi32>) -> tensor<64xi32> attributes {grid = [1]} {
    %e = tensor.empty() : tensor<64xi32>
    %c2 = arith.constant 2 : i32
    %z = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%x : tensor<64xi32>) outs(%e : tensor<64xi32>) {
    ^bb0(%a: i32, %o: i32):
      %m = arith.muli %a, %a : i32
      // expected-error @+1 {{no compute unit of device 'sample_device' computes arith.shrsi (its vector unit 'core/subcore[0]/SFU_Block/SFU' has no instruction for it)}}
      %s = arith.shrsi %m, %c2 : i32
      linalg.yield %s : i32
    } -> tensor<64xi32>
    return %z : tensor<64xi32>
  }
}

// -----

// math.powf by a constant other than 2.0 or 1.0 stays refused: 3.0 as
// x * x * x would round twice.
#id = affine_map<(d0) -> (d0)>
module {
  ktdf_arch.target @spyre_like from "../../../../../examples/devices/spyre_like.mlir" memory_map #ktdf_arch.map<"global" = "DDR", "ct_local" = "LX">
  func.func @powf_cube(%x: tensor<64xf16>) -> tensor<64xf16> attributes {grid = [1]} {
    %e = tensor.empty() : tensor<64xf16>
    %three = arith.constant 3.0 : f16
    %z = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%x : tensor<64xf16>) outs(%e : tensor<64xf16>) {
    ^bb0(%a: f16, %o: f16):
      // expected-error @+1 {{no compute unit of device 'spyre_like' computes math.powf}}
      %s = math.powf %a, %three : f16
      linalg.yield %s : f16
    } -> tensor<64xf16>
    return %z : tensor<64xf16>
  }
}
