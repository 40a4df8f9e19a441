// RUN: ktflow-opt %s -split-input-file --ktdf-mapping --ktdf-route-transfers --ktdf-tile-streams=chunk=64 --ktdf-spread-iterations --ktdf-distribute | FileCheck %s

// A row loop holding a per-row all-reduce of the two tiles of a [2] grid
// (an RMSNorm's sum of squares) spreads like any other: copy j of each
// tile runs its share of the rows and exchanges with copy j of the other.
// The copy dimension comes first, so a copy's two tiles are consecutive
// points (2j and 2j + 1), which ktdf-distribute puts on different cores
// (instance p on core p mod 32), as the ring needs; the all-reduce's groups
// are renumbered on the wider grid (copy j of tile t is tile j + 32 t in
// the linear id, the first dimension fastest). spyre_like's 64 instances
// take 32 copies.

// CHECK-LABEL: func.func @rows
// CHECK: ktdf.parallel (%{{.*}}, %{{.*}}) in [32, 2] distribute(num_instances = 64)
// CHECK: scf.for
// CHECK: ktdf.all_reduce %{{.*}}, %{{.*}} {combiner = "arith.addf", groups = [array<i64: 0, 32>, array<i64: 1, 33>, {{.*}}, array<i64: 31, 63>]}

ktdf_arch.target @spyre_like from "../../../../../examples/devices/spyre_like.mlir"
    memory_map #ktdf_arch.map<"global" = "DDR", "ct_local" = "LX">

#x_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 255 >= 0)>
#row_blk = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 127 >= 0)>
#pair = affine_set<(i)[g] : (i >= 0, -i + 1 >= 0, g == 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @rows(%x_ptr: index, %y_ptr: index) attributes {grid = [2]} {
  %pid = ktdp.get_compute_tile_id : index
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %X = ktdp.construct_memory_view %x_ptr, sizes: [64, 256], strides: [256, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<64x256xf16>
  %Y = ktdp.construct_memory_view %y_ptr, sizes: [64, 256], strides: [256, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<64x256xf16>
  %col0 = arith.muli %pid, %c128 : index
  %zero1 = arith.constant dense<0.0> : tensor<1xf16>
  scf.for %i = %c0 to %c64 step %c1 {
    %tx = ktdp.construct_access_tile %X[%i, %col0] {access_tile_set = #row_blk, access_tile_order = #id2} : memref<64x256xf16> -> !ktdp.access_tile<1x128xindex>
    %x = ktdp.load %tx : <1x128xindex> -> tensor<1x128xf16>
    %sq = arith.mulf %x, %x : tensor<1x128xf16>
    %part = linalg.reduce { arith.addf } ins(%sq : tensor<1x128xf16>) outs(%zero1 : tensor<1xf16>) dimensions = [1]
    %f = ktdp.inter_tile_produce producer_tiles_per_group = #pair -> <(tensor<1xf16>), groups = affine_set<(g) : (g == 0)>> {
    ^bb0(%gid: index):
      ktdp.yield_partial %part : tensor<1xf16>
    }
    %ss = ktdp.inter_tile_reduce(%f) consumer_tiles_per_group = #pair, identity(%zero1 : tensor<1xf16>) : <(tensor<1xf16>), groups = affine_set<(g) : (g == 0)>> -> tensor<1xf16> {
    ^bb0(%lhs: tensor<1xf16>, %rhs: tensor<1xf16>):
      %s = arith.addf %lhs, %rhs : tensor<1xf16>
      ktdp.yield_reduced %s : tensor<1xf16>
    }
    %r = tensor.extract %ss[%c0] : tensor<1xf16>
    %rb = tensor.splat %r : tensor<1x128xf16>
    %y = arith.divf %x, %rb : tensor<1x128xf16>
    %ty = ktdp.construct_access_tile %Y[%i, %col0] {access_tile_set = #row_blk, access_tile_order = #id2} : memref<64x256xf16> -> !ktdp.access_tile<1x128xindex>
    ktdp.store %y, %ty : tensor<1x128xf16>, <1x128xindex>
  }
  return
}

// -----

// The same loop up to a launch scalar: its trips are dealt round robin
// (copy j runs rows j, j + 32, ...; a loop of constant lower bound and
// step is otherwise left to ktdf-coarsen, which keeps an exchange's trips
// apart), every tile's copy j running the same rows.

// CHECK-LABEL: func.func @rows_dyn
// CHECK: ktdf.parallel (%[[J:.*]], %{{.*}}) in [32, 2] distribute(num_instances = 64)
// CHECK: %[[WIDE:.*]] = arith.constant 32 : index
// CHECK: scf.for %{{.*}} = %{{.*}} to %{{.*}} step %[[WIDE]]
// CHECK: ktdf.all_reduce %{{.*}}, %{{.*}} {combiner = "arith.addf", groups = [array<i64: 0, 32>, array<i64: 1, 33>, {{.*}}, array<i64: 31, 63>]}

ktdf_arch.target @spyre_like from "../../../../../examples/devices/spyre_like.mlir"
    memory_map #ktdf_arch.map<"global" = "DDR", "ct_local" = "LX">

#x_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 255 >= 0)>
#row_blk = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 127 >= 0)>
#pair = affine_set<(i)[g] : (i >= 0, -i + 1 >= 0, g == 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @rows_dyn(%x_ptr: index, %y_ptr: index, %n: index) attributes {grid = [2]} {
  %pid = ktdp.get_compute_tile_id : index
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %X = ktdp.construct_memory_view %x_ptr, sizes: [64, 256], strides: [256, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<64x256xf16>
  %Y = ktdp.construct_memory_view %y_ptr, sizes: [64, 256], strides: [256, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<64x256xf16>
  %col0 = arith.muli %pid, %c128 : index
  %zero1 = arith.constant dense<0.0> : tensor<1xf16>
  scf.for %i = %c0 to %n step %c1 {
    %tx = ktdp.construct_access_tile %X[%i, %col0] {access_tile_set = #row_blk, access_tile_order = #id2} : memref<64x256xf16> -> !ktdp.access_tile<1x128xindex>
    %x = ktdp.load %tx : <1x128xindex> -> tensor<1x128xf16>
    %sq = arith.mulf %x, %x : tensor<1x128xf16>
    %part = linalg.reduce { arith.addf } ins(%sq : tensor<1x128xf16>) outs(%zero1 : tensor<1xf16>) dimensions = [1]
    %f = ktdp.inter_tile_produce producer_tiles_per_group = #pair -> <(tensor<1xf16>), groups = affine_set<(g) : (g == 0)>> {
    ^bb0(%gid: index):
      ktdp.yield_partial %part : tensor<1xf16>
    }
    %ss = ktdp.inter_tile_reduce(%f) consumer_tiles_per_group = #pair, identity(%zero1 : tensor<1xf16>) : <(tensor<1xf16>), groups = affine_set<(g) : (g == 0)>> -> tensor<1xf16> {
    ^bb0(%lhs: tensor<1xf16>, %rhs: tensor<1xf16>):
      %s = arith.addf %lhs, %rhs : tensor<1xf16>
      ktdp.yield_reduced %s : tensor<1xf16>
    }
    %r = tensor.extract %ss[%c0] : tensor<1xf16>
    %rb = tensor.splat %r : tensor<1x128xf16>
    %y = arith.divf %x, %rb : tensor<1x128xf16>
    %ty = ktdp.construct_access_tile %Y[%i, %col0] {access_tile_set = #row_blk, access_tile_order = #id2} : memref<64x256xf16> -> !ktdp.access_tile<1x128xindex>
    ktdp.store %y, %ty : tensor<1x128xf16>, <1x128xindex>
  }
  return
}
