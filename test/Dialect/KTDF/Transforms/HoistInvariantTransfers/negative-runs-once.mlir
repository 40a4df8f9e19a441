// RUN: ktflow-opt %s --ktdf-mapping --ktdf-route-transfers --ktdf-tile-streams=chunk=64 --ktdf-distribute --ktdf-coarsen=factor=8 --ktdf-buffer=depth=2 --ktdf-hoist-invariant-transfers | FileCheck %s

// Coarsening merges the loop's 8 iterations into one: the invariant load
// runs once per grid point either way, so it stays where it is.

// CHECK-NOT: export

ktdf_arch.target @sample_device from "../../../../../examples/devices/sample_device.mlir"
    memory_map #ktdf_arch.map<"global" = "DDR", "ct_local" = "L1">

#mat = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#vec = affine_set<(d0) : (d0 >= 0, -d0 + 63 >= 0)>
#row = affine_set<(d0, d1) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#id1 = affine_map<(d0) -> (d0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>

// CHECK-LABEL: func.func @runs_once
// CHECK: scf.for
// CHECK-NEXT: ktdp.construct_access_tile {{.*}} -> !ktdp.access_tile<8x64xindex>
// CHECK: ktdf.pipeline modulo(size: 2) {
// CHECK: ktdf.stage "load_1"
func.func @runs_once(%x: index, %v: index, %y: index) attributes {grid = [8]} {
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
