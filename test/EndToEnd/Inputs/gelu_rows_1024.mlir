// gelu_rows_1024.mlir - examples/kernels/gelu_spyreop.mlir on 1024 rows
// (test/EndToEnd/merged-loads.test): GeGLU with the Spyre GELU intrinsic
// inside a linalg.generic body.
//
// Computes   Y[i, j] = spyreop.gelu(X[i, j]) * G[i, j]   for 0 <= i < 1024, 0 <= j < 64
// in f16: gelu is the tanh approximation
//   gelu(x) = 0.5 * x * (1 + tanh(sqrt(2 / pi) * (x + 0.044715 * x^3)))
// with its result rounded to f16, then one f16 multiply (rounded to f16).
//
// Arguments (all `index`, tensor start addresses counted in f16 elements):
//   %x  X : 1024x64 f16, row-major (strides [64, 1]), input
//   %g  G : 1024x64 f16, row-major, input (gate)
//   %y  Y : 1024x64 f16, row-major, output
// Grid: [256]. Tile t handles rows [4t, 4t + 4) with one 4x64 tile.
// Memory space spelling: #ktdp.spyre_memory_space<HBM>.

#mat = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1023 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#block = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @gelu_spyreop(%x: index, %g: index, %y: index) attributes {grid = [256]} {
    %id = ktdp.get_compute_tile_id : index
    %c4 = arith.constant 4 : index
    %row0 = arith.muli %id, %c4 : index
    %X = ktdp.construct_memory_view %x, sizes: [1024, 64], strides: [64, 1] {coordinate_set = #mat, memory_space = #ktdp.spyre_memory_space<HBM>} : memref<1024x64xf16>
    %G = ktdp.construct_memory_view %g, sizes: [1024, 64], strides: [64, 1] {coordinate_set = #mat, memory_space = #ktdp.spyre_memory_space<HBM>} : memref<1024x64xf16>
    %Y = ktdp.construct_memory_view %y, sizes: [1024, 64], strides: [64, 1] {coordinate_set = #mat, memory_space = #ktdp.spyre_memory_space<HBM>} : memref<1024x64xf16>
    %tx = ktdp.construct_access_tile %X[%row0, 0] {access_tile_set = #block, access_tile_order = #id2} : memref<1024x64xf16> -> !ktdp.access_tile<4x64xindex>
    %tg = ktdp.construct_access_tile %G[%row0, 0] {access_tile_set = #block, access_tile_order = #id2} : memref<1024x64xf16> -> !ktdp.access_tile<4x64xindex>
    %ty = ktdp.construct_access_tile %Y[%row0, 0] {access_tile_set = #block, access_tile_order = #id2} : memref<1024x64xf16> -> !ktdp.access_tile<4x64xindex>
    %xt = ktdp.load %tx : <4x64xindex> -> tensor<4x64xf16>
    %gt = ktdp.load %tg : <4x64xindex> -> tensor<4x64xf16>
    %e = tensor.empty() : tensor<4x64xf16>
    %yt = linalg.generic {indexing_maps = [#id2, #id2, #id2], iterator_types = ["parallel", "parallel"]}
        ins(%xt, %gt : tensor<4x64xf16>, tensor<4x64xf16>) outs(%e : tensor<4x64xf16>) {
      ^bb0(%xv: f16, %gv: f16, %out: f16):
        %act = spyreop.gelu %xv : f16
        %p = arith.mulf %act, %gv : f16
        linalg.yield %p : f16
    } -> tensor<4x64xf16>
    ktdp.store %yt, %ty : tensor<4x64xf16>, <4x64xindex>
    return
  }
}
