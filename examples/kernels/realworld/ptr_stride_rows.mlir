// ptr_stride_rows.mlir - Triton-style row loop whose carried row offset
// advances by a stride passed at launch (`row += row_step`), over a trip
// count passed at launch: each of the 8 programs starts at its own row.
//
// Computes, for program p < 8 and trip i < n_iters, with
// r = p + row_step * i < 64, all values f16:
//   Y[r, c] = f16(X[r, c] + X[r, c])        (c < 256)
// Rows past the views' 64 are masked (row_step 8, n_iters 8 covers every
// row once).
#x_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 255 >= 0)>
#row = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 255 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @ptr_stride_rows(%x_ptr: index,    // X: 64x256 f16, row-major
                             %y_ptr: index,    // Y: 64x256 f16, row-major (output)
                             %n_iters: index,  // rows per program: 8
                             %row_step: index) // rows between a program's trips: 8
      attributes {grid = [8, 1]} {
    %pid = ktdp.get_compute_tile_id : index
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %X = ktdp.construct_memory_view %x_ptr, sizes: [64, 256], strides: [256, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<64x256xf16>
    %Y = ktdp.construct_memory_view %y_ptr, sizes: [64, 256], strides: [256, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<64x256xf16>
    %last = scf.for %i = %c0 to %n_iters step %c1 iter_args(%row = %pid) -> (index) {
      %tx = ktdp.construct_access_tile %X[%row, %c0] {access_tile_set = #row, access_tile_order = #id2} : memref<64x256xf16> -> !ktdp.access_tile<1x256xindex>
      %x = ktdp.load %tx : <1x256xindex> -> tensor<1x256xf16>
      %y = arith.addf %x, %x : tensor<1x256xf16>
      %ty = ktdp.construct_access_tile %Y[%row, %c0] {access_tile_set = #row, access_tile_order = #id2} : memref<64x256xf16> -> !ktdp.access_tile<1x256xindex>
      ktdp.store %y, %ty : tensor<1x256xf16>, <1x256xindex>
      %next = arith.addi %row, %row_step : index   // row += row_step
      scf.yield %next : index
    }
    return
  }
}
