// Y[r, start + c] = 2 * X[r, start + c] for c < 64 and r < n_rows, rows
// dealt out cyclically over 16 tiles: a 64-column window at a plain scalar
// column %start, which may lie partly before column 0 or past column 127
// (those columns are masked: neither read nor written).

#all = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#win = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 63 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @scaled_window(%x: index, %y: index, %n_rows: index, %start: index) attributes {grid = [16, 1]} {
    %tid = ktdp.get_compute_tile_id : index
    %c16 = arith.constant 16 : index
    %two = arith.constant dense<2.0> : tensor<1x64xf16>
    %X = ktdp.construct_memory_view %x, sizes: [64, 128], strides: [128, 1] {coordinate_set = #all, memory_space = #ktdp.memory_space<global>} : memref<64x128xf16>
    %Y = ktdp.construct_memory_view %y, sizes: [64, 128], strides: [128, 1] {coordinate_set = #all, memory_space = #ktdp.memory_space<global>} : memref<64x128xf16>
    scf.for %r = %tid to %n_rows step %c16 {
      %tx = ktdp.construct_access_tile %X[%r, %start] {access_tile_set = #win, access_tile_order = #id2} : memref<64x128xf16> -> !ktdp.access_tile<1x64xindex>
      %ty = ktdp.construct_access_tile %Y[%r, %start] {access_tile_set = #win, access_tile_order = #id2} : memref<64x128xf16> -> !ktdp.access_tile<1x64xindex>
      %v = ktdp.load %tx : <1x64xindex> -> tensor<1x64xf16>
      %w = arith.mulf %v, %two : tensor<1x64xf16>
      ktdp.store %w, %ty : tensor<1x64xf16>, <1x64xindex>
    }
    return
  }
}
