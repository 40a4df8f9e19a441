// spyreop.gelu on the compiled tier (docs/cpu-jit.md, Numerics): the tanh
// approximation computed in f64 in the interpreter's evaluation order with
// the same libm, rounded once to the result type. Every f16 bit pattern but
// the NaNs (a NaN pattern is replaced by the finite value with its
// exponent's lowest bit cleared, as in narrow-math.mlir) goes through
// gelu in f16, and gelu(x) * x, on both engines: the output
// lines, whose checksums cover every bit, are the same.
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python -c "import struct; h = \"{'descr': '<f2', 'fortran_order': False, 'shape': (65536,), }\"; h += ' ' * (63 - (len(h) + 10) %% 64) + '\n'; open('%t/x.npy', 'wb').write(b'\x93NUMPY\x01\x00' + struct.pack('<H', len(h)) + h.encode() + struct.pack('<65536H', *[h & 0xfbff if h & 0x7c00 == 0x7c00 and h & 0x3ff else h for h in range(65536)]))"
// RUN: ktflow interp %s --input x_ptr=%t/x.npy --engine=interp > %t/interp
// RUN: ktflow interp %s --input x_ptr=%t/x.npy --engine=jit > %t/jit 2> %t/note
// RUN: diff %t/interp %t/jit
// RUN: FileCheck %s --input-file=%t/note
// CHECK: engine: jit
// RUN: FileCheck %s --check-prefix=OUT --input-file=%t/jit
// (GELU's minimum is -0.17, near x = -0.75; gelu(-inf) is -inf * 0, the
// one NaN.)
// OUT: h_ptr: shape=65536 dtype=f16 min=-0.170044 max=inf {{.*}} nan=1
// OUT: w_ptr: shape=65536 dtype=f16 min=0 max=inf {{.*}} nan=1

#all = affine_set<(d0) : (d0 >= 0, -d0 + 65535 >= 0)>
#block = affine_set<(d0) : (d0 >= 0, -d0 + 4095 >= 0)>
#id1 = affine_map<(d0) -> (d0)>
module {
  func.func @gelu(%x_ptr: index, %h_ptr: index, %w_ptr: index)
      attributes {grid = [16, 1]} {
    %pid = ktdp.get_compute_tile_id : index
    %c4096 = arith.constant 4096 : index
    %start = arith.muli %pid, %c4096 : index
    %X = ktdp.construct_memory_view %x_ptr, sizes: [65536], strides: [1] {coordinate_set = #all, memory_space = #ktdp.memory_space<global>} : memref<65536xf16>
    %H = ktdp.construct_memory_view %h_ptr, sizes: [65536], strides: [1] {coordinate_set = #all, memory_space = #ktdp.memory_space<global>} : memref<65536xf16>
    %W = ktdp.construct_memory_view %w_ptr, sizes: [65536], strides: [1] {coordinate_set = #all, memory_space = #ktdp.memory_space<global>} : memref<65536xf16>
    %tx = ktdp.construct_access_tile %X[%start] {access_tile_set = #block, access_tile_order = #id1} : memref<65536xf16> -> !ktdp.access_tile<4096xindex>
    %x = ktdp.load %tx : <4096xindex> -> tensor<4096xf16>
    %e = tensor.empty() : tensor<4096xf16>
    // In f16: one rounding, from f64.
    %h = linalg.generic {indexing_maps = [#id1, #id1], iterator_types = ["parallel"]}
        ins(%x : tensor<4096xf16>) outs(%e : tensor<4096xf16>) {
      ^bb0(%v: f16, %o: f16):
        %g = spyreop.gelu %v : f16
        linalg.yield %g : f16
    } -> tensor<4096xf16>
    // Then multiplied by x in f16: a second rounding, as written.
    %w = linalg.generic {indexing_maps = [#id1, #id1], iterator_types = ["parallel"]}
        ins(%x : tensor<4096xf16>) outs(%e : tensor<4096xf16>) {
      ^bb0(%v: f16, %o: f16):
        %g = spyreop.gelu %v : f16
        %p = arith.mulf %g, %v : f16
        linalg.yield %p : f16
    } -> tensor<4096xf16>
    %th = ktdp.construct_access_tile %H[%start] {access_tile_set = #block, access_tile_order = #id1} : memref<65536xf16> -> !ktdp.access_tile<4096xindex>
    %tw = ktdp.construct_access_tile %W[%start] {access_tile_set = #block, access_tile_order = #id1} : memref<65536xf16> -> !ktdp.access_tile<4096xindex>
    ktdp.store %h, %th : tensor<4096xf16>, <4096xindex>
    ktdp.store %w, %tw : tensor<4096xf16>, <4096xindex>
    return
  }
}
