// RUN: ktflow-opt %s --ktdf-mapping --ktdf-route-transfers --ktdf-tile-streams --ktdf-distribute --ktdf-coarsen=factor=4 | FileCheck %s
// RUN: sed -e 's|step %c1 {|step %c8 {|; s|../../../../../examples|%examples|' %s > %t.mlir
// RUN: ktflow-opt %t.mlir --ktdf-mapping --ktdf-route-transfers --ktdf-tile-streams --ktdf-distribute --ktdf-coarsen=factor=4 | FileCheck %s --check-prefix=STRIDED

// A loop whose rows follow each other merges 4 iterations into one 4-row
// transfer; a loop that skips rows (step 8) cannot.

ktdf_arch.target @sample_device from "../../../../../examples/devices/sample_device.mlir"
    memory_map #ktdf_arch.map<"global" = "DDR", "ct_local" = "L1">

// CHECK: %[[C4:.*]] = arith.constant 4 : index
// CHECK: scf.for %{{.*}} = %{{.*}} to %{{.*}} step %[[C4]] {
// CHECK: ktdp.construct_access_tile {{.*}} -> !ktdp.access_tile<4x64xindex>
// CHECK: ktdf.private : memref<4x64xf16, "L1">

// STRIDED: ktdp.construct_access_tile {{.*}} -> !ktdp.access_tile<1x64xindex>
// STRIDED-NOT: access_tile<4x64xindex>

#rows = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#row = affine_set<(d0, d1) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @scale(%x: index, %y: index) attributes {grid = [8]} {
  %id = ktdp.get_compute_tile_id : index
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %r0 = arith.muli %id, %c8 : index
  %X = ktdp.construct_memory_view %x, sizes: [64, 64], strides: [64, 1] {coordinate_set = #rows, memory_space = #ktdp.memory_space<global>} : memref<64x64xf16>
  %Y = ktdp.construct_memory_view %y, sizes: [64, 64], strides: [64, 1] {coordinate_set = #rows, memory_space = #ktdp.memory_space<global>} : memref<64x64xf16>
  %two = arith.constant dense<2.0> : tensor<1x64xf16>
  scf.for %i = %c0 to %c8 step %c1 {
    %tx = ktdp.construct_access_tile %X[%r0 + %i, 0] {access_tile_set = #row, access_tile_order = #id} : memref<64x64xf16> -> !ktdp.access_tile<1x64xindex>
    %ty = ktdp.construct_access_tile %Y[%r0 + %i, 0] {access_tile_set = #row, access_tile_order = #id} : memref<64x64xf16> -> !ktdp.access_tile<1x64xindex>
    %v = ktdp.load %tx : <1x64xindex> -> tensor<1x64xf16>
    %w = arith.mulf %v, %two : tensor<1x64xf16>
    ktdp.store %w, %ty : tensor<1x64xf16>, <1x64xindex>
  }
  return
}
