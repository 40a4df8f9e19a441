// transpose_masked_blocks.mlir - transposed loads whose tiles reach past
// their view (masked transposed DMAs).
//
// Computes, for 0 <= i < 24, 0 <= j < 48 (X: 40x20 f16 input, Y: 24x48
// f16 output):
//   Y[i, j] = X[j, i] + 1, where X[j, i] reads 0 past the view (j >= 40
//   or i >= 20), so those elements of Y are 1.
// One tile, a loop of 3 blocks of 16 rows of X, each loaded 16x24 and
// transposed: every block reaches past the view's 20 columns, the last
// one also past its 40 rows. The loop reuses the load's buffers, so what
// the clamped DMA leaves out must be zeroed, not left from an earlier
// block.
#x_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 39 >= 0, d1 >= 0, -d1 + 19 >= 0)>
#y_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 23 >= 0, d1 >= 0, -d1 + 47 >= 0)>
#blk_x = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 23 >= 0)>
#blk_y = affine_set<(d0, d1) : (d0 >= 0, -d0 + 23 >= 0, d1 >= 0, -d1 + 15 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @transpose_masked_blocks(%x_ptr: index, %y_ptr: index) attributes {grid = [1]} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c3 = arith.constant 3 : index
    %c16 = arith.constant 16 : index
    %one = arith.constant dense<1.0> : tensor<24x16xf16>
    %X = ktdp.construct_memory_view %x_ptr, sizes: [40, 20], strides: [20, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<40x20xf16>
    %Y = ktdp.construct_memory_view %y_ptr, sizes: [24, 48], strides: [48, 1] {coordinate_set = #y_set, memory_space = #ktdp.memory_space<global>} : memref<24x48xf16>
    scf.for %b = %c0 to %c3 step %c1 {
      %r0 = arith.muli %b, %c16 : index
      %tx = ktdp.construct_access_tile %X[%r0, 0] {access_tile_set = #blk_x, access_tile_order = #id2} : memref<40x20xf16> -> !ktdp.access_tile<16x24xindex>
      %x = ktdp.load %tx : <16x24xindex> -> tensor<16x24xf16>
      %xt_init = tensor.empty() : tensor<24x16xf16>
      %xt = linalg.transpose ins(%x : tensor<16x24xf16>) outs(%xt_init : tensor<24x16xf16>) permutation = [1, 0]
      %y = arith.addf %xt, %one : tensor<24x16xf16>
      %ty = ktdp.construct_access_tile %Y[0, %r0] {access_tile_set = #blk_y, access_tile_order = #id2} : memref<24x48xf16> -> !ktdp.access_tile<24x16xindex>
      ktdp.store %y, %ty : tensor<24x16xf16>, <24x16xindex>
    }
    return
  }
}
