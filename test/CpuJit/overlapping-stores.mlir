// Tiles whose stores hit the same elements (docs/cpu-jit.md): the
// interpreter runs tiles in ascending order, so the last tile's store
// lands last. The compiled tier runs tiles concurrently, notices that the
// ranges of elements concurrent tiles stored intersect, and reruns every
// tile in ascending order, so its outputs are the interpreter's bit for bit.
//
// Every tile stores its row of X into the one row of Y: Y ends as X's last
// row.
// RUN: rm -rf %t && mkdir -p %t
// RUN: ktflow interp %s --func same_row --seed 5 --engine=interp > %t/same.interp
// RUN: ktflow interp %s --func same_row --seed 5 --engine=jit > %t/same.jit 2> %t/same.note
// RUN: diff %t/same.interp %t/same.jit
// RUN: FileCheck %s --check-prefix=SAME --input-file=%t/same.note
// SAME: engine: jit ({{.*}}; tiles rerun in order: stores of tiles run concurrently may overlap in tensor 'y')
//
// Tile i stores X's row i into Y[i .. i+63]: neighbours overlap by 63.
// RUN: ktflow interp %s --func sliding --seed 5 --engine=interp > %t/sliding.interp
// RUN: ktflow interp %s --func sliding --seed 5 --engine=jit > %t/sliding.jit 2> %t/sliding.note
// RUN: diff %t/sliding.interp %t/sliding.jit
// RUN: FileCheck %s --check-prefix=SAME --input-file=%t/sliding.note
//
// Tile i stores into row i of Y alone: the tiles stay concurrent.
// RUN: ktflow interp %s --func own_row --seed 5 --engine=interp > %t/own.interp
// RUN: ktflow interp %s --func own_row --seed 5 --engine=jit > %t/own.jit 2> %t/own.note
// RUN: diff %t/own.interp %t/own.jit
// RUN: FileCheck %s --check-prefix=OWN --input-file=%t/own.note
// OWN: engine: jit
// OWN-NOT: rerun in order
//
// rope_heads with one store's origin swapped to [16, %row]: tiles store
// into each other's rows from inside loops that load between stores. The
// interpreter used to let tiles take turns at every load, so a store of
// an earlier tile could land last, and the engines disagreed (mutation
// campaign, issue 17, seed 1706 mutant 308); tiles that share no memory
// now run one after the other.
// RUN: sed -e 's/%OUT\[%row, 16\]/%OUT[16, %row]/' %examples/kernels/realworld/rope_heads.mlir > %t/rope.mlir
// RUN: grep -c '%OUT\[16, %row\]' %t/rope.mlir | FileCheck %s --check-prefix=MUTATED
// MUTATED: 1
// RUN: ktflow interp %t/rope.mlir --seed 3 --engine=interp > %t/rope.interp
// RUN: ktflow interp %t/rope.mlir --seed 3 --engine=jit > %t/rope.jit 2> %t/rope.note
// RUN: diff %t/rope.interp %t/rope.jit
// RUN: FileCheck %s --check-prefix=ROPE --input-file=%t/rope.note
// ROPE: engine: jit ({{.*}}; tiles rerun in order: stores of tiles run concurrently may overlap in tensor 'out_ptr')
//
// Two tiles store 5120 rows each as 128-row halves (10,240 ranges of one
// row each, compacted as they accumulate: two ascending runs per loop
// trip, merged run by run); they share only row 5119, the last row of
// tile 0's last trip, which the merged log must still hold.
// RUN: ktflow interp %s --func late_overlap --seed 5 --engine=interp > %t/late.interp
// RUN: ktflow interp %s --func late_overlap --seed 5 --engine=jit > %t/late.jit 2> %t/late.note
// RUN: diff %t/late.interp %t/late.jit
// RUN: FileCheck %s --check-prefix=LATE --input-file=%t/late.note
// LATE: engine: jit ({{.*}}; tiles rerun in order: stores of tiles run concurrently may overlap in tensor 'y')
//
// Dense tiles report their rows at once, each row's range then following
// at the row stride. Tile j stores columns 16j .. 16j+15 of an 8x64 Y as
// two 8x8 halves (the halves' rows continue each other, the blocks' rows
// do not touch): no two tiles' rows meet, the tiles stay concurrent.
// RUN: ktflow interp %s --func column_blocks --seed 5 --engine=interp > %t/blocks.interp
// RUN: ktflow interp %s --func column_blocks --seed 5 --engine=jit > %t/blocks.jit 2> %t/blocks.note
// RUN: diff %t/blocks.interp %t/blocks.jit
// RUN: FileCheck %s --check-prefix=OWN --input-file=%t/blocks.note
// Each tile but the last also stores one element, into row 7 (the last row
// of the next tile's block) only: the log must hold that row.
// RUN: ktflow interp %s --func column_corner --seed 5 --engine=interp > %t/corner.interp
// RUN: ktflow interp %s --func column_corner --seed 5 --engine=jit > %t/corner.jit 2> %t/corner.note
// RUN: diff %t/corner.interp %t/corner.jit
// RUN: FileCheck %s --check-prefix=LATE --input-file=%t/corner.note

#rows = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#row = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 63 >= 0)>
#wide = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 127 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#tall = affine_set<(d0, d1) : (d0 >= 0, -d0 + 10239 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#half = affine_set<(d0, d1) : (d0 >= 0, -d0 + 127 >= 0, d1 >= 0, -d1 + 31 >= 0)>
#grid8 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#block = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 7 >= 0)>
#one = affine_set<(d0, d1) : (d0 == 0, d1 == 0)>
module {
  func.func @same_row(%x: index, %y: index) attributes {grid = [64]} {
    %id = ktdp.get_compute_tile_id : index
    %X = ktdp.construct_memory_view %x, sizes: [64, 64], strides: [64, 1] {coordinate_set = #rows, memory_space = #ktdp.memory_space<global>} : memref<64x64xf32>
    %Y = ktdp.construct_memory_view %y, sizes: [1, 64], strides: [64, 1] {coordinate_set = #row, memory_space = #ktdp.memory_space<global>} : memref<1x64xf32>
    %t = ktdp.construct_access_tile %X[%id, 0] {access_tile_set = #row, access_tile_order = #id2} : memref<64x64xf32> -> !ktdp.access_tile<1x64xindex>
    %v = ktdp.load %t : <1x64xindex> -> tensor<1x64xf32>
    %u = ktdp.construct_access_tile %Y[0, 0] {access_tile_set = #row, access_tile_order = #id2} : memref<1x64xf32> -> !ktdp.access_tile<1x64xindex>
    ktdp.store %v, %u : tensor<1x64xf32>, <1x64xindex>
    return
  }
  func.func @sliding(%x: index, %y: index) attributes {grid = [64]} {
    %id = ktdp.get_compute_tile_id : index
    %X = ktdp.construct_memory_view %x, sizes: [64, 64], strides: [64, 1] {coordinate_set = #rows, memory_space = #ktdp.memory_space<global>} : memref<64x64xf32>
    %Y = ktdp.construct_memory_view %y, sizes: [1, 128], strides: [128, 1] {coordinate_set = #wide, memory_space = #ktdp.memory_space<global>} : memref<1x128xf32>
    %t = ktdp.construct_access_tile %X[%id, 0] {access_tile_set = #row, access_tile_order = #id2} : memref<64x64xf32> -> !ktdp.access_tile<1x64xindex>
    %v = ktdp.load %t : <1x64xindex> -> tensor<1x64xf32>
    %u = ktdp.construct_access_tile %Y[0, %id] {access_tile_set = #row, access_tile_order = #id2} : memref<1x128xf32> -> !ktdp.access_tile<1x64xindex>
    ktdp.store %v, %u : tensor<1x64xf32>, <1x64xindex>
    return
  }
  func.func @own_row(%x: index, %y: index) attributes {grid = [64]} {
    %id = ktdp.get_compute_tile_id : index
    %X = ktdp.construct_memory_view %x, sizes: [64, 64], strides: [64, 1] {coordinate_set = #rows, memory_space = #ktdp.memory_space<global>} : memref<64x64xf32>
    %Y = ktdp.construct_memory_view %y, sizes: [64, 64], strides: [64, 1] {coordinate_set = #rows, memory_space = #ktdp.memory_space<global>} : memref<64x64xf32>
    %t = ktdp.construct_access_tile %X[%id, 0] {access_tile_set = #row, access_tile_order = #id2} : memref<64x64xf32> -> !ktdp.access_tile<1x64xindex>
    %v = ktdp.load %t : <1x64xindex> -> tensor<1x64xf32>
    %u = ktdp.construct_access_tile %Y[%id, 0] {access_tile_set = #row, access_tile_order = #id2} : memref<64x64xf32> -> !ktdp.access_tile<1x64xindex>
    ktdp.store %v, %u : tensor<1x64xf32>, <1x64xindex>
    return
  }
  func.func @late_overlap(%x: index, %y: index) attributes {grid = [2]} {
    %id = ktdp.get_compute_tile_id : index
    %c0 = arith.constant 0 : index
    %c128 = arith.constant 128 : index
    %c5119 = arith.constant 5119 : index
    %c5120 = arith.constant 5120 : index
    %X = ktdp.construct_memory_view %x, sizes: [10240, 64], strides: [64, 1] {coordinate_set = #tall, memory_space = #ktdp.memory_space<global>} : memref<10240x64xf16>
    %Y = ktdp.construct_memory_view %y, sizes: [10240, 64], strides: [64, 1] {coordinate_set = #tall, memory_space = #ktdp.memory_space<global>} : memref<10240x64xf16>
    %base = arith.muli %id, %c5119 : index
    scf.for %i = %c0 to %c5120 step %c128 {
      %row = arith.addi %base, %i : index
      %tl = ktdp.construct_access_tile %X[%row, 0] {access_tile_set = #half, access_tile_order = #id2} : memref<10240x64xf16> -> !ktdp.access_tile<128x32xindex>
      %tr = ktdp.construct_access_tile %X[%row, 32] {access_tile_set = #half, access_tile_order = #id2} : memref<10240x64xf16> -> !ktdp.access_tile<128x32xindex>
      %l = ktdp.load %tl : <128x32xindex> -> tensor<128x32xf16>
      %r = ktdp.load %tr : <128x32xindex> -> tensor<128x32xf16>
      %ul = ktdp.construct_access_tile %Y[%row, 0] {access_tile_set = #half, access_tile_order = #id2} : memref<10240x64xf16> -> !ktdp.access_tile<128x32xindex>
      %ur = ktdp.construct_access_tile %Y[%row, 32] {access_tile_set = #half, access_tile_order = #id2} : memref<10240x64xf16> -> !ktdp.access_tile<128x32xindex>
      ktdp.store %l, %ul : tensor<128x32xf16>, <128x32xindex>
      ktdp.store %r, %ur : tensor<128x32xf16>, <128x32xindex>
    }
    return
  }
  func.func @column_blocks(%x: index, %y: index) attributes {grid = [4]} {
    %j = ktdp.get_compute_tile_id : index
    %c7 = arith.constant 7 : index
    %c8 = arith.constant 8 : index
    %c16 = arith.constant 16 : index
    %X = ktdp.construct_memory_view %x, sizes: [8, 64], strides: [64, 1] {coordinate_set = #grid8, memory_space = #ktdp.memory_space<global>} : memref<8x64xf32>
    %Y = ktdp.construct_memory_view %y, sizes: [8, 64], strides: [64, 1] {coordinate_set = #grid8, memory_space = #ktdp.memory_space<global>} : memref<8x64xf32>
    %left = arith.muli %j, %c16 : index
    %right = arith.addi %left, %c8 : index
    %tl = ktdp.construct_access_tile %X[0, %left] {access_tile_set = #block, access_tile_order = #id2} : memref<8x64xf32> -> !ktdp.access_tile<8x8xindex>
    %tr = ktdp.construct_access_tile %X[0, %right] {access_tile_set = #block, access_tile_order = #id2} : memref<8x64xf32> -> !ktdp.access_tile<8x8xindex>
    %l = ktdp.load %tl : <8x8xindex> -> tensor<8x8xf32>
    %r = ktdp.load %tr : <8x8xindex> -> tensor<8x8xf32>
    %ul = ktdp.construct_access_tile %Y[0, %left] {access_tile_set = #block, access_tile_order = #id2} : memref<8x64xf32> -> !ktdp.access_tile<8x8xindex>
    %ur = ktdp.construct_access_tile %Y[0, %right] {access_tile_set = #block, access_tile_order = #id2} : memref<8x64xf32> -> !ktdp.access_tile<8x8xindex>
    ktdp.store %l, %ul : tensor<8x8xf32>, <8x8xindex>
    ktdp.store %r, %ur : tensor<8x8xf32>, <8x8xindex>
    return
  }
  func.func @column_corner(%x: index, %y: index) attributes {grid = [4]} {
    %j = ktdp.get_compute_tile_id : index
    %c7 = arith.constant 7 : index
    %c8 = arith.constant 8 : index
    %c16 = arith.constant 16 : index
    %X = ktdp.construct_memory_view %x, sizes: [8, 64], strides: [64, 1] {coordinate_set = #grid8, memory_space = #ktdp.memory_space<global>} : memref<8x64xf32>
    %Y = ktdp.construct_memory_view %y, sizes: [8, 64], strides: [64, 1] {coordinate_set = #grid8, memory_space = #ktdp.memory_space<global>} : memref<8x64xf32>
    %left = arith.muli %j, %c16 : index
    %right = arith.addi %left, %c8 : index
    %tl = ktdp.construct_access_tile %X[0, %left] {access_tile_set = #block, access_tile_order = #id2} : memref<8x64xf32> -> !ktdp.access_tile<8x8xindex>
    %tr = ktdp.construct_access_tile %X[0, %right] {access_tile_set = #block, access_tile_order = #id2} : memref<8x64xf32> -> !ktdp.access_tile<8x8xindex>
    %l = ktdp.load %tl : <8x8xindex> -> tensor<8x8xf32>
    %r = ktdp.load %tr : <8x8xindex> -> tensor<8x8xf32>
    %ul = ktdp.construct_access_tile %Y[0, %left] {access_tile_set = #block, access_tile_order = #id2} : memref<8x64xf32> -> !ktdp.access_tile<8x8xindex>
    %ur = ktdp.construct_access_tile %Y[0, %right] {access_tile_set = #block, access_tile_order = #id2} : memref<8x64xf32> -> !ktdp.access_tile<8x8xindex>
    ktdp.store %l, %ul : tensor<8x8xf32>, <8x8xindex>
    ktdp.store %r, %ur : tensor<8x8xf32>, <8x8xindex>
    %c3 = arith.constant 3 : index
    %notLast = arith.cmpi ult, %j, %c3 : index
    scf.if %notLast {
      %next = arith.addi %left, %c16 : index
      %t1 = ktdp.construct_access_tile %X[0, 0] {access_tile_set = #one, access_tile_order = #id2} : memref<8x64xf32> -> !ktdp.access_tile<1x1xindex>
      %v1 = ktdp.load %t1 : <1x1xindex> -> tensor<1x1xf32>
      %u1 = ktdp.construct_access_tile %Y[%c7, %next] {access_tile_set = #one, access_tile_order = #id2} : memref<8x64xf32> -> !ktdp.access_tile<1x1xindex>
      ktdp.store %v1, %u1 : tensor<1x1xf32>, <1x1xindex>
    }
    return
  }
}
