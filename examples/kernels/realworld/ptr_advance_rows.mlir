// ptr_advance_rows.mlir - Triton-style persistent row loop that advances its
// row offset the way Triton advances a pointer: the offset is carried in
// iter_args and each trip adds the number of programs to it
// (`row += NUM_PROGRAMS`), over a trip count known only at launch.
//
// Computes, for program p < 16 and trip i < n_iters, with r = p + 16 i < 64,
// all values f16:
//   Y[r, c] = f16(X[r, c] * X[r, c])        (c < 128)
// Rows past the views' 64 (n_iters > 4) are masked.
#x_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#row = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 127 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @ptr_advance_rows(%x_ptr: index,   // X: 64x128 f16, row-major
                              %y_ptr: index,   // Y: 64x128 f16, row-major (output)
                              %n_iters: index) // rows per program: 4
      attributes {grid = [16, 1]} {
    %pid = ktdp.get_compute_tile_id : index
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %NUM_PROGRAMS = arith.constant 16 : index
    %X = ktdp.construct_memory_view %x_ptr, sizes: [64, 128], strides: [128, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<64x128xf16>
    %Y = ktdp.construct_memory_view %y_ptr, sizes: [64, 128], strides: [128, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<64x128xf16>
    %last = scf.for %i = %c0 to %n_iters step %c1 iter_args(%row = %pid) -> (index) {
      %tx = ktdp.construct_access_tile %X[%row, %c0] {access_tile_set = #row, access_tile_order = #id2} : memref<64x128xf16> -> !ktdp.access_tile<1x128xindex>
      %x = ktdp.load %tx : <1x128xindex> -> tensor<1x128xf16>
      %y = arith.mulf %x, %x : tensor<1x128xf16>
      %ty = ktdp.construct_access_tile %Y[%row, %c0] {access_tile_set = #row, access_tile_order = #id2} : memref<64x128xf16> -> !ktdp.access_tile<1x128xindex>
      ktdp.store %y, %ty : tensor<1x128xf16>, <1x128xindex>
      %next = arith.addi %row, %NUM_PROGRAMS : index   // row += NUM_PROGRAMS
      scf.yield %next : index
    }
    return
  }
}
