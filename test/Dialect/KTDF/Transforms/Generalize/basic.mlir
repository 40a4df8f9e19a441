// RUN: ktflow-opt %s --ktdf-generalize | FileCheck %s

// Element-wise arith on tensors and named linalg ops become linalg.generic;
// element-wise producers fuse into their consumers: the broadcast of v and
// the f16 add end up in one generic reading x with the identity map and v
// with the column map.

// CHECK-DAG: #[[ID:.*]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-DAG: #[[COL:.*]] = affine_map<(d0, d1) -> (d1)>
// CHECK-LABEL: func.func @bias
// CHECK: %[[R:.*]] = linalg.generic {indexing_maps = [#[[ID]], #[[COL]], #[[ID]]], iterator_types = ["parallel", "parallel"]} ins(%arg0, %arg1 : tensor<4x64xf16>, tensor<64xf16>)
// CHECK: arith.addf
// CHECK-NOT: linalg.broadcast
// CHECK-NOT: linalg.generic
// CHECK: return %[[R]]
func.func @bias(%x: tensor<4x64xf16>, %v: tensor<64xf16>) -> tensor<4x64xf16> {
  %e = tensor.empty() : tensor<4x64xf16>
  %vb = linalg.broadcast ins(%v : tensor<64xf16>) outs(%e : tensor<4x64xf16>) dimensions = [0]
  %y = arith.addf %x, %vb : tensor<4x64xf16>
  return %y : tensor<4x64xf16>
}

// CHECK-LABEL: func.func @reduce
// CHECK: linalg.generic {{.*}}iterator_types = ["parallel"]
// CHECK: linalg.generic {{.*}}iterator_types = ["parallel", "reduction"]
// CHECK: arith.maximumf
func.func @reduce(%x: tensor<2x128xf32>) -> tensor<2xf32> {
  %ninf = arith.constant 0xFF800000 : f32
  %e = tensor.empty() : tensor<2xf32>
  %init = linalg.fill ins(%ninf : f32) outs(%e : tensor<2xf32>) -> tensor<2xf32>
  %m = linalg.reduce ins(%x : tensor<2x128xf32>) outs(%init : tensor<2xf32>) dimensions = [1]
    (%in: f32, %acc: f32) {
      %r = arith.maximumf %in, %acc : f32
      linalg.yield %r : f32
    }
  return %m : tensor<2xf32>
}
