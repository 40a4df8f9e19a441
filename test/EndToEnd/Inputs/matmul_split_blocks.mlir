// matmul_split_blocks.mlir - a Triton-style blocked product whose grid
// leaves half of spyre_like's 64 corelets idle (test/EndToEnd/
// matmul-split-blocks.test): C = A . B for A 64x256, B 256x2048, C 64x2048,
// f16. Tile (pm, pn) of the [2, 16] grid owns the 32x128 block of C at
// (32 pm, 128 pn) and walks K up to the plain `index` argument %K in steps
// of 64, carrying an f16 accumulator:
//   acc = f16(acc + f16(sum_{k0 <= k < k0 + 64} A[m, k] * B[k, n]))
#a_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 255 >= 0)>
#b_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 255 >= 0, d1 >= 0, -d1 + 2047 >= 0)>
#c_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 2047 >= 0)>
#a_blk = affine_set<(d0, d1) : (d0 >= 0, -d0 + 31 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#b_blk = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#c_blk = affine_set<(d0, d1) : (d0 >= 0, -d0 + 31 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @blocked(%a_ptr: index, %b_ptr: index, %c_ptr: index, %K: index) attributes {grid = [2, 16]} {
    %pm, %pn = ktdp.get_compute_tile_id : index, index
    %c0 = arith.constant 0 : index
    %c32 = arith.constant 32 : index
    %c64 = arith.constant 64 : index
    %c128 = arith.constant 128 : index
    %off_m = arith.muli %pm, %c32 : index
    %off_n = arith.muli %pn, %c128 : index
    %A = ktdp.construct_memory_view %a_ptr, sizes: [64, 256], strides: [256, 1] {coordinate_set = #a_set, memory_space = #ktdp.memory_space<global>} : memref<64x256xf16>
    %B = ktdp.construct_memory_view %b_ptr, sizes: [256, 2048], strides: [2048, 1] {coordinate_set = #b_set, memory_space = #ktdp.memory_space<global>} : memref<256x2048xf16>
    %C = ktdp.construct_memory_view %c_ptr, sizes: [64, 2048], strides: [2048, 1] {coordinate_set = #c_set, memory_space = #ktdp.memory_space<global>} : memref<64x2048xf16>
    %zero = arith.constant dense<0.0> : tensor<32x128xf16>
    %acc = scf.for %off_k = %c0 to %K step %c64 iter_args(%running = %zero) -> tensor<32x128xf16> {
      %ta = ktdp.construct_access_tile %A[%off_m, %off_k] {access_tile_set = #a_blk, access_tile_order = #id2} : memref<64x256xf16> -> !ktdp.access_tile<32x64xindex>
      %tb = ktdp.construct_access_tile %B[%off_k, %off_n] {access_tile_set = #b_blk, access_tile_order = #id2} : memref<256x2048xf16> -> !ktdp.access_tile<64x128xindex>
      %a = ktdp.load %ta : <32x64xindex> -> tensor<32x64xf16>
      %b = ktdp.load %tb : <64x128xindex> -> tensor<64x128xf16>
      %empty = tensor.empty() : tensor<32x128xf16>
      %prod = linalg.matmul ins(%a, %b : tensor<32x64xf16>, tensor<64x128xf16>) outs(%empty : tensor<32x128xf16>) -> tensor<32x128xf16>
      %next = arith.addf %running, %prod : tensor<32x128xf16>
      scf.yield %next : tensor<32x128xf16>
    }
    %tc = ktdp.construct_access_tile %C[%off_m, %off_n] {access_tile_set = #c_blk, access_tile_order = #id2} : memref<64x2048xf16> -> !ktdp.access_tile<32x128xindex>
    ktdp.store %acc, %tc : tensor<32x128xf16>, <32x128xindex>
    return
  }
}
