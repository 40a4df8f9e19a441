// RUN: ktflow-opt %s --ktdf-import-target --ktdf-check-unit-types -split-input-file | FileCheck %s

// No shipped vector unit has bf16 lanes: each bf16 operation of a
// linalg.generic body that the unit computes on f32 is computed in f32, its
// bf16 operands extended (bf16 constants rebuilt in f32) and its result
// rounded back to bf16, so every result is rounded as the kernel says. The
// rounding truncf is charged at f32 (ChargedType.h) and is accepted.

#id = affine_map<(d0) -> (d0)>
module {
  ktdf_arch.target @spyre_like from "../../../../../examples/devices/spyre_like.mlir" memory_map #ktdf_arch.map<"global" = "DDR", "ct_local" = "LX">
  // CHECK-LABEL: func.func @bf16_ops
  func.func @bf16_ops(%x: tensor<64xbf16>, %y: tensor<64xbf16>) -> tensor<64xbf16> attributes {grid = [1]} {
    %e = tensor.empty() : tensor<64xbf16>
    %half = arith.constant 0.5 : bf16
    // Each value is extended once, after its definition, for all its users.
    // CHECK: ^bb0(%[[A:.+]]: bf16, %[[B:.+]]: bf16, %{{.+}}: bf16):
    // CHECK-NEXT: %[[HALF:.+]] = arith.constant 5.000000e-01 : f32
    // CHECK-NEXT: %[[WB:.+]] = arith.extf %[[B]] : bf16 to f32
    // CHECK-NEXT: %[[WA:.+]] = arith.extf %[[A]] : bf16 to f32
    // CHECK-NEXT: %[[S:.+]] = arith.addf %[[WA]], %[[WB]] : f32
    // CHECK-NEXT: %[[NS:.+]] = arith.truncf %[[S]] : f32 to bf16
    // CHECK-NEXT: %[[WS:.+]] = arith.extf %[[NS]] : bf16 to f32
    // CHECK-NEXT: %[[M:.+]] = arith.mulf %[[WS]], %[[HALF]] : f32
    // CHECK-NEXT: %[[NM:.+]] = arith.truncf %[[M]] : f32 to bf16
    // CHECK-NEXT: %[[WM:.+]] = arith.extf %[[NM]] : bf16 to f32
    // CHECK-NEXT: %[[EX:.+]] = math.exp %[[WM]] : f32
    // CHECK-NEXT: %[[NEX:.+]] = arith.truncf %[[EX]] : f32 to bf16
    // CHECK-NEXT: %[[WEX:.+]] = arith.extf %[[NEX]] : bf16 to f32
    // CHECK-NEXT: %[[GT:.+]] = arith.cmpf ogt, %[[WEX]], %[[WA]] : f32
    // CHECK-NEXT: %[[SEL:.+]] = arith.select %[[GT]], %[[WEX]], %[[WA]] : f32
    // CHECK-NEXT: %[[NSEL:.+]] = arith.truncf %[[SEL]] : f32 to bf16
    // CHECK-NEXT: linalg.yield %[[NSEL]] : bf16
    %z = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel"]} ins(%x, %y : tensor<64xbf16>, tensor<64xbf16>) outs(%e : tensor<64xbf16>) {
    ^bb0(%a: bf16, %b: bf16, %o: bf16):
      %s = arith.addf %a, %b : bf16
      %m = arith.mulf %s, %half : bf16
      %ex = math.exp %m : bf16
      %gt = arith.cmpf ogt, %ex, %a : bf16
      %sel = arith.select %gt, %ex, %a : bf16
      linalg.yield %sel : bf16
    } -> tensor<64xbf16>
    return %z : tensor<64xbf16>
  }
}

// -----

// bf16 computed in f32 as written is left alone: the extension is charged
// at f32, its result type, the rounding back at f32 on a unit without bf16
// lanes. f16 arithmetic, which the SFP has lanes for, is not widened.
#id = affine_map<(d0) -> (d0)>
module {
  ktdf_arch.target @spyre_like from "../../../../../examples/devices/spyre_like.mlir" memory_map #ktdf_arch.map<"global" = "DDR", "ct_local" = "LX">
  // CHECK-LABEL: func.func @bf16_round
  func.func @bf16_round(%x: tensor<64xbf16>, %h: tensor<64xf16>) -> (tensor<64xbf16>, tensor<64xf16>) attributes {grid = [1]} {
    %e = tensor.empty() : tensor<64xbf16>
    %eh = tensor.empty() : tensor<64xf16>
    // CHECK: ^bb0(%[[A:.+]]: bf16, %{{.+}}: bf16):
    // CHECK-NEXT: %[[W:.+]] = arith.extf %[[A]] : bf16 to f32
    // CHECK-NEXT: %[[S:.+]] = math.exp %[[W]] : f32
    // CHECK-NEXT: %[[N:.+]] = arith.truncf %[[S]] : f32 to bf16
    // CHECK-NEXT: linalg.yield %[[N]] : bf16
    %z = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%x : tensor<64xbf16>) outs(%e : tensor<64xbf16>) {
    ^bb0(%a: bf16, %o: bf16):
      %w = arith.extf %a : bf16 to f32
      %s = math.exp %w : f32
      %n = arith.truncf %s : f32 to bf16
      linalg.yield %n : bf16
    } -> tensor<64xbf16>
    // CHECK: ^bb0(%[[C:.+]]: f16, %{{.+}}: f16):
    // CHECK-NEXT: %[[D:.+]] = arith.addf %[[C]], %[[C]] : f16
    // CHECK-NEXT: linalg.yield %[[D]] : f16
    %zh = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%h : tensor<64xf16>) outs(%eh : tensor<64xf16>) {
    ^bb0(%c: f16, %o: f16):
      %d = arith.addf %c, %c : f16
      linalg.yield %d : f16
    } -> tensor<64xf16>
    return %z, %zh : tensor<64xbf16>, tensor<64xf16>
  }
}
