// relu_blocks_clamped.mlir - ReLU over blocks of rows per program, the end
// of each block clamped to the row count with the `arith.cmpi slt` +
// `arith.select` minimum real kernels write (ktir-field-guide.md §1c,
// "block distribution"), in the real-world spellings: `index` pointer
// arguments with trailing comments, a `[4, 1]` grid with one
// `get_compute_tile_id : index`, a trailing induction type.
//
// Computes, for 0 <= i < n, 0 <= j < 128, in f16:
//   Y[i, j] = maximumf(X[i, j], +0.0)   (NaN propagates, -0.0 becomes +0.0)
// n is the runtime argument %n_arg (1 <= n <= 30); X and Y hold 30 rows.
// Program p handles rows [8p, min(8p + 8, n)); rows at or past n are
// neither read nor written (Y keeps its contents there).
#rows = affine_set<(d0, d1) : (d0 >= 0, -d0 + 29 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#row = affine_set<(d0, d1) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @relu_blocks(%x_ptr: index,   // X: 30x128 f16 (input)
                         %y_ptr: index,   // Y: 30x128 f16 (output)
                         %n_arg: !ktdp.runtime_arg<index, upperbound=30>)  // n: rows to process
      attributes {grid = [4, 1]} {
    %pid = ktdp.get_compute_tile_id : index
    %n_rows = ktdp.runtime_arg_extract value from %n_arg : !ktdp.runtime_arg<index, upperbound=30> -> index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %zero = arith.constant dense<0.0> : tensor<1x128xf16>
    %row_begin = arith.muli %pid, %c8 : index
    %row_next = arith.addi %row_begin, %c8 : index
    %in_range = arith.cmpi slt, %row_next, %n_rows : index
    %row_end = arith.select %in_range, %row_next, %n_rows : index
    %X = ktdp.construct_memory_view %x_ptr, sizes: [30, 128], strides: [128, 1] {coordinate_set = #rows, memory_space = #ktdp.memory_space<global>} : memref<30x128xf16>
    %Y = ktdp.construct_memory_view %y_ptr, sizes: [30, 128], strides: [128, 1] {coordinate_set = #rows, memory_space = #ktdp.memory_space<global>} : memref<30x128xf16>
    scf.for %r = %row_begin to %row_end step %c1 : index {
      %tx = ktdp.construct_access_tile %X[%r, 0] {access_tile_set = #row, access_tile_order = #id2} : memref<30x128xf16> -> !ktdp.access_tile<1x128xindex>
      %ty = ktdp.construct_access_tile %Y[%r, 0] {access_tile_set = #row, access_tile_order = #id2} : memref<30x128xf16> -> !ktdp.access_tile<1x128xindex>
      %x = ktdp.load %tx : <1x128xindex> -> tensor<1x128xf16>
      %y = arith.maximumf %x, %zero : tensor<1x128xf16>
      ktdp.store %y, %ty : tensor<1x128xf16>, <1x128xindex>
      scf.yield
    }
    return
  }
}
