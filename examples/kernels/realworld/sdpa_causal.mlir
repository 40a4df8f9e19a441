// sdpa_causal.mlir - causal scaled dot-product attention for one head,
// computed in f32 from f16 inputs (extf after the loads, truncf before the
// store), with the causal mask built by a linalg.generic that reads its
// iteration indices and captures the tile's row origin and a -inf made by
// bitcast.
//
// Computes, for query i < 32, key j < 32, d < 32 (q, k, v = f32 of the
// f16 inputs; everything in f32 until the final rounding):
//   s[i, j] = scale * sum_d q[i, d] * k[j, d]
//   s[i, j] = -inf where j > i                      (causal mask)
//   m_i     = max_j s[i, j]                         (reduce body: cmpf ogt + select)
//   p[i, j] = exp(s[i, j] - m_i) / sum_j exp(s[i, j] - m_i)
//   O[i, d] = f16(sum_j p[i, j] * v[j, d])
// scale is an f32 argument (e.g. 0.17677669 = 1/sqrt(32)).
//
// Grid [2, 1] with one tile id: tile t computes query rows [16t, 16t + 16)
// against all 32 keys. K is transposed with linalg.transpose; the row max
// is broadcast back by a linalg.generic with a (d0, d1) -> (d0) map, the row
// sum by linalg.broadcast.

#qkv_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 31 >= 0, d1 >= 0, -d1 + 31 >= 0)>
#q_blk = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 31 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#rowmap = affine_map<(d0, d1) -> (d0)>
module {
  func.func @attn_fwd(%q_ptr: index,  // Q: 32x32 f16 (input)
                      %k_ptr: index,  // K: 32x32 f16 (input)
                      %v_ptr: index,  // V: 32x32 f16 (input)
                      %o_ptr: index,  // O: 32x32 f16 (output)
                      %scale: f32)    // softmax scale
      attributes {grid = [2, 1]} {
    %pid = ktdp.get_compute_tile_id : index
    %c16 = arith.constant 16 : index
    %q0 = arith.muli %pid, %c16 : index
    %ninf_bits = arith.constant 0xFF800000 : i32
    %ninf = arith.bitcast %ninf_bits : i32 to f32
    %zero = arith.constant 0.0 : f32
    %Q = ktdp.construct_memory_view %q_ptr, sizes: [32, 32], strides: [32, 1] {coordinate_set = #qkv_set, memory_space = #ktdp.memory_space<global>} : memref<32x32xf16>
    %K = ktdp.construct_memory_view %k_ptr, sizes: [32, 32], strides: [32, 1] {coordinate_set = #qkv_set, memory_space = #ktdp.memory_space<global>} : memref<32x32xf16>
    %V = ktdp.construct_memory_view %v_ptr, sizes: [32, 32], strides: [32, 1] {coordinate_set = #qkv_set, memory_space = #ktdp.memory_space<global>} : memref<32x32xf16>
    %O = ktdp.construct_memory_view %o_ptr, sizes: [32, 32], strides: [32, 1] {coordinate_set = #qkv_set, memory_space = #ktdp.memory_space<global>} : memref<32x32xf16>
    %tq = ktdp.construct_access_tile %Q[%q0, 0] {access_tile_set = #q_blk, access_tile_order = #id2} : memref<32x32xf16> -> !ktdp.access_tile<16x32xindex>
    %tk = ktdp.construct_access_tile %K[0, 0] {access_tile_set = #qkv_set, access_tile_order = #id2} : memref<32x32xf16> -> !ktdp.access_tile<32x32xindex>
    %tv = ktdp.construct_access_tile %V[0, 0] {access_tile_set = #qkv_set, access_tile_order = #id2} : memref<32x32xf16> -> !ktdp.access_tile<32x32xindex>
    %qh = ktdp.load %tq : <16x32xindex> -> tensor<16x32xf16>
    %kh = ktdp.load %tk : <32x32xindex> -> tensor<32x32xf16>
    %vh = ktdp.load %tv : <32x32xindex> -> tensor<32x32xf16>
    %q = arith.extf %qh : tensor<16x32xf16> to tensor<16x32xf32>
    %k = arith.extf %kh : tensor<32x32xf16> to tensor<32x32xf32>
    %v = arith.extf %vh : tensor<32x32xf16> to tensor<32x32xf32>

    %kt_init = tensor.empty() : tensor<32x32xf32>
    %kt = linalg.transpose ins(%k : tensor<32x32xf32>) outs(%kt_init : tensor<32x32xf32>) permutation = [1, 0]
    %e16x32 = tensor.empty() : tensor<16x32xf32>
    %z16x32 = linalg.fill ins(%zero : f32) outs(%e16x32 : tensor<16x32xf32>) -> tensor<16x32xf32>
    %qk = linalg.matmul ins(%q, %kt : tensor<16x32xf32>, tensor<32x32xf32>) outs(%z16x32 : tensor<16x32xf32>) -> tensor<16x32xf32>
    %scale_t = tensor.splat %scale : tensor<16x32xf32>
    %s = arith.mulf %qk, %scale_t : tensor<16x32xf32>
    %masked = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]}
        ins(%s : tensor<16x32xf32>) outs(%e16x32 : tensor<16x32xf32>) {
      ^bb0(%val: f32, %out: f32):
        %i = linalg.index 0 : index
        %j = linalg.index 1 : index
        %qi = arith.addi %q0, %i : index
        %visible = arith.cmpi ule, %j, %qi : index
        %r = arith.select %visible, %val, %ninf : f32
        linalg.yield %r : f32
    } -> tensor<16x32xf32>

    %e16 = tensor.empty() : tensor<16xf32>
    %m_init = linalg.fill ins(%ninf : f32) outs(%e16 : tensor<16xf32>) -> tensor<16xf32>
    %m = linalg.reduce ins(%masked : tensor<16x32xf32>) outs(%m_init : tensor<16xf32>) dimensions = [1]
      (%a : f32, %b : f32) {
        %gt = arith.cmpf ogt, %a, %b : f32
        %mx = arith.select %gt, %a, %b : f32
        linalg.yield %mx : f32
      }
    %p = linalg.generic {indexing_maps = [#id2, #rowmap, #id2], iterator_types = ["parallel", "parallel"]}
        ins(%masked, %m : tensor<16x32xf32>, tensor<16xf32>) outs(%e16x32 : tensor<16x32xf32>) {
      ^bb0(%val: f32, %mi: f32, %out: f32):
        %d = arith.subf %val, %mi : f32
        %ex = math.exp %d : f32
        linalg.yield %ex : f32
    } -> tensor<16x32xf32>
    %l_init = linalg.fill ins(%zero : f32) outs(%e16 : tensor<16xf32>) -> tensor<16xf32>
    %l = linalg.reduce { arith.addf } ins(%p : tensor<16x32xf32>) outs(%l_init : tensor<16xf32>) dimensions = [1]
    %lb = linalg.broadcast ins(%l : tensor<16xf32>) outs(%e16x32 : tensor<16x32xf32>) dimensions = [1]
    %pn = arith.divf %p, %lb : tensor<16x32xf32>
    %o = linalg.matmul ins(%pn, %v : tensor<16x32xf32>, tensor<32x32xf32>) outs(%z16x32 : tensor<16x32xf32>) -> tensor<16x32xf32>
    %oh = arith.truncf %o : tensor<16x32xf32> to tensor<16x32xf16>
    %to = ktdp.construct_access_tile %O[%q0, 0] {access_tile_set = #q_blk, access_tile_order = #id2} : memref<32x32xf16> -> !ktdp.access_tile<16x32xindex>
    ktdp.store %oh, %to : tensor<16x32xf16>, <16x32xindex>
    return
  }
}
