// RUN: ktflow-opt %s -canonicalize | FileCheck %s

// The tiling helpers fold once their operands are constants.

// CHECK-LABEL: func.func @derive_size
func.func @derive_size() -> (index, index) {
  %c64 = arith.constant 64 : index
  %c100 = arith.constant 100 : index
  %c0 = arith.constant 0 : index
  // A full tile and the 36-element remainder of a 100-element loop.
  // CHECK-DAG: %[[C64:.*]] = arith.constant 64 : index
  // CHECK-DAG: %[[C36:.*]] = arith.constant 36 : index
  // CHECK: return %[[C64]], %[[C36]]
  %a = ktdf.tiling.derive_size %c64 at %c0 extent %c100
  %b = ktdf.tiling.derive_size %c64 at %c64 extent %c100
  return %a, %b : index, index
}

// CHECK-LABEL: func.func @derive_size_dynamic
func.func @derive_size_dynamic(%iv: index) -> index {
  %c64 = arith.constant 64 : index
  %c100 = arith.constant 100 : index
  // CHECK: ktdf.tiling.derive_size
  %a = ktdf.tiling.derive_size %c64 at %iv extent %c100
  return %a : index
}

// CHECK-LABEL: func.func @linearize
func.func @linearize(%inner: index, %ts: index) -> (index, index) {
  %c0 = arith.constant 0 : index
  %c3 = arith.constant 3 : index
  %c5 = arith.constant 5 : index
  %c64 = arith.constant 64 : index
  // Tile 0 is the inner index itself; tile 3, element 5 of 64 is 197.
  // CHECK-DAG: %[[C197:.*]] = arith.constant 197 : index
  // CHECK: return %{{.*}}, %[[C197]]
  %a = ktdf.tiling.linearize_index %c0, %inner by %ts
  %b = ktdf.tiling.linearize_index %c3, %c5 by %c64
  return %a, %b : index, index
}
