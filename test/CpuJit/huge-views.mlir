// A view may declare far more memory than the kernel touches: the
// interpreter backs it lazily, page by page, and so does the compiled tier
// for generated values (docs/cpu-jit.md, "Generated values"); zeros and
// .npy data it allocates whole. A tensor of zeros past the memory ceiling
// is therefore not lowerable (the interpreter runs it) instead of an
// allocation failure that killed the process ("LLVM ERROR: out of memory",
// found by the mutation campaign, issue 17).
//
// 2^40 f16 elements of zeros declared, 4096 touched: the interpreter's
// result.
// RUN: ktflow interp %s --func declared_2e40 --seed 3 --input x_ptr=zeros --engine=interp > %t.interp
// RUN: ktflow interp %s --func declared_2e40 --seed 3 --input x_ptr=zeros > %t.auto 2> %t.note
// RUN: diff %t.interp %t.auto
// RUN: FileCheck %s --check-prefix=FALLBACK < %t.note
// FALLBACK: note: engine: interp (jit: not lowerable: the views of 'x_ptr' span 1099511627776 elements, more than the memory ceiling of {{[0-9]+}} bytes)
//
// The same 2^40 elements (2 TiB) of random values: the tier reserves their
// addresses and generates the pages the tiles touch.
// RUN: ktflow interp %s --func declared_2e40 --seed 3 --engine=interp > %t.random.interp
// RUN: ktflow interp %s --func declared_2e40 --seed 3 > %t.random.auto 2> %t.random.note
// RUN: diff %t.random.interp %t.random.auto
// RUN: FileCheck %s --check-prefix=JIT < %t.random.note
// JIT: note: engine: jit
//
// 2^30 f16 elements of random values declared by a 64 x 2^30 view (the
// shape of a mutation-campaign mutant whose 64 x 2^32 view, 8 GiB, stayed
// under the ceiling: the tier generated every value before running and the
// run hung; then it fell back past 1 GiB of generated values). The tier
// generates the one page its 16 tiles' rows touch, which they fault on
// concurrently.
// RUN: ktflow interp %s --func declared_64x2e30 --seed 3 --engine=interp > %t.wide.interp
// RUN: ktflow interp %s --func declared_64x2e30 --seed 3 > %t.wide.auto 2> %t.wide.note
// RUN: diff %t.wide.interp %t.wide.auto
// RUN: FileCheck %s --check-prefix=JIT < %t.wide.note
//
// 2^62 elements: past the interpreter's address space, a located error.
// RUN: not ktflow interp %s --func declared_2e62 --seed 3 2>&1 | FileCheck %s --check-prefix=TOOBIG
// TOOBIG: note: engine: interp (jit: not lowerable: the views of 'x_ptr' span 4611686018427387904 elements of generated values, more than the 17592186044416 bytes of address space the compiled tier reserves for a tensor)
// TOOBIG: huge-views.mlir:[[@LINE+38]]:10: error: 'ktdp.construct_memory_view' op tile 0 (0, 0): the view reaches address {{[0-9]+}}, past the interpreter's address space of 2^59 elements

#all = affine_set<(d0) : (d0 >= 0, -d0 + 4095 >= 0)>
#block = affine_set<(d0) : (d0 >= 0, -d0 + 255 >= 0)>
#id1 = affine_map<(d0) -> (d0)>
#rows = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#row = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 127 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @declared_2e40(%x_ptr: index, %y_ptr: index) attributes {grid = [16, 1]} {
    %pid = ktdp.get_compute_tile_id : index
    %c256 = arith.constant 256 : index
    %start = arith.muli %pid, %c256 : index
    %X = ktdp.construct_memory_view %x_ptr, sizes: [1099511627776], strides: [1] {coordinate_set = #all, memory_space = #ktdp.memory_space<global>} : memref<?xf16>
    %Y = ktdp.construct_memory_view %y_ptr, sizes: [4096], strides: [1] {coordinate_set = #all, memory_space = #ktdp.memory_space<global>} : memref<4096xf16>
    %tx = ktdp.construct_access_tile %X[%start] {access_tile_set = #block, access_tile_order = #id1} : memref<?xf16> -> !ktdp.access_tile<256xindex>
    %ty = ktdp.construct_access_tile %Y[%start] {access_tile_set = #block, access_tile_order = #id1} : memref<4096xf16> -> !ktdp.access_tile<256xindex>
    %x = ktdp.load %tx : <256xindex> -> tensor<256xf16>
    %y = arith.addf %x, %x : tensor<256xf16>
    ktdp.store %y, %ty : tensor<256xf16>, <256xindex>
    return
  }
  func.func @declared_64x2e30(%x_ptr: index, %y_ptr: index) attributes {grid = [16, 1]} {
    %pid = ktdp.get_compute_tile_id : index
    %c0 = arith.constant 0 : index
    %X = ktdp.construct_memory_view %x_ptr, sizes: [64, 1073741824], strides: [128, 1] {coordinate_set = #rows, memory_space = #ktdp.memory_space<global>} : memref<64x?xf16>
    %Y = ktdp.construct_memory_view %y_ptr, sizes: [64, 128], strides: [128, 1] {coordinate_set = #rows, memory_space = #ktdp.memory_space<global>} : memref<64x128xf16>
    %tx = ktdp.construct_access_tile %X[%pid, %c0] {access_tile_set = #row, access_tile_order = #id2} : memref<64x?xf16> -> !ktdp.access_tile<1x128xindex>
    %ty = ktdp.construct_access_tile %Y[%pid, %c0] {access_tile_set = #row, access_tile_order = #id2} : memref<64x128xf16> -> !ktdp.access_tile<1x128xindex>
    %x = ktdp.load %tx : <1x128xindex> -> tensor<1x128xf16>
    %y = arith.addf %x, %x : tensor<1x128xf16>
    ktdp.store %y, %ty : tensor<1x128xf16>, <1x128xindex>
    return
  }
  func.func @declared_2e62(%x_ptr: index, %y_ptr: index) attributes {grid = [16, 1]} {
    %pid = ktdp.get_compute_tile_id : index
    %c256 = arith.constant 256 : index
    %start = arith.muli %pid, %c256 : index
    %X = ktdp.construct_memory_view %x_ptr, sizes: [4611686018427387904], strides: [1] {coordinate_set = #all, memory_space = #ktdp.memory_space<global>} : memref<?xf16>
    %Y = ktdp.construct_memory_view %y_ptr, sizes: [4096], strides: [1] {coordinate_set = #all, memory_space = #ktdp.memory_space<global>} : memref<4096xf16>
    %tx = ktdp.construct_access_tile %X[%start] {access_tile_set = #block, access_tile_order = #id1} : memref<?xf16> -> !ktdp.access_tile<256xindex>
    %ty = ktdp.construct_access_tile %Y[%start] {access_tile_set = #block, access_tile_order = #id1} : memref<4096xf16> -> !ktdp.access_tile<256xindex>
    %x = ktdp.load %tx : <256xindex> -> tensor<256xf16>
    %y = arith.addf %x, %x : tensor<256xf16>
    ktdp.store %y, %ty : tensor<256xf16>, <256xindex>
    return
  }
}
