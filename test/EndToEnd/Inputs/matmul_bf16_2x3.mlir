// matmul_bf16_2x3.mlir - blocked bf16 matmul on a [2, 3] grid: C (64x96)
// = A (64x160) . B (160x96), each tile owning a 32x32 block of C and walking
// K in 5 steps of 32, the products accumulated in bf16 through iter_args.
//
// Computes, for each block (pm, pn) and k0 in 0, 32, .., 128:
//   P   = bf16(A[blk rows, k0:k0+32] . B[k0:k0+32, blk cols])  (f32 accumulation)
//   acc = bf16(acc + P)       (acc from 0)
//   C[block] = acc

#a_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 159 >= 0)>
#b_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 159 >= 0, d1 >= 0, -d1 + 95 >= 0)>
#c_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 95 >= 0)>
#blk = affine_set<(d0, d1) : (d0 >= 0, -d0 + 31 >= 0, d1 >= 0, -d1 + 31 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @matmul_bf16(%a_ptr: index,  // A: 64x160 bf16
                         %b_ptr: index,  // B: 160x96 bf16
                         %c_ptr: index,  // C: 64x96 bf16 (output)
                         %K: index)      // 160
      attributes {grid = [2, 3]} {
    %pm, %pn = ktdp.get_compute_tile_id : index, index
    %c0 = arith.constant 0 : index
    %c32 = arith.constant 32 : index
    %om = arith.muli %pm, %c32 : index
    %on = arith.muli %pn, %c32 : index
    %A = ktdp.construct_memory_view %a_ptr, sizes: [64, 160], strides: [160, 1] {coordinate_set = #a_set, memory_space = #ktdp.memory_space<global>} : memref<64x160xbf16>
    %B = ktdp.construct_memory_view %b_ptr, sizes: [160, 96], strides: [96, 1] {coordinate_set = #b_set, memory_space = #ktdp.memory_space<global>} : memref<160x96xbf16>
    %C = ktdp.construct_memory_view %c_ptr, sizes: [64, 96], strides: [96, 1] {coordinate_set = #c_set, memory_space = #ktdp.memory_space<global>} : memref<64x96xbf16>
    %zero = arith.constant dense<0.0> : tensor<32x32xbf16>
    %acc = scf.for %k = %c0 to %K step %c32 iter_args(%run = %zero) -> tensor<32x32xbf16> {
      %ta = ktdp.construct_access_tile %A[%om, %k] {access_tile_set = #blk, access_tile_order = #id2} : memref<64x160xbf16> -> !ktdp.access_tile<32x32xindex>
      %tb = ktdp.construct_access_tile %B[%k, %on] {access_tile_set = #blk, access_tile_order = #id2} : memref<160x96xbf16> -> !ktdp.access_tile<32x32xindex>
      %a = ktdp.load %ta : <32x32xindex> -> tensor<32x32xbf16>
      %b = ktdp.load %tb : <32x32xindex> -> tensor<32x32xbf16>
      %e = tensor.empty() : tensor<32x32xbf16>
      %p = linalg.matmul ins(%a, %b : tensor<32x32xbf16>, tensor<32x32xbf16>) outs(%e : tensor<32x32xbf16>) -> tensor<32x32xbf16>
      %n = arith.addf %run, %p : tensor<32x32xbf16>
      scf.yield %n : tensor<32x32xbf16>
    }
    %tc = ktdp.construct_access_tile %C[%om, %on] {access_tile_set = #blk, access_tile_order = #id2} : memref<64x96xbf16> -> !ktdp.access_tile<32x32xindex>
    ktdp.store %acc, %tc : tensor<32x32xbf16>, <32x32xindex>
    return
  }
}
