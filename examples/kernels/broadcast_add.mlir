// broadcast_add.mlir - matrix plus row vector (bias add).
//
// Computes   Y[i, j] = X[i, j] + v[j]      for 0 <= i < 128, 0 <= j < 64
// in f16 (one f16 add per element, rounded to f16).
//
// Arguments (all `index`, tensor start addresses counted in f16 elements):
//   %x  X : 128x64 f16, row-major (strides [64, 1]), input
//   %v  v : 64 f16, contiguous (stride 1), input
//   %y  Y : 128x64 f16, row-major, output
// Grid: [32]. Tile t handles rows [4t, 4t + 4) with one 4x64 tile; every tile
// loads the whole vector v (a 1-D 64-element tile), broadcasts it to 4x64 with
// linalg.broadcast and adds with arith.addf on tensors.
// Memory space spelling: #ktdp.memory_space<global>.

#mat = affine_set<(d0, d1) : (d0 >= 0, -d0 + 127 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#vec = affine_set<(d0) : (d0 >= 0, -d0 + 63 >= 0)>
#block = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#id1 = affine_map<(d0) -> (d0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @broadcast_add(%x: index, %v: index, %y: index) attributes {grid = [32]} {
    %id = ktdp.get_compute_tile_id : index
    %c4 = arith.constant 4 : index
    %row = arith.muli %id, %c4 : index
    %X = ktdp.construct_memory_view %x, sizes: [128, 64], strides: [64, 1] {coordinate_set = #mat, memory_space = #ktdp.memory_space<global>} : memref<128x64xf16>
    %V = ktdp.construct_memory_view %v, sizes: [64], strides: [1] {coordinate_set = #vec, memory_space = #ktdp.memory_space<global>} : memref<64xf16>
    %Y = ktdp.construct_memory_view %y, sizes: [128, 64], strides: [64, 1] {coordinate_set = #mat, memory_space = #ktdp.memory_space<global>} : memref<128x64xf16>
    %tx = ktdp.construct_access_tile %X[%row, 0] {access_tile_set = #block, access_tile_order = #id2} : memref<128x64xf16> -> !ktdp.access_tile<4x64xindex>
    %tv = ktdp.construct_access_tile %V[0] {access_tile_set = #vec, access_tile_order = #id1} : memref<64xf16> -> !ktdp.access_tile<64xindex>
    %ty = ktdp.construct_access_tile %Y[%row, 0] {access_tile_set = #block, access_tile_order = #id2} : memref<128x64xf16> -> !ktdp.access_tile<4x64xindex>
    %xt = ktdp.load %tx : <4x64xindex> -> tensor<4x64xf16>
    %vt = ktdp.load %tv : <64xindex> -> tensor<64xf16>
    %e = tensor.empty() : tensor<4x64xf16>
    %vb = linalg.broadcast ins(%vt : tensor<64xf16>) outs(%e : tensor<4x64xf16>) dimensions = [0]
    %yt = arith.addf %xt, %vb : tensor<4x64xf16>
    ktdp.store %yt, %ty : tensor<4x64xf16>, <4x64xindex>
    return
  }
}
