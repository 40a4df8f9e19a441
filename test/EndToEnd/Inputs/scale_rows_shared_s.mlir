// scale_rows_shared_s.mlir - EndToEnd input of shared-core-staging.test.
// Y[r, c] = X[r, c] * s[c] for 512 rows of 64 columns, 64 rows a grid point,
// each row one scf.for iteration; s is the same at every row and point.
#mat = affine_set<(d0, d1) : (d0 >= 0, -d0 + 511 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#vec = affine_set<(d0) : (d0 >= 0, -d0 + 63 >= 0)>
#row = affine_set<(d0, d1) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#id1 = affine_map<(d0) -> (d0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @scale_rows(%x: index, %s: index, %y: index) attributes {grid = [8]} {
    %id = ktdp.get_compute_tile_id : index
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    %start = arith.muli %id, %c64 : index
    %X = ktdp.construct_memory_view %x, sizes: [512, 64], strides: [64, 1] {coordinate_set = #mat, memory_space = #ktdp.memory_space<global>} : memref<512x64xf16>
    %S = ktdp.construct_memory_view %s, sizes: [64], strides: [1] {coordinate_set = #vec, memory_space = #ktdp.memory_space<global>} : memref<64xf16>
    %Y = ktdp.construct_memory_view %y, sizes: [512, 64], strides: [64, 1] {coordinate_set = #mat, memory_space = #ktdp.memory_space<global>} : memref<512x64xf16>
    scf.for %i = %c0 to %c64 step %c1 {
      %tx = ktdp.construct_access_tile %X[%start + %i, 0] {access_tile_set = #row, access_tile_order = #id2} : memref<512x64xf16> -> !ktdp.access_tile<1x64xindex>
      %ts = ktdp.construct_access_tile %S[0] {access_tile_set = #vec, access_tile_order = #id1} : memref<64xf16> -> !ktdp.access_tile<64xindex>
      %ty = ktdp.construct_access_tile %Y[%start + %i, 0] {access_tile_set = #row, access_tile_order = #id2} : memref<512x64xf16> -> !ktdp.access_tile<1x64xindex>
      %xt = ktdp.load %tx : <1x64xindex> -> tensor<1x64xf16>
      %st = ktdp.load %ts : <64xindex> -> tensor<64xf16>
      %e = tensor.empty() : tensor<1x64xf16>
      %sb = linalg.broadcast ins(%st : tensor<64xf16>) outs(%e : tensor<1x64xf16>) dimensions = [0]
      %p = arith.mulf %xt, %sb : tensor<1x64xf16>
      ktdp.store %p, %ty : tensor<1x64xf16>, <1x64xindex>
    }
    return
  }
}
