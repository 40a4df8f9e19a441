// stepped_loops.mlir - row sums in a loop that steps by the tile height, and
// an element-wise add in a nested loop over column halves.
//
// Computes, for 0 <= i < 64, 0 <= j < 128, in f32:
//   S[i]    = sum_j X[i, j]              (linalg.generic, f32 from 0)
//   Y[i, j] = X[i, j] + X[i, j]
//
// Arguments (all `index`, tensor start addresses counted in f32 elements):
//   %x  X : 64x128 f32, row-major, input
//   %s  S : 64 f32, contiguous, output
//   %y  Y : 64x128 f32, row-major, output
// Grid: [4]. Tile t owns rows [16t, 16t + 16): an scf.for over %i in
// [0, 16) step 4 reads a 4x128 tile of X and stores the 4 sums as a 1-d
// tile of S at 16t + %i (its last value is 12, not 15, so the tile ends at
// row 16t + 15, inside S), then a nested scf.for over %j in [0, 128) step 64
// adds 4x64 halves (the last half starts at column 64, inside X).
// Memory space spelling: #ktdp.memory_space<global>.

#mat = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#vec = affine_set<(d0) : (d0 >= 0, -d0 + 63 >= 0)>
#block = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#half = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#rows = affine_set<(d0) : (d0 >= 0, -d0 + 3 >= 0)>
#id1 = affine_map<(d0) -> (d0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
module {
  func.func @stepped_loops(%x: index, %s: index, %y: index) attributes {grid = [4]} {
    %id = ktdp.get_compute_tile_id : index
    %c0 = arith.constant 0 : index
    %c4 = arith.constant 4 : index
    %c16 = arith.constant 16 : index
    %c64 = arith.constant 64 : index
    %c128 = arith.constant 128 : index
    %first = arith.muli %id, %c16 : index
    %X = ktdp.construct_memory_view %x, sizes: [64, 128], strides: [128, 1] {coordinate_set = #mat, memory_space = #ktdp.memory_space<global>} : memref<64x128xf32>
    %S = ktdp.construct_memory_view %s, sizes: [64], strides: [1] {coordinate_set = #vec, memory_space = #ktdp.memory_space<global>} : memref<64xf32>
    %Y = ktdp.construct_memory_view %y, sizes: [64, 128], strides: [128, 1] {coordinate_set = #mat, memory_space = #ktdp.memory_space<global>} : memref<64x128xf32>
    scf.for %i = %c0 to %c16 step %c4 {
      %tx = ktdp.construct_access_tile %X[%first + %i, 0] {access_tile_set = #block, access_tile_order = #id2} : memref<64x128xf32> -> !ktdp.access_tile<4x128xindex>
      %ts = ktdp.construct_access_tile %S[%first + %i] {access_tile_set = #rows, access_tile_order = #id1} : memref<64xf32> -> !ktdp.access_tile<4xindex>
      %xt = ktdp.load %tx : <4x128xindex> -> tensor<4x128xf32>
      %zero = arith.constant 0.0 : f32
      %e = tensor.empty() : tensor<4xf32>
      %acc0 = linalg.fill ins(%zero : f32) outs(%e : tensor<4xf32>) -> tensor<4xf32>
      %sum = linalg.generic {indexing_maps = [#id2, #row], iterator_types = ["parallel", "reduction"]}
          ins(%xt : tensor<4x128xf32>) outs(%acc0 : tensor<4xf32>) {
        ^bb0(%v: f32, %acc: f32):
          %a = arith.addf %v, %acc : f32
          linalg.yield %a : f32
      } -> tensor<4xf32>
      ktdp.store %sum, %ts : tensor<4xf32>, <4xindex>
      scf.for %j = %c0 to %c128 step %c64 {
        %th = ktdp.construct_access_tile %X[%first + %i, %j] {access_tile_set = #half, access_tile_order = #id2} : memref<64x128xf32> -> !ktdp.access_tile<4x64xindex>
        %ty = ktdp.construct_access_tile %Y[%first + %i, %j] {access_tile_set = #half, access_tile_order = #id2} : memref<64x128xf32> -> !ktdp.access_tile<4x64xindex>
        %h = ktdp.load %th : <4x64xindex> -> tensor<4x64xf32>
        %d = arith.addf %h, %h : tensor<4x64xf32>
        ktdp.store %d, %ty : tensor<4x64xf32>, <4x64xindex>
      }
    }
    return
  }
}
