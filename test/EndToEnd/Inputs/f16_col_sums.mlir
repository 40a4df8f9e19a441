// f16_col_sums.mlir - column sums of a 1024x64 f16 matrix on one tile,
// accumulated in f16 as written:
//   S[j] = sum_i X[i, j]          (generic, reduction over the rows)
// Under the default numerics policy the sums accumulate in f32 and round
// once; the device folds row after row into one accumulator chunk.
#mat = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1023 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#vec = affine_set<(d0) : (d0 >= 0, -d0 + 63 >= 0)>
#id1 = affine_map<(d0) -> (d0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#col = affine_map<(d0, d1) -> (d1)>
module {
  func.func @f16_colsum(%x: index, %s: index) attributes {grid = [1]} {
    %X = ktdp.construct_memory_view %x, sizes: [1024, 64], strides: [64, 1] {coordinate_set = #mat, memory_space = #ktdp.memory_space<global>} : memref<1024x64xf16>
    %S = ktdp.construct_memory_view %s, sizes: [64], strides: [1] {coordinate_set = #vec, memory_space = #ktdp.memory_space<global>} : memref<64xf16>
    %tx = ktdp.construct_access_tile %X[0, 0] {access_tile_set = #mat, access_tile_order = #id2} : memref<1024x64xf16> -> !ktdp.access_tile<1024x64xindex>
    %ts = ktdp.construct_access_tile %S[0] {access_tile_set = #vec, access_tile_order = #id1} : memref<64xf16> -> !ktdp.access_tile<64xindex>
    %xt = ktdp.load %tx : <1024x64xindex> -> tensor<1024x64xf16>
    %zero = arith.constant 0.0 : f16
    %e16 = tensor.empty() : tensor<64xf16>
    %z = linalg.fill ins(%zero : f16) outs(%e16 : tensor<64xf16>) -> tensor<64xf16>
    %sum = linalg.generic {indexing_maps = [#id2, #col], iterator_types = ["reduction", "parallel"]}
        ins(%xt : tensor<1024x64xf16>) outs(%z : tensor<64xf16>) {
      ^bb0(%v: f16, %acc: f16):
        %a = arith.addf %v, %acc : f16
        linalg.yield %a : f16
    } -> tensor<64xf16>
    ktdp.store %sum, %ts : tensor<64xf16>, <64xindex>
    return
  }
}
