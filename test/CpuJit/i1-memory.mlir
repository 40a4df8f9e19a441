// i1 tensors in memory on the compiled tier: an i1 element takes one byte
// (ktflow::bytesPerElement, the interpreter's and LLVM's size), so views
// of i1 at literal addresses and i1 scratchpads are lowered like any other
// element type. (Sized at bits / 8 = 0 bytes they were refused: "a view at
// literal address 0 of element type i1", and "scratchpads of 2 tiles".)
// Outputs must be the interpreter's bit for bit.
//
// mask_literal reads an i1 mask at @0 and writes one at @64 (bytes [0, 64)
// and [64, 128): disjoint only at one byte per element).
// RUN: rm -rf %t && mkdir -p %t
// RUN: ktflow interp %s --func mask_literal --seed 2 --input @0=range:0:2 --output @64=%t/lit.interp.npy --engine=interp > %t/lit.interp
// RUN: ktflow interp %s --func mask_literal --seed 2 --input @0=range:0:2 --output @64=%t/lit.jit.npy --engine=jit > %t/lit.jit 2> %t/lit.note
// RUN: diff %t/lit.interp %t/lit.jit
// RUN: cmp %t/lit.interp.npy %t/lit.jit.npy
// RUN: FileCheck %s --check-prefix=LIT --input-file=%t/lit.jit
// RUN: FileCheck %s --check-prefix=JIT --input-file=%t/lit.note
// LIT: @64: shape=2x32 dtype=i1 min=0 max=1
// LIT-NEXT: y: shape=2x32 dtype=f16
// JIT: engine: jit
//
// mask_scratchpad stores a comparison into an i1 scratchpad view and loads
// it back.
// RUN: ktflow interp %s --func mask_scratchpad --seed 2 --engine=interp > %t/lx.interp
// RUN: ktflow interp %s --func mask_scratchpad --seed 2 --engine=jit > %t/lx.jit 2> %t/lx.note
// RUN: diff %t/lx.interp %t/lx.jit
// RUN: FileCheck %s --check-prefix=JIT --input-file=%t/lx.note
//
// The same kernels on the devices match the interpreter too.
// RUN: ktflow run %s --func mask_literal --arch %examples/devices/sample_device.mlir --input @0=range:0:2 --check | FileCheck %s --check-prefix=DEVICE
// RUN: ktflow run %s --func mask_scratchpad --arch %examples/devices/spyre_like.mlir --check | FileCheck %s --check-prefix=DEVICE
// DEVICE-NOT: FAIL
// DEVICE: {{^}}PASS

#rows = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 31 >= 0)>
#row = affine_set<(d0, d1) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 + 31 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @mask_literal(%x: index, %y: index) attributes {grid = [2]} {
    %t = ktdp.get_compute_tile_id : index
    %a0 = arith.constant 0 : index
    %a64 = arith.constant 64 : index
    %M = ktdp.construct_memory_view %a0, sizes: [2, 32], strides: [32, 1] {coordinate_set = #rows, memory_space = #ktdp.memory_space<global>} : memref<2x32xi1>
    %P = ktdp.construct_memory_view %a64, sizes: [2, 32], strides: [32, 1] {coordinate_set = #rows, memory_space = #ktdp.memory_space<global>} : memref<2x32xi1>
    %X = ktdp.construct_memory_view %x, sizes: [2, 32], strides: [32, 1] {coordinate_set = #rows, memory_space = #ktdp.memory_space<global>} : memref<2x32xf16>
    %Y = ktdp.construct_memory_view %y, sizes: [2, 32], strides: [32, 1] {coordinate_set = #rows, memory_space = #ktdp.memory_space<global>} : memref<2x32xf16>
    %tm = ktdp.construct_access_tile %M[%t, 0] {access_tile_set = #row, access_tile_order = #id2} : memref<2x32xi1> -> !ktdp.access_tile<1x32xindex>
    %tp = ktdp.construct_access_tile %P[%t, 0] {access_tile_set = #row, access_tile_order = #id2} : memref<2x32xi1> -> !ktdp.access_tile<1x32xindex>
    %tx = ktdp.construct_access_tile %X[%t, 0] {access_tile_set = #row, access_tile_order = #id2} : memref<2x32xf16> -> !ktdp.access_tile<1x32xindex>
    %ty = ktdp.construct_access_tile %Y[%t, 0] {access_tile_set = #row, access_tile_order = #id2} : memref<2x32xf16> -> !ktdp.access_tile<1x32xindex>
    %m = ktdp.load %tm : <1x32xindex> -> tensor<1x32xi1>
    %v = ktdp.load %tx : <1x32xindex> -> tensor<1x32xf16>
    %zero = arith.constant dense<0.0> : tensor<1x32xf16>
    %r = arith.select %m, %v, %zero : tensor<1x32xi1>, tensor<1x32xf16>
    %pos = arith.cmpf ogt, %v, %zero : tensor<1x32xf16>
    ktdp.store %r, %ty : tensor<1x32xf16>, <1x32xindex>
    ktdp.store %pos, %tp : tensor<1x32xi1>, <1x32xindex>
    return
  }
  func.func @mask_scratchpad(%x: index, %y: index) attributes {grid = [2]} {
    %t = ktdp.get_compute_tile_id : index
    %a0 = arith.constant 0 : index
    %X = ktdp.construct_memory_view %x, sizes: [2, 32], strides: [32, 1] {coordinate_set = #rows, memory_space = #ktdp.memory_space<global>} : memref<2x32xf16>
    %Y = ktdp.construct_memory_view %y, sizes: [2, 32], strides: [32, 1] {coordinate_set = #rows, memory_space = #ktdp.memory_space<global>} : memref<2x32xf16>
    %L = ktdp.construct_memory_view %a0, sizes: [1, 32], strides: [32, 1] {coordinate_set = #row, memory_space = #ktdp.memory_space<ct_local>} : memref<1x32xi1>
    %tx = ktdp.construct_access_tile %X[%t, 0] {access_tile_set = #row, access_tile_order = #id2} : memref<2x32xf16> -> !ktdp.access_tile<1x32xindex>
    %ty = ktdp.construct_access_tile %Y[%t, 0] {access_tile_set = #row, access_tile_order = #id2} : memref<2x32xf16> -> !ktdp.access_tile<1x32xindex>
    %tl = ktdp.construct_access_tile %L[0, 0] {access_tile_set = #row, access_tile_order = #id2} : memref<1x32xi1> -> !ktdp.access_tile<1x32xindex>
    %v = ktdp.load %tx : <1x32xindex> -> tensor<1x32xf16>
    %zero = arith.constant dense<0.0> : tensor<1x32xf16>
    %pos = arith.cmpf ogt, %v, %zero : tensor<1x32xf16>
    ktdp.store %pos, %tl : tensor<1x32xi1>, <1x32xindex>
    %m = ktdp.load %tl : <1x32xindex> -> tensor<1x32xi1>
    %r = arith.select %m, %v, %zero : tensor<1x32xi1>, tensor<1x32xf16>
    ktdp.store %r, %ty : tensor<1x32xf16>, <1x32xindex>
    return
  }
}
