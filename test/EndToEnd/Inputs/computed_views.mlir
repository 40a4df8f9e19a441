// computed_views.mlir - memory views at computed start addresses, the way
// real kernels build them: column shards of a matrix at `ptr + k * shard`
// (a constant offset per shard) and one row per loop iteration at
// `ptr + r * 128` (an offset from the tile id and the loop).
//
// Computes, all values f16, for r < 16, c < 64:
//   Y[r, c]      = X[r, c] * 2        (shard 0: views at x_ptr, y_ptr)
//   Y[r, 64 + c] = X[r, 64 + c] + 1   (shard 1: views at x_ptr + 64, y_ptr + 64)
// and, for r < 16, c < 128 (a row softmax's first step):
//   D[r, c]      = Z[r, c] - max_c Z[r, c]
// where row r of Z and D is a 1x128 view at z_ptr + r * 128 and
// d_ptr + r * 128. Grid [2]: tile p handles rows [8p, 8p + 8) of each
// shard as one 8x64 tile, and loops over the same rows of Z.

#shard = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#rows8 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#row = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 127 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @computed_views(%x_ptr: index,  // X: 16x128 f16 (input)
                            %y_ptr: index,  // Y: 16x128 f16 (output)
                            %z_ptr: index,  // Z: 16x128 f16 (input)
                            %d_ptr: index)  // D: 16x128 f16 (output)
      attributes {grid = [2]} {
    %pid = ktdp.get_compute_tile_id : index
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %c64 = arith.constant 64 : index
    %c128 = arith.constant 128 : index
    %two = arith.constant dense<2.0> : tensor<8x64xf16>
    %one = arith.constant dense<1.0> : tensor<8x64xf16>
    %r0 = arith.muli %pid, %c8 : index
    %x1_ptr = arith.addi %x_ptr, %c64 : index
    %y1_ptr = arith.addi %y_ptr, %c64 : index
    %X0 = ktdp.construct_memory_view %x_ptr, sizes: [16, 64], strides: [128, 1] {coordinate_set = #shard, memory_space = #ktdp.memory_space<global>} : memref<16x64xf16>
    %X1 = ktdp.construct_memory_view %x1_ptr, sizes: [16, 64], strides: [128, 1] {coordinate_set = #shard, memory_space = #ktdp.memory_space<global>} : memref<16x64xf16>
    %Y0 = ktdp.construct_memory_view %y_ptr, sizes: [16, 64], strides: [128, 1] {coordinate_set = #shard, memory_space = #ktdp.memory_space<global>} : memref<16x64xf16>
    %Y1 = ktdp.construct_memory_view %y1_ptr, sizes: [16, 64], strides: [128, 1] {coordinate_set = #shard, memory_space = #ktdp.memory_space<global>} : memref<16x64xf16>
    %tx0 = ktdp.construct_access_tile %X0[%r0, %c0] {access_tile_set = #rows8, access_tile_order = #id2} : memref<16x64xf16> -> !ktdp.access_tile<8x64xindex>
    %tx1 = ktdp.construct_access_tile %X1[%r0, %c0] {access_tile_set = #rows8, access_tile_order = #id2} : memref<16x64xf16> -> !ktdp.access_tile<8x64xindex>
    %ty0 = ktdp.construct_access_tile %Y0[%r0, %c0] {access_tile_set = #rows8, access_tile_order = #id2} : memref<16x64xf16> -> !ktdp.access_tile<8x64xindex>
    %ty1 = ktdp.construct_access_tile %Y1[%r0, %c0] {access_tile_set = #rows8, access_tile_order = #id2} : memref<16x64xf16> -> !ktdp.access_tile<8x64xindex>
    %x0 = ktdp.load %tx0 : <8x64xindex> -> tensor<8x64xf16>
    %x1 = ktdp.load %tx1 : <8x64xindex> -> tensor<8x64xf16>
    %y0 = arith.mulf %x0, %two : tensor<8x64xf16>
    %y1 = arith.addf %x1, %one : tensor<8x64xf16>
    ktdp.store %y0, %ty0 : tensor<8x64xf16>, <8x64xindex>
    ktdp.store %y1, %ty1 : tensor<8x64xf16>, <8x64xindex>
    %r_end = arith.addi %r0, %c8 : index
    %ninf = arith.constant 0xFC00 : f16
    scf.for %r = %r0 to %r_end step %c1 {
      %row_off = arith.muli %r, %c128 : index
      %z_row = arith.addi %z_ptr, %row_off : index
      %d_row = arith.addi %d_ptr, %row_off : index
      %Z = ktdp.construct_memory_view %z_row, sizes: [1, 128], strides: [128, 1] {coordinate_set = #row, memory_space = #ktdp.memory_space<global>} : memref<1x128xf16>
      %D = ktdp.construct_memory_view %d_row, sizes: [1, 128], strides: [128, 1] {coordinate_set = #row, memory_space = #ktdp.memory_space<global>} : memref<1x128xf16>
      %tz = ktdp.construct_access_tile %Z[%c0, %c0] {access_tile_set = #row, access_tile_order = #id2} : memref<1x128xf16> -> !ktdp.access_tile<1x128xindex>
      %td = ktdp.construct_access_tile %D[%c0, %c0] {access_tile_set = #row, access_tile_order = #id2} : memref<1x128xf16> -> !ktdp.access_tile<1x128xindex>
      %z = ktdp.load %tz : <1x128xindex> -> tensor<1x128xf16>
      %init = tensor.splat %ninf : tensor<1xf16>
      %m = linalg.reduce { arith.maxnumf } ins(%z : tensor<1x128xf16>) outs(%init : tensor<1xf16>) dimensions = [1]
      %ms = tensor.extract %m[%c0] : tensor<1xf16>
      %mb = tensor.splat %ms : tensor<1x128xf16>
      %d = arith.subf %z, %mb : tensor<1x128xf16>
      ktdp.store %d, %td : tensor<1x128xf16>, <1x128xindex>
    }
    return
  }
}
