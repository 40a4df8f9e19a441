// paged_attention_4x8.mlir - paged attention decode, the guide's shape
// (ktir-field-guide.md §3 "also notable", §1f block-table gather inside a
// loop): a [4, 8] grid, 8 KV iterations per tile, an f32 online softmax
// carrying three values, an indirect 1x16x1x128 K and V gather per
// iteration from 64x16x8x128 paged caches, 8x128 . 128x16 and
// 8x16 . 16x128 matmuls.
//
// Computes, for sequence s < 4, KV head h < 8 and its 8 query heads
// q = 8h + i (i < 8, grouped-query attention), over the 128 tokens of the
// sequence held in pages BT[s, 0..7] of 16 tokens each:
//   S[i, t]  = scale * sum_{d < 128} Q[s, q, d] * K[BT[s, j], t mod 16, h, d]
//              (j = t floordiv 16, f32 products of the f16 inputs)
//   O[s, q, d] = f16(sum_t softmax_t(S[i, t]) * V[BT[s, j], t mod 16, h, d])
// by an online softmax over the 8 pages: per page, the block maximum
// m' = max(m, max_t S), p = exp(S - m'), alpha = exp(m - m'),
// l = l * alpha + sum_t p, acc = acc * alpha + p . V; then O = acc / l.
//
// Arguments (all `index` start addresses, counted in elements):
//   %q_ptr  Q : 4x64x128 f16 [sequence, query head, dim] (input)
//   %k_ptr  K : 64x16x8x128 f16 [page, slot, KV head, dim] (input)
//   %v_ptr  V : 64x16x8x128 f16, as K (input)
//   %bt_ptr BT: 4x8 i32 page table [sequence, logical page], entries in
//               [0, 64) (input)
//   %o_ptr  O : 4x64x128 f16, as Q (output)
//   %scale    : f32 softmax scale (0.088388347 = 1/sqrt(128))
// Grid [4, 8]: tile (s, h).

#q_set = affine_set<(d0, d1, d2) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 63 >= 0, d2 >= 0, -d2 + 127 >= 0)>
#kv_set = affine_set<(d0, d1, d2, d3) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 15 >= 0, d2 >= 0, -d2 + 7 >= 0, d3 >= 0, -d3 + 127 >= 0)>
#bt_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 7 >= 0)>
#q_tile = affine_set<(d0, d1, d2) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 + 7 >= 0, d2 >= 0, -d2 + 127 >= 0)>
#kv_vars = affine_set<(d0, d1, d2, d3) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 + 15 >= 0, d2 >= 0, -d2 >= 0, d3 >= 0, -d3 + 127 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#id4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#rowmap = affine_map<(d0, d1) -> (d0)>
module {
  func.func @paged_attention(%q_ptr: index,  // Q: 4x64x128 f16 (input)
                             %k_ptr: index,  // K cache: 64x16x8x128 f16 (input)
                             %v_ptr: index,  // V cache: 64x16x8x128 f16 (input)
                             %bt_ptr: index, // BT: 4x8 i32 page table (input)
                             %o_ptr: index,  // O: 4x64x128 f16 (output)
                             %scale: f32)    // softmax scale
      attributes {grid = [4, 8]} {
    %s, %h = ktdp.get_compute_tile_id : index, index
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %q0 = arith.muli %h, %c8 : index
    %ninf_bits = arith.constant 0xFF800000 : i32
    %ninf = arith.bitcast %ninf_bits : i32 to f32
    %zero = arith.constant 0.0 : f32
    %Q = ktdp.construct_memory_view %q_ptr, sizes: [4, 64, 128], strides: [8192, 128, 1] {coordinate_set = #q_set, memory_space = #ktdp.memory_space<global>} : memref<4x64x128xf16>
    %K = ktdp.construct_memory_view %k_ptr, sizes: [64, 16, 8, 128], strides: [16384, 1024, 128, 1] {coordinate_set = #kv_set, memory_space = #ktdp.memory_space<global>} : memref<64x16x8x128xf16>
    %V = ktdp.construct_memory_view %v_ptr, sizes: [64, 16, 8, 128], strides: [16384, 1024, 128, 1] {coordinate_set = #kv_set, memory_space = #ktdp.memory_space<global>} : memref<64x16x8x128xf16>
    %BT = ktdp.construct_memory_view %bt_ptr, sizes: [4, 8], strides: [8, 1] {coordinate_set = #bt_set, memory_space = #ktdp.memory_space<global>} : memref<4x8xi32>
    %O = ktdp.construct_memory_view %o_ptr, sizes: [4, 64, 128], strides: [8192, 128, 1] {coordinate_set = #q_set, memory_space = #ktdp.memory_space<global>} : memref<4x64x128xf16>
    %tq = ktdp.construct_access_tile %Q[%s, %q0, 0] {access_tile_set = #q_tile, access_tile_order = #id3} : memref<4x64x128xf16> -> !ktdp.access_tile<1x8x128xindex>
    %q3 = ktdp.load %tq : <1x8x128xindex> -> tensor<1x8x128xf16>
    %qh = tensor.collapse_shape %q3 [[0, 1], [2]] : tensor<1x8x128xf16> into tensor<8x128xf16>
    %q = arith.extf %qh : tensor<8x128xf16> to tensor<8x128xf32>
    %e8 = tensor.empty() : tensor<8xf32>
    %e_s = tensor.empty() : tensor<8x16xf32>
    %e_o = tensor.empty() : tensor<8x128xf32>
    %m0 = linalg.fill ins(%ninf : f32) outs(%e8 : tensor<8xf32>) -> tensor<8xf32>
    %l0 = linalg.fill ins(%zero : f32) outs(%e8 : tensor<8xf32>) -> tensor<8xf32>
    %acc0 = linalg.fill ins(%zero : f32) outs(%e_o : tensor<8x128xf32>) -> tensor<8x128xf32>
    %m, %l, %acc = scf.for %j = %c0 to %c8 step %c1 iter_args(%m_run = %m0, %l_run = %l0, %acc_run = %acc0) -> (tensor<8xf32>, tensor<8xf32>, tensor<8x128xf32>) {
      %tk = ktdp.construct_indirect_access_tile intermediate_variables(%d0, %d1, %d2, %d3) %K[ind(%BT[%s, %j + %d0]), (%d1), (%h + %d2), (%d3)] {variables_space_set = #kv_vars, variables_space_order = #id4} : memref<64x16x8x128xf16>, memref<4x8xi32> -> !ktdp.access_tile<1x16x1x128xindex>
      %tv = ktdp.construct_indirect_access_tile intermediate_variables(%d0, %d1, %d2, %d3) %V[ind(%BT[%s, %j + %d0]), (%d1), (%h + %d2), (%d3)] {variables_space_set = #kv_vars, variables_space_order = #id4} : memref<64x16x8x128xf16>, memref<4x8xi32> -> !ktdp.access_tile<1x16x1x128xindex>
      %k4 = ktdp.load %tk : <1x16x1x128xindex> -> tensor<1x16x1x128xf16>
      %v4 = ktdp.load %tv : <1x16x1x128xindex> -> tensor<1x16x1x128xf16>
      %kh = tensor.collapse_shape %k4 [[0, 1], [2, 3]] : tensor<1x16x1x128xf16> into tensor<16x128xf16>
      %vh = tensor.collapse_shape %v4 [[0, 1], [2, 3]] : tensor<1x16x1x128xf16> into tensor<16x128xf16>
      %k = arith.extf %kh : tensor<16x128xf16> to tensor<16x128xf32>
      %v = arith.extf %vh : tensor<16x128xf16> to tensor<16x128xf32>
      %kt_init = tensor.empty() : tensor<128x16xf32>
      %kt = linalg.transpose ins(%k : tensor<16x128xf32>) outs(%kt_init : tensor<128x16xf32>) permutation = [1, 0]
      %z_s = linalg.fill ins(%zero : f32) outs(%e_s : tensor<8x16xf32>) -> tensor<8x16xf32>
      %qk = linalg.matmul ins(%q, %kt : tensor<8x128xf32>, tensor<128x16xf32>) outs(%z_s : tensor<8x16xf32>) -> tensor<8x16xf32>
      %scale_t = tensor.splat %scale : tensor<8x16xf32>
      %sc = arith.mulf %qk, %scale_t : tensor<8x16xf32>
      %mb_init = linalg.fill ins(%ninf : f32) outs(%e8 : tensor<8xf32>) -> tensor<8xf32>
      %mb = linalg.reduce { arith.maximumf } ins(%sc : tensor<8x16xf32>) outs(%mb_init : tensor<8xf32>) dimensions = [1]
      %m_new = arith.maximumf %m_run, %mb : tensor<8xf32>
      %p = linalg.generic {indexing_maps = [#id2, #rowmap, #id2], iterator_types = ["parallel", "parallel"]}
          ins(%sc, %m_new : tensor<8x16xf32>, tensor<8xf32>) outs(%e_s : tensor<8x16xf32>) {
        ^bb0(%val: f32, %mi: f32, %out: f32):
          %d = arith.subf %val, %mi : f32
          %ex = math.exp %d : f32
          linalg.yield %ex : f32
      } -> tensor<8x16xf32>
      %dm = arith.subf %m_run, %m_new : tensor<8xf32>
      %alpha = math.exp %dm : tensor<8xf32>
      %ps_init = linalg.fill ins(%zero : f32) outs(%e8 : tensor<8xf32>) -> tensor<8xf32>
      %ps = linalg.reduce { arith.addf } ins(%p : tensor<8x16xf32>) outs(%ps_init : tensor<8xf32>) dimensions = [1]
      %l_scaled = arith.mulf %l_run, %alpha : tensor<8xf32>
      %l_new = arith.addf %l_scaled, %ps : tensor<8xf32>
      %acc_scaled = linalg.generic {indexing_maps = [#id2, #rowmap, #id2], iterator_types = ["parallel", "parallel"]}
          ins(%acc_run, %alpha : tensor<8x128xf32>, tensor<8xf32>) outs(%e_o : tensor<8x128xf32>) {
        ^bb0(%a_in: f32, %al: f32, %out: f32):
          %r = arith.mulf %a_in, %al : f32
          linalg.yield %r : f32
      } -> tensor<8x128xf32>
      %acc_new = linalg.matmul ins(%p, %v : tensor<8x16xf32>, tensor<16x128xf32>) outs(%acc_scaled : tensor<8x128xf32>) -> tensor<8x128xf32>
      scf.yield %m_new, %l_new, %acc_new : tensor<8xf32>, tensor<8xf32>, tensor<8x128xf32>
    }
    %lb = linalg.broadcast ins(%l : tensor<8xf32>) outs(%e_o : tensor<8x128xf32>) dimensions = [1]
    %o = arith.divf %acc, %lb : tensor<8x128xf32>
    %oh = arith.truncf %o : tensor<8x128xf32> to tensor<8x128xf16>
    %o3 = tensor.expand_shape %oh [[0, 1], [2]] output_shape [1, 8, 128] : tensor<8x128xf16> into tensor<1x8x128xf16>
    %to = ktdp.construct_access_tile %O[%s, %q0, 0] {access_tile_set = #q_tile, access_tile_order = #id3} : memref<4x64x128xf16> -> !ktdp.access_tile<1x8x128xindex>
    ktdp.store %o3, %to : tensor<1x8x128xf16>, <1x8x128xindex>
    return
  }
}
