// scale_rows_cols_dyn.mlir - Y = X * 2 on an m x n f16 matrix of run-time
// height and width, in the field guide's spelling: i32 sizes cast to
// index, `[?, ?]` views of a run-time row stride, a cyclic loop over
// 64-row blocks from the tile id on a [3, 1] grid, a loop over the row's
// 64-column blocks inside it (a trailing induction type, explicit
// scf.yield), a dense splat constant as an operand, trailing comments.

#mat = affine_set<(d0, d1)[s0, s1] : (d0 >= 0, -d0 + s0 - 1 >= 0, d1 >= 0, -d1 + s1 - 1 >= 0)>
#blk = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @scale_rows_cols(%x_ptr: index,  // X: m x n f16 (input)
                             %y_ptr: index,  // Y: m x n f16 (output)
                             %m_i32: i32,    // rows
                             %n_i32: i32)    // columns, the row stride
      attributes {grid = [3, 1]} {
    %tid = ktdp.get_compute_tile_id : index
    %c0 = arith.constant 0 : index
    %c3 = arith.constant 3 : index
    %c64 = arith.constant 64 : index
    %two = arith.constant dense<2.0> : tensor<64x64xf16>
    %m = arith.index_cast %m_i32 : i32 to index
    %n = arith.index_cast %n_i32 : i32 to index
    %X = ktdp.construct_memory_view %x_ptr, sizes : [%m, %n], strides : [%n, 1] {coordinate_set = #mat, memory_space = #ktdp.memory_space<global>} : memref<?x?xf16>
    %Y = ktdp.construct_memory_view %y_ptr, sizes : [%m, %n], strides : [%n, 1] {coordinate_set = #mat, memory_space = #ktdp.memory_space<global>} : memref<?x?xf16>
    %nrb = arith.ceildivui %m, %c64 : index
    scf.for %rb = %tid to %nrb step %c3 : index {
      %row = arith.muli %rb, %c64 : index
      scf.for %col = %c0 to %n step %c64 : index {
        %tx = ktdp.construct_access_tile %X[%row, %col] {access_tile_order = #id2, access_tile_set = #blk} : memref<?x?xf16> -> !ktdp.access_tile<64x64xindex>
        %x = ktdp.load %tx : <64x64xindex> -> tensor<64x64xf16>
        %y = arith.mulf %x, %two : tensor<64x64xf16>  // Y = 2 X
        %ty = ktdp.construct_access_tile %Y[%row, %col] {access_tile_order = #id2, access_tile_set = #blk} : memref<?x?xf16> -> !ktdp.access_tile<64x64xindex>
        ktdp.store %y, %ty : tensor<64x64xf16>, <64x64xindex>
        scf.yield
      }
      scf.yield
    }
    return
  }
}
