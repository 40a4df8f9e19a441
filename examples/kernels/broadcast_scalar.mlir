// broadcast_scalar.mlir - matrix times a scalar read from memory, plus one.
//
// Computes   Y[i, j] = X[i, j] * s + 1      for 0 <= i < 64, 0 <= j < 128
// in f16 (each operation rounded to f16).
//
// Arguments (all `index`, tensor start addresses counted in f16 elements):
//   %x  X : 64x128 f16, row-major, input
//   %s  s : one f16 (a 1-element tensor), input
//   %y  Y : 64x128 f16, row-major, output
// Grid: [16]. Tile t handles rows [4t, 4t + 4); every tile loads s through a
// rank-0 access tile (a scalar) and broadcasts it with an indexing map that
// has no results.
// Memory space spelling: #ktdp.memory_space<global>.

#mat = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#one = affine_set<(d0) : (d0 >= 0, -d0 >= 0)>
#block = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#point = affine_set<() : (0 == 0)>
#id0 = affine_map<() -> ()>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#scalar = affine_map<(d0, d1) -> ()>
module {
  func.func @broadcast_scalar(%x: index, %s: index, %y: index) attributes {grid = [16]} {
    %id = ktdp.get_compute_tile_id : index
    %c4 = arith.constant 4 : index
    %row = arith.muli %id, %c4 : index
    %X = ktdp.construct_memory_view %x, sizes: [64, 128], strides: [128, 1] {coordinate_set = #mat, memory_space = #ktdp.memory_space<global>} : memref<64x128xf16>
    %S = ktdp.construct_memory_view %s, sizes: [1], strides: [1] {coordinate_set = #one, memory_space = #ktdp.memory_space<global>} : memref<1xf16>
    %Y = ktdp.construct_memory_view %y, sizes: [64, 128], strides: [128, 1] {coordinate_set = #mat, memory_space = #ktdp.memory_space<global>} : memref<64x128xf16>
    %tx = ktdp.construct_access_tile %X[%row, 0] {access_tile_set = #block, access_tile_order = #id2} : memref<64x128xf16> -> !ktdp.access_tile<4x128xindex>
    %ts = ktdp.construct_access_tile %S[0] {access_tile_set = #one, access_tile_order = affine_map<(d0) -> (d0)>} : memref<1xf16> -> !ktdp.access_tile<1xindex>
    %ty = ktdp.construct_access_tile %Y[%row, 0] {access_tile_set = #block, access_tile_order = #id2} : memref<64x128xf16> -> !ktdp.access_tile<4x128xindex>
    %xt = ktdp.load %tx : <4x128xindex> -> tensor<4x128xf16>
    %st = ktdp.load %ts : <1xindex> -> tensor<1xf16>
    %out = tensor.empty() : tensor<4x128xf16>
    %yt = linalg.generic {indexing_maps = [#id2, affine_map<(d0, d1) -> (0)>, #id2], iterator_types = ["parallel", "parallel"]}
        ins(%xt, %st : tensor<4x128xf16>, tensor<1xf16>) outs(%out : tensor<4x128xf16>) {
      ^bb0(%v: f16, %k: f16, %o: f16):
        %m = arith.mulf %v, %k : f16
        %one = arith.constant 1.0 : f16
        %r = arith.addf %m, %one : f16
        linalg.yield %r : f16
    } -> tensor<4x128xf16>
    ktdp.store %yt, %ty : tensor<4x128xf16>, <4x128xindex>
    return
  }
}
