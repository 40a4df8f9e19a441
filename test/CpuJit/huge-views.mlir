// A view may declare far more memory than the kernel touches: the
// interpreter backs it lazily, page by page, but the compiled tier copies
// each tensor whole. A tensor past the memory ceiling is therefore not
// lowerable (the interpreter runs it) instead of an allocation failure
// that killed the process ("LLVM ERROR: out of memory", found by the
// mutation campaign, issue 17).
//
// 2^40 f16 elements declared, 4096 touched: the interpreter's result.
// RUN: ktflow interp %s --func declared_2e40 --seed 3 --engine=interp > %t.interp
// RUN: ktflow interp %s --func declared_2e40 --seed 3 > %t.auto 2> %t.note
// RUN: diff %t.interp %t.auto
// RUN: FileCheck %s --check-prefix=FALLBACK < %t.note
// FALLBACK: note: engine: interp (jit: not lowerable: the views of 'x_ptr' span 1099511627776 elements, more than the memory ceiling of {{[0-9]+}} bytes)
//
// 2^62 elements: past the interpreter's address space, a located error.
// RUN: not ktflow interp %s --func declared_2e62 --seed 3 2>&1 | FileCheck %s --check-prefix=TOOBIG
// TOOBIG: note: engine: interp (jit: not lowerable: the views of 'x_ptr' span 4611686018427387904 elements
// TOOBIG: huge-views.mlir:[[@LINE+23]]:10: error: 'ktdp.construct_memory_view' op tile 0 (0, 0): the view reaches address {{[0-9]+}}, past the interpreter's address space of 2^59 elements

#all = affine_set<(d0) : (d0 >= 0, -d0 + 4095 >= 0)>
#block = affine_set<(d0) : (d0 >= 0, -d0 + 255 >= 0)>
#id1 = affine_map<(d0) -> (d0)>
module {
  func.func @declared_2e40(%x_ptr: index, %y_ptr: index) attributes {grid = [16, 1]} {
    %pid = ktdp.get_compute_tile_id : index
    %c256 = arith.constant 256 : index
    %start = arith.muli %pid, %c256 : index
    %X = ktdp.construct_memory_view %x_ptr, sizes: [1099511627776], strides: [1] {coordinate_set = #all, memory_space = #ktdp.memory_space<global>} : memref<4096xf16>
    %Y = ktdp.construct_memory_view %y_ptr, sizes: [4096], strides: [1] {coordinate_set = #all, memory_space = #ktdp.memory_space<global>} : memref<4096xf16>
    %tx = ktdp.construct_access_tile %X[%start] {access_tile_set = #block, access_tile_order = #id1} : memref<4096xf16> -> !ktdp.access_tile<256xindex>
    %ty = ktdp.construct_access_tile %Y[%start] {access_tile_set = #block, access_tile_order = #id1} : memref<4096xf16> -> !ktdp.access_tile<256xindex>
    %x = ktdp.load %tx : <256xindex> -> tensor<256xf16>
    %y = arith.addf %x, %x : tensor<256xf16>
    ktdp.store %y, %ty : tensor<256xf16>, <256xindex>
    return
  }
  func.func @declared_2e62(%x_ptr: index, %y_ptr: index) attributes {grid = [16, 1]} {
    %pid = ktdp.get_compute_tile_id : index
    %c256 = arith.constant 256 : index
    %start = arith.muli %pid, %c256 : index
    %X = ktdp.construct_memory_view %x_ptr, sizes: [4611686018427387904], strides: [1] {coordinate_set = #all, memory_space = #ktdp.memory_space<global>} : memref<4096xf16>
    %Y = ktdp.construct_memory_view %y_ptr, sizes: [4096], strides: [1] {coordinate_set = #all, memory_space = #ktdp.memory_space<global>} : memref<4096xf16>
    %tx = ktdp.construct_access_tile %X[%start] {access_tile_set = #block, access_tile_order = #id1} : memref<4096xf16> -> !ktdp.access_tile<256xindex>
    %ty = ktdp.construct_access_tile %Y[%start] {access_tile_set = #block, access_tile_order = #id1} : memref<4096xf16> -> !ktdp.access_tile<256xindex>
    %x = ktdp.load %tx : <256xindex> -> tensor<256xf16>
    %y = arith.addf %x, %x : tensor<256xf16>
    ktdp.store %y, %ty : tensor<256xf16>, <256xindex>
    return
  }
}
