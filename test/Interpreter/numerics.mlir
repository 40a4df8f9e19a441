// The numerics policy of reductions (docs/interpreter.md §4): 4096 ones
// summed by an f16 linalg.reduce and an f16 linalg.matmul with K = 4096.
// By default the accumulator is held in f32 and rounded once (4096);
// --numerics=strict rounds at every step and stalls at 2048, where
// 2048 + 1 rounds back to 2048.
//
// RUN: ktflow interp %s | FileCheck %s --check-prefix=WIDE
// RUN: ktflow interp %s --numerics=accumulate | FileCheck %s --check-prefix=WIDE
// WIDE: s: shape=2 dtype=f16 min=4096 max=4096 mean=4096
// WIDE: m: shape=1x1 dtype=f16 min=4096 max=4096 mean=4096
// RUN: ktflow interp %s --numerics=strict | FileCheck %s --check-prefix=STRICT
// STRICT: s: shape=2 dtype=f16 min=2048 max=2048 mean=2048
// STRICT: m: shape=1x1 dtype=f16 min=2048 max=2048 mean=2048
//
// RUN: sh -c 'ktflow interp %s --numerics=sloppy; echo exit=$?' 2>&1 | FileCheck %s --check-prefix=BAD
// BAD: Cannot find option named 'sloppy'!
// BAD: exit=1

#s2 = affine_set<(d0) : (d0 >= 0, -d0 + 1 >= 0)>
#s11 = affine_set<(d0, d1) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 >= 0)>
#id1 = affine_map<(d0) -> (d0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @sums(%s: index, %m: index) attributes {grid = [1]} {
    %c0 = arith.constant 0 : index
    %S = ktdp.construct_memory_view %s, sizes: [2], strides: [1] {coordinate_set = #s2, memory_space = #ktdp.memory_space<global>} : memref<2xf16>
    %M = ktdp.construct_memory_view %m, sizes: [1, 1], strides: [1, 1] {coordinate_set = #s11, memory_space = #ktdp.memory_space<global>} : memref<1x1xf16>
    %ts = ktdp.construct_access_tile %S[%c0] {access_tile_set = #s2, access_tile_order = #id1} : memref<2xf16> -> !ktdp.access_tile<2xindex>
    %tm = ktdp.construct_access_tile %M[%c0, %c0] {access_tile_set = #s11, access_tile_order = #id2} : memref<1x1xf16> -> !ktdp.access_tile<1x1xindex>

    %ones = arith.constant dense<1.0> : tensor<2x4096xf16>
    %zero = arith.constant dense<0.0> : tensor<2xf16>
    %sum = linalg.reduce { arith.addf } ins(%ones : tensor<2x4096xf16>) outs(%zero : tensor<2xf16>) dimensions = [1]
    ktdp.store %sum, %ts : tensor<2xf16>, !ktdp.access_tile<2xindex>

    %a = arith.constant dense<1.0> : tensor<1x4096xf16>
    %b = arith.constant dense<1.0> : tensor<4096x1xf16>
    %e = tensor.empty() : tensor<1x1xf16>
    %mm = linalg.matmul ins(%a, %b : tensor<1x4096xf16>, tensor<4096x1xf16>) outs(%e : tensor<1x1xf16>) -> tensor<1x1xf16>
    ktdp.store %mm, %tm : tensor<1x1xf16>, !ktdp.access_tile<1x1xindex>
    return
  }
}
