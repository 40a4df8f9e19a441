// nested_carry.mlir - nested scf.for loops both carrying iter_args: per
// tile, the sum over its rows of each row's column blocks, 64x512 f16,
// rows cyclic over a [16, 1] grid, 1x128 column blocks.
//
// Computes, for tile t < 16 (rows t, t+16, t+32, t+48), j < 128, f16 per op:
//   a_r[j]  = sum over blocks b < 4 of X[r, 128b + j]      (inner carry, f16)
//   S[t, j] = sum over the tile's rows r of a_r[j]         (outer carry, f16)
// both sums sequential in loop order from 0.

#x_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 511 >= 0)>
#s_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#blk = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 127 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @nested_carry_kernel(%x_ptr: index,   // X: 64x512 f16 (input)
                                 %s_ptr: index,   // S: 16x128 f16, one row per tile (output)
                                 %n_rows: index)  // rows: 64
      attributes {grid = [16, 1]} {
    %pid = ktdp.get_compute_tile_id : index
    %c0 = arith.constant 0 : index
    %c16 = arith.constant 16 : index
    %N = arith.constant 512 : index
    %BLOCK = arith.constant 128 : index
    %zeros = arith.constant dense<0.0> : tensor<1x128xf16>
    %X = ktdp.construct_memory_view %x_ptr, sizes: [64, 512], strides: [512, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<64x512xf16>
    %S = ktdp.construct_memory_view %s_ptr, sizes: [16, 128], strides: [128, 1] {coordinate_set = #s_set, memory_space = #ktdp.memory_space<global>} : memref<16x128xf16>
    %tot = scf.for %r = %pid to %n_rows step %c16 iter_args(%t = %zeros) -> (tensor<1x128xf16>) {
      %row = scf.for %off = %c0 to %N step %BLOCK iter_args(%a = %zeros) -> (tensor<1x128xf16>) {
        %tx = ktdp.construct_access_tile %X[%r, %off] {access_tile_set = #blk, access_tile_order = #id2} : memref<64x512xf16> -> !ktdp.access_tile<1x128xindex>
        %x = ktdp.load %tx : <1x128xindex> -> tensor<1x128xf16>
        %a2 = arith.addf %a, %x : tensor<1x128xf16>
        scf.yield %a2 : tensor<1x128xf16>
      }
      %t2 = arith.addf %t, %row : tensor<1x128xf16>
      scf.yield %t2 : tensor<1x128xf16>
    }
    %ts = ktdp.construct_access_tile %S[%pid, 0] {access_tile_set = #blk, access_tile_order = #id2} : memref<16x128xf16> -> !ktdp.access_tile<1x128xindex>
    ktdp.store %tot, %ts : tensor<1x128xf16>, <1x128xindex>
    return
  }
}
