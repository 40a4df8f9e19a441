// inter_tile_broadcast.mlir - one tile's data broadcast to all tiles, and a
// ring (halo) exchange that needs producer_dependency_per_consumer.
//
// Computes, for 0 <= i < 64, 0 <= j < 64, 0 <= t < 4:
//   Y[i, j] = X[i, j] * v[j]                          (f16 multiply, rounded to f16)
//   H[t, j] = X[16 * ((t + 3) mod 4) + 15, j]         (f16 copy)
// i.e. H row t is the last row of the block owned by tile t - 1 (cyclically).
//
// Communication:
//   1. Broadcast: only tile 0 loads v (inside the producer region, which runs
//      on producer tiles only); inter_tile_consume with consumers {0,1,2,3}
//      and a single producer {0} delivers v to every tile.
//   2. Ring shift: every tile t produces its last row X[16t + 15, :] (1x64);
//      consumer c takes the row of producer p = (c + 3) mod 4, expressed by
//      producer_dependency_per_consumer = (p)[c] : p == (c + 3) mod 4.
//
// Arguments (all `index`, tensor start addresses counted in f16 elements):
//   %x  X : 64x64 f16, row-major (strides [64, 1]), input
//   %v  v : 64 f16, contiguous, input (per-column scale)
//   %y  Y : 64x64 f16, row-major, output
//   %h  H : 4x64 f16, row-major, output (halo rows)
// Grid: [4]. Tile t owns rows [16t, 16t + 16) of X and Y and row t of H.
// Memory space spelling: #ktdp.memory_space<global>.

#mat = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#vec = affine_set<(d0) : (d0 >= 0, -d0 + 63 >= 0)>
#halo_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#rows16 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#row1 = affine_set<(d0, d1) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#id1 = affine_map<(d0) -> (d0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#one_group = affine_set<(g) : (g == 0)>
#tile0 = affine_set<(i)[g] : (i == 0, g == 0)>
#all_tiles = affine_set<(i)[g] : (i >= 0, -i + 3 >= 0, g == 0)>
#prev_tile = affine_set<(p)[c] : (p - (c + 3) mod 4 == 0)>
module {
  func.func @inter_tile_broadcast(%x: index, %v: index, %y: index, %h: index) attributes {grid = [4]} {
    %id = ktdp.get_compute_tile_id : index
    %c16 = arith.constant 16 : index
    %row0 = arith.muli %id, %c16 : index
    %X = ktdp.construct_memory_view %x, sizes: [64, 64], strides: [64, 1] {coordinate_set = #mat, memory_space = #ktdp.memory_space<global>} : memref<64x64xf16>
    %V = ktdp.construct_memory_view %v, sizes: [64], strides: [1] {coordinate_set = #vec, memory_space = #ktdp.memory_space<global>} : memref<64xf16>
    %Y = ktdp.construct_memory_view %y, sizes: [64, 64], strides: [64, 1] {coordinate_set = #mat, memory_space = #ktdp.memory_space<global>} : memref<64x64xf16>
    %H = ktdp.construct_memory_view %h, sizes: [4, 64], strides: [64, 1] {coordinate_set = #halo_set, memory_space = #ktdp.memory_space<global>} : memref<4x64xf16>

    // 1. Tile 0 reads v and broadcasts it.
    %v_future = ktdp.inter_tile_produce producer_tiles_per_group = #tile0
        -> !ktdp.tile_future<(tensor<64xf16>), groups = #one_group> {
    ^bb0(%gid: index):
      %tv = ktdp.construct_access_tile %V[0] {access_tile_set = #vec, access_tile_order = #id1} : memref<64xf16> -> !ktdp.access_tile<64xindex>
      %vt = ktdp.load %tv : <64xindex> -> tensor<64xf16>
      ktdp.yield_partial %vt : tensor<64xf16>
    }
    %scale = ktdp.inter_tile_consume(%v_future) consumer_tiles_per_group = #all_tiles
        : !ktdp.tile_future<(tensor<64xf16>), groups = #one_group> -> tensor<64xf16>

    %tx = ktdp.construct_access_tile %X[%row0, 0] {access_tile_set = #rows16, access_tile_order = #id2} : memref<64x64xf16> -> !ktdp.access_tile<16x64xindex>
    %ty = ktdp.construct_access_tile %Y[%row0, 0] {access_tile_set = #rows16, access_tile_order = #id2} : memref<64x64xf16> -> !ktdp.access_tile<16x64xindex>
    %xt = ktdp.load %tx : <16x64xindex> -> tensor<16x64xf16>
    %e = tensor.empty() : tensor<16x64xf16>
    %sb = linalg.broadcast ins(%scale : tensor<64xf16>) outs(%e : tensor<16x64xf16>) dimensions = [0]
    %yt = linalg.mul ins(%xt, %sb : tensor<16x64xf16>, tensor<16x64xf16>) outs(%e : tensor<16x64xf16>) -> tensor<16x64xf16>
    ktdp.store %yt, %ty : tensor<16x64xf16>, <16x64xindex>

    // 2. Ring shift of each block's last row to the next tile.
    %tlast = ktdp.construct_access_tile %X[%row0 + 15, 0] {access_tile_set = #row1, access_tile_order = #id2} : memref<64x64xf16> -> !ktdp.access_tile<1x64xindex>
    %last = ktdp.load %tlast : <1x64xindex> -> tensor<1x64xf16>
    %row_future = ktdp.inter_tile_produce producer_tiles_per_group = #all_tiles
        -> !ktdp.tile_future<(tensor<1x64xf16>), groups = #one_group> {
    ^bb0(%gid: index):
      ktdp.yield_partial %last : tensor<1x64xf16>
    }
    %halo = ktdp.inter_tile_consume(%row_future) consumer_tiles_per_group = #all_tiles, producer_dependency_per_consumer = #prev_tile
        : !ktdp.tile_future<(tensor<1x64xf16>), groups = #one_group> -> tensor<1x64xf16>
    %th = ktdp.construct_access_tile %H[%id, 0] {access_tile_set = #row1, access_tile_order = #id2} : memref<4x64xf16> -> !ktdp.access_tile<1x64xindex>
    ktdp.store %halo, %th : tensor<1x64xf16>, <1x64xindex>
    return
  }
}
