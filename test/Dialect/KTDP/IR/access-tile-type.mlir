// RUN: ktflow-opt %s -allow-unregistered-dialect | ktflow-opt -allow-unregistered-dialect | FileCheck %s

// Shapes of !ktdp.access_tile: static, dynamic, rank 0, zero-sized
// dimensions (`0x42` is a shape, not a hex literal) and higher ranks.

// CHECK-LABEL: func.func @access_tile_types
func.func @access_tile_types() {
  // CHECK: "test.op"() : () -> !ktdp.access_tile<32x64xindex>
  %0 = "test.op"() : () -> !ktdp.access_tile<32x64xindex>
  // CHECK: "test.op"() : () -> !ktdp.access_tile<?x?xindex>
  %1 = "test.op"() : () -> !ktdp.access_tile<?x?xindex>
  // CHECK: "test.op"() : () -> !ktdp.access_tile<index>
  %2 = "test.op"() : () -> !ktdp.access_tile<index>
  // CHECK: "test.op"() : () -> !ktdp.access_tile<0x42xindex>
  %3 = "test.op"() : () -> !ktdp.access_tile<0x42xindex>
  // CHECK: "test.op"() : () -> !ktdp.access_tile<4x8x16xindex>
  %4 = "test.op"() : () -> !ktdp.access_tile<4x8x16xindex>
  // CHECK: "test.op"() : () -> !ktdp.access_tile<2x?x8x128xindex>
  %5 = "test.op"() : () -> !ktdp.access_tile<2x?x8x128xindex>
  return
}
