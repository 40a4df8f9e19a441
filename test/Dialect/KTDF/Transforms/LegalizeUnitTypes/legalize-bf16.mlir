// RUN: ktflow-opt %s --ktdf-import-target --ktdf-legalize-unit-types -split-input-file | FileCheck %s

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

// -----

// A reduction into a bf16 accumulator accumulates in f32, as the reference
// interpreter and the simulator keep a 16-bit accumulator inside a
// reduction: the initial value is extended before, the result rounded to
// bf16 after (a linalg.generic each), and the operations reading the
// accumulator compute in f32 without rounding; the others are widened one
// by one as above.
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
module {
  ktdf_arch.target @spyre_like from "../../../../../examples/devices/spyre_like.mlir" memory_map #ktdf_arch.map<"global" = "DDR", "ct_local" = "LX">
  // CHECK-LABEL: func.func @bf16_row_sum_of_squares
  // CHECK-SAME: (%[[X:.+]]: tensor<4x64xbf16>, %[[INIT:.+]]: tensor<4xbf16>)
  func.func @bf16_row_sum_of_squares(%x: tensor<4x64xbf16>, %init: tensor<4xbf16>) -> tensor<4xbf16> attributes {grid = [1]} {
    // CHECK: %[[E:.+]] = tensor.empty() : tensor<4xf32>
    // CHECK: %[[WINIT:.+]] = linalg.generic {{.+}} ins(%[[INIT]] : tensor<4xbf16>) outs(%[[E]] : tensor<4xf32>)
    // CHECK-NEXT: ^bb0(%[[I:.+]]: bf16, %{{.+}}: f32):
    // CHECK-NEXT: %[[WI:.+]] = arith.extf %[[I]] : bf16 to f32
    // CHECK-NEXT: linalg.yield %[[WI]] : f32
    // CHECK: %[[SUM:.+]] = linalg.generic {{.+}} iterator_types = ["parallel", "reduction"]} ins(%[[X]] : tensor<4x64xbf16>) outs(%[[WINIT]] : tensor<4xf32>)
    // CHECK-NEXT: ^bb0(%[[A:.+]]: bf16, %[[ACC:.+]]: f32):
    // CHECK-NEXT: %[[WA:.+]] = arith.extf %[[A]] : bf16 to f32
    // CHECK-NEXT: %[[SQ:.+]] = arith.mulf %[[WA]], %[[WA]] : f32
    // CHECK-NEXT: %[[NSQ:.+]] = arith.truncf %[[SQ]] : f32 to bf16
    // CHECK-NEXT: %[[WSQ:.+]] = arith.extf %[[NSQ]] : bf16 to f32
    // CHECK-NEXT: %[[S:.+]] = arith.addf %[[WSQ]], %[[ACC]] : f32
    // CHECK-NEXT: linalg.yield %[[S]] : f32
    // CHECK: -> tensor<4xf32>
    // CHECK: %[[E2:.+]] = tensor.empty() : tensor<4xbf16>
    // CHECK: %[[R:.+]] = linalg.generic {{.+}} ins(%[[SUM]] : tensor<4xf32>) outs(%[[E2]] : tensor<4xbf16>)
    // CHECK-NEXT: ^bb0(%[[V:.+]]: f32, %{{.+}}: bf16):
    // CHECK-NEXT: %[[NV:.+]] = arith.truncf %[[V]] : f32 to bf16
    // CHECK-NEXT: linalg.yield %[[NV]] : bf16
    // CHECK: return %[[R]]
    %z = linalg.generic {indexing_maps = [#id2, #row], iterator_types = ["parallel", "reduction"]} ins(%x : tensor<4x64xbf16>) outs(%init : tensor<4xbf16>) {
    ^bb0(%a: bf16, %acc: bf16):
      %sq = arith.mulf %a, %a : bf16
      %s = arith.addf %sq, %acc : bf16
      linalg.yield %s : bf16
    } -> tensor<4xbf16>
    return %z : tensor<4xbf16>
  }
}

// -----

// A reduction whose yield does not depend on its accumulator (the last
// element) is left alone: its accumulator cannot become f32 (the lowering
// refuses it as no combining reduction).
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
module {
  ktdf_arch.target @spyre_like from "../../../../../examples/devices/spyre_like.mlir" memory_map #ktdf_arch.map<"global" = "DDR", "ct_local" = "LX">
  // CHECK-LABEL: func.func @bf16_last
  // CHECK: linalg.generic {{.+}} outs(%{{.+}} : tensor<4xbf16>)
  // CHECK-NEXT: ^bb0(%[[A:.+]]: bf16, %{{.+}}: bf16):
  // CHECK-NEXT: linalg.yield %[[A]] : bf16
  func.func @bf16_last(%x: tensor<4x64xbf16>, %init: tensor<4xbf16>) -> tensor<4xbf16> attributes {grid = [1]} {
    %z = linalg.generic {indexing_maps = [#id2, #row], iterator_types = ["parallel", "reduction"]} ins(%x : tensor<4x64xbf16>) outs(%init : tensor<4xbf16>) {
    ^bb0(%a: bf16, %acc: bf16):
      linalg.yield %a : bf16
    } -> tensor<4xbf16>
    return %z : tensor<4xbf16>
  }
}

// -----

// A bf16 value read both by the accumulating operations and by an
// element-wise one is extended once for both: the two steps share the
// extensions they make.
#id = affine_map<(d0) -> (d0)>
#all = affine_map<(d0) -> ()>
module {
  ktdf_arch.target @spyre_like from "../../../../../examples/devices/spyre_like.mlir" memory_map #ktdf_arch.map<"global" = "DDR", "ct_local" = "LX">
  // CHECK-LABEL: func.func @bf16_extended_once
  // CHECK: iterator_types = ["reduction"]
  // CHECK-NEXT: ^bb0(%[[A:.+]]: bf16, %[[ACC:.+]]: f32):
  // CHECK-NEXT: %[[WA:.+]] = arith.extf %[[A]] : bf16 to f32
  // CHECK-NEXT: %[[SQ:.+]] = arith.mulf %[[WA]], %[[WA]] : f32
  // CHECK-NEXT: %[[NSQ:.+]] = arith.truncf %[[SQ]] : f32 to bf16
  // CHECK-NEXT: %[[WSQ:.+]] = arith.extf %[[NSQ]] : bf16 to f32
  // CHECK-NEXT: %[[S:.+]] = arith.addf %[[ACC]], %[[WA]] : f32
  // CHECK-NEXT: %[[T:.+]] = arith.addf %[[S]], %[[WSQ]] : f32
  // CHECK-NEXT: linalg.yield %[[T]] : f32
  func.func @bf16_extended_once(%x: tensor<64xbf16>, %init: tensor<bf16>) -> tensor<bf16> attributes {grid = [1]} {
    %z = linalg.generic {indexing_maps = [#id, #all], iterator_types = ["reduction"]} ins(%x : tensor<64xbf16>) outs(%init : tensor<bf16>) {
    ^bb0(%a: bf16, %acc: bf16):
      %sq = arith.mulf %a, %a : bf16
      %s = arith.addf %acc, %a : bf16
      %t = arith.addf %s, %sq : bf16
      linalg.yield %t : bf16
    } -> tensor<bf16>
    return %z : tensor<bf16>
  }
}
