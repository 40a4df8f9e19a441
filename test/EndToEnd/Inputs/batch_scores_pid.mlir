// Batched attention scores in Triton's spelling: one program id walks
// heads x query blocks (pid / 2, pid % 2), the query block a plain
// `index` argument.
#qks_set = affine_set<(d0, d1, d2) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 63 >= 0, d2 >= 0, -d2 + 63 >= 0)>
#q_blk = affine_set<(d0, d1, d2) : (d0 == 0, d1 >= 0, -d1 + 31 >= 0, d2 >= 0, -d2 + 63 >= 0)>
#k_blk = affine_set<(d0, d1, d2) : (d0 == 0, d1 >= 0, -d1 + 63 >= 0, d2 >= 0, -d2 + 63 >= 0)>
#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
module {
  func.func @scores(%q_ptr: index, %k_ptr: index, %s_ptr: index, %BLOCK_M: index) attributes {grid = [8]} {
    %pid = ktdp.get_compute_tile_id : index
    %c2 = arith.constant 2 : index
    %h = arith.divui %pid, %c2 : index
    %pm = arith.remui %pid, %c2 : index
    %m0 = arith.muli %pm, %BLOCK_M : index
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
