// scale_matrix_dyn.mlir - an m x n f16 matrix of run-time height and width,
// row-major (row stride n), scaled element-wise by 2 in 64x64 blocks: the
// blocks of the last block row and column reach past rows m and columns n
// when these are not multiples of 64 (masked).
//
// Computes, for r < m, c < n (one f16 addition each):
//   Y[r, c] = f16(X[r, c] + X[r, c])
//
// Memory layout: X and Y are m x n row-major at their pointers; the views
// are the field guide's `[?, ?]` form, `sizes: [%m, %n], strides: [%n, 1]`,
// whose row stride n is known only at launch (a run-time DMA stride).
//
// Grid [2, 1], one tile id: tile p takes block rows p, p + 2, ... below
// ceil(m / 64), and every block column of each.

#mat = affine_set<(d0, d1)[s0, s1] : (d0 >= 0, -d0 + s0 - 1 >= 0, d1 >= 0, -d1 + s1 - 1 >= 0)>
#blk = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @scale_matrix(%x_ptr: index,  // X: m x n f16, row-major (input)
                          %y_ptr: index,  // Y: m x n f16, row-major (output)
                          %m_i32: i32,    // m, the rows
                          %n_i32: i32)    // n, the columns (the row stride)
      attributes {grid = [2, 1]} {
    %pid = ktdp.get_compute_tile_id : index
    %c0 = arith.constant 0 : index
    %c2 = arith.constant 2 : index
    %c64 = arith.constant 64 : index
    %m = arith.index_cast %m_i32 : i32 to index
    %n = arith.index_cast %n_i32 : i32 to index
    %X = ktdp.construct_memory_view %x_ptr, sizes: [%m, %n], strides: [%n, 1] {coordinate_set = #mat, memory_space = #ktdp.memory_space<global>} : memref<?x?xf16>
    %Y = ktdp.construct_memory_view %y_ptr, sizes: [%m, %n], strides: [%n, 1] {coordinate_set = #mat, memory_space = #ktdp.memory_space<global>} : memref<?x?xf16>
    %nrb = arith.ceildivui %m, %c64 : index
    scf.for %rb = %pid to %nrb step %c2 : index {
      %row = arith.muli %rb, %c64 : index
      scf.for %col = %c0 to %n step %c64 : index {
        %tx = ktdp.construct_access_tile %X[%row, %col] {access_tile_set = #blk, access_tile_order = #id2} : memref<?x?xf16> -> !ktdp.access_tile<64x64xindex>
        %ty = ktdp.construct_access_tile %Y[%row, %col] {access_tile_set = #blk, access_tile_order = #id2} : memref<?x?xf16> -> !ktdp.access_tile<64x64xindex>
        %x = ktdp.load %tx : <64x64xindex> -> tensor<64x64xf16>
        %y = arith.addf %x, %x : tensor<64x64xf16>
        ktdp.store %y, %ty : tensor<64x64xf16>, <64x64xindex>
      }
    }
    return
  }
}
