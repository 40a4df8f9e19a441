// allreduce.mlir - column centering of a row-distributed matrix: per-tile
// partial column sums combined by an inter-tile all-reduce.
//
// Computes, for 0 <= i < 64, 0 <= j < 64, in f32 (x = f32(X)):
//   S[j]    = sum_{i < 64} x[i, j]               (f32)
//   Y[i, j] = f16(x[i, j] - S[j] / 64)           (round to nearest even)
// Tile t sums its own 16 rows in f32 (linalg.reduce over dim 0, init 0) into
// a partial P_t[64]; S = P_0 + P_1 + P_2 + P_3 combined by
// ktdp.inter_tile_reduce with an addf combiner (f32, order unspecified), and
// every tile receives S (all-reduce: consumers == producers == {0, 1, 2, 3}).
//
// Arguments (all `index`, tensor start addresses counted in f16 elements):
//   %x  X : 64x64 f16, row-major (strides [64, 1]), input
//   %y  Y : 64x64 f16, row-major, output
// Grid: [4]. Tile t handles rows [16t, 16t + 16) with one 16x64 tile.
// One group (g = 0); producer and consumer sets are both all four tiles.
// Memory space spelling: #ktdp.spyre_memory_space<HBM>.

#mat = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#rows16 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#col = affine_map<(d0, d1) -> (d1)>
#one_group = affine_set<(g) : (g == 0)>
#all_tiles = affine_set<(i)[g] : (i >= 0, -i + 3 >= 0, g == 0)>
module {
  func.func @allreduce(%x: index, %y: index) attributes {grid = [4]} {
    %id = ktdp.get_compute_tile_id : index
    %c16 = arith.constant 16 : index
    %row0 = arith.muli %id, %c16 : index
    %X = ktdp.construct_memory_view %x, sizes: [64, 64], strides: [64, 1] {coordinate_set = #mat, memory_space = #ktdp.spyre_memory_space<HBM>} : memref<64x64xf16>
    %Y = ktdp.construct_memory_view %y, sizes: [64, 64], strides: [64, 1] {coordinate_set = #mat, memory_space = #ktdp.spyre_memory_space<HBM>} : memref<64x64xf16>
    %tx = ktdp.construct_access_tile %X[%row0, 0] {access_tile_set = #rows16, access_tile_order = #id2} : memref<64x64xf16> -> !ktdp.access_tile<16x64xindex>
    %ty = ktdp.construct_access_tile %Y[%row0, 0] {access_tile_set = #rows16, access_tile_order = #id2} : memref<64x64xf16> -> !ktdp.access_tile<16x64xindex>
    %xh = ktdp.load %tx : <16x64xindex> -> tensor<16x64xf16>
    %xf = arith.extf %xh : tensor<16x64xf16> to tensor<16x64xf32>

    %zeros = arith.constant dense<0.0> : tensor<64xf32>
    %partial = linalg.reduce ins(%xf : tensor<16x64xf32>) outs(%zeros : tensor<64xf32>) dimensions = [0]
      (%in: f32, %acc: f32) {
        %s = arith.addf %in, %acc : f32
        linalg.yield %s : f32
      }

    %future = ktdp.inter_tile_produce producer_tiles_per_group = #all_tiles
        -> !ktdp.tile_future<(tensor<64xf32>), groups = #one_group> {
    ^bb0(%gid: index):
      ktdp.yield_partial %partial : tensor<64xf32>
    }
    %total = ktdp.inter_tile_reduce(%future) consumer_tiles_per_group = #all_tiles, identity(%zeros : tensor<64xf32>)
        : !ktdp.tile_future<(tensor<64xf32>), groups = #one_group> -> tensor<64xf32> {
    ^bb0(%lhs: tensor<64xf32>, %rhs: tensor<64xf32>):
      %sum = arith.addf %lhs, %rhs : tensor<64xf32>
      ktdp.yield_reduced %sum : tensor<64xf32>
    }

    %n = arith.constant dense<64.0> : tensor<64xf32>
    %mean = arith.divf %total, %n : tensor<64xf32>
    %out = tensor.empty() : tensor<16x64xf16>
    %yh = linalg.generic {indexing_maps = [#id2, #col, #id2], iterator_types = ["parallel", "parallel"]}
        ins(%xf, %mean : tensor<16x64xf32>, tensor<64xf32>) outs(%out : tensor<16x64xf16>) {
      ^bb0(%v: f32, %m: f32, %o: f16):
        %d = arith.subf %v, %m : f32
        %h = arith.truncf %d : f32 to f16
        linalg.yield %h : f16
    } -> tensor<16x64xf16>
    ktdp.store %yh, %ty : tensor<16x64xf16>, <16x64xindex>
    return
  }
}
