// RUN: ktflow-opt %s --ktdf-resolve-distributed-views -split-input-file | FileCheck %s
// RUN: ktflow-opt %s --ktdf-check-supported -split-input-file

// Tiles that may straddle the parts of a distributed view over global
// parts are accessed part by part: each load and store becomes one per
// part the tile may touch, of the tile anchored in the part's local
// coordinates on a view of the part whose set is its box moved to the
// origin (the DMA masks what lies outside; ktdf.part_piece tells it that
// nothing computed from those coordinates is stored, so a load need not
// zero them), and the element-wise ops between them are repeated per part.

// Two column halves of 96 at their own pointers; the 64-wide block at
// %col straddles them when %col = 64. Piece 1 is anchored at %col - 96.
// CHECK-DAG:   #[[LOCAL:.*]] = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 95 >= 0)>
// CHECK-LABEL: func.func @straddle_columns
// CHECK-SAME:    (%[[X0:[^:]*]]: index, %[[X1:[^:]*]]: index, %[[Y0:[^:]*]]: index, %[[Y1:[^:]*]]: index)
// CHECK-NOT:     construct_distributed_memory_view
// CHECK-DAG:     %[[LX0:.*]] = ktdp.construct_memory_view %[[X0]], {{.*}}coordinate_set = #[[LOCAL]]
// CHECK-DAG:     %[[LX1:.*]] = ktdp.construct_memory_view %[[X1]], {{.*}}coordinate_set = #[[LOCAL]]
// CHECK-DAG:     %[[LY0:.*]] = ktdp.construct_memory_view %[[Y0]], {{.*}}coordinate_set = #[[LOCAL]]
// CHECK-DAG:     %[[LY1:.*]] = ktdp.construct_memory_view %[[Y1]], {{.*}}coordinate_set = #[[LOCAL]]
// CHECK:         scf.for %[[COL:.*]] =
// CHECK-DAG:       %[[TX0:.*]] = ktdp.construct_access_tile %[[LX0]][0, %[[COL]]] {{.*}}ktdf.part_piece
// CHECK-DAG:       %[[TX1:.*]] = ktdp.construct_access_tile %[[LX1]][0, %[[COL]] - 96] {{.*}}ktdf.part_piece
// CHECK-DAG:       %[[TY0:.*]] = ktdp.construct_access_tile %[[LY0]][0, %[[COL]]]
// CHECK-DAG:       %[[TY1:.*]] = ktdp.construct_access_tile %[[LY1]][0, %[[COL]] - 96]
// CHECK:           %[[A:.*]] = ktdp.load %[[TX0]]
// CHECK:           %[[B:.*]] = ktdp.load %[[TX1]]
// CHECK:           %[[A2:.*]] = arith.mulf %[[A]], %[[A]]
// CHECK:           %[[B2:.*]] = arith.mulf %[[B]], %[[B]]
// CHECK:           ktdp.store %[[A2]], %[[TY0]]
// CHECK:           ktdp.store %[[B2]], %[[TY1]]
// CHECK-NOT:     construct_distributed_memory_view
#h0 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 95 >= 0)>
#h1 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 - 96 >= 0, -d1 + 191 >= 0)>
#blk = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @straddle_columns(%x0: index, %x1: index, %y0: index, %y1: index) attributes {grid = [1]} {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %c192 = arith.constant 192 : index
  %X0 = ktdp.construct_memory_view %x0, sizes: [16, 96], strides: [96, 1] {coordinate_set = #h0, memory_space = #ktdp.memory_space<global>} : memref<16x96xf16>
  %X1 = ktdp.construct_memory_view %x1, sizes: [16, 96], strides: [96, 1] {coordinate_set = #h1, memory_space = #ktdp.memory_space<global>} : memref<16x96xf16>
  %X = ktdp.construct_distributed_memory_view(%X0, %X1 : memref<16x96xf16>, memref<16x96xf16>) : memref<16x192xf16>
  %Y0 = ktdp.construct_memory_view %y0, sizes: [16, 96], strides: [96, 1] {coordinate_set = #h0, memory_space = #ktdp.memory_space<global>} : memref<16x96xf16>
  %Y1 = ktdp.construct_memory_view %y1, sizes: [16, 96], strides: [96, 1] {coordinate_set = #h1, memory_space = #ktdp.memory_space<global>} : memref<16x96xf16>
  %Y = ktdp.construct_distributed_memory_view(%Y0, %Y1 : memref<16x96xf16>, memref<16x96xf16>) : memref<16x192xf16>
  scf.for %col = %c0 to %c192 step %c64 {
    %tx = ktdp.construct_access_tile %X[0, %col] {access_tile_set = #blk, access_tile_order = #id2} : memref<16x192xf16> -> !ktdp.access_tile<16x64xindex>
    %ty = ktdp.construct_access_tile %Y[0, %col] {access_tile_set = #blk, access_tile_order = #id2} : memref<16x192xf16> -> !ktdp.access_tile<16x64xindex>
    %x = ktdp.load %tx : <16x64xindex> -> tensor<16x64xf16>
    %sq = arith.mulf %x, %x : tensor<16x64xf16>
    ktdp.store %sq, %ty : tensor<16x64xf16>, <16x64xindex>
  }
  return
}

// -----

// Parts of different heights (not shards of one tensor): a tile at a
// constant anchor that lies in part 1 is accessed in part 1 only, at row
// 20 - 16 = 4; the stored value is loaded from a plain view.
// CHECK-LABEL: func.func @one_part
// CHECK-SAME:    (%[[A:[^:]*]]: index, %[[B:[^:]*]]: index, %[[W:[^:]*]]: index)
// CHECK:         %[[LB:.*]] = ktdp.construct_memory_view %[[B]], sizes: [48, 32]
// CHECK:         %[[V:.*]] = ktdp.load
// CHECK:         %[[T:.*]] = ktdp.construct_access_tile %[[LB]][4, 0]
// CHECK-NEXT:    ktdp.store %[[V]], %[[T]]
// CHECK-NOT:     ktdp.store
#top = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 31 >= 0)>
#bot = affine_set<(d0, d1) : (d0 - 16 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 31 >= 0)>
#all = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 31 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @one_part(%a: index, %b: index, %w: index) attributes {grid = [1]} {
  %A = ktdp.construct_memory_view %a, sizes: [16, 32], strides: [32, 1] {coordinate_set = #top, memory_space = #ktdp.memory_space<global>} : memref<16x32xf16>
  %B = ktdp.construct_memory_view %b, sizes: [48, 32], strides: [32, 1] {coordinate_set = #bot, memory_space = #ktdp.memory_space<global>} : memref<48x32xf16>
  %D = ktdp.construct_distributed_memory_view(%A, %B : memref<16x32xf16>, memref<48x32xf16>) : memref<64x32xf16>
  %W = ktdp.construct_memory_view %w, sizes: [8, 32], strides: [32, 1] {coordinate_set = #all, memory_space = #ktdp.memory_space<global>} : memref<8x32xf16>
  %tw = ktdp.construct_access_tile %W[0, 0] {access_tile_set = #all, access_tile_order = #id2} : memref<8x32xf16> -> !ktdp.access_tile<8x32xindex>
  %v = ktdp.load %tw : <8x32xindex> -> tensor<8x32xf16>
  %t = ktdp.construct_access_tile %D[20, 0] {access_tile_set = #all, access_tile_order = #id2} : memref<64x32xf16> -> !ktdp.access_tile<8x32xindex>
  ktdp.store %v, %t : tensor<8x32xf16>, <8x32xindex>
  return
}

// -----

// Y alone is a shard layout (its 32-wide tiles each lie in one part), but
// it stores what loads of X, whose parts are at two pointers, compute: Y is
// split with X, each access once per part.
// CHECK-LABEL: func.func @joined
// CHECK-NOT:     arith.divui
// CHECK-COUNT-2: ktdp.load
// CHECK-COUNT-2: arith.negf
// CHECK-COUNT-2: ktdp.store
#p0 = affine_set<(d0) : (d0 >= 0, -d0 + 31 >= 0)>
#p1 = affine_set<(d0) : (d0 - 32 >= 0, -d0 + 63 >= 0)>
#blk = affine_set<(d0) : (d0 >= 0, -d0 + 31 >= 0)>
#id1 = affine_map<(d0) -> (d0)>
func.func @joined(%x0: index, %x1: index, %y: index) attributes {grid = [2]} {
  %id = ktdp.get_compute_tile_id : index
  %c32 = arith.constant 32 : index
  %y1 = arith.addi %y, %c32 : index
  %X0 = ktdp.construct_memory_view %x0, sizes: [32], strides: [1] {coordinate_set = #p0, memory_space = #ktdp.memory_space<global>} : memref<32xf16>
  %X1 = ktdp.construct_memory_view %x1, sizes: [32], strides: [1] {coordinate_set = #p1, memory_space = #ktdp.memory_space<global>} : memref<32xf16>
  %X = ktdp.construct_distributed_memory_view(%X0, %X1 : memref<32xf16>, memref<32xf16>) : memref<64xf16>
  %Y0 = ktdp.construct_memory_view %y, sizes: [32], strides: [1] {coordinate_set = #p0, memory_space = #ktdp.memory_space<global>} : memref<32xf16>
  %Y1 = ktdp.construct_memory_view %y1, sizes: [32], strides: [1] {coordinate_set = #p1, memory_space = #ktdp.memory_space<global>} : memref<32xf16>
  %Y = ktdp.construct_distributed_memory_view(%Y0, %Y1 : memref<32xf16>, memref<32xf16>) : memref<64xf16>
  %o = arith.muli %id, %c32 : index
  %tx = ktdp.construct_access_tile %X[%o] {access_tile_set = #blk, access_tile_order = #id1} : memref<64xf16> -> !ktdp.access_tile<32xindex>
  %ty = ktdp.construct_access_tile %Y[%o] {access_tile_set = #blk, access_tile_order = #id1} : memref<64xf16> -> !ktdp.access_tile<32xindex>
  %x = ktdp.load %tx : <32xindex> -> tensor<32xf16>
  %n = arith.negf %x : tensor<32xf16>
  ktdp.store %n, %ty : tensor<32xf16>, <32xindex>
  return
}

// -----

// A straddling load's value stored into one plain view: each part's copy
// goes to the part's box of it, a view at y + 96 (the box's first column)
// with Y's strides for part 1, anchored at %col - 96.
// CHECK-LABEL: func.func @to_plain
// CHECK-SAME:    (%[[X0:[^:]*]]: index, %[[X1:[^:]*]]: index, %[[Y:[^:]*]]: index)
// CHECK-DAG:     %[[C96:.*]] = arith.constant 96 : index
// CHECK-DAG:     %[[Y1:.*]] = arith.addi %[[Y]], %[[C96]] : index
// CHECK-DAG:     %[[BOX1:.*]] = ktdp.construct_memory_view %[[Y1]], sizes: [16, 96], strides: [192, 1] {{.*}} : memref<16x96xf16, strided<[192, 1]>>
// CHECK-DAG:     %[[BOX0:.*]] = ktdp.construct_memory_view %[[Y]], sizes: [16, 96], strides: [192, 1] {{.*}} : memref<16x96xf16, strided<[192, 1]>>
// CHECK-DAG:     %[[T0:.*]] = ktdp.construct_access_tile %[[BOX0]][0, %[[COL:.*]]] {{.*}}
// CHECK-DAG:     %[[T1:.*]] = ktdp.construct_access_tile %[[BOX1]][0, %{{.*}} - 96]
// CHECK-COUNT-2: math.exp
// CHECK:         ktdp.store %{{.*}}, %[[T0]]
// CHECK:         ktdp.store %{{.*}}, %[[T1]]
#h0 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 95 >= 0)>
#h1 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 - 96 >= 0, -d1 + 191 >= 0)>
#all = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 191 >= 0)>
#blk = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @to_plain(%x0: index, %x1: index, %y: index) attributes {grid = [3]} {
  %id = ktdp.get_compute_tile_id : index
  %c64 = arith.constant 64 : index
  %X0 = ktdp.construct_memory_view %x0, sizes: [16, 96], strides: [96, 1] {coordinate_set = #h0, memory_space = #ktdp.memory_space<global>} : memref<16x96xf16>
  %X1 = ktdp.construct_memory_view %x1, sizes: [16, 96], strides: [96, 1] {coordinate_set = #h1, memory_space = #ktdp.memory_space<global>} : memref<16x96xf16>
  %X = ktdp.construct_distributed_memory_view(%X0, %X1 : memref<16x96xf16>, memref<16x96xf16>) : memref<16x192xf16>
  %Y = ktdp.construct_memory_view %y, sizes: [16, 192], strides: [192, 1] {coordinate_set = #all, memory_space = #ktdp.memory_space<global>} : memref<16x192xf16>
  %col = arith.muli %id, %c64 : index
  %tx = ktdp.construct_access_tile %X[0, %col] {access_tile_set = #blk, access_tile_order = #id2} : memref<16x192xf16> -> !ktdp.access_tile<16x64xindex>
  %ty = ktdp.construct_access_tile %Y[0, %col] {access_tile_set = #blk, access_tile_order = #id2} : memref<16x192xf16> -> !ktdp.access_tile<16x64xindex>
  %x = ktdp.load %tx : <16x64xindex> -> tensor<16x64xf16>
  %e = math.exp %x : tensor<16x64xf16>
  ktdp.store %e, %ty : tensor<16x64xf16>, <16x64xindex>
  return
}

// -----

// Two row halves of a run-time height n at their own pointers: each part's
// coordinate_set binds s0 to its size n, so part 1's box, rows [n, 2n),
// moves with n. Its local view keeps the symbol (the box moved to the
// origin: rows [0, n)) and its pieces are anchored at %row - n.
// CHECK-DAG:   #[[LOCAL:.*]] = affine_set<(d0, d1)[s0] : (d0 >= 0, -d0 + s0 - 1 >= 0, d1 >= 0, -d1 + 63 >= 0)>
// CHECK-LABEL: func.func @straddle_dynamic_rows
// CHECK-SAME:    (%[[X0:[^:]*]]: index, %[[X1:[^:]*]]: index, %[[Y0:[^:]*]]: index, %[[Y1:[^:]*]]: index, %[[N:[^:]*]]: index, %[[ROW:[^:]*]]: index)
// CHECK-NOT:     construct_distributed_memory_view
// CHECK-DAG:     %[[LX0:.*]] = ktdp.construct_memory_view %[[X0]], sizes: [%[[N]], 64], {{.*}}coordinate_set = #[[LOCAL]]
// CHECK-DAG:     %[[LX1:.*]] = ktdp.construct_memory_view %[[X1]], sizes: [%[[N]], 64], {{.*}}coordinate_set = #[[LOCAL]]
// CHECK-DAG:     %[[LY0:.*]] = ktdp.construct_memory_view %[[Y0]], sizes: [%[[N]], 64], {{.*}}coordinate_set = #[[LOCAL]]
// CHECK-DAG:     %[[LY1:.*]] = ktdp.construct_memory_view %[[Y1]], sizes: [%[[N]], 64], {{.*}}coordinate_set = #[[LOCAL]]
// CHECK-DAG:     %[[TX0:.*]] = ktdp.construct_access_tile %[[LX0]][%[[ROW]], 0] {{.*}}ktdf.part_piece
// CHECK-DAG:     %[[TX1:.*]] = ktdp.construct_access_tile %[[LX1]][%[[ROW]] - %[[N]], 0] {{.*}}ktdf.part_piece
// CHECK-DAG:     %[[TY0:.*]] = ktdp.construct_access_tile %[[LY0]][%[[ROW]], 0]
// CHECK-DAG:     %[[TY1:.*]] = ktdp.construct_access_tile %[[LY1]][%[[ROW]] - %[[N]], 0]
// CHECK:         %[[A:.*]] = ktdp.load %[[TX0]]
// CHECK:         %[[B:.*]] = ktdp.load %[[TX1]]
// CHECK:         %[[A2:.*]] = math.exp %[[A]]
// CHECK:         %[[B2:.*]] = math.exp %[[B]]
// CHECK:         ktdp.store %[[A2]], %[[TY0]]
// CHECK:         ktdp.store %[[B2]], %[[TY1]]
#top = affine_set<(d0, d1)[s0] : (d0 >= 0, -d0 + s0 - 1 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#bottom = affine_set<(d0, d1)[s0] : (d0 - s0 >= 0, -d0 + 2 * s0 - 1 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#blk = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @straddle_dynamic_rows(%x0: index, %x1: index, %y0: index, %y1: index, %n: index, %row: index) attributes {grid = [1]} {
  %X0 = ktdp.construct_memory_view %x0, sizes: [%n, 64], strides: [64, 1] {coordinate_set = #top, memory_space = #ktdp.memory_space<global>} : memref<?x64xf16>
  %X1 = ktdp.construct_memory_view %x1, sizes: [%n, 64], strides: [64, 1] {coordinate_set = #bottom, memory_space = #ktdp.memory_space<global>} : memref<?x64xf16>
  %X = ktdp.construct_distributed_memory_view(%X0, %X1 : memref<?x64xf16>, memref<?x64xf16>) : memref<?x64xf16>
  %Y0 = ktdp.construct_memory_view %y0, sizes: [%n, 64], strides: [64, 1] {coordinate_set = #top, memory_space = #ktdp.memory_space<global>} : memref<?x64xf16>
  %Y1 = ktdp.construct_memory_view %y1, sizes: [%n, 64], strides: [64, 1] {coordinate_set = #bottom, memory_space = #ktdp.memory_space<global>} : memref<?x64xf16>
  %Y = ktdp.construct_distributed_memory_view(%Y0, %Y1 : memref<?x64xf16>, memref<?x64xf16>) : memref<?x64xf16>
  %tx = ktdp.construct_access_tile %X[%row, 0] {access_tile_set = #blk, access_tile_order = #id2} : memref<?x64xf16> -> !ktdp.access_tile<64x64xindex>
  %ty = ktdp.construct_access_tile %Y[%row, 0] {access_tile_set = #blk, access_tile_order = #id2} : memref<?x64xf16> -> !ktdp.access_tile<64x64xindex>
  %x = ktdp.load %tx : <64x64xindex> -> tensor<64x64xf16>
  %e = math.exp %x : tensor<64x64xf16>
  ktdp.store %e, %ty : tensor<64x64xf16>, <64x64xindex>
  return
}

// -----

// Two column halves of a run-time width n (the field guide's `[64, ?]`
// merge): each part's row stride is n, the size after it, so the local
// views keep `strides: [%n, 1]` (a run-time DMA stride); part 1's pieces
// are anchored at %col - n.
// CHECK-DAG:   #[[LOCALC:.*]] = affine_set<(d0, d1)[s0] : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + s0 - 1 >= 0)>
// CHECK-LABEL: func.func @straddle_dynamic_cols
// CHECK-SAME:    (%[[X0:[^:]*]]: index, %[[X1:[^:]*]]: index, %[[Y0:[^:]*]]: index, %[[Y1:[^:]*]]: index, %[[N:[^:]*]]: index, %[[COL:[^:]*]]: index)
// CHECK-NOT:     construct_distributed_memory_view
// CHECK-DAG:     %[[LX0:.*]] = ktdp.construct_memory_view %[[X0]], sizes: [64, %[[N]]], strides: [%[[N]], 1] {coordinate_set = #[[LOCALC]]
// CHECK-DAG:     %[[LX1:.*]] = ktdp.construct_memory_view %[[X1]], sizes: [64, %[[N]]], strides: [%[[N]], 1] {coordinate_set = #[[LOCALC]]
// CHECK-DAG:     %[[LY0:.*]] = ktdp.construct_memory_view %[[Y0]], sizes: [64, %[[N]]], strides: [%[[N]], 1] {coordinate_set = #[[LOCALC]]
// CHECK-DAG:     %[[LY1:.*]] = ktdp.construct_memory_view %[[Y1]], sizes: [64, %[[N]]], strides: [%[[N]], 1] {coordinate_set = #[[LOCALC]]
// CHECK-DAG:     %[[TX0:.*]] = ktdp.construct_access_tile %[[LX0]][0, %[[COL]]] {{.*}}ktdf.part_piece
// CHECK-DAG:     %[[TX1:.*]] = ktdp.construct_access_tile %[[LX1]][0, %[[COL]] - %[[N]]] {{.*}}ktdf.part_piece
// CHECK-DAG:     %[[TY0:.*]] = ktdp.construct_access_tile %[[LY0]][0, %[[COL]]]
// CHECK-DAG:     %[[TY1:.*]] = ktdp.construct_access_tile %[[LY1]][0, %[[COL]] - %[[N]]]
// CHECK:         %[[A:.*]] = ktdp.load %[[TX0]]
// CHECK:         %[[B:.*]] = ktdp.load %[[TX1]]
// CHECK:         %[[A2:.*]] = math.exp %[[A]]
// CHECK:         %[[B2:.*]] = math.exp %[[B]]
// CHECK:         ktdp.store %[[A2]], %[[TY0]]
// CHECK:         ktdp.store %[[B2]], %[[TY1]]
#left = affine_set<(d0, d1)[s0] : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + s0 - 1 >= 0)>
#right = affine_set<(d0, d1)[s0] : (d0 >= 0, -d0 + 63 >= 0, d1 - s0 >= 0, -d1 + 2 * s0 - 1 >= 0)>
#blk = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @straddle_dynamic_cols(%x0: index, %x1: index, %y0: index, %y1: index, %n: index, %col: index) attributes {grid = [1]} {
  %X0 = ktdp.construct_memory_view %x0, sizes: [64, %n], strides: [%n, 1] {coordinate_set = #left, memory_space = #ktdp.memory_space<global>} : memref<64x?xf16>
  %X1 = ktdp.construct_memory_view %x1, sizes: [64, %n], strides: [%n, 1] {coordinate_set = #right, memory_space = #ktdp.memory_space<global>} : memref<64x?xf16>
  %X = ktdp.construct_distributed_memory_view(%X0, %X1 : memref<64x?xf16>, memref<64x?xf16>) : memref<64x?xf16>
  %Y0 = ktdp.construct_memory_view %y0, sizes: [64, %n], strides: [%n, 1] {coordinate_set = #left, memory_space = #ktdp.memory_space<global>} : memref<64x?xf16>
  %Y1 = ktdp.construct_memory_view %y1, sizes: [64, %n], strides: [%n, 1] {coordinate_set = #right, memory_space = #ktdp.memory_space<global>} : memref<64x?xf16>
  %Y = ktdp.construct_distributed_memory_view(%Y0, %Y1 : memref<64x?xf16>, memref<64x?xf16>) : memref<64x?xf16>
  %tx = ktdp.construct_access_tile %X[0, %col] {access_tile_set = #blk, access_tile_order = #id2} : memref<64x?xf16> -> !ktdp.access_tile<64x64xindex>
  %ty = ktdp.construct_access_tile %Y[0, %col] {access_tile_set = #blk, access_tile_order = #id2} : memref<64x?xf16> -> !ktdp.access_tile<64x64xindex>
  %x = ktdp.load %tx : <64x64xindex> -> tensor<64x64xf16>
  %e = math.exp %x : tensor<64x64xf16>
  ktdp.store %e, %ty : tensor<64x64xf16>, <64x64xindex>
  return
}

// -----

// A value of a straddling tile that is reduced: the tile is cut at the
// part boundary inside it (column 96 of a tile anchored at column 0), each
// piece is the tile met with one part, accessed at its own shape (4x96, a
// load that reads 0 where it is masked, as any load: no ktdf.part_piece),
// the element-wise ops run per piece at that shape (the splat remade at
// it), and the sum folds piece 1 into piece 0's result (its outs). The
// folded sum is one value again, stored whole; the pieces are stored into
// Y's parts.
// CHECK-DAG:   #[[CUT:.*]] = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 95 >= 0)>
// CHECK-LABEL: func.func @straddle_reduced_columns
// CHECK-SAME:    (%[[X0:[^:]*]]: index, %[[X1:[^:]*]]: index, %[[Y0:[^:]*]]: index, %[[Y1:[^:]*]]: index, %[[V:[^:]*]]: index, %[[ROW:[^:]*]]: index, %[[SCALE:[^:]*]]: f32)
// CHECK-NOT:     construct_distributed_memory_view
// CHECK-DAG:     %[[LX0:.*]] = ktdp.construct_memory_view %[[X0]]
// CHECK-DAG:     %[[LX1:.*]] = ktdp.construct_memory_view %[[X1]]
// CHECK-DAG:     %[[LY0:.*]] = ktdp.construct_memory_view %[[Y0]]
// CHECK-DAG:     %[[LY1:.*]] = ktdp.construct_memory_view %[[Y1]]
// CHECK-DAG:     %[[TX0:.*]] = ktdp.construct_access_tile %[[LX0]][%[[ROW]], 0] {access_tile_order = #{{.*}}, access_tile_set = #[[CUT]]} : memref<16x96xf32> -> !ktdp.access_tile<4x96xindex>
// CHECK-DAG:     %[[TX1:.*]] = ktdp.construct_access_tile %[[LX1]][%[[ROW]], 0] {access_tile_order = #{{.*}}, access_tile_set = #[[CUT]]} : memref<16x96xf32> -> !ktdp.access_tile<4x96xindex>
// CHECK-DAG:     %[[TY0:.*]] = ktdp.construct_access_tile %[[LY0]][%[[ROW]], 0] {{.*}} -> !ktdp.access_tile<4x96xindex>
// CHECK-DAG:     %[[TY1:.*]] = ktdp.construct_access_tile %[[LY1]][%[[ROW]], 0] {{.*}} -> !ktdp.access_tile<4x96xindex>
// CHECK:         %[[A:.*]] = ktdp.load %[[TX0]] : <4x96xindex> -> tensor<4x96xf32>
// CHECK:         %[[B:.*]] = ktdp.load %[[TX1]] : <4x96xindex> -> tensor<4x96xf32>
// CHECK:         %[[SA:.*]] = tensor.splat %[[SCALE]] : tensor<4x96xf32>
// CHECK:         %[[A2:.*]] = arith.mulf %[[A]], %[[SA]] : tensor<4x96xf32>
// CHECK:         %[[SB:.*]] = tensor.splat %[[SCALE]] : tensor<4x96xf32>
// CHECK:         %[[B2:.*]] = arith.mulf %[[B]], %[[SB]] : tensor<4x96xf32>
// CHECK:         %[[INIT:.*]] = tensor.empty() : tensor<4xf32>
// CHECK:         %[[SUMA:.*]] = linalg.reduce { arith.addf } ins(%[[A2]] : tensor<4x96xf32>) outs(%[[INIT]] : tensor<4xf32>) dimensions = [1]
// CHECK:         %[[SUM:.*]] = linalg.reduce { arith.addf } ins(%[[B2]] : tensor<4x96xf32>) outs(%[[SUMA]] : tensor<4xf32>) dimensions = [1]
// CHECK:         ktdp.store %[[SUM]], %{{.*}} : tensor<4xf32>, <4xindex>
// CHECK:         ktdp.store %[[A2]], %[[TY0]]
// CHECK:         ktdp.store %[[B2]], %[[TY1]]
// CHECK-NOT:     tensor<4x192xf32>
#h0 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 95 >= 0)>
#h1 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 - 96 >= 0, -d1 + 191 >= 0)>
#v = affine_set<(d0) : (d0 >= 0, -d0 + 15 >= 0)>
#rows = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 191 >= 0)>
#four = affine_set<(d0) : (d0 >= 0, -d0 + 3 >= 0)>
#id1 = affine_map<(d0) -> (d0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @straddle_reduced_columns(%x0: index, %x1: index, %y0: index, %y1: index, %v: index, %row: index, %scale: f32) attributes {grid = [1]} {
  %X0 = ktdp.construct_memory_view %x0, sizes: [16, 96], strides: [96, 1] {coordinate_set = #h0, memory_space = #ktdp.memory_space<global>} : memref<16x96xf32>
  %X1 = ktdp.construct_memory_view %x1, sizes: [16, 96], strides: [96, 1] {coordinate_set = #h1, memory_space = #ktdp.memory_space<global>} : memref<16x96xf32>
  %X = ktdp.construct_distributed_memory_view(%X0, %X1 : memref<16x96xf32>, memref<16x96xf32>) : memref<16x192xf32>
  %Y0 = ktdp.construct_memory_view %y0, sizes: [16, 96], strides: [96, 1] {coordinate_set = #h0, memory_space = #ktdp.memory_space<global>} : memref<16x96xf32>
  %Y1 = ktdp.construct_memory_view %y1, sizes: [16, 96], strides: [96, 1] {coordinate_set = #h1, memory_space = #ktdp.memory_space<global>} : memref<16x96xf32>
  %Y = ktdp.construct_distributed_memory_view(%Y0, %Y1 : memref<16x96xf32>, memref<16x96xf32>) : memref<16x192xf32>
  %V = ktdp.construct_memory_view %v, sizes: [16], strides: [1] {coordinate_set = #v, memory_space = #ktdp.memory_space<global>} : memref<16xf32>
  %tx = ktdp.construct_access_tile %X[%row, 0] {access_tile_set = #rows, access_tile_order = #id2} : memref<16x192xf32> -> !ktdp.access_tile<4x192xindex>
  %ty = ktdp.construct_access_tile %Y[%row, 0] {access_tile_set = #rows, access_tile_order = #id2} : memref<16x192xf32> -> !ktdp.access_tile<4x192xindex>
  %tv = ktdp.construct_access_tile %V[%row] {access_tile_set = #four, access_tile_order = #id1} : memref<16xf32> -> !ktdp.access_tile<4xindex>
  %x = ktdp.load %tx : <4x192xindex> -> tensor<4x192xf32>
  %s = tensor.splat %scale : tensor<4x192xf32>
  %y = arith.mulf %x, %s : tensor<4x192xf32>
  %init = tensor.empty() : tensor<4xf32>
  %sum = linalg.reduce { arith.addf } ins(%y : tensor<4x192xf32>) outs(%init : tensor<4xf32>) dimensions = [1]
  ktdp.store %sum, %tv : tensor<4xf32>, <4xindex>
  ktdp.store %y, %ty : tensor<4x192xf32>, <4x192xindex>
  return
}
