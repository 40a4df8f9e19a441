// Math functions on f16 are computed in f64 and rounded once to f16 on
// both engines (docs/cpu-jit.md, Numerics); the compiled tier rounds f64 to
// f16 through f32 rounded to odd instead of libgcc's conversion. Every f16
// bit pattern but the NaNs (infinities, subnormals, both zeros; a NaN
// pattern is replaced by the finite value with its exponent's top bit
// cleared) goes through exp, tanh, log and sin on both engines: the output
// lines, whose checksums cover every bit, are the same, NaNs the functions
// produce included. (NaN inputs are the documented exception: the tier
// passes their payload through, the interpreter returns 0x7e00.)
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python -c "import struct; h = \"{'descr': '<f2', 'fortran_order': False, 'shape': (65536,), }\"; h += ' ' * (63 - (len(h) + 10) %% 64) + '\n'; open('%t/x.npy', 'wb').write(b'\x93NUMPY\x01\x00' + struct.pack('<H', len(h)) + h.encode() + struct.pack('<65536H', *[h & 0xfbff if h & 0x7c00 == 0x7c00 and h & 0x3ff else h for h in range(65536)]))"
// RUN: ktflow interp %s --input x_ptr=%t/x.npy --engine=interp > %t/interp
// RUN: ktflow interp %s --input x_ptr=%t/x.npy --engine=jit > %t/jit 2> %t/note
// RUN: diff %t/interp %t/jit
// RUN: FileCheck %s --input-file=%t/note
// CHECK: engine: jit
// RUN: FileCheck %s --check-prefix=OUT --input-file=%t/jit
// OUT: e_ptr: shape=65536 dtype=f16 min=0 max=inf mean=inf checksum=
// OUT: t_ptr: shape=65536 dtype=f16 min=-1 max=1 mean=0 checksum=
// OUT: l_ptr: shape=65536 dtype=f16 min=-inf max=inf {{.*}} nan=32767
// OUT: s_ptr: shape=65536 dtype=f16 min=-1 max=1 mean=0 {{.*}} nan=2

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
