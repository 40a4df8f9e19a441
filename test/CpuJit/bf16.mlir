// bf16 kernels on the compiled tier: element-wise arithmetic and exp, a row
// sum (f32 accumulator) and a matmul, over a tile partly masked by its
// view's coordinate_set (masked loads read bf16 zeros, whose constant x86
// code generation rounds from f32 by calling __truncsfbf2, which the tier
// provides: the JIT links no libgcc). Outputs must be the interpreter's bit
// for bit; before, the kernel failed to link and fell back.
// RUN: rm -rf %t && mkdir -p %t
// RUN: ktflow interp %s --seed 7 --engine=interp > %t/interp
// RUN: ktflow interp %s --seed 7 --engine=jit > %t/jit 2> %t/note
// RUN: diff %t/interp %t/jit
// RUN: FileCheck %s --input-file=%t/note
// CHECK: engine: jit

#view = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 29 >= 0)>
#tile = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 31 >= 0)>
#w_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 31 >= 0, d1 >= 0, -d1 + 15 >= 0)>
#p_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 15 >= 0)>
#row = affine_set<(d0) : (d0 >= 0, -d0 + 3 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#id1 = affine_map<(d0) -> (d0)>
module {
  func.func @bf16_kernel(%x: index, %w: index, %y: index, %s: index, %p: index) attributes {grid = [1]} {
    %X = ktdp.construct_memory_view %x, sizes: [4, 32], strides: [32, 1] {coordinate_set = #view, memory_space = #ktdp.memory_space<global>} : memref<4x32xbf16>
    %W = ktdp.construct_memory_view %w, sizes: [32, 16], strides: [16, 1] {coordinate_set = #w_set, memory_space = #ktdp.memory_space<global>} : memref<32x16xbf16>
    %Y = ktdp.construct_memory_view %y, sizes: [4, 32], strides: [32, 1] {coordinate_set = #tile, memory_space = #ktdp.memory_space<global>} : memref<4x32xbf16>
    %S = ktdp.construct_memory_view %s, sizes: [4], strides: [1] {coordinate_set = #row, memory_space = #ktdp.memory_space<global>} : memref<4xbf16>
    %P = ktdp.construct_memory_view %p, sizes: [4, 16], strides: [16, 1] {coordinate_set = #p_set, memory_space = #ktdp.memory_space<global>} : memref<4x16xbf16>
    %tx = ktdp.construct_access_tile %X[0, 0] {access_tile_set = #tile, access_tile_order = #id2} : memref<4x32xbf16> -> !ktdp.access_tile<4x32xindex>
    %tw = ktdp.construct_access_tile %W[0, 0] {access_tile_set = #w_set, access_tile_order = #id2} : memref<32x16xbf16> -> !ktdp.access_tile<32x16xindex>
    %ty = ktdp.construct_access_tile %Y[0, 0] {access_tile_set = #tile, access_tile_order = #id2} : memref<4x32xbf16> -> !ktdp.access_tile<4x32xindex>
    %ts = ktdp.construct_access_tile %S[0] {access_tile_set = #row, access_tile_order = #id1} : memref<4xbf16> -> !ktdp.access_tile<4xindex>
    %tp = ktdp.construct_access_tile %P[0, 0] {access_tile_set = #p_set, access_tile_order = #id2} : memref<4x16xbf16> -> !ktdp.access_tile<4x16xindex>
    %v = ktdp.load %tx : <4x32xindex> -> tensor<4x32xbf16>
    %wt = ktdp.load %tw : <32x16xindex> -> tensor<32x16xbf16>
    %sq = arith.mulf %v, %v : tensor<4x32xbf16>
    %ex = math.exp %v : tensor<4x32xbf16>
    %u = arith.addf %sq, %ex : tensor<4x32xbf16>
    ktdp.store %u, %ty : tensor<4x32xbf16>, <4x32xindex>
    %z = arith.constant 0.0 : bf16
    %e = tensor.empty() : tensor<4xbf16>
    %s0 = linalg.fill ins(%z : bf16) outs(%e : tensor<4xbf16>) -> tensor<4xbf16>
    %sum = linalg.reduce { arith.addf } ins(%u : tensor<4x32xbf16>) outs(%s0 : tensor<4xbf16>) dimensions = [1]
    ktdp.store %sum, %ts : tensor<4xbf16>, <4xindex>
    %ep = tensor.empty() : tensor<4x16xbf16>
    %prod = linalg.matmul ins(%u, %wt : tensor<4x32xbf16>, tensor<32x16xbf16>) outs(%ep : tensor<4x16xbf16>) -> tensor<4x16xbf16>
    ktdp.store %prod, %tp : tensor<4x16xbf16>, <4x16xindex>
    return
  }
}
