// two_functions.mlir - SwiGLU gating with the activation in a helper
// function called through func.call.
//
// Computes, for 0 <= i < 128, 0 <= j < 64, in f32 (x = f32(X), g = f32(G)):
//   silu(x)  = x / (1 + exp(-x))                 (negf, math.exp, addf, divf)
//   Y[i, j]  = f16(silu(x[i, j]) * g[i, j])      (round to nearest even)
//
// Functions:
//   @silu    private helper, tensor<4x64xf32> -> tensor<4x64xf32>, no grid;
//            not a kernel.
//   @swiglu  the kernel (run this one: `--func swiglu`).
// Arguments of @swiglu (all `index`, tensor start addresses counted in f16
// elements):
//   %x  X : 128x64 f16, row-major (strides [64, 1]), input (gate projection)
//   %g  G : 128x64 f16, row-major, input (up projection)
//   %y  Y : 128x64 f16, row-major, output
// Grid: [32]. Tile t handles rows [4t, 4t + 4) with one 4x64 tile.
// Memory space spelling: #ktdp.memory_space<global>.

#mat = affine_set<(d0, d1) : (d0 >= 0, -d0 + 127 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#block = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func private @silu(%x: tensor<4x64xf32>) -> tensor<4x64xf32> {
    %one = arith.constant dense<1.0> : tensor<4x64xf32>
    %neg = arith.negf %x : tensor<4x64xf32>
    %e = math.exp %neg : tensor<4x64xf32>
    %den = arith.addf %e, %one : tensor<4x64xf32>
    %s = arith.divf %x, %den : tensor<4x64xf32>
    return %s : tensor<4x64xf32>
  }

  func.func @swiglu(%x: index, %g: index, %y: index) attributes {grid = [32]} {
    %id = ktdp.get_compute_tile_id : index
    %c4 = arith.constant 4 : index
    %row0 = arith.muli %id, %c4 : index
    %X = ktdp.construct_memory_view %x, sizes: [128, 64], strides: [64, 1] {coordinate_set = #mat, memory_space = #ktdp.memory_space<global>} : memref<128x64xf16>
    %G = ktdp.construct_memory_view %g, sizes: [128, 64], strides: [64, 1] {coordinate_set = #mat, memory_space = #ktdp.memory_space<global>} : memref<128x64xf16>
    %Y = ktdp.construct_memory_view %y, sizes: [128, 64], strides: [64, 1] {coordinate_set = #mat, memory_space = #ktdp.memory_space<global>} : memref<128x64xf16>
    %tx = ktdp.construct_access_tile %X[%row0, 0] {access_tile_set = #block, access_tile_order = #id2} : memref<128x64xf16> -> !ktdp.access_tile<4x64xindex>
    %tg = ktdp.construct_access_tile %G[%row0, 0] {access_tile_set = #block, access_tile_order = #id2} : memref<128x64xf16> -> !ktdp.access_tile<4x64xindex>
    %ty = ktdp.construct_access_tile %Y[%row0, 0] {access_tile_set = #block, access_tile_order = #id2} : memref<128x64xf16> -> !ktdp.access_tile<4x64xindex>
    %xh = ktdp.load %tx : <4x64xindex> -> tensor<4x64xf16>
    %gh = ktdp.load %tg : <4x64xindex> -> tensor<4x64xf16>
    %xf = arith.extf %xh : tensor<4x64xf16> to tensor<4x64xf32>
    %gf = arith.extf %gh : tensor<4x64xf16> to tensor<4x64xf32>
    %act = func.call @silu(%xf) : (tensor<4x64xf32>) -> tensor<4x64xf32>
    %prod = arith.mulf %act, %gf : tensor<4x64xf32>
    %yh = arith.truncf %prod : tensor<4x64xf32> to tensor<4x64xf16>
    ktdp.store %yh, %ty : tensor<4x64xf16>, <4x64xindex>
    return
  }
}
