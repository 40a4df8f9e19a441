// RUN: ktflow-opt %s | ktflow-opt | FileCheck %s

// The matrix add over M rows, M known only at launch: `M` is a runtime_arg
// with granularity 32 (so M/32 rows per tile), the start address a bare
// runtime_arg; the views have the symbolic size `[%M, 64]` and a
// coordinate_set whose symbol s0 binds to it.

// CHECK-DAG: #[[VIEW:.+]] = affine_set<(d0, d1)[s0] : (d0 >= 0, -d0 + s0 - 1 >= 0, d1 >= 0, -d1 + 63 >= 0)>

// CHECK-LABEL: func.func @add_runtime_arg
// CHECK-SAME: (%[[MSYM:.+]]: !ktdp.runtime_arg<index, granularity=32, upperbound=300>, %[[ADDR:.+]]: !ktdp.runtime_arg<index>)
func.func @add_runtime_arg(%M_sym: !ktdp.runtime_arg<index, granularity=32, upperbound=300>,
                           %addr_sym: !ktdp.runtime_arg<index>) attributes {grid = [32]} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  // CHECK: %[[M:.+]] = ktdp.runtime_arg_extract value from %[[MSYM]] : <index, granularity=32, upperbound=300> -> index
  %M = ktdp.runtime_arg_extract value from %M_sym : !ktdp.runtime_arg<index, granularity=32, upperbound=300> -> index
  // CHECK: %[[BASE:.+]] = ktdp.runtime_arg_extract value from %[[ADDR]] : <index> -> index
  %base = ktdp.runtime_arg_extract value from %addr_sym : !ktdp.runtime_arg<index> -> index
  // CHECK: %[[ROWS:.+]] = arith.divsi %[[M]], %{{.+}} : index
  %rows = arith.divsi %M, %c32 : index
  %id = ktdp.get_compute_tile_id : index
  %start = arith.muli %id, %rows : index
  // CHECK: %[[A:.+]] = ktdp.construct_memory_view %[[BASE]], sizes: [%[[M]], 64], strides: [64, 1] {coordinate_set = #[[VIEW]], memory_space = #ktdp.spyre_memory_space<HBM>} : memref<?x64xf16>
  %A = ktdp.construct_memory_view %base, sizes: [%M, 64], strides: [64, 1] {
    coordinate_set = affine_set<(d0, d1)[s0] : (d0 >= 0, -d0 + s0 - 1 >= 0, d1 >= 0, -d1 + 63 >= 0)>,
    memory_space = #ktdp.spyre_memory_space<HBM>
  } : memref<?x64xf16>
  // CHECK: scf.for %[[I:.+]] = %{{.+}} to %[[ROWS]] step
  scf.for %i = %c0 to %rows step %c1 {
    // CHECK: ktdp.construct_access_tile %[[A]][%{{.+}} + %[[I]], 0]
    %t = ktdp.construct_access_tile %A[%start + %i, 0] {
      access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 + 63 >= 0)>,
      access_tile_order = affine_map<(d0, d1) -> (d0, d1)>
    } : memref<?x64xf16> -> !ktdp.access_tile<1x64xindex>
    %x = ktdp.load %t : !ktdp.access_tile<1x64xindex> -> tensor<1x64xf16>
    %y = arith.addf %x, %x : tensor<1x64xf16>
    ktdp.store %y, %t : tensor<1x64xf16>, !ktdp.access_tile<1x64xindex>
  }
  return
}
