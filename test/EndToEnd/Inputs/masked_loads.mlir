// masked_loads.mlir - kernels whose masked coordinates reach stored
// elements, each checked against the reference interpreter by
// masked-loads.test (one per `--func`). Until the DMA lowering zeroed what
// a masked load does not read, ktdf-check-supported refused every one of
// them; now each load reads 0 past its view, as the reference does.

#cs_x126 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 125 >= 0)>
#cs_all = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#cs_t = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#rs_all = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#rb_x = affine_set<(d0, d1)[s0] : (d0 >= 0, -d0 + s0 - 1 >= 0, d1 >= 0, -d1 + 255 >= 0)>
#rb_p = affine_set<(d0) : (d0 >= 0, -d0 + 2047 >= 0)>
#rb_block = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#el_upto_n = affine_set<(d0)[s0] : (d0 >= 0, -d0 + s0 - 1 >= 0)>
#el_block = affine_set<(d0) : (d0 >= 0, -d0 + 255 >= 0)>
#cr_x62 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 61 >= 0, d1 >= 0, -d1 + 255 >= 0)>
#cr_vec = affine_set<(d0) : (d0 >= 0, -d0 + 255 >= 0)>
#cr_block = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#cr_cols = affine_set<(d0) : (d0 >= 0, -d0 + 63 >= 0)>
#pr_vec = affine_set<(d0) : (d0 >= 0, -d0 + 63 >= 0)>
#pr_block = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 255 >= 0)>
#pr_rows = affine_set<(d0) : (d0 >= 0, -d0 + 3 >= 0)>
#sv_x62 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 61 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#sv_y61 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 60 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#sv_all = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#sv_t = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#or_mat = affine_set<(d0, d1) : (d0 >= 0, -d0 + 31 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#or_block = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#sh_win = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 63 >= 0)>
#td_x = affine_set<(d0, d1, d2) : (d0 >= 0, -d0 + 2 >= 0, d1 >= 0, -d1 + 9 >= 0, d2 >= 0, -d2 + 63 >= 0)>
#td_y = affine_set<(d0, d1, d2) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 11 >= 0, d2 >= 0, -d2 + 63 >= 0)>
#td_t = affine_set<(d0, d1, d2) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 3 >= 0, d2 >= 0, -d2 + 63 >= 0)>
#id1 = affine_map<(d0) -> (d0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
module {
  // X holds 126 of its 128 columns: each row's sum adds the two masked
  // columns' 0s, and Y (all 128) gets the sum in every column.
  func.func @column_sums(%x: index, %y: index) attributes {grid = [32]} {
    %id = ktdp.get_compute_tile_id : index
    %c2 = arith.constant 2 : index
    %r = arith.muli %id, %c2 : index
    %zero = arith.constant 0.0 : f16
    %X = ktdp.construct_memory_view %x, sizes: [64, 128], strides: [128, 1] {coordinate_set = #cs_x126, memory_space = #ktdp.memory_space<global>} : memref<64x128xf16>
    %Y = ktdp.construct_memory_view %y, sizes: [64, 128], strides: [128, 1] {coordinate_set = #cs_all, memory_space = #ktdp.memory_space<global>} : memref<64x128xf16>
    %tx = ktdp.construct_access_tile %X[%r, 0] {access_tile_set = #cs_t, access_tile_order = #id2} : memref<64x128xf16> -> !ktdp.access_tile<2x128xindex>
    %ty = ktdp.construct_access_tile %Y[%r, 0] {access_tile_set = #cs_t, access_tile_order = #id2} : memref<64x128xf16> -> !ktdp.access_tile<2x128xindex>
    %v = ktdp.load %tx : <2x128xindex> -> tensor<2x128xf16>
    %e = tensor.empty() : tensor<2xf16>
    %i = linalg.fill ins(%zero : f16) outs(%e : tensor<2xf16>) -> tensor<2xf16>
    %s = linalg.reduce { arith.addf } ins(%v : tensor<2x128xf16>) outs(%i : tensor<2xf16>) dimensions = [1]
    %e2 = tensor.empty() : tensor<2x128xf16>
    %sb = linalg.broadcast ins(%s : tensor<2xf16>) outs(%e2 : tensor<2x128xf16>) dimensions = [1]
    ktdp.store %sb, %ty : tensor<2x128xf16>, <2x128xindex>
    return
  }

  // Column sums of row blocks: program t loops over the 64-row blocks of
  // columns 64 t to 64 t + 63 up to a runtime count %nb and stores block
  // rb's sums at row rb of P (8 x 256, flat). X holds N rows (at launch): the block holding
  // row N is partly masked and the blocks after it entirely, and they reuse
  // buffers earlier full blocks loaded, so only the zeroing keeps their
  // sums the interpreter's.
  func.func @row_block_partials(%x: index, %p: index, %N: index, %nb: index) attributes {grid = [4]} {
    %pid = ktdp.get_compute_tile_id : index
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    %c256 = arith.constant 256 : index
    %zero = arith.constant 0.0 : f16
    %col = arith.muli %pid, %c64 : index
    %X = ktdp.construct_memory_view %x, sizes: [%N, 256], strides: [256, 1] {coordinate_set = #rb_x, memory_space = #ktdp.memory_space<global>} : memref<?x256xf16>
    %P = ktdp.construct_memory_view %p, sizes: [2048], strides: [1] {coordinate_set = #rb_p, memory_space = #ktdp.memory_space<global>} : memref<2048xf16>
    scf.for %rb = %c0 to %nb step %c1 {
      %row = arith.muli %rb, %c64 : index
      %tx = ktdp.construct_access_tile %X[%row, %col] {access_tile_set = #rb_block, access_tile_order = #id2} : memref<?x256xf16> -> !ktdp.access_tile<64x64xindex>
      %xt = ktdp.load %tx : <64x64xindex> -> tensor<64x64xf16>
      %e = tensor.empty() : tensor<64xf16>
      %s0 = linalg.fill ins(%zero : f16) outs(%e : tensor<64xf16>) -> tensor<64xf16>
      %sum = linalg.reduce { arith.addf } ins(%xt : tensor<64x64xf16>) outs(%s0 : tensor<64xf16>) dimensions = [0]
      %prow = arith.muli %rb, %c256 : index
      %pat = arith.addi %prow, %col : index
      %tp = ktdp.construct_access_tile %P[%pat] {access_tile_set = #cr_cols, access_tile_order = #id1} : memref<2048xf16> -> !ktdp.access_tile<64xindex>
      ktdp.store %sum, %tp : tensor<64xf16>, <64xindex>
    }
    return
  }

  // 1-d blocks past a runtime n: squared into the same elements of Y and
  // one block further into Z, whose elements past the loaded ones get 0.
  func.func @elements(%x: index, %y: index, %z: index, %n: i32) attributes {grid = [4]} {
    %pid = ktdp.get_compute_tile_id : index
    %c256 = arith.constant 256 : index
    %nn = arith.index_cast %n : i32 to index
    %o = arith.muli %pid, %c256 : index
    %o2 = arith.addi %o, %c256 : index
    %X = ktdp.construct_memory_view %x, sizes: [%nn], strides: [1] {coordinate_set = #el_upto_n, memory_space = #ktdp.memory_space<global>} : memref<?xf32>
    %Y = ktdp.construct_memory_view %y, sizes: [%nn], strides: [1] {coordinate_set = #el_upto_n, memory_space = #ktdp.memory_space<global>} : memref<?xf32>
    %Z = ktdp.construct_memory_view %z, sizes: [%nn], strides: [1] {coordinate_set = #el_upto_n, memory_space = #ktdp.memory_space<global>} : memref<?xf32>
    %tx = ktdp.construct_access_tile %X[%o] {access_tile_set = #el_block, access_tile_order = #id1} : memref<?xf32> -> !ktdp.access_tile<256xindex>
    %ty = ktdp.construct_access_tile %Y[%o] {access_tile_set = #el_block, access_tile_order = #id1} : memref<?xf32> -> !ktdp.access_tile<256xindex>
    %tz = ktdp.construct_access_tile %Z[%o2] {access_tile_set = #el_block, access_tile_order = #id1} : memref<?xf32> -> !ktdp.access_tile<256xindex>
    %v = ktdp.load %tx : <256xindex> -> tensor<256xf32>
    %w = arith.mulf %v, %v : tensor<256xf32>
    ktdp.store %w, %ty : tensor<256xf32>, <256xindex>
    ktdp.store %w, %tz : tensor<256xf32>, <256xindex>
    return
  }

  // Column sums of 64-row tiles over X's 62 rows: the two masked rows add 0.
  func.func @column_reduction(%x: index, %s: index) attributes {grid = [4]} {
    %id = ktdp.get_compute_tile_id : index
    %c64 = arith.constant 64 : index
    %c0 = arith.muli %id, %c64 : index
    %X = ktdp.construct_memory_view %x, sizes: [64, 256], strides: [256, 1] {coordinate_set = #cr_x62, memory_space = #ktdp.memory_space<global>} : memref<64x256xf16>
    %S = ktdp.construct_memory_view %s, sizes: [256], strides: [1] {coordinate_set = #cr_vec, memory_space = #ktdp.memory_space<global>} : memref<256xf16>
    %tx = ktdp.construct_access_tile %X[0, %c0] {access_tile_set = #cr_block, access_tile_order = #id2} : memref<64x256xf16> -> !ktdp.access_tile<64x64xindex>
    %ts = ktdp.construct_access_tile %S[%c0] {access_tile_set = #cr_cols, access_tile_order = #id1} : memref<256xf16> -> !ktdp.access_tile<64xindex>
    %xt = ktdp.load %tx : <64x64xindex> -> tensor<64x64xf16>
    %zero = arith.constant 0.0 : f16
    %e = tensor.empty() : tensor<64xf16>
    %s0 = linalg.fill ins(%zero : f16) outs(%e : tensor<64xf16>) -> tensor<64xf16>
    %sum = linalg.reduce ins(%xt : tensor<64x64xf16>) outs(%s0 : tensor<64xf16>) dimensions = [0]
      (%v: f16, %acc: f16) {
        %r = arith.addf %v, %acc : f16
        linalg.yield %r : f16
      }
    ktdp.store %sum, %ts : tensor<64xf16>, <64xindex>
    return
  }

  // Row sums of X's 62 rows into S, which holds 64: S[62], S[63] get 0.
  func.func @per_row_outputs(%x: index, %s: index) attributes {grid = [16]} {
    %id = ktdp.get_compute_tile_id : index
    %c4 = arith.constant 4 : index
    %r0 = arith.muli %id, %c4 : index
    %X = ktdp.construct_memory_view %x, sizes: [64, 256], strides: [256, 1] {coordinate_set = #cr_x62, memory_space = #ktdp.memory_space<global>} : memref<64x256xf16>
    %S = ktdp.construct_memory_view %s, sizes: [64], strides: [1] {coordinate_set = #pr_vec, memory_space = #ktdp.memory_space<global>} : memref<64xf16>
    %tx = ktdp.construct_access_tile %X[%r0, 0] {access_tile_set = #pr_block, access_tile_order = #id2} : memref<64x256xf16> -> !ktdp.access_tile<4x256xindex>
    %ts = ktdp.construct_access_tile %S[%r0] {access_tile_set = #pr_rows, access_tile_order = #id1} : memref<64xf16> -> !ktdp.access_tile<4xindex>
    %xt = ktdp.load %tx : <4x256xindex> -> tensor<4x256xf16>
    %zero = arith.constant 0.0 : f16
    %e = tensor.empty() : tensor<4xf16>
    %s0 = linalg.fill ins(%zero : f16) outs(%e : tensor<4xf16>) -> tensor<4xf16>
    %sum = linalg.reduce ins(%xt : tensor<4x256xf16>) outs(%s0 : tensor<4xf16>) dimensions = [1]
      (%v: f16, %acc: f16) {
        %r = arith.addf %v, %acc : f16
        linalg.yield %r : f16
      }
    ktdp.store %sum, %ts : tensor<4xf16>, <4xindex>
    return
  }

  // X holds 62 rows, Y 61 and Z all 64: Z's rows 62 and 63 get 0 + 0.
  func.func @store_view_holds_more(%x: index, %y: index, %z: index) attributes {grid = [16]} {
    %id = ktdp.get_compute_tile_id : index
    %c4 = arith.constant 4 : index
    %r0 = arith.muli %id, %c4 : index
    %X = ktdp.construct_memory_view %x, sizes: [64, 64], strides: [64, 1] {coordinate_set = #sv_x62, memory_space = #ktdp.memory_space<global>} : memref<64x64xf16>
    %Y = ktdp.construct_memory_view %y, sizes: [64, 64], strides: [64, 1] {coordinate_set = #sv_y61, memory_space = #ktdp.memory_space<global>} : memref<64x64xf16>
    %Z = ktdp.construct_memory_view %z, sizes: [64, 64], strides: [64, 1] {coordinate_set = #sv_all, memory_space = #ktdp.memory_space<global>} : memref<64x64xf16>
    %tx = ktdp.construct_access_tile %X[%r0, 0] {access_tile_set = #sv_t, access_tile_order = #id2} : memref<64x64xf16> -> !ktdp.access_tile<4x64xindex>
    %ty = ktdp.construct_access_tile %Y[%r0, 0] {access_tile_set = #sv_t, access_tile_order = #id2} : memref<64x64xf16> -> !ktdp.access_tile<4x64xindex>
    %tz = ktdp.construct_access_tile %Z[%r0, 0] {access_tile_set = #sv_t, access_tile_order = #id2} : memref<64x64xf16> -> !ktdp.access_tile<4x64xindex>
    %x4 = ktdp.load %tx : <4x64xindex> -> tensor<4x64xf16>
    %d = arith.addf %x4, %x4 : tensor<4x64xf16>
    ktdp.store %d, %ty : tensor<4x64xf16>, <4x64xindex>
    ktdp.store %d, %tz : tensor<4x64xf16>, <4x64xindex>
    return
  }

  // Rows 8 i stored as rows 4 i: from i = 4 the loaded rows lie past X's
  // 32, so Y's rows 16 to 31 get 0.
  func.func @other_rows(%x: index, %y: index) attributes {grid = [1]} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %X = ktdp.construct_memory_view %x, sizes: [32, 128], strides: [128, 1] {coordinate_set = #or_mat, memory_space = #ktdp.memory_space<global>} : memref<32x128xf16>
    %Y = ktdp.construct_memory_view %y, sizes: [32, 128], strides: [128, 1] {coordinate_set = #or_mat, memory_space = #ktdp.memory_space<global>} : memref<32x128xf16>
    scf.for %i = %c0 to %c8 step %c1 {
      %tx = ktdp.construct_access_tile %X[%i * 8, 0] {access_tile_set = #or_block, access_tile_order = #id2} : memref<32x128xf16> -> !ktdp.access_tile<4x128xindex>
      %ty = ktdp.construct_access_tile %Y[%i * 4, 0] {access_tile_set = #or_block, access_tile_order = #id2} : memref<32x128xf16> -> !ktdp.access_tile<4x128xindex>
      %xh = ktdp.load %tx : <4x128xindex> -> tensor<4x128xf16>
      ktdp.store %xh, %ty : tensor<4x128xf16>, <4x128xindex>
    }
    return
  }

  // A 64-column window of row r at a runtime %start, stored at column 0:
  // the columns before 0 (a negative start) or past 127 are stored as 0.
  func.func @shifted_by_scalar(%x: index, %y: index, %start: index) attributes {grid = [64]} {
    %r = ktdp.get_compute_tile_id : index
    %X = ktdp.construct_memory_view %x, sizes: [64, 128], strides: [128, 1] {coordinate_set = #rs_all, memory_space = #ktdp.memory_space<global>} : memref<64x128xf16>
    %Y = ktdp.construct_memory_view %y, sizes: [64, 128], strides: [128, 1] {coordinate_set = #rs_all, memory_space = #ktdp.memory_space<global>} : memref<64x128xf16>
    %tx = ktdp.construct_access_tile %X[%r, %start] {access_tile_set = #sh_win, access_tile_order = #id2} : memref<64x128xf16> -> !ktdp.access_tile<1x64xindex>
    %ty = ktdp.construct_access_tile %Y[%r, 0] {access_tile_set = #sh_win, access_tile_order = #id2} : memref<64x128xf16> -> !ktdp.access_tile<1x64xindex>
    %v = ktdp.load %tx : <1x64xindex> -> tensor<1x64xf16>
    ktdp.store %v, %ty : tensor<1x64xf16>, <1x64xindex>
    return
  }

  // 2x4x64 tiles over a 3x10x64 X, masked along both leading dimensions,
  // stored into a 4x12x64 Y: Y[3, *, *] and Y[*, 10..11, *] get 0.
  func.func @three_d(%x: index, %y: index) attributes {grid = [2, 3]} {
    %a, %b = ktdp.get_compute_tile_id : index, index
    %c2 = arith.constant 2 : index
    %c4 = arith.constant 4 : index
    %i = arith.muli %a, %c2 : index
    %j = arith.muli %b, %c4 : index
    %X = ktdp.construct_memory_view %x, sizes: [3, 10, 64], strides: [640, 64, 1] {coordinate_set = #td_x, memory_space = #ktdp.memory_space<global>} : memref<3x10x64xf16>
    %Y = ktdp.construct_memory_view %y, sizes: [4, 12, 64], strides: [768, 64, 1] {coordinate_set = #td_y, memory_space = #ktdp.memory_space<global>} : memref<4x12x64xf16>
    %tx = ktdp.construct_access_tile %X[%i, %j, 0] {access_tile_set = #td_t, access_tile_order = #id3} : memref<3x10x64xf16> -> !ktdp.access_tile<2x4x64xindex>
    %ty = ktdp.construct_access_tile %Y[%i, %j, 0] {access_tile_set = #td_t, access_tile_order = #id3} : memref<4x12x64xf16> -> !ktdp.access_tile<2x4x64xindex>
    %v = ktdp.load %tx : <2x4x64xindex> -> tensor<2x4x64xf16>
    %w = arith.addf %v, %v : tensor<2x4x64xf16>
    ktdp.store %w, %ty : tensor<2x4x64xf16>, <2x4x64xindex>
    return
  }
}
