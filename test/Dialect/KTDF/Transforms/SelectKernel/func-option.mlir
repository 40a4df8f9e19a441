// RUN: ktflow-opt %s --ktdf-select-kernel=func=second | FileCheck %s
// RUN: not ktflow-opt %s --ktdf-select-kernel=func=nosuch 2>&1 | FileCheck %s --check-prefix=NOSUCH

// With func=NAME (`--func` of ktflow compile and run), that function is the
// kernel among several and the others go.

// CHECK-NOT: @first
// CHECK: func.func @second(%{{.*}}: index) attributes {grid = [16]}
// CHECK-NOT: @first
func.func @first(%x: index) attributes {grid = [4]} {
  return
}
func.func @second(%x: index) attributes {grid = [16]} {
  return
}

// NOSUCH: error: no function @nosuch with a body in the module
