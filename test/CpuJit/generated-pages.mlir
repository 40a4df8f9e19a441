// Generated values on the compiled tier, page by page (docs/cpu-jit.md,
// "Generated values"): each 64 KiB page of a tensor with generated initial
// values is generated when a tile first touches it, as the interpreter
// backs its memory. Rows of 32768 f16 are one page each.
//
// Stores into pages no tile read keep the page's other generated values:
// the written tensors, read back whole, are the interpreter's bit for bit,
// both for a tensor only stored into (tiles run concurrently) and for one
// loaded and stored (tiles take turns).
// RUN: rm -rf %t && mkdir -p %t
// RUN: ktflow interp %s --func store_beside --seed 5 --input y_ptr=randn --engine=interp --output y_ptr=%t/beside.interp.npy > %t/beside.interp
// RUN: ktflow interp %s --func store_beside --seed 5 --input y_ptr=randn --engine=jit --output y_ptr=%t/beside.jit.npy > %t/beside.jit 2> %t/beside.note
// RUN: diff %t/beside.interp %t/beside.jit
// RUN: cmp %t/beside.interp.npy %t/beside.jit.npy
// RUN: FileCheck %s --check-prefix=JIT --input-file=%t/beside.note
// JIT: engine: jit
// RUN: ktflow interp %s --func update_in_place --seed 5 --engine=interp --output x_ptr=%t/update.interp.npy > %t/update.interp
// RUN: ktflow interp %s --func update_in_place --seed 5 --engine=jit --output x_ptr=%t/update.jit.npy > %t/update.jit 2> %t/update.note
// RUN: diff %t/update.interp %t/update.jit
// RUN: cmp %t/update.interp.npy %t/update.jit.npy
// RUN: FileCheck %s --check-prefix=JIT --input-file=%t/update.note
//
// Generated pages touched past the memory ceiling (8 pages of 64 KiB and
// the output's, over 256 KiB; --max-memory-bytes binds both engines): the
// tier's run fails, and the interpreter reports it at the load. Within it
// both engines run.
// RUN: not ktflow interp %s --func touch_rows --seed 5 --max-memory-bytes=262144 2>&1 | FileCheck %s --check-prefix=CEILING
// CEILING: note: engine: interp (jit: out of memory: the run needs more than the memory ceiling of 262144 bytes for its tensors)
// RUN: ktflow interp %s --func touch_rows --seed 5 --max-memory-bytes=1048576 2>&1 | FileCheck %s --check-prefix=JIT
// CEILING: generated-pages.mlir:[[@LINE+52]]:{{[0-9]+}}: error: 'ktdp.load' op tile {{.*}}: out of memory: the run needs more than 262144 bytes

#rows8 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 32767 >= 0)>
#rows64 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 32767 >= 0)>
#out = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#row = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 127 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
module {
  // Tile t reads 128 elements of X's row 2t + 1 and stores them, doubled, at
  // columns 1000..1127 of Y's row 2t.
  func.func @store_beside(%x_ptr: index, %y_ptr: index) attributes {grid = [4, 1]} {
    %t = ktdp.get_compute_tile_id : index
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c1000 = arith.constant 1000 : index
    %even = arith.addi %t, %t : index
    %read = arith.addi %even, %c1 : index
    %X = ktdp.construct_memory_view %x_ptr, sizes: [8, 32768], strides: [32768, 1] {coordinate_set = #rows8, memory_space = #ktdp.memory_space<global>} : memref<8x32768xf16>
    %Y = ktdp.construct_memory_view %y_ptr, sizes: [8, 32768], strides: [32768, 1] {coordinate_set = #rows8, memory_space = #ktdp.memory_space<global>} : memref<8x32768xf16>
    %tx = ktdp.construct_access_tile %X[%read, %c0] {access_tile_set = #row, access_tile_order = #id2} : memref<8x32768xf16> -> !ktdp.access_tile<1x128xindex>
    %ty = ktdp.construct_access_tile %Y[%even, %c1000] {access_tile_set = #row, access_tile_order = #id2} : memref<8x32768xf16> -> !ktdp.access_tile<1x128xindex>
    %x = ktdp.load %tx : <1x128xindex> -> tensor<1x128xf16>
    %y = arith.addf %x, %x : tensor<1x128xf16>
    ktdp.store %y, %ty : tensor<1x128xf16>, <1x128xindex>
    return
  }
  // The same in one tensor: tile t reads row 2t + 1 and writes row 2t.
  func.func @update_in_place(%x_ptr: index) attributes {grid = [4, 1]} {
    %t = ktdp.get_compute_tile_id : index
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c1000 = arith.constant 1000 : index
    %even = arith.addi %t, %t : index
    %read = arith.addi %even, %c1 : index
    %X = ktdp.construct_memory_view %x_ptr, sizes: [8, 32768], strides: [32768, 1] {coordinate_set = #rows8, memory_space = #ktdp.memory_space<global>} : memref<8x32768xf16>
    %tx = ktdp.construct_access_tile %X[%read, %c0] {access_tile_set = #row, access_tile_order = #id2} : memref<8x32768xf16> -> !ktdp.access_tile<1x128xindex>
    %ty = ktdp.construct_access_tile %X[%even, %c1000] {access_tile_set = #row, access_tile_order = #id2} : memref<8x32768xf16> -> !ktdp.access_tile<1x128xindex>
    %x = ktdp.load %tx : <1x128xindex> -> tensor<1x128xf16>
    %y = arith.addf %x, %x : tensor<1x128xf16>
    ktdp.store %y, %ty : tensor<1x128xf16>, <1x128xindex>
    return
  }
  // Tile t reads 128 elements of row 8t, a page of its own.
  func.func @touch_rows(%x_ptr: index, %y_ptr: index) attributes {grid = [8, 1]} {
    %t = ktdp.get_compute_tile_id : index
    %c0 = arith.constant 0 : index
    %c8 = arith.constant 8 : index
    %row = arith.muli %t, %c8 : index
    %X = ktdp.construct_memory_view %x_ptr, sizes: [64, 32768], strides: [32768, 1] {coordinate_set = #rows64, memory_space = #ktdp.memory_space<global>} : memref<64x32768xf16>
    %Y = ktdp.construct_memory_view %y_ptr, sizes: [8, 128], strides: [128, 1] {coordinate_set = #out, memory_space = #ktdp.memory_space<global>} : memref<8x128xf16>
    %tx = ktdp.construct_access_tile %X[%row, %c0] {access_tile_set = #row, access_tile_order = #id2} : memref<64x32768xf16> -> !ktdp.access_tile<1x128xindex>
    %ty = ktdp.construct_access_tile %Y[%t, %c0] {access_tile_set = #row, access_tile_order = #id2} : memref<8x128xf16> -> !ktdp.access_tile<1x128xindex>
    %x = ktdp.load %tx : <1x128xindex> -> tensor<1x128xf16>
    ktdp.store %x, %ty : tensor<1x128xf16>, <1x128xindex>
    return
  }
}
