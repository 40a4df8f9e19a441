// matmul_64x2048x8192.mlir - benchmark shape of the Triton-style tiled
// matmul (issue 15's Measure list; examples/kernels/realworld/matmul_tiled.mlir
// at full size): C = A . B for A 64x2048, B 2048x8192, C 64x8192, all f16.
//
// Grid [2, 16]: tile (pm, pn) owns the 32x512 block of C at (32 pm, 512 pn)
// and walks K in steps of 128:
//   P   = f16( sum_{k0 <= k < k0 + 128} A[m, k] * B[k, n] )  (f32 accumulation,
//         one rounding per element: the interpreter's numerics policy)
//   acc = f16(acc + P)                                       (arith.addf, f16)
//   C[m, n] = acc after the last K block (acc starts at 0)
// K arrives as a plain `index` argument (2048) the way Triton passes it;
// the block sizes are constants here.

#a_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 2047 >= 0)>
#b_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 2047 >= 0, d1 >= 0, -d1 + 8191 >= 0)>
#c_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 8191 >= 0)>
#a_blk = affine_set<(d0, d1) : (d0 >= 0, -d0 + 31 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#b_blk = affine_set<(d0, d1) : (d0 >= 0, -d0 + 127 >= 0, d1 >= 0, -d1 + 511 >= 0)>
#c_blk = affine_set<(d0, d1) : (d0 >= 0, -d0 + 31 >= 0, d1 >= 0, -d1 + 511 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @matmul_kernel(%a_ptr: index, // A: 64x2048 f16, row-major
                           %b_ptr: index, // B: 2048x8192 f16, row-major
                           %c_ptr: index, // C: 64x8192 f16, row-major (output)
                           %K: index)     // reduction length (2048)
      attributes {grid = [2, 16]} {
    %pm, %pn = ktdp.get_compute_tile_id : index, index
    %c0 = arith.constant 0 : index
    %c32 = arith.constant 32 : index
    %c128 = arith.constant 128 : index
    %c512 = arith.constant 512 : index
    %off_m = arith.muli %pm, %c32 : index
    %off_n = arith.muli %pn, %c512 : index
    %A = ktdp.construct_memory_view %a_ptr, sizes: [64, 2048], strides: [2048, 1] {coordinate_set = #a_set, memory_space = #ktdp.memory_space<global>} : memref<64x2048xf16>
    %B = ktdp.construct_memory_view %b_ptr, sizes: [2048, 8192], strides: [8192, 1] {coordinate_set = #b_set, memory_space = #ktdp.memory_space<global>} : memref<2048x8192xf16>
    %C = ktdp.construct_memory_view %c_ptr, sizes: [64, 8192], strides: [8192, 1] {coordinate_set = #c_set, memory_space = #ktdp.memory_space<global>} : memref<64x8192xf16>
    %zero = arith.constant dense<0.0> : tensor<32x512xf16>
    %acc = scf.for %off_k = %c0 to %K step %c128 iter_args(%running = %zero) -> tensor<32x512xf16> {
      %ta = ktdp.construct_access_tile %A[%off_m, %off_k] {access_tile_set = #a_blk, access_tile_order = #id2} : memref<64x2048xf16> -> !ktdp.access_tile<32x128xindex>
      %tb = ktdp.construct_access_tile %B[%off_k, %off_n] {access_tile_set = #b_blk, access_tile_order = #id2} : memref<2048x8192xf16> -> !ktdp.access_tile<128x512xindex>
      %a = ktdp.load %ta : <32x128xindex> -> tensor<32x128xf16>
      %b = ktdp.load %tb : <128x512xindex> -> tensor<128x512xf16>
      %empty = tensor.empty() : tensor<32x512xf16>
      %prod = linalg.matmul ins(%a, %b : tensor<32x128xf16>, tensor<128x512xf16>) outs(%empty : tensor<32x512xf16>) -> tensor<32x512xf16>
      %next = arith.addf %running, %prod : tensor<32x512xf16>
      scf.yield %next : tensor<32x512xf16>
    }
    %tc = ktdp.construct_access_tile %C[%off_m, %off_n] {access_tile_set = #c_blk, access_tile_order = #id2} : memref<64x8192xf16> -> !ktdp.access_tile<32x512xindex>
    ktdp.store %acc, %tc : tensor<32x512xf16>, <32x512xindex>
    return
  }
}
