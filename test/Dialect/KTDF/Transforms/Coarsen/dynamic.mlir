// RUN: ktflow-opt %s --ktdf-mapping --ktdf-route-transfers --ktdf-tile-streams --ktdf-distribute --ktdf-coarsen=factor=4 | FileCheck %s
// RUN: sed -e 's|, upperbound=64>|>|g; s|../../../../../examples|%examples|' %s > %t.mlir
// RUN: ktflow-opt %t.mlir --ktdf-mapping --ktdf-route-transfers --ktdf-tile-streams --ktdf-distribute --ktdf-coarsen | FileCheck %s --check-prefix=UNBOUNDED

// A loop whose trip count (M/8) is only known at run time still merges
// iterations: the last merged iteration covers the rows that remain
// (derive_size), which limits its DMA transfers (`rows`) and the streamed
// row loops. Without an upper bound on M, the candidates cannot be sized and
// the loop stays as it is.

ktdf_arch.target @sample_device from "../../../../../examples/devices/sample_device.mlir"
    memory_map #ktdf_arch.map<"global" = "DDR", "ct_local" = "L1">

// CHECK: %[[HALF:.*]] = arith.divui %{{.*}}, %c8 : index
// CHECK: %[[C4:.*]] = arith.constant 4 : index
// CHECK: scf.for %[[I:.*]] = %{{.*}} to %[[HALF]] step %[[C4]] {
// CHECK: %[[F:.*]] = arith.constant 4 : index
// CHECK: %[[ROWS:.*]] = ktdf.tiling.derive_size %[[F]] at %[[I]] extent %[[HALF]]
// CHECK: ktdp.construct_access_tile {{.*}} -> !ktdp.access_tile<4x64xindex>
// CHECK: ktdf.data_transfer %{{.*}} to %{{.*}} rows %[[ROWS]] : !ktdp.access_tile<4x64xindex> to memref<4x64xf16, "L1">
// CHECK: ktdf.stage "feed"
// CHECK: scf.for %{{.*}} = %{{.*}} to %[[ROWS]] step
// CHECK: ktdf.stage "compute"
// CHECK: scf.for %{{.*}} = %{{.*}} to %[[ROWS]] step
// CHECK: ktdf.data_transfer %{{.*}} to %{{.*}} rows %[[ROWS]] : memref<4x64xf16, "L1"> to !ktdp.access_tile<4x64xindex>

// UNBOUNDED-NOT: derive_size
// UNBOUNDED: !ktdp.access_tile<1x64xindex>
// UNBOUNDED-NOT: rows

#rows = affine_set<(d0, d1)[s0] : (d0 >= 0, -d0 + s0 - 1 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#row = affine_set<(d0, d1) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @half_rows(%M_arg: !ktdp.runtime_arg<index, granularity=8, upperbound=64>, %a: index, %b: index, %c: index) attributes {grid = [4]} {
  %t = ktdp.get_compute_tile_id : index
  %M = ktdp.runtime_arg_extract value from %M_arg : !ktdp.runtime_arg<index, granularity=8, upperbound=64> -> index
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %owned = arith.divui %M, %c4 : index
  %half = arith.divui %M, %c8 : index
  %start = arith.muli %t, %owned : index
  %A = ktdp.construct_memory_view %a, sizes: [%M, 64], strides: [64, 1] {coordinate_set = #rows, memory_space = #ktdp.memory_space<global>} : memref<?x64xf16>
  %B = ktdp.construct_memory_view %b, sizes: [%M, 64], strides: [64, 1] {coordinate_set = #rows, memory_space = #ktdp.memory_space<global>} : memref<?x64xf16>
  %C = ktdp.construct_memory_view %c, sizes: [%M, 64], strides: [64, 1] {coordinate_set = #rows, memory_space = #ktdp.memory_space<global>} : memref<?x64xf16>
  scf.for %i = %c0 to %half step %c1 {
    %ta = ktdp.construct_access_tile %A[%start + %i, 0] {access_tile_set = #row, access_tile_order = #id} : memref<?x64xf16> -> !ktdp.access_tile<1x64xindex>
    %tb = ktdp.construct_access_tile %B[%start + %i, 0] {access_tile_set = #row, access_tile_order = #id} : memref<?x64xf16> -> !ktdp.access_tile<1x64xindex>
    %tc = ktdp.construct_access_tile %C[%start + %i, 0] {access_tile_set = #row, access_tile_order = #id} : memref<?x64xf16> -> !ktdp.access_tile<1x64xindex>
    %x = ktdp.load %ta : <1x64xindex> -> tensor<1x64xf16>
    %y = ktdp.load %tb : <1x64xindex> -> tensor<1x64xf16>
    %e = tensor.empty() : tensor<1x64xf16>
    %z = linalg.add ins(%x, %y : tensor<1x64xf16>, tensor<1x64xf16>) outs(%e : tensor<1x64xf16>) -> tensor<1x64xf16>
    ktdp.store %z, %tc : tensor<1x64xf16>, <1x64xindex>
  }
  return
}
