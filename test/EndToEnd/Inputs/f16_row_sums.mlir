// f16_row_sums.mlir - row sums and sums of squares of a 64x1024 f16
// matrix, every value (inputs, squares, accumulators, outputs) f16 as
// written:
//   S[i] = sum_j X[i, j]          (linalg.reduce, addf f16)
//   Q[i] = sum_j X[i, j]^2        (generic: mulf f16, then addf f16)
// Under the default numerics policy both sums accumulate in f32 and round
// once; each square rounds to f16. Grid [16]: tile t reduces rows
// [4t, 4t + 4).
#mat = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 1023 >= 0)>
#vec = affine_set<(d0) : (d0 >= 0, -d0 + 63 >= 0)>
#block = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 1023 >= 0)>
#rows = affine_set<(d0) : (d0 >= 0, -d0 + 3 >= 0)>
#id1 = affine_map<(d0) -> (d0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
module {
  func.func @f16_sums(%x: index, %s: index, %q: index) attributes {grid = [16]} {
    %id = ktdp.get_compute_tile_id : index
    %c4 = arith.constant 4 : index
    %r0 = arith.muli %id, %c4 : index
    %X = ktdp.construct_memory_view %x, sizes: [64, 1024], strides: [1024, 1] {coordinate_set = #mat, memory_space = #ktdp.memory_space<global>} : memref<64x1024xf16>
    %S = ktdp.construct_memory_view %s, sizes: [64], strides: [1] {coordinate_set = #vec, memory_space = #ktdp.memory_space<global>} : memref<64xf16>
    %Q = ktdp.construct_memory_view %q, sizes: [64], strides: [1] {coordinate_set = #vec, memory_space = #ktdp.memory_space<global>} : memref<64xf16>
    %tx = ktdp.construct_access_tile %X[%r0, 0] {access_tile_set = #block, access_tile_order = #id2} : memref<64x1024xf16> -> !ktdp.access_tile<4x1024xindex>
    %ts = ktdp.construct_access_tile %S[%r0] {access_tile_set = #rows, access_tile_order = #id1} : memref<64xf16> -> !ktdp.access_tile<4xindex>
    %tq = ktdp.construct_access_tile %Q[%r0] {access_tile_set = #rows, access_tile_order = #id1} : memref<64xf16> -> !ktdp.access_tile<4xindex>
    %xt = ktdp.load %tx : <4x1024xindex> -> tensor<4x1024xf16>
    %zero = arith.constant 0.0 : f16
    %e16 = tensor.empty() : tensor<4xf16>
    %z = linalg.fill ins(%zero : f16) outs(%e16 : tensor<4xf16>) -> tensor<4xf16>
    %sum = linalg.reduce ins(%xt : tensor<4x1024xf16>) outs(%z : tensor<4xf16>) dimensions = [1]
      (%v: f16, %acc: f16) {
        %a = arith.addf %v, %acc : f16
        linalg.yield %a : f16
      }
    %sq = linalg.generic {indexing_maps = [#id2, #row], iterator_types = ["parallel", "reduction"]}
        ins(%xt : tensor<4x1024xf16>) outs(%z : tensor<4xf16>) {
      ^bb0(%v: f16, %acc: f16):
        %p = arith.mulf %v, %v : f16
        %a = arith.addf %p, %acc : f16
        linalg.yield %a : f16
    } -> tensor<4xf16>
    ktdp.store %sum, %ts : tensor<4xf16>, <4xindex>
    ktdp.store %sq, %tq : tensor<4xf16>, <4xindex>
    return
  }
}
