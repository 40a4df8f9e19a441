// RUN: ktflow-opt %s --ktdf-mapping --ktdf-route-transfers --ktdf-tile-streams=chunk=64 --ktdf-distribute --ktdf-buffer=depth=2 --ktdf-hoist-invariant-transfers | FileCheck %s

// A load whose tile does not change across its loop leaves the loop: its
// stage and buffer move into a pipeline before the loop that exports the
// buffer, and the feed in the loop reads the export. The row tile, which
// moves with %i, stays.

ktdf_arch.target @sample_device from "../../../../../examples/devices/sample_device.mlir"
    memory_map #ktdf_arch.map<"global" = "DDR", "ct_local" = "L1">

#mat = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#vec = affine_set<(d0) : (d0 >= 0, -d0 + 63 >= 0)>
#row = affine_set<(d0, d1) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#id1 = affine_map<(d0) -> (d0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>

// CHECK-LABEL: func.func @bias
// CHECK: ktdf.parallel
// The tile is cloned out of the loop, then the exporting pipeline.
// CHECK: %[[VT:.*]] = ktdp.construct_access_tile %{{.*}}[0] {{.*}} -> !ktdp.access_tile<64xindex>
// CHECK-NEXT: %[[V:.*]] = ktdf.pipeline modulo(size: 1) -> memref<64xf16, "L1"> {
// CHECK-NEXT:   %[[B:.*]] = ktdf.private export 0 : memref<64xf16, "L1">
// CHECK-NEXT:   ktdf.stage "load_1" depends_out(1) applicable_units [dma_load]
// CHECK-NEXT:     ktdf.data_transfer %[[VT]] to %[[B]]
// CHECK-NEXT:   }
// CHECK-NEXT: }
// CHECK-NEXT: scf.for
// CHECK: ktdf.pipeline modulo(size: 2) {
// CHECK-NOT: memref<64xf16, "L1">
// CHECK: %[[L0:.*]] = ktdf.stage "load_0" depends_out(1) applicable_units [dma_load]
// CHECK-NOT: "load_1"
// CHECK: ktdf.stage "feed" depends_in(%[[L0]]) depends_out(1)
// CHECK: ktdf.data_transfer %[[V]][%{{.*}}] to %{{.*}} : memref<64xf16, "L1">
func.func @bias(%x: index, %v: index, %y: index) attributes {grid = [8]} {
  %id = ktdp.get_compute_tile_id : index
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %r0 = arith.muli %id, %c8 : index
  %X = ktdp.construct_memory_view %x, sizes: [64, 64], strides: [64, 1] {coordinate_set = #mat, memory_space = #ktdp.memory_space<global>} : memref<64x64xf16>
  %V = ktdp.construct_memory_view %v, sizes: [64], strides: [1] {coordinate_set = #vec, memory_space = #ktdp.memory_space<global>} : memref<64xf16>
  %Y = ktdp.construct_memory_view %y, sizes: [64, 64], strides: [64, 1] {coordinate_set = #mat, memory_space = #ktdp.memory_space<global>} : memref<64x64xf16>
  scf.for %i = %c0 to %c8 step %c1 {
    %tx = ktdp.construct_access_tile %X[%r0 + %i, 0] {access_tile_set = #row, access_tile_order = #id2} : memref<64x64xf16> -> !ktdp.access_tile<1x64xindex>
    %tv = ktdp.construct_access_tile %V[0] {access_tile_set = #vec, access_tile_order = #id1} : memref<64xf16> -> !ktdp.access_tile<64xindex>
    %ty = ktdp.construct_access_tile %Y[%r0 + %i, 0] {access_tile_set = #row, access_tile_order = #id2} : memref<64x64xf16> -> !ktdp.access_tile<1x64xindex>
    %xt = ktdp.load %tx : <1x64xindex> -> tensor<1x64xf16>
    %vt = ktdp.load %tv : <64xindex> -> tensor<64xf16>
    %e = tensor.empty() : tensor<1x64xf16>
    %vb = linalg.broadcast ins(%vt : tensor<64xf16>) outs(%e : tensor<1x64xf16>) dimensions = [0]
    %yt = arith.addf %xt, %vb : tensor<1x64xf16>
    ktdp.store %yt, %ty : tensor<1x64xf16>, <1x64xindex>
  }
  return
}

// Nested loops: the tile follows the outer %j, so the load leaves only the
// inner loop, and its pipeline sits in the outer one.
// CHECK-LABEL: func.func @nested
// CHECK: scf.for %[[J:.*]] = 
// CHECK: %[[OFF:.*]] = arith.muli %[[J]]
// CHECK: %[[VT:.*]] = ktdp.construct_access_tile %{{.*}}[%[[OFF]]]
// CHECK-NEXT: ktdf.pipeline modulo(size: 1) -> memref<64xf16, "L1">
// CHECK: ktdf.data_transfer %[[VT]] to
// CHECK: scf.for
// CHECK: ktdf.pipeline modulo(size: 2) {
// CHECK-NOT: "load_1"
// CHECK: return
#mat2 = affine_set<(d0) : (d0 >= 0, -d0 + 127 >= 0)>
func.func @nested(%x: index, %v: index, %y: index) attributes {grid = [8]} {
  %id = ktdp.get_compute_tile_id : index
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c64 = arith.constant 64 : index
  %c8 = arith.constant 8 : index
  %r0 = arith.muli %id, %c8 : index
  %X = ktdp.construct_memory_view %x, sizes: [64, 64], strides: [64, 1] {coordinate_set = #mat, memory_space = #ktdp.memory_space<global>} : memref<64x64xf16>
  %V = ktdp.construct_memory_view %v, sizes: [128], strides: [1] {coordinate_set = #mat2, memory_space = #ktdp.memory_space<global>} : memref<128xf16>
  %Y = ktdp.construct_memory_view %y, sizes: [64, 64], strides: [64, 1] {coordinate_set = #mat, memory_space = #ktdp.memory_space<global>} : memref<64x64xf16>
  scf.for %j = %c0 to %c2 step %c1 {
    %off = arith.muli %j, %c64 : index
    scf.for %i = %c0 to %c4 step %c1 {
      %r = arith.addi %r0, %i : index
      %rr = affine.apply affine_map<(d0, d1) -> (d0 + d1 * 4)>(%r, %j)
      %tx = ktdp.construct_access_tile %X[%rr, 0] {access_tile_set = #row, access_tile_order = #id2} : memref<64x64xf16> -> !ktdp.access_tile<1x64xindex>
      %tv = ktdp.construct_access_tile %V[%off] {access_tile_set = #vec, access_tile_order = #id1} : memref<128xf16> -> !ktdp.access_tile<64xindex>
      %ty = ktdp.construct_access_tile %Y[%rr, 0] {access_tile_set = #row, access_tile_order = #id2} : memref<64x64xf16> -> !ktdp.access_tile<1x64xindex>
      %xt = ktdp.load %tx : <1x64xindex> -> tensor<1x64xf16>
      %vt = ktdp.load %tv : <64xindex> -> tensor<64xf16>
      %e = tensor.empty() : tensor<1x64xf16>
      %vb = linalg.broadcast ins(%vt : tensor<64xf16>) outs(%e : tensor<1x64xf16>) dimensions = [0]
      %yt = arith.addf %xt, %vb : tensor<1x64xf16>
      ktdp.store %yt, %ty : tensor<1x64xf16>, <1x64xindex>
    }
  }
  return
}
