// row_reduce_f32.mlir - examples/kernels/row_reduce.mlir with f32 inputs, outputs
// and arithmetic (no conversions): sum and maximum of every row.
//
// Computes, for 0 <= i < 64 (x = X[i, :], 0 <= j < 256):
//   S[i] = f32(sum_j f32(x[j]))      (f32 accumulation from 0, rounded once)
//   M[i] = max_j x[j]                (arith.maximumf from -inf, exact)
//
// Arguments (all `index`, tensor start addresses counted in f32 elements):
//   %x  X : 64x256 f32, row-major, input
//   %s  S : 64 f32, contiguous, output
//   %m  M : 64 f32, contiguous, output
// Grid: [16]. Tile t handles rows [4t, 4t + 4): a 4x256 tile of X, the four
// sums and maxima of those rows (one 4-element tile each).
// Memory space spelling: #ktdp.memory_space<global>.

#mat = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 255 >= 0)>
#vec = affine_set<(d0) : (d0 >= 0, -d0 + 63 >= 0)>
#block = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 255 >= 0)>
#rows = affine_set<(d0) : (d0 >= 0, -d0 + 3 >= 0)>
#id1 = affine_map<(d0) -> (d0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
module {
  func.func @row_reduce(%x: index, %s: index, %m: index) attributes {grid = [16]} {
    %id = ktdp.get_compute_tile_id : index
    %c4 = arith.constant 4 : index
    %r0 = arith.muli %id, %c4 : index
    %X = ktdp.construct_memory_view %x, sizes: [64, 256], strides: [256, 1] {coordinate_set = #mat, memory_space = #ktdp.memory_space<global>} : memref<64x256xf32>
    %S = ktdp.construct_memory_view %s, sizes: [64], strides: [1] {coordinate_set = #vec, memory_space = #ktdp.memory_space<global>} : memref<64xf32>
    %M = ktdp.construct_memory_view %m, sizes: [64], strides: [1] {coordinate_set = #vec, memory_space = #ktdp.memory_space<global>} : memref<64xf32>
    %tx = ktdp.construct_access_tile %X[%r0, 0] {access_tile_set = #block, access_tile_order = #id2} : memref<64x256xf32> -> !ktdp.access_tile<4x256xindex>
    %ts = ktdp.construct_access_tile %S[%r0] {access_tile_set = #rows, access_tile_order = #id1} : memref<64xf32> -> !ktdp.access_tile<4xindex>
    %tm = ktdp.construct_access_tile %M[%r0] {access_tile_set = #rows, access_tile_order = #id1} : memref<64xf32> -> !ktdp.access_tile<4xindex>
    %xt = ktdp.load %tx : <4x256xindex> -> tensor<4x256xf32>
    %zero = arith.constant 0.0 : f32
    %ninf = arith.constant 0xFF800000 : f32
    %e32 = tensor.empty() : tensor<4xf32>
    %e16 = tensor.empty() : tensor<4xf32>
    %sum0 = linalg.fill ins(%zero : f32) outs(%e32 : tensor<4xf32>) -> tensor<4xf32>
    %max0 = linalg.fill ins(%ninf : f32) outs(%e16 : tensor<4xf32>) -> tensor<4xf32>
    %sum = linalg.generic {indexing_maps = [#id2, #row], iterator_types = ["parallel", "reduction"]}
        ins(%xt : tensor<4x256xf32>) outs(%sum0 : tensor<4xf32>) {
      ^bb0(%v: f32, %acc: f32):
        %a = arith.addf %v, %acc : f32
        linalg.yield %a : f32
    } -> tensor<4xf32>
    %max = linalg.reduce ins(%xt : tensor<4x256xf32>) outs(%max0 : tensor<4xf32>) dimensions = [1]
      (%v: f32, %acc: f32) {
        %r = arith.maximumf %v, %acc : f32
        linalg.yield %r : f32
      }
    ktdp.store %sum, %ts : tensor<4xf32>, <4xindex>
    ktdp.store %max, %tm : tensor<4xf32>, <4xindex>
    return
  }
}
