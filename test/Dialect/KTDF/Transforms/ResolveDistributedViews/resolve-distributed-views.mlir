// RUN: ktflow-opt %s --ktdf-resolve-distributed-views -split-input-file --allow-unregistered-dialect | FileCheck %s

// Two column shards of a 16x256 tensor, 16x128 each at ptr and ptr + 2048,
// their coordinate sets in global columns. Tile px's 1x128 block at column
// 128 px lies in part px: the tile becomes a tile of a view at
// ptr + 0 + (col floordiv 128) * 2048, anchored at the column minus
// 128 * k, its set the part's box moved to the origin. The distributed view
// and its parts are gone.

// CHECK:       #[[LOCAL:.*]] = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 127 >= 0)>
// CHECK-LABEL: func.func @column_shards
// CHECK-SAME:    (%[[X:[^:]*]]: index
// CHECK:         %[[PX:.*]]:2 = ktdp.get_compute_tile_id
// CHECK-NOT:     construct_distributed_memory_view
// CHECK:         %[[COL:.*]] = arith.muli %[[PX]]#0, %{{.*}} : index
// CHECK:         %[[K:.*]] = arith.divui %[[COL]], %{{.*}} : index
// CHECK:         %[[DISP:.*]] = arith.muli %[[K]], %{{.*}} : index
// CHECK:         %[[ADDR:.*]] = arith.addi %[[X]], %[[DISP]] : index
// CHECK:         %[[V:.*]] = ktdp.construct_memory_view %[[ADDR]], sizes: [16, 128], strides: [128, 1]
// CHECK-SAME:      coordinate_set = #[[LOCAL:[^,]*]]
// CHECK:         ktdp.construct_access_tile %[[V]][%[[PX]]#1, %[[COL]] - %[[K]] * 128]
// CHECK-NOT:     construct_distributed_memory_view
// CHECK:         return
#h0 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#h1 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 - 128 >= 0, -d1 + 255 >= 0)>
#blk = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 127 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @column_shards(%x: index, %y: index) attributes {grid = [2, 2]} {
  %px, %py = ktdp.get_compute_tile_id : index, index
  %c128 = arith.constant 128 : index
  %c2048 = arith.constant 2048 : index
  %x1 = arith.addi %x, %c2048 : index
  %X0 = ktdp.construct_memory_view %x, sizes: [16, 128], strides: [128, 1] {coordinate_set = #h0, memory_space = #ktdp.memory_space<global>} : memref<16x128xf16>
  %X1 = ktdp.construct_memory_view %x1, sizes: [16, 128], strides: [128, 1] {coordinate_set = #h1, memory_space = #ktdp.memory_space<global>} : memref<16x128xf16>
  %X = ktdp.construct_distributed_memory_view(%X0, %X1 : memref<16x128xf16>, memref<16x128xf16>) : memref<16x256xf16>
  %col = arith.muli %px, %c128 : index
  %t = ktdp.construct_access_tile %X[%py, %col] {access_tile_set = #blk, access_tile_order = #id2} : memref<16x256xf16> -> !ktdp.access_tile<1x128xindex>
  %v = ktdp.load %t : <1x128xindex> -> tensor<1x128xf16>
  %Y = ktdp.construct_memory_view %y, sizes: [16, 256], strides: [256, 1] {memory_space = #ktdp.memory_space<global>} : memref<16x256xf16>
  %ty = ktdp.construct_access_tile %Y[%py, %col] {access_tile_set = #blk, access_tile_order = #id2} : memref<16x256xf16> -> !ktdp.access_tile<1x128xindex>
  ktdp.store %v, %ty : tensor<1x128xf16>, <1x128xindex>
  return
}

// -----

// Row shards listed out of order (part 1 first): they are sorted by their
// lower row. A tile at a constant anchor in part 1 gets the constant k = 1
// and row 70 - 64 = 6 of it.

// CHECK-LABEL: func.func @row_shards_constant
// CHECK-SAME:    (%[[W:[^:]*]]: index
// CHECK:         %[[K:.*]] = arith.constant 1 : index
// CHECK:         %[[DISP:.*]] = arith.muli %[[K]], %{{.*}} : index
// CHECK:         %[[ADDR:.*]] = arith.addi %[[W]], %[[DISP]] : index
// CHECK:         %[[V:.*]] = ktdp.construct_memory_view %[[ADDR]], sizes: [64, 32]
// CHECK:         ktdp.construct_access_tile %[[V]][%[[K]] * -64 + 70, 0]
#r0 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 31 >= 0)>
#r1 = affine_set<(d0, d1) : (d0 - 64 >= 0, -d0 + 127 >= 0, d1 >= 0, -d1 + 31 >= 0)>
#t = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 31 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @row_shards_constant(%w: index, %y: index) attributes {grid = [1]} {
  %c2048 = arith.constant 2048 : index
  %w1 = arith.addi %w, %c2048 : index
  %W1 = ktdp.construct_memory_view %w1, sizes: [64, 32], strides: [32, 1] {coordinate_set = #r1, memory_space = #ktdp.memory_space<global>} : memref<64x32xf16>
  %W0 = ktdp.construct_memory_view %w, sizes: [64, 32], strides: [32, 1] {coordinate_set = #r0, memory_space = #ktdp.memory_space<global>} : memref<64x32xf16>
  %W = ktdp.construct_distributed_memory_view(%W1, %W0 : memref<64x32xf16>, memref<64x32xf16>) : memref<128x32xf16>
  %t = ktdp.construct_access_tile %W[70, 0] {access_tile_set = #t, access_tile_order = #id2} : memref<128x32xf16> -> !ktdp.access_tile<2x32xindex>
  %v = ktdp.load %t : <2x32xindex> -> tensor<2x32xf16>
  %Y = ktdp.construct_memory_view %y, sizes: [2, 32], strides: [32, 1] {memory_space = #ktdp.memory_space<global>} : memref<2x32xf16>
  %ty = ktdp.construct_access_tile %Y[0, 0] {access_tile_set = #t, access_tile_order = #id2} : memref<2x32xf16> -> !ktdp.access_tile<2x32xindex>
  ktdp.store %v, %ty : tensor<2x32xf16>, <2x32xindex>
  return
}

// -----

// A loop over the column shards, 128 columns a trip from 0: the induction
// variable is a multiple of 128, so each trip's tile lies in one shard,
// k = col floordiv 128.

// CHECK-LABEL: func.func @shard_loop
// CHECK:         scf.for %[[COL:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK:           %[[K:.*]] = arith.divui %[[COL]], %{{.*}} : index
// CHECK:           ktdp.construct_access_tile %{{.*}}[0, %[[COL]] - %[[K]] * 128]
#h0 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#h1 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 - 128 >= 0, -d1 + 255 >= 0)>
#blk = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 127 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @shard_loop(%x: index) attributes {grid = [1]} {
  %c0 = arith.constant 0 : index
  %c128 = arith.constant 128 : index
  %c256 = arith.constant 256 : index
  %c2048 = arith.constant 2048 : index
  %x1 = arith.addi %x, %c2048 : index
  %X0 = ktdp.construct_memory_view %x, sizes: [16, 128], strides: [128, 1] {coordinate_set = #h0, memory_space = #ktdp.memory_space<global>} : memref<16x128xf16>
  %X1 = ktdp.construct_memory_view %x1, sizes: [16, 128], strides: [128, 1] {coordinate_set = #h1, memory_space = #ktdp.memory_space<global>} : memref<16x128xf16>
  %X = ktdp.construct_distributed_memory_view(%X0, %X1 : memref<16x128xf16>, memref<16x128xf16>) : memref<16x256xf16>
  scf.for %col = %c0 to %c256 step %c128 {
    %t = ktdp.construct_access_tile %X[0, %col] {access_tile_set = #blk, access_tile_order = #id2} : memref<16x256xf16> -> !ktdp.access_tile<1x128xindex>
    %v = ktdp.load %t : <1x128xindex> -> tensor<1x128xf16>
    "test.use"(%v) : (tensor<1x128xf16>) -> ()
  }
  return
}
