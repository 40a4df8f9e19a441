// odd_colred_f16_100cols.mlir - column sums (f32 accumulation) and maxima
// of a 97x100 f16 matrix, 33 columns per tile over a [4] grid: the last
// tile holds one column inside the view and 32 masked ones.

#mat = affine_set<(d0, d1) : (d0 >= 0, -d0 + 96 >= 0, d1 >= 0, -d1 + 99 >= 0)>
#vec = affine_set<(d0) : (d0 >= 0, -d0 + 99 >= 0)>
#block = affine_set<(d0, d1) : (d0 >= 0, -d0 + 96 >= 0, d1 >= 0, -d1 + 32 >= 0)>
#cols = affine_set<(d0) : (d0 >= 0, -d0 + 32 >= 0)>
#id1 = affine_map<(d0) -> (d0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#col = affine_map<(d0, d1) -> (d1)>
module {
  func.func @col_reduce(%x: index, %s: index, %m: index) attributes {grid = [4]} {
    %id = ktdp.get_compute_tile_id : index
    %cB = arith.constant 33 : index
    %c0 = arith.muli %id, %cB : index
    %X = ktdp.construct_memory_view %x, sizes: [97, 100], strides: [100, 1] {coordinate_set = #mat, memory_space = #ktdp.memory_space<global>} : memref<97x100xf16>
    %S = ktdp.construct_memory_view %s, sizes: [100], strides: [1] {coordinate_set = #vec, memory_space = #ktdp.memory_space<global>} : memref<100xf16>
    %M = ktdp.construct_memory_view %m, sizes: [100], strides: [1] {coordinate_set = #vec, memory_space = #ktdp.memory_space<global>} : memref<100xf16>
    %tx = ktdp.construct_access_tile %X[0, %c0] {access_tile_set = #block, access_tile_order = #id2} : memref<97x100xf16> -> !ktdp.access_tile<97x33xindex>
    %ts = ktdp.construct_access_tile %S[%c0] {access_tile_set = #cols, access_tile_order = #id1} : memref<100xf16> -> !ktdp.access_tile<33xindex>
    %tm = ktdp.construct_access_tile %M[%c0] {access_tile_set = #cols, access_tile_order = #id1} : memref<100xf16> -> !ktdp.access_tile<33xindex>
    %xt = ktdp.load %tx : <97x33xindex> -> tensor<97x33xf16>
    %zero = arith.constant 0.0 : f32
    %ninf = arith.constant 0xFC00 : f16
    %e32 = tensor.empty() : tensor<33xf32>
    %e16 = tensor.empty() : tensor<33xf16>
    %sum0 = linalg.fill ins(%zero : f32) outs(%e32 : tensor<33xf32>) -> tensor<33xf32>
    %max0 = linalg.fill ins(%ninf : f16) outs(%e16 : tensor<33xf16>) -> tensor<33xf16>
    %sum = linalg.generic {indexing_maps = [#id2, #col], iterator_types = ["reduction", "parallel"]}
        ins(%xt : tensor<97x33xf16>) outs(%sum0 : tensor<33xf32>) {
      ^bb0(%v: f16, %acc: f32):
        %w = arith.extf %v : f16 to f32
        %a = arith.addf %w, %acc : f32
        linalg.yield %a : f32
    } -> tensor<33xf32>
    %max = linalg.reduce ins(%xt : tensor<97x33xf16>) outs(%max0 : tensor<33xf16>) dimensions = [0]
      (%v: f16, %acc: f16) {
        %r = arith.maximumf %v, %acc : f16
        linalg.yield %r : f16
      }
    %sum16 = arith.truncf %sum : tensor<33xf32> to tensor<33xf16>
    ktdp.store %sum16, %ts : tensor<33xf16>, <33xindex>
    ktdp.store %max, %tm : tensor<33xf16>, <33xindex>
    return
  }
}
