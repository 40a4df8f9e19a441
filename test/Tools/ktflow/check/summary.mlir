// RUN: ktflow check %s | FileCheck %s
// RUN: ktflow check %s | FileCheck %s --check-prefix=ORDER

// The summary `ktflow check` prints for a legal file: one header line, then
// one block per kernel (functions with a body, in file order; declarations
// are skipped). Each count below is what this file contains.

// CHECK: summary.mlir: 2 kernels, legal

// CHECK-LABEL: kernel @summary
// CHECK-NEXT: grid: [4, 2] (8 compute tiles)
// CHECK-NEXT: arguments: 3 (1 runtime_arg)
// CHECK-NEXT: memory views: 2 global, 2 ct_local, 1 distributed
// CHECK-NEXT: access tiles: 2 direct, 1 indirect
// CHECK-NEXT: data movement: 3 load, 1 store, 2 inter-tile
// CHECK-NEXT: loops: 1
// CHECK-NEXT: compute: arith.addf x2, math.exp x1

// ORDER: kernel @summary
// ORDER: kernel @second
// ORDER: grid: [32] (32 compute tiles)
// ORDER-NOT: kernel @

func.func private @declared(index) -> index

func.func @summary(%n_sym: !ktdp.runtime_arg<index, upperbound=64>, %a: index,
                   %idx: memref<16xi32>) attributes {grid = [4, 2]} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %n = ktdp.runtime_arg_extract value from %n_sym : !ktdp.runtime_arg<index, upperbound=64> -> index
  %ids:2 = ktdp.get_compute_tile_id : index, index
  %g0 = ktdp.construct_memory_view %a, sizes: [64], strides: [1] {
    coordinate_set = affine_set<(d0) : (d0 >= 0, -d0 + 63 >= 0)>,
    memory_space = #ktdp.spyre_memory_space<HBM>} : memref<64xf32>
  %g1 = ktdp.construct_memory_view %a, sizes: [64], strides: [1] {
    coordinate_set = affine_set<(d0) : (d0 >= 0, -d0 + 63 >= 0)>,
    memory_space = #ktdp.memory_space<global>} : memref<64xf32>
  %l0 = ktdp.construct_memory_view %c0, sizes: [32], strides: [1] {
    coordinate_set = affine_set<(d0) : (d0 >= 0, -d0 + 31 >= 0)>,
    memory_space = #ktdp.spyre_memory_space<LX, core = 0>} : memref<32xf32>
  %l1 = ktdp.construct_memory_view %c0, sizes: [32], strides: [1] {
    coordinate_set = affine_set<(d0) : (d0 - 32 >= 0, -d0 + 63 >= 0)>,
    memory_space = #ktdp.memory_space<ct_local, ct_id = 1>} : memref<32xf32>
  %d = ktdp.construct_distributed_memory_view(%l0, %l1 : memref<32xf32>, memref<32xf32>) : memref<64xf32>
  %t0 = ktdp.construct_access_tile %g0[0] {
    access_tile_set = affine_set<(d0) : (d0 >= 0, -d0 + 15 >= 0)>,
    access_tile_order = affine_map<(d0) -> (d0)>} : memref<64xf32> -> !ktdp.access_tile<16xindex>
  %t1 = ktdp.construct_access_tile %d[0] {
    access_tile_set = affine_set<(d0) : (d0 >= 0, -d0 + 15 >= 0)>,
    access_tile_order = affine_map<(d0) -> (d0)>} : memref<64xf32> -> !ktdp.access_tile<16xindex>
  %t2 = ktdp.construct_indirect_access_tile intermediate_variables(%i) %g1[ind(%idx[%i])] {
    variables_space_set = affine_set<(d0) : (d0 >= 0, -d0 + 15 >= 0)>,
    variables_space_order = affine_map<(d0) -> (d0)>} : memref<64xf32>, memref<16xi32> -> !ktdp.access_tile<16xindex>
  %x = ktdp.load %t0 : !ktdp.access_tile<16xindex> -> tensor<16xf32>
  %y = ktdp.load %t1 : !ktdp.access_tile<16xindex> -> tensor<16xf32>
  %sum = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %x) -> (tensor<16xf32>) {
    %w = ktdp.load %t2 : !ktdp.access_tile<16xindex> -> tensor<16xf32>
    %s = arith.addf %acc, %w : tensor<16xf32>
    scf.yield %s : tensor<16xf32>
  }
  %z = arith.addf %sum, %y : tensor<16xf32>
  %e = math.exp %z : tensor<16xf32>
  %f = ktdp.inter_tile_produce producer_tiles_per_group = affine_set<(i)[g] : (i == 0)>
       -> <(tensor<16xf32>), groups = affine_set<(g) : (g == 0)>> {
  ^bb0(%gid: index):
    ktdp.yield_partial %e : tensor<16xf32>
  }
  %r = ktdp.inter_tile_consume(%f) consumer_tiles_per_group = affine_set<(i)[g] : (i >= 0, -i + 7 >= 0)>
       : <(tensor<16xf32>), groups = affine_set<(g) : (g == 0)>> -> tensor<16xf32>
  ktdp.store %r, %t0 : tensor<16xf32>, !ktdp.access_tile<16xindex>
  return
}

func.func @second() attributes {grid = [32]} {
  %id = ktdp.get_compute_tile_id : index
  return
}
