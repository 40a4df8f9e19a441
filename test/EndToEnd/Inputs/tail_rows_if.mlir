// tail_rows_if.mlir - a Triton-style row scaling whose last program also
// handles the tail: writer predicates in `scf.if` (ktir-field-guide.md §1c,
// "scf.if without results"), with the views and tiles built inside the
// branch, in the real-world spellings: `index` pointer arguments with
// trailing comments, a `[4, 1]` grid with one `get_compute_tile_id :
// index`, a dense splat constant.
//
// Computes, for 0 <= i < 33, 0 <= j < 64, in f16 (one rounding each):
//   Y[i, j] = X[i, j] * 2          for i < 32 (program p: rows [8p, 8p + 8))
//   Y[32, j] = X[32, j] * 2 + 1    (program 3 only, inside `scf.if %is_last`)
//   Z[0, j] = X[0, j] + 1          (program 0 only; X's row loaded and the
//                                   sum computed before the `scf.if`, the
//                                   view, tile and store inside it)

#x_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 32 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#z_set = affine_set<(d0, d1) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#blk = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#row = affine_set<(d0, d1) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @scale_with_tail(%in_ptr0: index,   // X: 33x64 f16 (input)
                             %out_ptr0: index,  // Y: 33x64 f16 (output)
                             %out_ptr1: index)  // Z: 1x64 f16 (output)
      attributes {grid = [4, 1]} {
    %pid = ktdp.get_compute_tile_id : index
    %c0 = arith.constant 0 : index
    %c3 = arith.constant 3 : index
    %c8 = arith.constant 8 : index
    %c32 = arith.constant 32 : index
    %two = arith.constant dense<2.0> : tensor<8x64xf16>
    %two_row = arith.constant dense<2.0> : tensor<1x64xf16>
    %one_row = arith.constant dense<1.0> : tensor<1x64xf16>
    %row0 = arith.muli %pid, %c8 : index
    %X = ktdp.construct_memory_view %in_ptr0, sizes: [33, 64], strides: [64, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<33x64xf16>
    %Y = ktdp.construct_memory_view %out_ptr0, sizes: [33, 64], strides: [64, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<33x64xf16>
    %tx = ktdp.construct_access_tile %X[%row0, 0] {access_tile_set = #blk, access_tile_order = #id2} : memref<33x64xf16> -> !ktdp.access_tile<8x64xindex>
    %ty = ktdp.construct_access_tile %Y[%row0, 0] {access_tile_set = #blk, access_tile_order = #id2} : memref<33x64xf16> -> !ktdp.access_tile<8x64xindex>
    %x = ktdp.load %tx : <8x64xindex> -> tensor<8x64xf16>
    %y = arith.mulf %x, %two : tensor<8x64xf16>
    ktdp.store %y, %ty : tensor<8x64xf16>, <8x64xindex>
    %is_last = arith.cmpi eq, %pid, %c3 : index
    scf.if %is_last {
      %Xt = ktdp.construct_memory_view %in_ptr0, sizes: [33, 64], strides: [64, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<33x64xf16>
      %Yt = ktdp.construct_memory_view %out_ptr0, sizes: [33, 64], strides: [64, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<33x64xf16>
      %txt = ktdp.construct_access_tile %Xt[%c32, 0] {access_tile_set = #row, access_tile_order = #id2} : memref<33x64xf16> -> !ktdp.access_tile<1x64xindex>
      %tyt = ktdp.construct_access_tile %Yt[%c32, 0] {access_tile_set = #row, access_tile_order = #id2} : memref<33x64xf16> -> !ktdp.access_tile<1x64xindex>
      %xt = ktdp.load %txt : <1x64xindex> -> tensor<1x64xf16>
      %scaled = arith.mulf %xt, %two_row : tensor<1x64xf16>
      %yt = arith.addf %scaled, %one_row : tensor<1x64xf16>
      ktdp.store %yt, %tyt : tensor<1x64xf16>, <1x64xindex>
    }
    %tx0 = ktdp.construct_access_tile %X[%c0, 0] {access_tile_set = #row, access_tile_order = #id2} : memref<33x64xf16> -> !ktdp.access_tile<1x64xindex>
    %x0 = ktdp.load %tx0 : <1x64xindex> -> tensor<1x64xf16>
    %z = arith.addf %x0, %one_row : tensor<1x64xf16>
    %is_first = arith.cmpi eq, %pid, %c0 : index
    scf.if %is_first {
      %Z = ktdp.construct_memory_view %out_ptr1, sizes: [1, 64], strides: [64, 1] {coordinate_set = #z_set, memory_space = #ktdp.memory_space<global>} : memref<1x64xf16>
      %tz = ktdp.construct_access_tile %Z[0, 0] {access_tile_set = #row, access_tile_order = #id2} : memref<1x64xf16> -> !ktdp.access_tile<1x64xindex>
      ktdp.store %z, %tz : tensor<1x64xf16>, <1x64xindex>
    }
    return
  }
}
