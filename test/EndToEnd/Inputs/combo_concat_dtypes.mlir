// combo_concat_dtypes.mlir - an output block concatenated from pieces
// computed in different types: the left half of each 8x128 f16 block goes
// through exp in f32, the right half is halved in f16; the masked last
// tile of a 100-row input stores only its 4 real rows. Grid [13].
//
// Computes, for r < 100, j < 64:
//   Y[r, j]      = f16(exp(f32(X[r, j])))
//   Y[r, 64 + j] = X[r, 64 + j] * 0.5          (f16)
#x_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 99 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#blk = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @concat_dtypes_kernel(%x_ptr: index,   // X: 100x128 f16 (input)
                                  %y_ptr: index)   // Y: 100x128 f16 (output)
      attributes {grid = [13]} {
    %pid = ktdp.get_compute_tile_id : index
    %c8 = arith.constant 8 : index
    %row = arith.muli %pid, %c8 : index
    %half = arith.constant dense<0.5> : tensor<8x64xf16>
    %X = ktdp.construct_memory_view %x_ptr, sizes: [100, 128], strides: [128, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<100x128xf16>
    %Y = ktdp.construct_memory_view %y_ptr, sizes: [100, 128], strides: [128, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<100x128xf16>
    %tx = ktdp.construct_access_tile %X[%row, 0] {access_tile_set = #blk, access_tile_order = #id2} : memref<100x128xf16> -> !ktdp.access_tile<8x128xindex>
    %x = ktdp.load %tx : <8x128xindex> -> tensor<8x128xf16>
    %l = tensor.extract_slice %x[0, 0] [8, 64] [1, 1] : tensor<8x128xf16> to tensor<8x64xf16>
    %r = tensor.extract_slice %x[0, 64] [8, 64] [1, 1] : tensor<8x128xf16> to tensor<8x64xf16>
    %lf = arith.extf %l : tensor<8x64xf16> to tensor<8x64xf32>
    %le = math.exp %lf : tensor<8x64xf32>
    %lh = arith.truncf %le : tensor<8x64xf32> to tensor<8x64xf16>
    %rh = arith.mulf %r, %half : tensor<8x64xf16>
    %y = tensor.concat dim(1) %lh, %rh : (tensor<8x64xf16>, tensor<8x64xf16>) -> tensor<8x128xf16>
    %ty = ktdp.construct_access_tile %Y[%row, 0] {access_tile_set = #blk, access_tile_order = #id2} : memref<100x128xf16> -> !ktdp.access_tile<8x128xindex>
    ktdp.store %y, %ty : tensor<8x128xf16>, <8x128xindex>
    return
  }
}
