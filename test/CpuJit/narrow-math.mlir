// Math functions of one f16 operand are looked up on the compiled tier in
// a table of the interpreter's results for the 65536 inputs (its scalar
// function in f64, the same libm, rounded once; docs/cpu-jit.md,
// Numerics). Every f16 bit pattern, NaNs included, goes through exp, tanh,
// log and sin on both engines: the output lines, whose checksums cover
// every bit, are the same.
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python -c "import struct; h = \"{'descr': '<f2', 'fortran_order': False, 'shape': (65536,), }\"; h += ' ' * (63 - (len(h) + 10) %% 64) + '\n'; open('%t/x.npy', 'wb').write(b'\x93NUMPY\x01\x00' + struct.pack('<H', len(h)) + h.encode() + struct.pack('<65536H', *range(65536)))"
// RUN: ktflow interp %s --input x_ptr=%t/x.npy --engine=interp > %t/interp
// RUN: ktflow interp %s --input x_ptr=%t/x.npy --engine=jit > %t/jit 2> %t/note
// RUN: diff %t/interp %t/jit
// RUN: FileCheck %s --input-file=%t/note
// CHECK: engine: jit
// RUN: FileCheck %s --check-prefix=OUT --input-file=%t/jit
// The 2046 NaN inputs give NaNs; log also the 31743 negative finite values
// and -inf, sin also both infinities.
// OUT: e_ptr: shape=65536 dtype=f16 min=0 max=inf mean=inf {{.*}} nan=2046
// OUT: t_ptr: shape=65536 dtype=f16 min=-1 max=1 mean=0 {{.*}} nan=2046
// OUT: l_ptr: shape=65536 dtype=f16 min=-inf max=inf {{.*}} nan=33790
// OUT: s_ptr: shape=65536 dtype=f16 min=-1 max=1 mean=0 {{.*}} nan=2048

#all = affine_set<(d0) : (d0 >= 0, -d0 + 65535 >= 0)>
#block = affine_set<(d0) : (d0 >= 0, -d0 + 4095 >= 0)>
#id1 = affine_map<(d0) -> (d0)>
module {
  func.func @narrow_math(%x_ptr: index, %e_ptr: index, %t_ptr: index,
                         %l_ptr: index, %s_ptr: index)
      attributes {grid = [16, 1]} {
    %pid = ktdp.get_compute_tile_id : index
    %c4096 = arith.constant 4096 : index
    %start = arith.muli %pid, %c4096 : index
    %X = ktdp.construct_memory_view %x_ptr, sizes: [65536], strides: [1] {coordinate_set = #all, memory_space = #ktdp.memory_space<global>} : memref<65536xf16>
    %E = ktdp.construct_memory_view %e_ptr, sizes: [65536], strides: [1] {coordinate_set = #all, memory_space = #ktdp.memory_space<global>} : memref<65536xf16>
    %T = ktdp.construct_memory_view %t_ptr, sizes: [65536], strides: [1] {coordinate_set = #all, memory_space = #ktdp.memory_space<global>} : memref<65536xf16>
    %L = ktdp.construct_memory_view %l_ptr, sizes: [65536], strides: [1] {coordinate_set = #all, memory_space = #ktdp.memory_space<global>} : memref<65536xf16>
    %S = ktdp.construct_memory_view %s_ptr, sizes: [65536], strides: [1] {coordinate_set = #all, memory_space = #ktdp.memory_space<global>} : memref<65536xf16>
    %tx = ktdp.construct_access_tile %X[%start] {access_tile_set = #block, access_tile_order = #id1} : memref<65536xf16> -> !ktdp.access_tile<4096xindex>
    %x = ktdp.load %tx : <4096xindex> -> tensor<4096xf16>
    %e = math.exp %x : tensor<4096xf16>
    %t = math.tanh %x : tensor<4096xf16>
    %l = math.log %x : tensor<4096xf16>
    %s = math.sin %x : tensor<4096xf16>
    %te = ktdp.construct_access_tile %E[%start] {access_tile_set = #block, access_tile_order = #id1} : memref<65536xf16> -> !ktdp.access_tile<4096xindex>
    %tt = ktdp.construct_access_tile %T[%start] {access_tile_set = #block, access_tile_order = #id1} : memref<65536xf16> -> !ktdp.access_tile<4096xindex>
    %tl = ktdp.construct_access_tile %L[%start] {access_tile_set = #block, access_tile_order = #id1} : memref<65536xf16> -> !ktdp.access_tile<4096xindex>
    %ts = ktdp.construct_access_tile %S[%start] {access_tile_set = #block, access_tile_order = #id1} : memref<65536xf16> -> !ktdp.access_tile<4096xindex>
    ktdp.store %e, %te : tensor<4096xf16>, <4096xindex>
    ktdp.store %t, %tt : tensor<4096xf16>, <4096xindex>
    ktdp.store %l, %tl : tensor<4096xf16>, <4096xindex>
    ktdp.store %s, %ts : tensor<4096xf16>, <4096xindex>
    return
  }
}
