// block_rows_dyn.mlir - 16x32 blocks of rows over a run-time width: X and
// Y are 64x256 f16, each of the [4, 1] grid's tiles takes 16 rows and
// walks their columns in 16x32 blocks up to a plain `index` N.
//
// Computes, for i < 64, j < 32 * ceil(N / 32) (within 256), f16:
//   Y[i, j] = X[i, j] * 0.5

#x_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 255 >= 0)>
#blk = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 31 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @block_rows_dyn(%x_ptr: index,   // X: 64x256 f16 (input)
                            %y_ptr: index,   // Y: 64x256 f16 (output)
                            %N: index)       // columns, any
      attributes {grid = [4, 1]} {
    %pid = ktdp.get_compute_tile_id : index
    %c0 = arith.constant 0 : index
    %c16 = arith.constant 16 : index
    %c32 = arith.constant 32 : index
    %half = arith.constant dense<0.5> : tensor<16x32xf16>
    %X = ktdp.construct_memory_view %x_ptr, sizes: [64, 256], strides: [256, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<64x256xf16>
    %Y = ktdp.construct_memory_view %y_ptr, sizes: [64, 256], strides: [256, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<64x256xf16>
    %r = arith.muli %pid, %c16 : index
    scf.for %c = %c0 to %N step %c32 : index {
      %tx = ktdp.construct_access_tile %X[%r, %c] {access_tile_set = #blk, access_tile_order = #id2} : memref<64x256xf16> -> !ktdp.access_tile<16x32xindex>
      %x = ktdp.load %tx : <16x32xindex> -> tensor<16x32xf16>
      %y = arith.mulf %x, %half : tensor<16x32xf16>
      %ty = ktdp.construct_access_tile %Y[%r, %c] {access_tile_set = #blk, access_tile_order = #id2} : memref<64x256xf16> -> !ktdp.access_tile<16x32xindex>
      ktdp.store %y, %ty : tensor<16x32xf16>, <16x32xindex>
    }
    return
  }
}
