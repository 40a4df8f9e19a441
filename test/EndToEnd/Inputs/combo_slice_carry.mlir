// combo_slice_carry.mlir - a loop carrying a 4x64 f32 accumulator over 16
// blocks of 4 rows of X (64x128 f32): each block's left half times its
// right half, sliced from the loaded block, is added in. [1, 1] grid.
//
// Computes, for r < 4, j < 64 (sequential over b = 0..15, f32 per op):
//   acc[r, j] += X[4b + r, j] * X[4b + r, 64 + j];   Y[r, j] = acc[r, j]
#x_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#y_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#blk = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @slice_carry_kernel(%x_ptr: index,   // X: 64x128 f32 (input)
                                %y_ptr: index)   // Y: 4x64 f32 (output)
      attributes {grid = [1, 1]} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c16 = arith.constant 16 : index
    %zeros = arith.constant dense<0.0> : tensor<4x64xf32>
    %X = ktdp.construct_memory_view %x_ptr, sizes: [64, 128], strides: [128, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<64x128xf32>
    %Y = ktdp.construct_memory_view %y_ptr, sizes: [4, 64], strides: [64, 1] {coordinate_set = #y_set, memory_space = #ktdp.memory_space<global>} : memref<4x64xf32>
    %acc = scf.for %b = %c0 to %c16 step %c1 iter_args(%a = %zeros) -> (tensor<4x64xf32>) {
      %row = arith.muli %b, %c4 : index
      %tx = ktdp.construct_access_tile %X[%row, 0] {access_tile_set = #blk, access_tile_order = #id2} : memref<64x128xf32> -> !ktdp.access_tile<4x128xindex>
      %x = ktdp.load %tx : <4x128xindex> -> tensor<4x128xf32>
      %l = tensor.extract_slice %x[0, 0] [4, 64] [1, 1] : tensor<4x128xf32> to tensor<4x64xf32>
      %r = tensor.extract_slice %x[0, 64] [4, 64] [1, 1] : tensor<4x128xf32> to tensor<4x64xf32>
      %p = arith.mulf %l, %r : tensor<4x64xf32>
      %a2 = arith.addf %a, %p : tensor<4x64xf32>
      scf.yield %a2 : tensor<4x64xf32>
    }
    %ty = ktdp.construct_access_tile %Y[0, 0] {access_tile_set = #y_set, access_tile_order = #id2} : memref<4x64xf32> -> !ktdp.access_tile<4x64xindex>
    ktdp.store %acc, %ty : tensor<4x64xf32>, <4x64xindex>
    return
  }
}
