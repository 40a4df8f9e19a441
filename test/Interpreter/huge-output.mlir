// An output whose view declares far more elements than the kernel writes:
// the interpreter backs only the written pages, but reads an output back
// whole, 8 bytes an element. Past the memory ceiling that is a located
// error at the argument, not an allocation failure that killed the process
// ("LLVM ERROR: out of memory" on both engines; found by the mutation
// campaign, issue 17, as a scaled_relu whose output sizes became
// [4294967296, 128]). Within the ceiling the same kernel runs.
//
// RUN: not ktflow interp %s --func declared_2e39 --seed 3 2>&1 | FileCheck %s --check-prefix=HUGE
// RUN: not ktflow interp %s --func declared_2e39 --seed 3 --engine=interp 2>&1 | FileCheck %s --check-prefix=HUGE
// HUGE: huge-output.mlir:[[@LINE+9]]:43: error: output 'y_ptr' spans 549755813888 elements, more than the memory ceiling of {{[0-9]+}} bytes holds to read back (8 bytes each)
// RUN: not ktflow interp %s --func declared_2e39 --max-memory-bytes=1048576 --engine=interp 2>&1 | FileCheck %s --check-prefix=CEILING
// CEILING: error: output 'y_ptr' spans 549755813888 elements, more than the memory ceiling of 1048576 bytes holds
// RUN: ktflow interp %s --func declared_2e10 --seed 3 --engine=interp | FileCheck %s --check-prefix=SMALL
// SMALL: y_ptr: shape=8x128 dtype=f16

#rows = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @declared_2e39(%x_ptr: index, %y_ptr: index) {
    %c0 = arith.constant 0 : index
    %X = ktdp.construct_memory_view %x_ptr, sizes: [8, 128], strides: [128, 1] {coordinate_set = #rows, memory_space = #ktdp.memory_space<global>} : memref<8x128xf16>
    %Y = ktdp.construct_memory_view %y_ptr, sizes: [4294967296, 128], strides: [128, 1] {coordinate_set = #rows, memory_space = #ktdp.memory_space<global>} : memref<?x128xf16>
    %tx = ktdp.construct_access_tile %X[%c0, %c0] {access_tile_set = #rows, access_tile_order = #id2} : memref<8x128xf16> -> !ktdp.access_tile<8x128xindex>
    %ty = ktdp.construct_access_tile %Y[%c0, %c0] {access_tile_set = #rows, access_tile_order = #id2} : memref<?x128xf16> -> !ktdp.access_tile<8x128xindex>
    %x = ktdp.load %tx : <8x128xindex> -> tensor<8x128xf16>
    ktdp.store %x, %ty : tensor<8x128xf16>, <8x128xindex>
    return
  }
  func.func @declared_2e10(%x_ptr: index, %y_ptr: index) {
    %c0 = arith.constant 0 : index
    %X = ktdp.construct_memory_view %x_ptr, sizes: [8, 128], strides: [128, 1] {coordinate_set = #rows, memory_space = #ktdp.memory_space<global>} : memref<8x128xf16>
    %Y = ktdp.construct_memory_view %y_ptr, sizes: [8, 128], strides: [128, 1] {coordinate_set = #rows, memory_space = #ktdp.memory_space<global>} : memref<8x128xf16>
    %tx = ktdp.construct_access_tile %X[%c0, %c0] {access_tile_set = #rows, access_tile_order = #id2} : memref<8x128xf16> -> !ktdp.access_tile<8x128xindex>
    %ty = ktdp.construct_access_tile %Y[%c0, %c0] {access_tile_set = #rows, access_tile_order = #id2} : memref<8x128xf16> -> !ktdp.access_tile<8x128xindex>
    %x = ktdp.load %tx : <8x128xindex> -> tensor<8x128xf16>
    ktdp.store %x, %ty : tensor<8x128xf16>, <8x128xindex>
    return
  }
}
