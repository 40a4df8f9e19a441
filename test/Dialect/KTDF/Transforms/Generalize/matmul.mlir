// RUN: ktflow-opt %s --ktdf-generalize -split-input-file | FileCheck %s

// Matrix products stay named ops (every other named op is generalised),
// and a 16-bit running accumulator added to a product into a zero output
// becomes the product's output: the interpreter rounds the product once
// and adds it into its output (outs + A.B), which is the addition's value.

// CHECK-LABEL: func.func @running_f16
// CHECK-SAME: (%[[A:.*]]: tensor<32x64xf16>, %[[B:.*]]: tensor<64x64xf16>, %[[ACC:.*]]: tensor<32x64xf16>)
// CHECK: %[[P:.*]] = linalg.matmul ins(%[[A]], %[[B]] : {{.*}}) outs(%[[ACC]] : tensor<32x64xf16>)
// CHECK-NOT: linalg.generic
// CHECK: return %[[P]]
func.func @running_f16(%a: tensor<32x64xf16>, %b: tensor<64x64xf16>, %acc: tensor<32x64xf16>) -> tensor<32x64xf16> {
  %empty = tensor.empty() : tensor<32x64xf16>
  %prod = linalg.matmul ins(%a, %b : tensor<32x64xf16>, tensor<64x64xf16>) outs(%empty : tensor<32x64xf16>) -> tensor<32x64xf16>
  %next = arith.addf %acc, %prod : tensor<32x64xf16>
  return %next : tensor<32x64xf16>
}

// -----

// The product first, into dense zeros.
// CHECK-LABEL: func.func @running_zeros
// CHECK-SAME: %[[ACC:[^:]*]]: tensor<8x8xbf16>)
// CHECK: %[[P:.*]] = linalg.matmul ins({{.*}}) outs(%[[ACC]] : tensor<8x8xbf16>)
// CHECK-NOT: linalg.generic
func.func @running_zeros(%a: tensor<8x16xbf16>, %b: tensor<16x8xbf16>, %acc: tensor<8x8xbf16>) -> tensor<8x8xbf16> {
  %zero = arith.constant dense<0.0> : tensor<8x8xbf16>
  %prod = linalg.matmul ins(%a, %b : tensor<8x16xbf16>, tensor<16x8xbf16>) outs(%zero : tensor<8x8xbf16>) -> tensor<8x8xbf16>
  %next = arith.addf %prod, %acc : tensor<8x8xbf16>
  return %next : tensor<8x8xbf16>
}

// -----

// An f32 product accumulates from its output term by term, so adding a
// fresh product to a running f32 sum rounds differently: not folded.
// CHECK-LABEL: func.func @running_f32
// CHECK: linalg.matmul ins({{.*}}) outs(%{{.*}} : tensor<8x8xf32>)
// CHECK: linalg.generic
// CHECK: arith.addf
func.func @running_f32(%a: tensor<8x16xf16>, %b: tensor<16x8xf16>, %acc: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %empty = tensor.empty() : tensor<8x8xf32>
  %prod = linalg.matmul ins(%a, %b : tensor<8x16xf16>, tensor<16x8xf16>) outs(%empty : tensor<8x8xf32>) -> tensor<8x8xf32>
  %next = arith.addf %acc, %prod : tensor<8x8xf32>
  return %next : tensor<8x8xf32>
}

// -----

// A product into a non-zero output already adds into it: not folded.
// CHECK-LABEL: func.func @nonzero_output
// CHECK: %[[P:.*]] = linalg.matmul ins({{.*}}) outs(%arg2 : tensor<8x8xf16>)
// CHECK: linalg.generic
// CHECK-SAME: ins(%arg3, %[[P]]
func.func @nonzero_output(%a: tensor<8x16xf16>, %b: tensor<16x8xf16>, %c: tensor<8x8xf16>, %acc: tensor<8x8xf16>) -> tensor<8x8xf16> {
  %prod = linalg.matmul ins(%a, %b : tensor<8x16xf16>, tensor<16x8xf16>) outs(%c : tensor<8x8xf16>) -> tensor<8x8xf16>
  %next = arith.addf %acc, %prod : tensor<8x8xf16>
  return %next : tensor<8x8xf16>
}

// -----

// A product of f16 values extended to f32, into f32: the product of the
// f16 values into f32 (16-bit products are exact in f32, and the sum is
// f32 either way), which a matrix unit multiplying f16 runs.
// CHECK-LABEL: func.func @extended
// CHECK-SAME: (%[[A:[^:]*]]: tensor<8x16xf16>, %[[B:[^:]*]]: tensor<16x8xf16>
// CHECK-NOT: arith.extf
// CHECK: linalg.matmul ins(%[[A]], %[[B]] : tensor<8x16xf16>, tensor<16x8xf16>) outs(%{{.*}} : tensor<8x8xf32>)
func.func @extended(%a: tensor<8x16xf16>, %b: tensor<16x8xf16>) -> tensor<8x8xf32> {
  %ea = arith.extf %a : tensor<8x16xf16> to tensor<8x16xf32>
  %eb = arith.extf %b : tensor<16x8xf16> to tensor<16x8xf32>
  %empty = tensor.empty() : tensor<8x8xf32>
  %prod = linalg.matmul ins(%ea, %eb : tensor<8x16xf32>, tensor<16x8xf32>) outs(%empty : tensor<8x8xf32>) -> tensor<8x8xf32>
  return %prod : tensor<8x8xf32>
}

// -----

// Only one operand extended (the other computed in f32), or operands of two
// 16-bit types: left in f32.
// CHECK-LABEL: func.func @half_extended
// CHECK: linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<8x16xf32>, tensor<16x8xf32>)
// CHECK-LABEL: func.func @mixed_types
// CHECK: linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<8x16xf32>, tensor<16x8xf32>)
func.func @half_extended(%a: tensor<8x16xf16>, %b: tensor<16x8xf32>) -> tensor<8x8xf32> {
  %ea = arith.extf %a : tensor<8x16xf16> to tensor<8x16xf32>
  %empty = tensor.empty() : tensor<8x8xf32>
  %prod = linalg.matmul ins(%ea, %b : tensor<8x16xf32>, tensor<16x8xf32>) outs(%empty : tensor<8x8xf32>) -> tensor<8x8xf32>
  return %prod : tensor<8x8xf32>
}
func.func @mixed_types(%a: tensor<8x16xf16>, %b: tensor<16x8xbf16>) -> tensor<8x8xf32> {
  %ea = arith.extf %a : tensor<8x16xf16> to tensor<8x16xf32>
  %eb = arith.extf %b : tensor<16x8xbf16> to tensor<16x8xf32>
  %empty = tensor.empty() : tensor<8x8xf32>
  %prod = linalg.matmul ins(%ea, %eb : tensor<8x16xf32>, tensor<16x8xf32>) outs(%empty : tensor<8x8xf32>) -> tensor<8x8xf32>
  return %prod : tensor<8x8xf32>
}

// -----

// An f32 left operand times f16 values extended to f32, into f32 (P.V of
// an attention): the product of the f32 operand and the f16 values, which
// the unit extends as it reads them (exactly) instead of a pass writing
// f32 copies first.
// CHECK-LABEL: func.func @right_extended
// CHECK-SAME: (%[[A:[^:]*]]: tensor<8x16xf32>, %[[B:[^:]*]]: tensor<16x8xf16>
// CHECK-NOT: arith.extf
// CHECK: linalg.matmul ins(%[[A]], %[[B]] : tensor<8x16xf32>, tensor<16x8xf16>) outs(%{{.*}} : tensor<8x8xf32>)
func.func @right_extended(%a: tensor<8x16xf32>, %b: tensor<16x8xf16>) -> tensor<8x8xf32> {
  %eb = arith.extf %b : tensor<16x8xf16> to tensor<16x8xf32>
  %empty = tensor.empty() : tensor<8x8xf32>
  %prod = linalg.matmul ins(%a, %eb : tensor<8x16xf32>, tensor<16x8xf32>) outs(%empty : tensor<8x8xf32>) -> tensor<8x8xf32>
  return %prod : tensor<8x8xf32>
}
