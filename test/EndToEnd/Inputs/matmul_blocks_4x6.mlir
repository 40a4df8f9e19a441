// matmul_blocks_4x6.mlir - blocked f16 matmul on a [4, 6] grid (24 points: more
// than mesh_device's 16 and sample_device's lanes): C (64x96) = A (64x96) .
// B (96x96), each tile owning a 16x16 block of C and walking K in 3 steps of
// 32, accumulating into an f16 iter_args from a linalg.fill, and scaling by
// an f16 argument at the end.
//
// Computes, per block and k0 in 0, 32, 64:
//   acc = f16(acc + f16(A[blk, k0:k0+32] . B[k0:k0+32, blk]))   (f32 accumulation)
//   C[blk] = f16(acc * alpha)

#a_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 95 >= 0)>
#b_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 95 >= 0, d1 >= 0, -d1 + 95 >= 0)>
#c_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 95 >= 0)>
#a_blk = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 31 >= 0)>
#b_blk = affine_set<(d0, d1) : (d0 >= 0, -d0 + 31 >= 0, d1 >= 0, -d1 + 15 >= 0)>
#c_blk = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 15 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @matmul_small_blocks(%a_ptr: index,  // A: 64x96 f16
                                 %b_ptr: index,  // B: 96x96 f16
                                 %c_ptr: index,  // C: 64x96 f16 (output)
                                 %K: index,      // 96
                                 %alpha: f16)    // output scale
      attributes {grid = [4, 6]} {
    %pm, %pn = ktdp.get_compute_tile_id : index, index
    %c0 = arith.constant 0 : index
    %c16 = arith.constant 16 : index
    %c32 = arith.constant 32 : index
    %om = arith.muli %pm, %c16 : index
    %on = arith.muli %pn, %c16 : index
    %A = ktdp.construct_memory_view %a_ptr, sizes: [64, 96], strides: [96, 1] {coordinate_set = #a_set, memory_space = #ktdp.memory_space<global>} : memref<64x96xf16>
    %B = ktdp.construct_memory_view %b_ptr, sizes: [96, 96], strides: [96, 1] {coordinate_set = #b_set, memory_space = #ktdp.memory_space<global>} : memref<96x96xf16>
    %C = ktdp.construct_memory_view %c_ptr, sizes: [64, 96], strides: [96, 1] {coordinate_set = #c_set, memory_space = #ktdp.memory_space<global>} : memref<64x96xf16>
    %zf = arith.constant 0.000000e+00 : f16
    %e0 = tensor.empty() : tensor<16x16xf16>
    %zero = linalg.fill ins(%zf : f16) outs(%e0 : tensor<16x16xf16>) -> tensor<16x16xf16>
    %acc = scf.for %k = %c0 to %K step %c32 iter_args(%run = %zero) -> tensor<16x16xf16> {
      %ta = ktdp.construct_access_tile %A[%om, %k] {access_tile_set = #a_blk, access_tile_order = #id2} : memref<64x96xf16> -> !ktdp.access_tile<16x32xindex>
      %tb = ktdp.construct_access_tile %B[%k, %on] {access_tile_set = #b_blk, access_tile_order = #id2} : memref<96x96xf16> -> !ktdp.access_tile<32x16xindex>
      %a = ktdp.load %ta : <16x32xindex> -> tensor<16x32xf16>
      %b = ktdp.load %tb : <32x16xindex> -> tensor<32x16xf16>
      %e = tensor.empty() : tensor<16x16xf16>
      %p = linalg.matmul ins(%a, %b : tensor<16x32xf16>, tensor<32x16xf16>) outs(%e : tensor<16x16xf16>) -> tensor<16x16xf16>
      %nx = arith.addf %run, %p : tensor<16x16xf16>
      scf.yield %nx : tensor<16x16xf16>
    }
    %av = tensor.splat %alpha : tensor<16x16xf16>
    %cs = arith.mulf %acc, %av : tensor<16x16xf16>
    %tc = ktdp.construct_access_tile %C[%om, %on] {access_tile_set = #c_blk, access_tile_order = #id2} : memref<64x96xf16> -> !ktdp.access_tile<16x16xindex>
    ktdp.store %cs, %tc : tensor<16x16xf16>, <16x16xindex>
    return
  }
}
