// RUN: ktflow-opt %s | ktflow-opt | FileCheck %s

// runtime_arg_extract of the value, the granularity and the upperbound; the
// attr-dict sits after the input type; both type spellings parse.

// CHECK-LABEL: func.func @extract
// CHECK-SAME: (%[[A:.+]]: !ktdp.runtime_arg<index, granularity=3, upperbound=300>, %[[B:.+]]: !ktdp.runtime_arg<i32, upperbound=7>)
func.func @extract(%a: !ktdp.runtime_arg<index, granularity=3, upperbound=300>,
                   %b: !ktdp.runtime_arg<i32, upperbound=7>) {
  // CHECK: ktdp.runtime_arg_extract value from %[[A]] : <index, granularity=3, upperbound=300> -> index
  %0 = ktdp.runtime_arg_extract value from %a : !ktdp.runtime_arg<index, granularity=3, upperbound=300> -> index
  // CHECK: ktdp.runtime_arg_extract granularity from %[[A]] : <index, granularity=3, upperbound=300> -> index
  %1 = ktdp.runtime_arg_extract granularity from %a : <index, upperbound=300, granularity=3> -> index
  // CHECK: ktdp.runtime_arg_extract upperbound from %[[A]] : <index, granularity=3, upperbound=300> -> index
  %2 = ktdp.runtime_arg_extract upperbound from %a : !ktdp.runtime_arg<index, granularity=3, upperbound=300> -> index
  // CHECK: ktdp.runtime_arg_extract value from %[[B]] : <i32, upperbound=7> -> i32
  %3 = ktdp.runtime_arg_extract value from %b : !ktdp.runtime_arg<i32, upperbound=7> -> i32
  // CHECK: ktdp.runtime_arg_extract upperbound from %[[B]] : <i32, upperbound=7> {note = "max"} -> index
  %4 = ktdp.runtime_arg_extract upperbound from %b : !ktdp.runtime_arg<i32, upperbound=7> {note = "max"} -> index
  return
}
