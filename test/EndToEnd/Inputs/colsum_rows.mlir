// colsum_rows.mlir - a column reduce written Triton-style: each tile of a
// [2, 1] grid owns a 128-column slab of a 64x256 f16 matrix and loops over
// its rows carrying a tensor<1x128xf32> accumulator; the f32 column sums
// and column maxima are stored.
//
// Computes, for j < 256 (sequential over i = 0..63):
//   CS[j] = f16(sum_i f32(X[i, j]))          (f32 accumulation, one rounding)
//   CM[j] = max_i X[i, j]                    (maximumf, f16, init 0xFC00)

#x_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 255 >= 0)>
#c_set = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 255 >= 0)>
#blk = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 127 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @colsum_kernel(%x_ptr: index,    // X: 64x256 f16 (input)
                           %cs_ptr: index,   // CS: 1x256 f16 column sums (output)
                           %cm_ptr: index)   // CM: 1x256 f16 column maxima (output)
      attributes {grid = [2, 1]} {
    %pid = ktdp.get_compute_tile_id : index
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    %c128 = arith.constant 128 : index
    %col = arith.muli %pid, %c128 : index
    %zeros = arith.constant dense<0.0> : tensor<1x128xf32>
    %ninf = arith.constant dense<0xFC00> : tensor<1x128xf16>
    %X = ktdp.construct_memory_view %x_ptr, sizes: [64, 256], strides: [256, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<64x256xf16>
    %CS = ktdp.construct_memory_view %cs_ptr, sizes: [1, 256], strides: [256, 1] {coordinate_set = #c_set, memory_space = #ktdp.memory_space<global>} : memref<1x256xf16>
    %CM = ktdp.construct_memory_view %cm_ptr, sizes: [1, 256], strides: [256, 1] {coordinate_set = #c_set, memory_space = #ktdp.memory_space<global>} : memref<1x256xf16>
    %s, %m = scf.for %i = %c0 to %c64 step %c1 iter_args(%acc = %zeros, %mx = %ninf) -> (tensor<1x128xf32>, tensor<1x128xf16>) {
      %tx = ktdp.construct_access_tile %X[%i, %col] {access_tile_set = #blk, access_tile_order = #id2} : memref<64x256xf16> -> !ktdp.access_tile<1x128xindex>
      %xh = ktdp.load %tx : <1x128xindex> -> tensor<1x128xf16>
      %x = arith.extf %xh : tensor<1x128xf16> to tensor<1x128xf32>
      %acc2 = arith.addf %acc, %x : tensor<1x128xf32>
      %mx2 = arith.maximumf %mx, %xh : tensor<1x128xf16>
      scf.yield %acc2, %mx2 : tensor<1x128xf32>, tensor<1x128xf16>
    }
    %sh = arith.truncf %s : tensor<1x128xf32> to tensor<1x128xf16>
    %tcs = ktdp.construct_access_tile %CS[0, %col] {access_tile_set = #blk, access_tile_order = #id2} : memref<1x256xf16> -> !ktdp.access_tile<1x128xindex>
    %tcm = ktdp.construct_access_tile %CM[0, %col] {access_tile_set = #blk, access_tile_order = #id2} : memref<1x256xf16> -> !ktdp.access_tile<1x128xindex>
    ktdp.store %sh, %tcs : tensor<1x128xf16>, <1x128xindex>
    ktdp.store %m, %tcm : tensor<1x128xf16>, <1x128xindex>
    return
  }
}
