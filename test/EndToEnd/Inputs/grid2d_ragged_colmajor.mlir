// grid2d_ragged_colmajor.mlir - a 2-D grid with two ids over a 50x100 f16
// matrix stored column-major (X[i, j] at i + 50*j), sizes no tile divides:
// tile (pm, pn) of a [2, 2] grid takes row blocks pm, pm + 2 (16 rows) and
// column blocks pn, pn + 2 (32 columns); the blocks past row 50 or column
// 100 are masked on both dimensions. Y is row-major.
//
// Computes, for i < 50, j < 100, f16:
//   Y[i, j] = |X[i, j]| * 0.5          (absf, then one rounding)

#x_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 49 >= 0, d1 >= 0, -d1 + 99 >= 0)>
#blk = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 31 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @grid2d_ragged_kernel(%x_ptr: index,   // X: 50x100 f16, column-major (input)
                                  %y_ptr: index)   // Y: 50x100 f16, row-major (output)
      attributes {grid = [2, 2]} {
    %pm, %pn = ktdp.get_compute_tile_id : index, index
    %c16 = arith.constant 16 : index
    %c32 = arith.constant 32 : index
    %c64 = arith.constant 64 : index
    %c50 = arith.constant 50 : index
    %c100 = arith.constant 100 : index
    %half = arith.constant dense<0.5> : tensor<16x32xf16>
    %X = ktdp.construct_memory_view %x_ptr, sizes: [50, 100], strides: [1, 50] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<50x100xf16, strided<[1, 50]>>
    %Y = ktdp.construct_memory_view %y_ptr, sizes: [50, 100], strides: [100, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<50x100xf16>
    %r0 = arith.muli %pm, %c16 : index
    %k0 = arith.muli %pn, %c32 : index
    scf.for %r = %r0 to %c50 step %c32 : index {
      scf.for %c = %k0 to %c100 step %c64 : index {
        %tx = ktdp.construct_access_tile %X[%r, %c] {access_tile_set = #blk, access_tile_order = #id2} : memref<50x100xf16, strided<[1, 50]>> -> !ktdp.access_tile<16x32xindex>
        %x = ktdp.load %tx : <16x32xindex> -> tensor<16x32xf16>
        %a = math.absf %x : tensor<16x32xf16>
        %y = arith.mulf %a, %half : tensor<16x32xf16>
        %ty = ktdp.construct_access_tile %Y[%r, %c] {access_tile_set = #blk, access_tile_order = #id2} : memref<50x100xf16> -> !ktdp.access_tile<16x32xindex>
        ktdp.store %y, %ty : tensor<16x32xf16>, <16x32xindex>
      }
    }
    return
  }
}
