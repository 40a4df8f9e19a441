// RUN: ktflow-opt %s --ktdf-import-target --ktdf-legalize-unit-types | FileCheck %s

// math.powf by the constant 2.0 is computed as x * x, by -1.0 as 1 / x,
// by 1.0 as x and by 0.0 as 1: the reference interpreter computes pow in
// double, where the square of a float of at most 24 significand bits is
// exact, and rounds it once, as arith.mulf does (the reciprocal: as
// arith.divf does, LegalizeUnitTypes.cpp liftExactPowers). A bf16 square is then computed in f32 like any bf16
// multiply (legalize-bf16.mlir). Other exponents are refused
// (no-instruction.mlir).

#id = affine_map<(d0) -> (d0)>
module {
  ktdf_arch.target @spyre_like from "../../../../../examples/devices/spyre_like.mlir" memory_map #ktdf_arch.map<"global" = "DDR", "ct_local" = "LX">
  // CHECK-LABEL: func.func @squares
  func.func @squares(%x: tensor<64xf32>, %y: tensor<64xbf16>) -> (tensor<64xf32>, tensor<64xbf16>) attributes {grid = [1]} {
    %e = tensor.empty() : tensor<64xf32>
    %eb = tensor.empty() : tensor<64xbf16>
    %one = arith.constant 1.0 : f32
    %two = arith.constant 2.0 : f32
    %minus_one = arith.constant -1.0 : f32
    %zero = arith.constant 0.0 : f32
    %two_b = arith.constant 2.0 : bf16
    // CHECK: ^bb0(%[[A:.+]]: f32, %{{.+}}: f32):
    // CHECK-NEXT: %[[SQ:.+]] = arith.mulf %[[A]], %[[A]] : f32
    // CHECK-NEXT: %[[R:.+]] = arith.addf %[[SQ]], %[[A]] : f32
    // CHECK-NEXT: %[[ONE:.+]] = arith.constant 1.000000e+00 : f32
    // CHECK-NEXT: %[[INV:.+]] = arith.divf %[[ONE]], %[[A]] : f32
    // CHECK-NEXT: %[[S:.+]] = arith.addf %[[R]], %[[INV]] : f32
    // CHECK-NEXT: %[[ONE0:.+]] = arith.constant 1.000000e+00 : f32
    // CHECK-NEXT: %[[T:.+]] = arith.addf %[[S]], %[[ONE0]] : f32
    // CHECK-NEXT: linalg.yield %[[T]] : f32
    %z = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%x : tensor<64xf32>) outs(%e : tensor<64xf32>) {
    ^bb0(%a: f32, %o: f32):
      %sq = math.powf %a, %two : f32
      %id = math.powf %a, %one : f32
      %r = arith.addf %sq, %id : f32
      %inv = math.powf %a, %minus_one : f32
      %s = arith.addf %r, %inv : f32
      %unit = math.powf %a, %zero : f32
      %t = arith.addf %s, %unit : f32
      linalg.yield %t : f32
    } -> tensor<64xf32>
    // CHECK: ^bb0(%[[B:.+]]: bf16, %{{.+}}: bf16):
    // CHECK-NEXT: %[[WB:.+]] = arith.extf %[[B]] : bf16 to f32
    // CHECK-NEXT: %[[SQB:.+]] = arith.mulf %[[WB]], %[[WB]] : f32
    // CHECK-NEXT: %[[NB:.+]] = arith.truncf %[[SQB]] : f32 to bf16
    // CHECK-NEXT: linalg.yield %[[NB]] : bf16
    %zb = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%y : tensor<64xbf16>) outs(%eb : tensor<64xbf16>) {
    ^bb0(%b: bf16, %o: bf16):
      %sq = math.powf %b, %two_b : bf16
      linalg.yield %sq : bf16
    } -> tensor<64xbf16>
    return %z, %zb : tensor<64xf32>, tensor<64xbf16>
  }
}
