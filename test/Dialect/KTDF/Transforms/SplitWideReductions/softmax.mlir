// RUN: ktflow-opt %s -split-input-file --ktdf-import-target --ktdf-split-wide-reductions | FileCheck %s

// A Triton-like row softmax of one grid point over rows of 8192 f16 on
// spyre_like (32 cores): 8 parts of 1024 columns (the most parts that keep
// min-part-columns), a new first grid dimension. Each part loads, computes
// and stores its columns (the tiles anchored 1024 columns per part further,
// the tile id the point read is 0); the row maximum (linalg.reduce maxnumf
// from -inf) and the f32 sum (a generic reducing its last loop with addf
// from 0) are each all-reduced over the 8 parts before they are read.

// CHECK-DAG: #[[TILE:.*]] = affine_set<(d0, d1) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 + 1023 >= 0)>
// CHECK-DAG: #[[PARTS:.*]] = affine_set<(d0)[s0] : (d0 >= 0, -d0 + 7 >= 0, s0 == 0)>
// CHECK-LABEL: func.func @softmax_row
// CHECK-SAME: grid = [8, 1, 1]
// CHECK: %[[IDS:.*]]:3 = ktdp.get_compute_tile_id : index, index, index
// CHECK: %[[COL:.*]] = arith.muli %[[IDS]]#0, %c1024
// CHECK: %[[ZERO:.*]] = arith.constant 0 : index
// CHECK: scf.for %[[R:.*]] = %[[ZERO]] to
// CHECK: ktdp.construct_access_tile %{{.*}}[%[[R]], %[[COL]]] {{.*}}access_tile_set = #[[TILE]]} {{.*}} -> !ktdp.access_tile<1x1024xindex>
// CHECK: %[[X:.*]] = ktdp.load {{.*}} -> tensor<1x1024xf16>
// CHECK: %[[MAXP:.*]] = linalg.reduce { arith.maxnumf } ins(%[[X]] : tensor<1x1024xf16>)
// CHECK: %[[F1:.*]] = ktdp.inter_tile_produce producer_tiles_per_group = #[[PARTS]] -> <(tensor<1xf16>)
// CHECK: ktdp.yield_partial %[[MAXP]]
// CHECK: %[[MAX:.*]] = ktdp.inter_tile_reduce(%[[F1]]) consumer_tiles_per_group = #[[PARTS]]
// CHECK: arith.maxnumf
// CHECK: tensor.extract %[[MAX]]
// CHECK: tensor.splat {{.*}} : tensor<1x1024xf16>
// CHECK: %[[SUMP:.*]] = linalg.generic {{.*}} ins(%{{.*}} : tensor<1x1024xf16>) outs(%{{.*}} : tensor<1xf32>)
// CHECK: ktdp.inter_tile_produce
// CHECK: ktdp.yield_partial %[[SUMP]]
// CHECK: %[[SUM:.*]] = ktdp.inter_tile_reduce
// CHECK: arith.addf {{.*}} : tensor<1xf32>
// CHECK: tensor.extract %[[SUM]]
// CHECK: } -> tensor<1x1024xf16>
// CHECK: ktdp.construct_access_tile %{{.*}}[%[[R]], %[[COL]]] {{.*}} -> !ktdp.access_tile<1x1024xindex>
// CHECK: ktdp.store {{.*}} : tensor<1x1024xf16>, <1x1024xindex>
#x_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 8191 >= 0)>
#row = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 8191 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#to_row = affine_map<(d0, d1) -> (d0)>
module {
  ktdf_arch.target @spyre_like from "../../../../../examples/devices/spyre_like.mlir"
    memory_map #ktdf_arch.map<"global" = "DDR", "ct_local" = "LX">
  func.func @softmax_row(%x_ptr: index, %y_ptr: index, %n_rows: index)
      attributes {grid = [1, 1]} {
    %tid = ktdp.get_compute_tile_id : index
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %ninf = arith.constant 0xFC00 : f16
    %zero = arith.constant 0.0 : f32
    %X = ktdp.construct_memory_view %x_ptr, sizes: [4, 8192], strides: [8192, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<4x8192xf16>
    %Y = ktdp.construct_memory_view %y_ptr, sizes: [4, 8192], strides: [8192, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<4x8192xf16>
    scf.for %r = %tid to %n_rows step %c1 : index {
      %tx = ktdp.construct_access_tile %X[%r, 0] {access_tile_set = #row, access_tile_order = #id2} : memref<4x8192xf16> -> !ktdp.access_tile<1x8192xindex>
      %x = ktdp.load %tx : <1x8192xindex> -> tensor<1x8192xf16>
      %max_init = tensor.splat %ninf : tensor<1xf16>
      %max = linalg.reduce { arith.maxnumf } ins(%x : tensor<1x8192xf16>) outs(%max_init : tensor<1xf16>) dimensions = [1]
      %m = tensor.extract %max[%c0] : tensor<1xf16>
      %mb = tensor.splat %m : tensor<1x8192xf16>
      %shifted = arith.subf %x, %mb : tensor<1x8192xf16>
      %e = math.exp %shifted : tensor<1x8192xf16>
      %sum_init = tensor.splat %zero : tensor<1xf32>
      %sum = linalg.generic {indexing_maps = [#id2, #to_row], iterator_types = ["parallel", "reduction"]} ins(%e : tensor<1x8192xf16>) outs(%sum_init : tensor<1xf32>) {
      ^bb0(%in: f16, %acc: f32):
        %w = arith.extf %in : f16 to f32
        %a = arith.addf %w, %acc : f32
        linalg.yield %a : f32
      } -> tensor<1xf32>
      %s = tensor.extract %sum[%c0] : tensor<1xf32>
      %empty = tensor.empty() : tensor<1x8192xf16>
      %y = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]} ins(%e : tensor<1x8192xf16>) outs(%empty : tensor<1x8192xf16>) {
      ^bb0(%in: f16, %out: f16):
        %w = arith.extf %in : f16 to f32
        %q = arith.divf %w, %s : f32
        %t = arith.truncf %q : f32 to f16
        linalg.yield %t : f16
      } -> tensor<1x8192xf16>
      %ty = ktdp.construct_access_tile %Y[%r, 0] {access_tile_set = #row, access_tile_order = #id2} : memref<4x8192xf16> -> !ktdp.access_tile<1x8192xindex>
      ktdp.store %y, %ty : tensor<1x8192xf16>, <1x8192xindex>
      scf.yield
    }
    return
  }
}
