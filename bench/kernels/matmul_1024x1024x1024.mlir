// matmul_1024x1024x1024.mlir - a square 1024^3 matmul in the Triton-style
// tiling of matmul_64x2048x8192.mlir (issue 15's Measure list): C = A . B
// for A, B, C 1024x1024 f16.
//
// Grid [8, 8]: tile (pm, pn) owns the 128x128 block of C at (128 pm,
// 128 pn) and walks K in steps of 128:
//   P   = f16( sum_{k0 <= k < k0 + 128} A[m, k] * B[k, n] )  (f32 accumulation,
//         one rounding per element: the interpreter's numerics policy)
//   acc = f16(acc + P)                                       (arith.addf, f16)
//   C[m, n] = acc after the last K block (acc starts at 0)
// K arrives as a plain `index` argument (1024) the way Triton passes it.

#mat_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1023 >= 0, d1 >= 0, -d1 + 1023 >= 0)>
#blk = affine_set<(d0, d1) : (d0 >= 0, -d0 + 127 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @matmul_kernel(%a_ptr: index, // A: 1024x1024 f16, row-major
                           %b_ptr: index, // B: 1024x1024 f16, row-major
                           %c_ptr: index, // C: 1024x1024 f16, row-major (output)
                           %K: index)     // reduction length (1024)
      attributes {grid = [8, 8]} {
    %pm, %pn = ktdp.get_compute_tile_id : index, index
    %c0 = arith.constant 0 : index
    %c128 = arith.constant 128 : index
    %off_m = arith.muli %pm, %c128 : index
    %off_n = arith.muli %pn, %c128 : index
    %A = ktdp.construct_memory_view %a_ptr, sizes: [1024, 1024], strides: [1024, 1] {coordinate_set = #mat_set, memory_space = #ktdp.memory_space<global>} : memref<1024x1024xf16>
    %B = ktdp.construct_memory_view %b_ptr, sizes: [1024, 1024], strides: [1024, 1] {coordinate_set = #mat_set, memory_space = #ktdp.memory_space<global>} : memref<1024x1024xf16>
    %C = ktdp.construct_memory_view %c_ptr, sizes: [1024, 1024], strides: [1024, 1] {coordinate_set = #mat_set, memory_space = #ktdp.memory_space<global>} : memref<1024x1024xf16>
    %zero = arith.constant dense<0.0> : tensor<128x128xf16>
    %acc = scf.for %off_k = %c0 to %K step %c128 iter_args(%running = %zero) -> tensor<128x128xf16> {
      %ta = ktdp.construct_access_tile %A[%off_m, %off_k] {access_tile_set = #blk, access_tile_order = #id2} : memref<1024x1024xf16> -> !ktdp.access_tile<128x128xindex>
      %tb = ktdp.construct_access_tile %B[%off_k, %off_n] {access_tile_set = #blk, access_tile_order = #id2} : memref<1024x1024xf16> -> !ktdp.access_tile<128x128xindex>
      %a = ktdp.load %ta : <128x128xindex> -> tensor<128x128xf16>
      %b = ktdp.load %tb : <128x128xindex> -> tensor<128x128xf16>
      %empty = tensor.empty() : tensor<128x128xf16>
      %prod = linalg.matmul ins(%a, %b : tensor<128x128xf16>, tensor<128x128xf16>) outs(%empty : tensor<128x128xf16>) -> tensor<128x128xf16>
      %next = arith.addf %running, %prod : tensor<128x128xf16>
      scf.yield %next : tensor<128x128xf16>
    }
    %tc = ktdp.construct_access_tile %C[%off_m, %off_n] {access_tile_set = #blk, access_tile_order = #id2} : memref<1024x1024xf16> -> !ktdp.access_tile<128x128xindex>
    ktdp.store %acc, %tc : tensor<128x128xf16>, <128x128xindex>
    return
  }
}
