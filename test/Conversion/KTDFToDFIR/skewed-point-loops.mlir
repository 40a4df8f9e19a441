// A tile's grid points that each run a cyclic row loop (Triton's
// `for r = pid to n step P`) of one skewable pipeline: softmax_rows on
// mesh_device, 32 points over 16 tiles (2 a tile, 2 rows each). The tile's
// DMA engine skewed each point's loop on its own, so the second point's
// first rows were loaded only after the first point's stores. Now its
// executions are one stream across the points (SkewedPointLoops.cpp): a
// catch-up loop (D + points = 3 + 2 steps) loads up to D = 3 executions
// ahead before the walk, and again before each row's store, wherever the
// executions lie; the point loop is marked dfir.skewed = 3. softmax_rows
// 521 -> 412 cycles, bit-identical (test/EndToEnd/realworld-rows.test).

// RUN: ktflow compile %examples/kernels/realworld/softmax_rows.mlir --arch %examples/devices/mesh_device.mlir --emit=dataflow -o - | FileCheck %s
// CHECK-LABEL: dfir.unit "tile[0]/DMA"
// CHECK: scf.for %{{.*}} = %{{.*}} to %c5 step %{{.*}} iter_args(
// CHECK: dfir.dma {{.*}} from "HBM"
// CHECK: dfir.sync_send @p0_full0_c0_l0
// CHECK: scf.for %{{.*}} = %{{.*}} to %c2 step %{{.*}} iter_args(
// CHECK: scf.for %{{.*}} = %{{.*}} to %{{.*}} step %c32{{.*}} iter_args(
// CHECK: scf.for %{{.*}} = %{{.*}} to %c5{{.*}} step %{{.*}} iter_args(
// CHECK: dfir.dma {{.*}} from "HBM"
// CHECK: dfir.sync_send @p0_full0_c0_l0
// CHECK: dfir.sync_recv @p0_full1_c0_l0
// CHECK: dfir.dma {{.*}} from "tile[0]/SPM"{{.*}} to "HBM"
// CHECK: } {dfir.skewed = 3 : i64}
// CHECK-LABEL: dfir.unit "tile[0]/VLD"
// CHECK-NOT: dfir.skewed
// CHECK: dfir.unit

// Refused: 10 points a tile (a [160, 1] grid), past the 8 a catch-up
// steps over; each point's loop is skewed on its own, the point loop is
// not.
// RUN: ktflow compile %s --arch %examples/devices/mesh_device.mlir --emit=dataflow -o - | FileCheck %s --check-prefix=MANY
// MANY-LABEL: dfir.unit "tile[0]/DMA"
// MANY: scf.for %{{.*}} = %{{.*}} to %c10
// MANY: } {dfir.skewed = 3 : i64}
// MANY-NEXT: scf.yield
// MANY: dfir.unit "tile[0]/VLD"

#x_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 319 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#row = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 127 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @many_points(%input_ptr: index, %output_ptr: index, %n_rows: index) attributes {grid = [160, 1]} {
    %tid = ktdp.get_compute_tile_id : index
    %c160 = arith.constant 160 : index
    %X = ktdp.construct_memory_view %input_ptr, sizes: [320, 128], strides: [128, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<320x128xf16>
    %Y = ktdp.construct_memory_view %output_ptr, sizes: [320, 128], strides: [128, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<320x128xf16>
    scf.for %r = %tid to %n_rows step %c160 : index {
      %tx = ktdp.construct_access_tile %X[%r, 0] {access_tile_set = #row, access_tile_order = #id2} : memref<320x128xf16> -> !ktdp.access_tile<1x128xindex>
      %x = ktdp.load %tx : <1x128xindex> -> tensor<1x128xf16>
      %e = math.exp %x : tensor<1x128xf16>
      %ty = ktdp.construct_access_tile %Y[%r, 0] {access_tile_set = #row, access_tile_order = #id2} : memref<320x128xf16> -> !ktdp.access_tile<1x128xindex>
      ktdp.store %e, %ty : tensor<1x128xf16>, <1x128xindex>
    }
    return
  }
}
