// scale_cols_clamped.mlir - y = x * s[c] over a 37 x 256 f16 matrix in
// 32x256 tiles dealt cyclically over a [2] grid up to a block count
// argument (2); Y's rows are 320 elements apart. The second tile reaches
// past row 37: its rows from 37 on are masked (loads read 0, stores drop
// them), whole blocks of them when the tile is handed over in blocks of
// rows (ktdf-row-blocks on mesh_device: loaded in 16 blocks of 2 rows,
// stored in 2 blocks of 16).
//
// Computes, for r < 37, c < 256:  Y[r, c] = f16(x[r, c] * s[c])

#x_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 36 >= 0, d1 >= 0, -d1 + 255 >= 0)>
#s_set = affine_set<(d0) : (d0 >= 0, -d0 + 255 >= 0)>
#blk = affine_set<(d0, d1) : (d0 >= 0, -d0 + 31 >= 0, d1 >= 0, -d1 + 255 >= 0)>
#id1 = affine_map<(d0) -> (d0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @scale_cols(%x_ptr: index,   // X: 37 x 256 f16 (input)
                        %s_ptr: index,   // S: 256 f16 (input)
                        %y_ptr: index,   // Y: 37 rows of 256 f16, row pitch 320 (output)
                        %n_blocks: index) // ceil(37 / 32) = 2
      attributes {grid = [2]} {
    %pid = ktdp.get_compute_tile_id : index
    %c2 = arith.constant 2 : index
    %c32 = arith.constant 32 : index
    %X = ktdp.construct_memory_view %x_ptr, sizes: [37, 256], strides: [256, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<37x256xf16>
    %Y = ktdp.construct_memory_view %y_ptr, sizes: [37, 256], strides: [320, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<37x256xf16, strided<[320, 1]>>
    %S = ktdp.construct_memory_view %s_ptr, sizes: [256], strides: [1] {coordinate_set = #s_set, memory_space = #ktdp.memory_space<global>} : memref<256xf16>
    %ts = ktdp.construct_access_tile %S[0] {access_tile_set = #s_set, access_tile_order = #id1} : memref<256xf16> -> !ktdp.access_tile<256xindex>
    %s = ktdp.load %ts : <256xindex> -> tensor<256xf16>
    %e = tensor.empty() : tensor<32x256xf16>
    %sb = linalg.broadcast ins(%s : tensor<256xf16>) outs(%e : tensor<32x256xf16>) dimensions = [0]
    scf.for %b = %pid to %n_blocks step %c2 : index {
      %r = arith.muli %b, %c32 : index
      %tx = ktdp.construct_access_tile %X[%r, 0] {access_tile_set = #blk, access_tile_order = #id2} : memref<37x256xf16> -> !ktdp.access_tile<32x256xindex>
      %x = ktdp.load %tx : <32x256xindex> -> tensor<32x256xf16>
      %y = arith.mulf %x, %sb : tensor<32x256xf16>
      %ty = ktdp.construct_access_tile %Y[%r, 0] {access_tile_set = #blk, access_tile_order = #id2} : memref<37x256xf16, strided<[320, 1]>> -> !ktdp.access_tile<32x256xindex>
      ktdp.store %y, %ty : tensor<32x256xf16>, <32x256xindex>
    }
    return
  }
}
