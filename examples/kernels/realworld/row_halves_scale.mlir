// row_halves_scale.mlir - a 64x256 f16 tensor held as two row halves,
// scaled element-wise by a 64x256 weight into a tensor held the same way,
// one 64x64 block of columns per tile: every block straddles the two
// halves (rows 0-31 in one, 32-63 in the other).
//
// Computes, for r < 64, c < 256 (one f16 multiplication each):
//   Y[r, c] = f16(X[r, c] * W[r, c])
//
// Memory layout: X and Y are stored as two row halves at x_ptr and
// x_ptr + 8192 (half h holds rows [32h, 32h + 32) as a 32x256 row-major
// block); W is one 64x256 row-major tensor. Distributed views stitch the
// halves back into the global 64x256 shape, each part's coordinate_set in
// global rows.
//
// Grid [4, 1], one tile id: tile p takes columns [64p, 64p + 64).

#top = affine_set<(d0, d1) : (d0 >= 0, -d0 + 31 >= 0, d1 >= 0, -d1 + 255 >= 0)>
#bottom = affine_set<(d0, d1) : (d0 - 32 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 255 >= 0)>
#all = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 255 >= 0)>
#blk = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @scale_halves(%x_ptr: index,  // X: 2 row halves of 32x256 f16 (input)
                          %w_ptr: index,  // W: 64x256 f16 (input)
                          %y_ptr: index)  // Y: 2 row halves of 32x256 f16 (output)
      attributes {grid = [4, 1]} {
    %pid = ktdp.get_compute_tile_id : index
    %c64 = arith.constant 64 : index
    %c8192 = arith.constant 8192 : index
    %x1_ptr = arith.addi %x_ptr, %c8192 : index
    %y1_ptr = arith.addi %y_ptr, %c8192 : index
    %X0 = ktdp.construct_memory_view %x_ptr, sizes: [32, 256], strides: [256, 1] {coordinate_set = #top, memory_space = #ktdp.memory_space<global>} : memref<32x256xf16>
    %X1 = ktdp.construct_memory_view %x1_ptr, sizes: [32, 256], strides: [256, 1] {coordinate_set = #bottom, memory_space = #ktdp.memory_space<global>} : memref<32x256xf16>
    %X = ktdp.construct_distributed_memory_view(%X0, %X1 : memref<32x256xf16>, memref<32x256xf16>) : memref<64x256xf16>
    %W = ktdp.construct_memory_view %w_ptr, sizes: [64, 256], strides: [256, 1] {coordinate_set = #all, memory_space = #ktdp.memory_space<global>} : memref<64x256xf16>
    %Y0 = ktdp.construct_memory_view %y_ptr, sizes: [32, 256], strides: [256, 1] {coordinate_set = #top, memory_space = #ktdp.memory_space<global>} : memref<32x256xf16>
    %Y1 = ktdp.construct_memory_view %y1_ptr, sizes: [32, 256], strides: [256, 1] {coordinate_set = #bottom, memory_space = #ktdp.memory_space<global>} : memref<32x256xf16>
    %Y = ktdp.construct_distributed_memory_view(%Y0, %Y1 : memref<32x256xf16>, memref<32x256xf16>) : memref<64x256xf16>
    %col = arith.muli %pid, %c64 : index
    %tx = ktdp.construct_access_tile %X[0, %col] {access_tile_set = #blk, access_tile_order = #id2} : memref<64x256xf16> -> !ktdp.access_tile<64x64xindex>
    %tw = ktdp.construct_access_tile %W[0, %col] {access_tile_set = #blk, access_tile_order = #id2} : memref<64x256xf16> -> !ktdp.access_tile<64x64xindex>
    %ty = ktdp.construct_access_tile %Y[0, %col] {access_tile_set = #blk, access_tile_order = #id2} : memref<64x256xf16> -> !ktdp.access_tile<64x64xindex>
    %x = ktdp.load %tx : <64x64xindex> -> tensor<64x64xf16>
    %w = ktdp.load %tw : <64x64xindex> -> tensor<64x64xf16>
    %y = arith.mulf %x, %w : tensor<64x64xf16>
    ktdp.store %y, %ty : tensor<64x64xf16>, <64x64xindex>
    return
  }
}
