// RUN: ktflow-opt %s | ktflow-opt | FileCheck %s

// access_tile and runtime_arg types round-trip; runtime_arg keywords are
// accepted in either order and print granularity first, without spaces
// around `=`.

// CHECK-LABEL: func.func @access_tiles
// CHECK-SAME: !ktdp.access_tile<3x64xindex>
// CHECK-SAME: !ktdp.access_tile<?x64xindex>
// CHECK-SAME: !ktdp.access_tile<index>
func.func @access_tiles(%a: !ktdp.access_tile<3x64xindex>,
                        %b: !ktdp.access_tile<?x64xindex>,
                        %c: !ktdp.access_tile<index>) {
  return
}

// CHECK-LABEL: func.func @runtime_args
// CHECK-SAME: !ktdp.runtime_arg<index, granularity=3, upperbound=300>
// CHECK-SAME: !ktdp.runtime_arg<index, granularity=3, upperbound=300>
// CHECK-SAME: !ktdp.runtime_arg<index, granularity=3, upperbound=300>
func.func @runtime_args(%a: !ktdp.runtime_arg<index, granularity=3, upperbound=300>,
                        %b: !ktdp.runtime_arg<index, upperbound=300, granularity=3>,
                        %c: !ktdp.runtime_arg<index , granularity = 3 , upperbound = 300>) {
  return
}
