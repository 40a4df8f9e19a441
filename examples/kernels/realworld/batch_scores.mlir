// batch_scores.mlir - batched attention scores, Triton style: each tile
// takes one head and one block of queries, transposes the head's keys with
// linalg.transpose and multiplies with linalg.batch_matmul into a fresh
// tensor.empty() (f16 in, f16 out).
//
// Computes, for head h < 4, query m < 64, key n < 64:
//   S[h, m, n] = f16( sum_{d < 64} Q[h, m, d] * K[h, n, d] )
//                (f32 accumulation, one rounding per element: the
//                 interpreter's numerics policy)
//
// Grid [4, 2], two tile ids in the comma form: %h picks the head, %pm the
// 32-query block. Q, K and S are 4x64x64 f16, row-major. The keys are
// loaded as a 1x64x64 tile [1, n, d] and transposed to [1, d, n] with
// permutation [0, 2, 1]; the scheduler moves the permutation into the
// load's access tile (a transposing DMA).

#qks_set = affine_set<(d0, d1, d2) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 63 >= 0, d2 >= 0, -d2 + 63 >= 0)>
#q_blk = affine_set<(d0, d1, d2) : (d0 == 0, d1 >= 0, -d1 + 31 >= 0, d2 >= 0, -d2 + 63 >= 0)>
#k_blk = affine_set<(d0, d1, d2) : (d0 == 0, d1 >= 0, -d1 + 63 >= 0, d2 >= 0, -d2 + 63 >= 0)>
#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
module {
  func.func @attn_scores(%q_ptr: index,  // Q: 4x64x64 f16 (input)
                         %k_ptr: index,  // K: 4x64x64 f16 (input)
                         %s_ptr: index)  // S: 4x64x64 f16 (output)
      attributes {grid = [4, 2]} {
    %h, %pm = ktdp.get_compute_tile_id : index, index
    %c32 = arith.constant 32 : index
    %m0 = arith.muli %pm, %c32 : index
    %Q = ktdp.construct_memory_view %q_ptr, sizes: [4, 64, 64], strides: [4096, 64, 1] {coordinate_set = #qks_set, memory_space = #ktdp.memory_space<global>} : memref<4x64x64xf16>
    %K = ktdp.construct_memory_view %k_ptr, sizes: [4, 64, 64], strides: [4096, 64, 1] {coordinate_set = #qks_set, memory_space = #ktdp.memory_space<global>} : memref<4x64x64xf16>
    %S = ktdp.construct_memory_view %s_ptr, sizes: [4, 64, 64], strides: [4096, 64, 1] {coordinate_set = #qks_set, memory_space = #ktdp.memory_space<global>} : memref<4x64x64xf16>
    %tq = ktdp.construct_access_tile %Q[%h, %m0, 0] {access_tile_set = #q_blk, access_tile_order = #id3} : memref<4x64x64xf16> -> !ktdp.access_tile<1x32x64xindex>
    %tk = ktdp.construct_access_tile %K[%h, 0, 0] {access_tile_set = #k_blk, access_tile_order = #id3} : memref<4x64x64xf16> -> !ktdp.access_tile<1x64x64xindex>
    %q = ktdp.load %tq : <1x32x64xindex> -> tensor<1x32x64xf16>
    %k = ktdp.load %tk : <1x64x64xindex> -> tensor<1x64x64xf16>
    %kt_init = tensor.empty() : tensor<1x64x64xf16>
    %kt = linalg.transpose ins(%k : tensor<1x64x64xf16>) outs(%kt_init : tensor<1x64x64xf16>) permutation = [0, 2, 1]
    %empty = tensor.empty() : tensor<1x32x64xf16>
    %s = linalg.batch_matmul ins(%q, %kt : tensor<1x32x64xf16>, tensor<1x64x64xf16>) outs(%empty : tensor<1x32x64xf16>) -> tensor<1x32x64xf16>
    %ts = ktdp.construct_access_tile %S[%h, %m0, 0] {access_tile_set = #q_blk, access_tile_order = #id3} : memref<4x64x64xf16> -> !ktdp.access_tile<1x32x64xindex>
    ktdp.store %s, %ts : tensor<1x32x64xf16>, <1x32x64xindex>
    return
  }
}
