// silu_mul_helper.mlir - a Triton-style fused SiLU-and-multiply whose
// activation lives in a helper function reached through func.call (the
// helper itself calls a second one), written in the real-world spellings of
// ktir-field-guide.md §5: 1-D `index` pointer arguments with trailing
// comments, a `[16, 1]` grid with one `get_compute_tile_id : index`, a
// cyclic row loop with a trailing induction type, `dense<1.0>` operands.
//
// Computes, for 0 <= i < 64, 0 <= j < 128, in f32 (x = f32(X), g = f32(G)):
//   sigmoid(x) = 1 / (1 + exp(-x))          (negf, math.exp, addf, divf)
//   Y[i, j]    = f16(x[i, j] * sigmoid(x[i, j]) * g[i, j])
// (two multiplications, left to right, each rounded to f32).
// Grid: [16, 1]. Tile t handles rows t, t + 16, t + 32, t + 48, one 1x128
// row per iteration.

#rows = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#row = affine_set<(d0, d1) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func private @sigmoid_f32(%v: tensor<1x128xf32>) -> tensor<1x128xf32> {
    %one = arith.constant dense<1.0> : tensor<1x128xf32>
    %neg = arith.negf %v : tensor<1x128xf32>
    %e = math.exp %neg : tensor<1x128xf32>
    %den = arith.addf %e, %one : tensor<1x128xf32>
    %s = arith.divf %one, %den : tensor<1x128xf32>
    return %s : tensor<1x128xf32>
  }
  func.func private @silu_f32(%v: tensor<1x128xf32>) -> tensor<1x128xf32> {
    %s = func.call @sigmoid_f32(%v) : (tensor<1x128xf32>) -> tensor<1x128xf32>
    %r = arith.mulf %v, %s : tensor<1x128xf32>
    return %r : tensor<1x128xf32>
  }
  func.func @triton_poi_fused_mul_silu_0(%in_ptr0: index,   // X: 64x128 f16 (input)
                                         %in_ptr1: index,   // G: 64x128 f16 (input)
                                         %out_ptr0: index)  // Y: 64x128 f16 (output)
      attributes {grid = [16, 1]} {
    %pid = ktdp.get_compute_tile_id : index
    %c16 = arith.constant 16 : index
    %c64 = arith.constant 64 : index
    %X = ktdp.construct_memory_view %in_ptr0, sizes: [64, 128], strides: [128, 1] {coordinate_set = #rows, memory_space = #ktdp.memory_space<global>} : memref<64x128xf16>
    %G = ktdp.construct_memory_view %in_ptr1, sizes: [64, 128], strides: [128, 1] {coordinate_set = #rows, memory_space = #ktdp.memory_space<global>} : memref<64x128xf16>
    %Y = ktdp.construct_memory_view %out_ptr0, sizes: [64, 128], strides: [128, 1] {coordinate_set = #rows, memory_space = #ktdp.memory_space<global>} : memref<64x128xf16>
    scf.for %r = %pid to %c64 step %c16 : index {
      %tx = ktdp.construct_access_tile %X[%r, 0] {access_tile_set = #row, access_tile_order = #id2} : memref<64x128xf16> -> !ktdp.access_tile<1x128xindex>
      %tg = ktdp.construct_access_tile %G[%r, 0] {access_tile_set = #row, access_tile_order = #id2} : memref<64x128xf16> -> !ktdp.access_tile<1x128xindex>
      %ty = ktdp.construct_access_tile %Y[%r, 0] {access_tile_set = #row, access_tile_order = #id2} : memref<64x128xf16> -> !ktdp.access_tile<1x128xindex>
      %x16 = ktdp.load %tx : <1x128xindex> -> tensor<1x128xf16>
      %g16 = ktdp.load %tg : <1x128xindex> -> tensor<1x128xf16>
      %x = arith.extf %x16 : tensor<1x128xf16> to tensor<1x128xf32>
      %g = arith.extf %g16 : tensor<1x128xf16> to tensor<1x128xf32>
      %act = func.call @silu_f32(%x) : (tensor<1x128xf32>) -> tensor<1x128xf32>
      %prod = arith.mulf %act, %g : tensor<1x128xf32>
      %y = arith.truncf %prod : tensor<1x128xf32> to tensor<1x128xf16>
      ktdp.store %y, %ty : tensor<1x128xf16>, <1x128xindex>
      scf.yield
    }
    return
  }
}
