// RUN: ktflow-opt %s --ktdf-mapping --ktdf-route-transfers --ktdf-tile-streams | FileCheck %s

// Column reductions stream each chunk of columns down the rows: the chunk
// loop is outside, the row loop carries one accumulator chunk per
// reduction, and the per-column results are written once per chunk. The
// feed reads the tile column chunk by column chunk in the same order.

// CHECK: ktdf.stage "feed"
// CHECK-NEXT: %[[C0:.*]] = arith.constant 0 : index
// CHECK: scf.for %[[C:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK-NEXT: scf.for %[[R:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK-NEXT: ktdf.data_transfer %{{.*}}[%[[R]], %[[C]]] to %{{.*}} : memref<64x64xf16, "L1">
// CHECK: ktdf.stage "compute"
// CHECK: scf.for
// CHECK: %[[SUM0:.*]] = linalg.generic {{.*}} outs(%{{.*}} : tensor<64xf32>)
// CHECK: %[[MAX0:.*]] = linalg.generic {{.*}} outs(%{{.*}} : tensor<64xf16>)
// CHECK: %[[ACC:.*]]:2 = scf.for {{.*}} iter_args(%[[S:.*]] = %[[SUM0]], %[[M:.*]] = %[[MAX0]]) -> (tensor<64xf32>, tensor<64xf16>) {
// CHECK-NEXT: %[[X:.*]] = ktdf.read_from_fifo {{.*}} -> tensor<64xf16>
// CHECK-NEXT: linalg.generic {{.*}}iterator_types = ["parallel"]} ins(%[[X]] : tensor<64xf16>) outs(%[[S]] : tensor<64xf32>)
// CHECK: linalg.generic {{.*}}iterator_types = ["parallel"]} ins(%[[X]] : tensor<64xf16>) outs(%[[M]] : tensor<64xf16>)
// CHECK: ktdf.write_to_fifo
// CHECK: ktdf.write_to_fifo %[[ACC]]#1
// CHECK: ktdf.stage "drain"
// CHECK: scf.for
// CHECK-NEXT: ktdf.data_transfer {{.*}} to %{{.*}}[%{{.*}}] : {{.*}} to memref<64xf16, "L1">

// col_reduce.mlir - sum and maximum of every column.
//
// Computes, for 0 <= j < 256 (x = X[:, j], 0 <= i < 64):
//   S[j] = f16(sum_i f32(x[i]))      (f32 accumulation from 0, rounded once)
//   M[j] = max_i x[i]                (arith.maximumf from -inf, exact)
//
// Arguments (all `index`, tensor start addresses counted in f16 elements):
//   %x  X : 64x256 f16, row-major, input
//   %s  S : 256 f16, contiguous, output
//   %m  M : 256 f16, contiguous, output
// Grid: [4]. Tile t handles columns [64t, 64t + 64) down all 64 rows: a
// 64x64 tile of X, and 64 sums and maxima.
// Memory space spelling: #ktdp.memory_space<global>.

#mat = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 255 >= 0)>
#vec = affine_set<(d0) : (d0 >= 0, -d0 + 255 >= 0)>
#block = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#cols = affine_set<(d0) : (d0 >= 0, -d0 + 63 >= 0)>
#id1 = affine_map<(d0) -> (d0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#col = affine_map<(d0, d1) -> (d1)>
module {
  ktdf_arch.target @sample_device from "../../../../../examples/devices/sample_device.mlir" memory_map #ktdf_arch.map<"global" = "DDR", "ct_local" = "L1">
  func.func @col_reduce(%x: index, %s: index, %m: index) attributes {grid = [4]} {
    %id = ktdp.get_compute_tile_id : index
    %c64 = arith.constant 64 : index
    %c0 = arith.muli %id, %c64 : index
    %X = ktdp.construct_memory_view %x, sizes: [64, 256], strides: [256, 1] {coordinate_set = #mat, memory_space = #ktdp.memory_space<global>} : memref<64x256xf16>
    %S = ktdp.construct_memory_view %s, sizes: [256], strides: [1] {coordinate_set = #vec, memory_space = #ktdp.memory_space<global>} : memref<256xf16>
    %M = ktdp.construct_memory_view %m, sizes: [256], strides: [1] {coordinate_set = #vec, memory_space = #ktdp.memory_space<global>} : memref<256xf16>
    %tx = ktdp.construct_access_tile %X[0, %c0] {access_tile_set = #block, access_tile_order = #id2} : memref<64x256xf16> -> !ktdp.access_tile<64x64xindex>
    %ts = ktdp.construct_access_tile %S[%c0] {access_tile_set = #cols, access_tile_order = #id1} : memref<256xf16> -> !ktdp.access_tile<64xindex>
    %tm = ktdp.construct_access_tile %M[%c0] {access_tile_set = #cols, access_tile_order = #id1} : memref<256xf16> -> !ktdp.access_tile<64xindex>
    %xt = ktdp.load %tx : <64x64xindex> -> tensor<64x64xf16>
    %zero = arith.constant 0.0 : f32
    %ninf = arith.constant 0xFC00 : f16
    %e32 = tensor.empty() : tensor<64xf32>
    %e16 = tensor.empty() : tensor<64xf16>
    %sum0 = linalg.fill ins(%zero : f32) outs(%e32 : tensor<64xf32>) -> tensor<64xf32>
    %max0 = linalg.fill ins(%ninf : f16) outs(%e16 : tensor<64xf16>) -> tensor<64xf16>
    %sum = linalg.generic {indexing_maps = [#id2, #col], iterator_types = ["reduction", "parallel"]}
        ins(%xt : tensor<64x64xf16>) outs(%sum0 : tensor<64xf32>) {
      ^bb0(%v: f16, %acc: f32):
        %w = arith.extf %v : f16 to f32
        %a = arith.addf %w, %acc : f32
        linalg.yield %a : f32
    } -> tensor<64xf32>
    %max = linalg.reduce ins(%xt : tensor<64x64xf16>) outs(%max0 : tensor<64xf16>) dimensions = [0]
      (%v: f16, %acc: f16) {
        %r = arith.maximumf %v, %acc : f16
        linalg.yield %r : f16
      }
    %sum16 = arith.truncf %sum : tensor<64xf32> to tensor<64xf16>
    ktdp.store %sum16, %ts : tensor<64xf16>, <64xindex>
    ktdp.store %max, %tm : tensor<64xf16>, <64xindex>
    return
  }
}
