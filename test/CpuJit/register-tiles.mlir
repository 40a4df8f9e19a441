// Reductions blocked in registers on the compiled tier (docs/cpu-jit.md,
// lib/CpuJit/RegisterTiles.cpp): a block of output rows and a vector of
// columns held in registers across the reduction loop, f16 inputs converted
// to f32 once, and the exact products of f16 values added by fused
// multiply-adds. Outputs must be the interpreter's bit for bit.
//
// An f16 matmul of 6x40 . 40x24 (blocks of 2 rows by 8 columns: 24 is not a
// multiple of 16, 6 not of 4), the same accumulated into an f32 output, and
// an f32 matmul (inexact products: multiply, then add) of 4x8 . 8x32, and
// row sums and maxima of A (scalar accumulators, two rows interleaved).
// RUN: rm -rf %t && mkdir -p %t
// RUN: ktflow interp %s --func mm_f16 --seed 5 --engine=interp > %t/f16.interp
// RUN: ktflow interp %s --func mm_f16 --seed 5 --engine=jit > %t/f16.jit 2> %t/f16.note
// RUN: diff %t/f16.interp %t/f16.jit
// RUN: FileCheck %s --check-prefix=JIT --input-file=%t/f16.note
// RUN: ktflow interp %s --func mm_f32 --seed 5 --engine=interp > %t/f32.interp
// RUN: ktflow interp %s --func mm_f32 --seed 5 --engine=jit > %t/f32.jit 2> %t/f32.note
// RUN: diff %t/f32.interp %t/f32.jit
// RUN: FileCheck %s --check-prefix=JIT --input-file=%t/f32.note
// JIT: engine: jit

#a_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 5 >= 0, d1 >= 0, -d1 + 39 >= 0)>
#b_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 39 >= 0, d1 >= 0, -d1 + 23 >= 0)>
#c_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 5 >= 0, d1 >= 0, -d1 + 23 >= 0)>
#p_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 7 >= 0)>
#q_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 31 >= 0)>
#row_set = affine_set<(d0) : (d0 >= 0, -d0 + 5 >= 0)>
#r_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 31 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @mm_f16(%a: index, %b: index, %c: index, %d: index, %s: index, %m: index) attributes {grid = [1]} {
    %A = ktdp.construct_memory_view %a, sizes: [6, 40], strides: [40, 1] {coordinate_set = #a_set, memory_space = #ktdp.memory_space<global>} : memref<6x40xf16>
    %B = ktdp.construct_memory_view %b, sizes: [40, 24], strides: [24, 1] {coordinate_set = #b_set, memory_space = #ktdp.memory_space<global>} : memref<40x24xf16>
    %C = ktdp.construct_memory_view %c, sizes: [6, 24], strides: [24, 1] {coordinate_set = #c_set, memory_space = #ktdp.memory_space<global>} : memref<6x24xf16>
    %D = ktdp.construct_memory_view %d, sizes: [6, 24], strides: [24, 1] {coordinate_set = #c_set, memory_space = #ktdp.memory_space<global>} : memref<6x24xf32>
    %ta = ktdp.construct_access_tile %A[0, 0] {access_tile_set = #a_set, access_tile_order = #id2} : memref<6x40xf16> -> !ktdp.access_tile<6x40xindex>
    %tb = ktdp.construct_access_tile %B[0, 0] {access_tile_set = #b_set, access_tile_order = #id2} : memref<40x24xf16> -> !ktdp.access_tile<40x24xindex>
    %tc = ktdp.construct_access_tile %C[0, 0] {access_tile_set = #c_set, access_tile_order = #id2} : memref<6x24xf16> -> !ktdp.access_tile<6x24xindex>
    %td = ktdp.construct_access_tile %D[0, 0] {access_tile_set = #c_set, access_tile_order = #id2} : memref<6x24xf32> -> !ktdp.access_tile<6x24xindex>
    %x = ktdp.load %ta : <6x40xindex> -> tensor<6x40xf16>
    %y = ktdp.load %tb : <40x24xindex> -> tensor<40x24xf16>
    %e = tensor.empty() : tensor<6x24xf16>
    %p = linalg.matmul ins(%x, %y : tensor<6x40xf16>, tensor<40x24xf16>) outs(%e : tensor<6x24xf16>) -> tensor<6x24xf16>
    ktdp.store %p, %tc : tensor<6x24xf16>, <6x24xindex>
    %zero = arith.constant 0.0 : f32
    %e32 = tensor.empty() : tensor<6x24xf32>
    %acc = linalg.fill ins(%zero : f32) outs(%e32 : tensor<6x24xf32>) -> tensor<6x24xf32>
    %q = linalg.matmul ins(%x, %y : tensor<6x40xf16>, tensor<40x24xf16>) outs(%acc : tensor<6x24xf32>) -> tensor<6x24xf32>
    ktdp.store %q, %td : tensor<6x24xf32>, <6x24xindex>
    %S = ktdp.construct_memory_view %s, sizes: [6], strides: [1] {coordinate_set = #row_set, memory_space = #ktdp.memory_space<global>} : memref<6xf16>
    %M = ktdp.construct_memory_view %m, sizes: [6], strides: [1] {coordinate_set = #row_set, memory_space = #ktdp.memory_space<global>} : memref<6xf16>
    %ts = ktdp.construct_access_tile %S[0] {access_tile_set = #row_set, access_tile_order = affine_map<(d0) -> (d0)>} : memref<6xf16> -> !ktdp.access_tile<6xindex>
    %tm = ktdp.construct_access_tile %M[0] {access_tile_set = #row_set, access_tile_order = affine_map<(d0) -> (d0)>} : memref<6xf16> -> !ktdp.access_tile<6xindex>
    %z16 = arith.constant 0.0 : f16
    %ninf = arith.constant 0xFC00 : f16
    %e6 = tensor.empty() : tensor<6xf16>
    %sum0 = linalg.fill ins(%z16 : f16) outs(%e6 : tensor<6xf16>) -> tensor<6xf16>
    %max0 = linalg.fill ins(%ninf : f16) outs(%e6 : tensor<6xf16>) -> tensor<6xf16>
    %sum = linalg.reduce { arith.addf } ins(%x : tensor<6x40xf16>) outs(%sum0 : tensor<6xf16>) dimensions = [1]
    %max = linalg.reduce { arith.maxnumf } ins(%x : tensor<6x40xf16>) outs(%max0 : tensor<6xf16>) dimensions = [1]
    ktdp.store %sum, %ts : tensor<6xf16>, <6xindex>
    ktdp.store %max, %tm : tensor<6xf16>, <6xindex>
    return
  }

  func.func @mm_f32(%p: index, %q: index, %r: index) attributes {grid = [1]} {
    %P = ktdp.construct_memory_view %p, sizes: [4, 8], strides: [8, 1] {coordinate_set = #p_set, memory_space = #ktdp.memory_space<global>} : memref<4x8xf32>
    %Q = ktdp.construct_memory_view %q, sizes: [8, 32], strides: [32, 1] {coordinate_set = #q_set, memory_space = #ktdp.memory_space<global>} : memref<8x32xf32>
    %R = ktdp.construct_memory_view %r, sizes: [4, 32], strides: [32, 1] {coordinate_set = #r_set, memory_space = #ktdp.memory_space<global>} : memref<4x32xf32>
    %tp = ktdp.construct_access_tile %P[0, 0] {access_tile_set = #p_set, access_tile_order = #id2} : memref<4x8xf32> -> !ktdp.access_tile<4x8xindex>
    %tq = ktdp.construct_access_tile %Q[0, 0] {access_tile_set = #q_set, access_tile_order = #id2} : memref<8x32xf32> -> !ktdp.access_tile<8x32xindex>
    %tr = ktdp.construct_access_tile %R[0, 0] {access_tile_set = #r_set, access_tile_order = #id2} : memref<4x32xf32> -> !ktdp.access_tile<4x32xindex>
    %x = ktdp.load %tp : <4x8xindex> -> tensor<4x8xf32>
    %y = ktdp.load %tq : <8x32xindex> -> tensor<8x32xf32>
    %zero = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<4x32xf32>
    %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<4x32xf32>) -> tensor<4x32xf32>
    %m = linalg.matmul ins(%x, %y : tensor<4x8xf32>, tensor<8x32xf32>) outs(%acc : tensor<4x32xf32>) -> tensor<4x32xf32>
    ktdp.store %m, %tr : tensor<4x32xf32>, <4x32xindex>
    return
  }
}
