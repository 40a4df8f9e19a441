// RUN: ktflow-opt %s --ktdf-import-target --ktdf-lower-inter-tile --ktdf-map-memory-spaces --ktdf-sink-into-loops --ktdf-generalize --ktdf-legalize-unit-types --ktir-to-ktdf --ktdf-route-transfers --ktdf-tile-streams --ktdf-distribute --ktdf-buffer --ktdf-allocate-scratchpad --ktdf-schedule-all-reduce --ktdf-to-dfir | FileCheck %s

// A reduce-scatter (ScatterAttr.h) of 4x2048 f16 over 4 mesh_device
// tiles, each reading only its own row of the sum (the kernel of
// Dialect/KTDF/Transforms/ScheduleAllReduce/scatter.mlir): the ring's 3
// reduce-scatter steps of 8 pieces of 512 bytes (24 remote DMAs a tile,
// not 48: no all-gather, so no `gathered` tokens), numbered so that tile
// t ends with row t. Tiles 0..3 sit on the mesh's first row, ring
// positions 0..3; position i ends with the ring's chunk i + 1, which is
// therefore the partial's chunk i: tile 0 first sends the chunk its
// predecessor keeps, row 3 (byte 3 x 4096 = 12288 of the view). The send
// unit then waits until its own row's 8 pieces are combined.

// CHECK-NOT: gathered
// CHECK-LABEL: dfir.unit "tile[0]/DMA"
// CHECK: %[[ROW3:.*]] = arith.constant 12288 : index
// CHECK-NEXT: %[[FROM:.*]] = arith.addi %{{.*}}, %[[ROW3]] : index
// CHECK: dfir.remote_dma %{{.*}} bytes from "tile[0]/SPM"[%[[FROM]]] to "tile[1]/SPM"
// CHECK-COUNT-23: dfir.remote_dma
// CHECK-NOT: dfir.remote_dma
// CHECK-COUNT-8: dfir.sync_recv @p1_added_c0_l0
// CHECK-NOT: dfir.remote_dma
// CHECK-LABEL: dfir.unit "tile[0]/VLD"

ktdf_arch.target @mesh_device from "../../../examples/devices/mesh_device.mlir"
    memory_map #ktdf_arch.map<"global" = "HBM", "ct_local" = "SPM">
#x_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 2047 >= 0)>
#row = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 2047 >= 0)>
#all4 = affine_set<(i)[g] : (i >= 0, -i + 3 >= 0, g == 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @reduce_scatter(%x_ptr: index, %y_ptr: index) attributes {grid = [4]} {
  %pid = ktdp.get_compute_tile_id : index
  %X = ktdp.construct_memory_view %x_ptr, sizes: [4, 2048], strides: [2048, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<4x2048xf16>
  %Y = ktdp.construct_memory_view %y_ptr, sizes: [4, 2048], strides: [2048, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<4x2048xf16>
  %tx = ktdp.construct_access_tile %X[0, 0] {access_tile_set = #x_set, access_tile_order = #id2} : memref<4x2048xf16> -> !ktdp.access_tile<4x2048xindex>
  %ty = ktdp.construct_access_tile %Y[%pid, 0] {access_tile_set = #row, access_tile_order = #id2} : memref<4x2048xf16> -> !ktdp.access_tile<1x2048xindex>
  %x = ktdp.load %tx : <4x2048xindex> -> tensor<4x2048xf16>
  %p = arith.addf %x, %x : tensor<4x2048xf16>
  %zero = arith.constant dense<0.0> : tensor<4x2048xf16>
  %f = ktdp.inter_tile_produce producer_tiles_per_group = #all4
      : tensor<4x2048xf16> -> !ktdp.tile_future<tensor<4x2048xf16>, groups = affine_set<(g) : (g == 0)>> {
  ^bb0(%g: index):
    ktdp.yield_partial %p : tensor<4x2048xf16>
  }
  %s = ktdp.inter_tile_reduce(%f) consumer_tiles_per_group = #all4, identity(%zero : tensor<4x2048xf16>) {ktdf.scatter}
      : !ktdp.tile_future<tensor<4x2048xf16>, groups = affine_set<(g) : (g == 0)>> -> tensor<4x2048xf16> {
  ^bb0(%a: tensor<4x2048xf16>, %b: tensor<4x2048xf16>):
    %r = arith.addf %a, %b : tensor<4x2048xf16>
    ktdp.yield_reduced %r : tensor<4x2048xf16>
  }
  %mine = tensor.extract_slice %s[%pid, 0] [1, 2048] [1, 1] : tensor<4x2048xf16> to tensor<1x2048xf16>
  %y = arith.mulf %mine, %mine : tensor<1x2048xf16>
  ktdp.store %y, %ty : tensor<1x2048xf16>, <1x2048xindex>
  return
}
