// Distributed memory views and views at computed addresses on the compiled
// tier (docs/cpu-jit.md): a coordinate is served by the first part whose
// coordinate_set holds it (local index = coordinate - the part's lower
// bound), a coordinate no part holds is masked, and a view at a computed
// address (`%p + 128`) extends its tensor when it runs, as in the
// interpreter (docs/interpreter.md §1, §3). The output lines, whose
// checksums cover every bit, must be the interpreter's.
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: ktflow interp %s --func parts --seed 5 --engine=interp > %t/parts.interp
// RUN: ktflow interp %s --func parts --seed 5 --engine=jit > %t/parts.jit 2> %t/parts.note
// RUN: diff %t/parts.interp %t/parts.jit
// RUN: FileCheck %s --check-prefix=JIT --input-file=%t/parts.note
// RUN: FileCheck %s --check-prefix=PARTS --input-file=%t/parts.jit
// JIT: engine: jit
// y: rows 0-3 from x[0, 64) (part 0 wins row 3), rows 4-7 from x[192, 256),
// rows 8-9 in no part: zeros. z: parts at z and z + 100, so 180 elements
// of which 80-99 are never written.
// PARTS: y: shape=10x16 dtype=f16
// PARTS: z: shape=180 dtype=f16
//
// Views only at computed addresses: tile t builds one at o + 32t of
// (4 - t) x 32, so tile 0's declares the whole tensor, row-major: 4x32.
// The tier's first run has no buffer for o and runs again over the extent
// the views declared.
// RUN: ktflow interp %s --func grown --seed 5 --engine=interp > %t/grown.interp
// RUN: ktflow interp %s --func grown --seed 5 --engine=jit > %t/grown.jit 2> %t/grown.note
// RUN: diff %t/grown.interp %t/grown.jit
// RUN: FileCheck %s --check-prefix=JIT --input-file=%t/grown.note
// RUN: FileCheck %s --check-prefix=GROWN --input-file=%t/grown.jit
// GROWN: o: shape=4x32 dtype=f16
//
// Parts in two different tensors are not lowered yet.
// RUN: ktflow interp %s --func two_tensors --seed 5 2>&1 | FileCheck %s --check-prefix=TWO
// TWO: engine: interp (jit: not lowerable: a distributed view whose parts are in different tensors)

#p0 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 15 >= 0)>
#p1 = affine_set<(d0, d1) : (d0 - 3 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 15 >= 0)>
#z0 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 4 >= 0, d1 >= 0, -d1 + 15 >= 0)>
#z1 = affine_set<(d0, d1) : (d0 - 5 >= 0, -d0 + 9 >= 0, d1 >= 0, -d1 + 15 >= 0)>
#all = affine_set<(d0, d1) : (d0 >= 0, -d0 + 9 >= 0, d1 >= 0, -d1 + 15 >= 0)>
#half = affine_set<(d0, d1) : (d0 >= 0, -d0 + 9 >= 0, d1 >= 0, -d1 + 7 >= 0)>
#rows = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 31 >= 0)>
#rows_n = affine_set<(d0, d1)[n] : (d0 >= 0, -d0 + n - 1 >= 0, d1 >= 0, -d1 + 31 >= 0)>
#row = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 31 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @parts(%x: index, %y: index, %z: index) attributes {grid = [2]} {
    %t = ktdp.get_compute_tile_id : index
    %c8 = arith.constant 8 : index
    %c100 = arith.constant 100 : index
    %c128 = arith.constant 128 : index
    %col = arith.muli %t, %c8 : index
    %x1 = arith.addi %x, %c128 : index
    %z1 = arith.addi %z, %c100 : index
    // Row 3 is in both parts: part 0 serves it.
    %X0 = ktdp.construct_memory_view %x, sizes: [4, 16], strides: [16, 1] {coordinate_set = #p0, memory_space = #ktdp.memory_space<global>} : memref<4x16xf16>
    %X1 = ktdp.construct_memory_view %x1, sizes: [8, 16], strides: [16, 1] {coordinate_set = #p1, memory_space = #ktdp.memory_space<global>} : memref<8x16xf16>
    %X = ktdp.construct_distributed_memory_view(%X0, %X1 : memref<4x16xf16>, memref<8x16xf16>) : memref<10x16xf16>
    %Y = ktdp.construct_memory_view %y, sizes: [10, 16], strides: [16, 1] {coordinate_set = #all, memory_space = #ktdp.memory_space<global>} : memref<10x16xf16>
    %Z0 = ktdp.construct_memory_view %z, sizes: [5, 16], strides: [16, 1] {coordinate_set = #z0, memory_space = #ktdp.memory_space<global>} : memref<5x16xf16>
    %Z1 = ktdp.construct_memory_view %z1, sizes: [5, 16], strides: [16, 1] {coordinate_set = #z1, memory_space = #ktdp.memory_space<global>} : memref<5x16xf16>
    %Z = ktdp.construct_distributed_memory_view(%Z0, %Z1 : memref<5x16xf16>, memref<5x16xf16>) : memref<10x16xf16>
    %tx = ktdp.construct_access_tile %X[0, %col] {access_tile_set = #half, access_tile_order = #id2} : memref<10x16xf16> -> !ktdp.access_tile<10x8xindex>
    %v = ktdp.load %tx : <10x8xindex> -> tensor<10x8xf16>
    %ty = ktdp.construct_access_tile %Y[0, %col] {access_tile_set = #half, access_tile_order = #id2} : memref<10x16xf16> -> !ktdp.access_tile<10x8xindex>
    ktdp.store %v, %ty : tensor<10x8xf16>, <10x8xindex>
    %w = arith.addf %v, %v : tensor<10x8xf16>
    %tz = ktdp.construct_access_tile %Z[0, %col] {access_tile_set = #half, access_tile_order = #id2} : memref<10x16xf16> -> !ktdp.access_tile<10x8xindex>
    ktdp.store %w, %tz : tensor<10x8xf16>, <10x8xindex>
    return
  }

  func.func @grown(%x: index, %o: index) attributes {grid = [4]} {
    %t = ktdp.get_compute_tile_id : index
    %c4 = arith.constant 4 : index
    %c32 = arith.constant 32 : index
    %X = ktdp.construct_memory_view %x, sizes: [4, 32], strides: [32, 1] {coordinate_set = #rows, memory_space = #ktdp.memory_space<global>} : memref<4x32xf16>
    %off = arith.muli %t, %c32 : index
    %at = arith.addi %o, %off : index
    %n = arith.subi %c4, %t : index
    %O = ktdp.construct_memory_view %at, sizes: [%n, 32], strides: [32, 1] {coordinate_set = #rows_n, memory_space = #ktdp.memory_space<global>} : memref<?x32xf16>
    %tx = ktdp.construct_access_tile %X[%t, 0] {access_tile_set = #row, access_tile_order = #id2} : memref<4x32xf16> -> !ktdp.access_tile<1x32xindex>
    %v = ktdp.load %tx : <1x32xindex> -> tensor<1x32xf16>
    %to = ktdp.construct_access_tile %O[0, 0] {access_tile_set = #row, access_tile_order = #id2} : memref<?x32xf16> -> !ktdp.access_tile<1x32xindex>
    ktdp.store %v, %to : tensor<1x32xf16>, <1x32xindex>
    return
  }

  func.func @two_tensors(%x: index, %x2: index, %y: index) attributes {grid = [2]} {
    %t = ktdp.get_compute_tile_id : index
    %c8 = arith.constant 8 : index
    %col = arith.muli %t, %c8 : index
    %X0 = ktdp.construct_memory_view %x, sizes: [4, 16], strides: [16, 1] {coordinate_set = #p0, memory_space = #ktdp.memory_space<global>} : memref<4x16xf16>
    %X1 = ktdp.construct_memory_view %x2, sizes: [8, 16], strides: [16, 1] {coordinate_set = #p1, memory_space = #ktdp.memory_space<global>} : memref<8x16xf16>
    %X = ktdp.construct_distributed_memory_view(%X0, %X1 : memref<4x16xf16>, memref<8x16xf16>) : memref<10x16xf16>
    %Y = ktdp.construct_memory_view %y, sizes: [10, 16], strides: [16, 1] {coordinate_set = #all, memory_space = #ktdp.memory_space<global>} : memref<10x16xf16>
    %tx = ktdp.construct_access_tile %X[0, %col] {access_tile_set = #half, access_tile_order = #id2} : memref<10x16xf16> -> !ktdp.access_tile<10x8xindex>
    %v = ktdp.load %tx : <10x8xindex> -> tensor<10x8xf16>
    %ty = ktdp.construct_access_tile %Y[0, %col] {access_tile_set = #half, access_tile_order = #id2} : memref<10x16xf16> -> !ktdp.access_tile<10x8xindex>
    ktdp.store %v, %ty : tensor<10x8xf16>, <10x8xindex>
    return
  }
}
