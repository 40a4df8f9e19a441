// causal_attention_parts.mlir - causal attention for one head written as
// the field guide's kernels are (../shared/docs/ktir-field-guide.md):
// `index` pointers counted in elements, a [2, 1] grid with one tile id,
// f32 math after `arith.extf` of the f16 loads (as the guide's paged
// attention) and `arith.truncf` before the store, K^T by linalg.transpose,
// products into tensor.empty(), the causal mask a linalg.generic reading
// linalg.index and capturing the tile's row origin and a -inf, the row
// maximum a short-form linalg.reduce { arith.maxnumf }, the row values
// broadcast back by linalg.broadcast dimensions = [1].
//
// For query i < 32, key j < 32, d < 64 (q, k, v the f32 of the inputs):
//   s[i, j] = (sum_d q[i, d] * k[j, d]) * scale, -inf where j > i
//   p[i, j] = exp(s[i, j] - max_j s[i, j]) / sum_j exp(...)
//   O[i, d] = f16(sum_j p[i, j] * v[j, d])
// Tile t computes query rows [16t, 16t + 16) against all 32 keys: every
// point has the same work, and two points leave most of a device's compute
// units idle.

#all = affine_set<(d0, d1) : (d0 >= 0, -d0 + 31 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#blk = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @causal_attention(%q_ptr: index,  // Q: 32x64 f16
                              %k_ptr: index,  // K: 32x64 f16
                              %v_ptr: index,  // V: 32x64 f16
                              %o_ptr: index,  // O: 32x64 f16 (output)
                              %scale: f32)    // softmax scale
      attributes {grid = [2, 1]} {
    %tid = ktdp.get_compute_tile_id : index
    %c16 = arith.constant 16 : index
    %row0 = arith.muli %tid, %c16 : index
    %ninf = arith.constant 0xFF800000 : f32
    %Q = ktdp.construct_memory_view %q_ptr, sizes: [32, 64], strides: [64, 1] {coordinate_set = #all, memory_space = #ktdp.memory_space<global>} : memref<32x64xf16>
    %K = ktdp.construct_memory_view %k_ptr, sizes: [32, 64], strides: [64, 1] {coordinate_set = #all, memory_space = #ktdp.memory_space<global>} : memref<32x64xf16>
    %V = ktdp.construct_memory_view %v_ptr, sizes: [32, 64], strides: [64, 1] {coordinate_set = #all, memory_space = #ktdp.memory_space<global>} : memref<32x64xf16>
    %O = ktdp.construct_memory_view %o_ptr, sizes: [32, 64], strides: [64, 1] {coordinate_set = #all, memory_space = #ktdp.memory_space<global>} : memref<32x64xf16>
    %tq = ktdp.construct_access_tile %Q[%row0, 0] {access_tile_set = #blk, access_tile_order = #id2} : memref<32x64xf16> -> !ktdp.access_tile<16x64xindex>
    %tk = ktdp.construct_access_tile %K[0, 0] {access_tile_set = #all, access_tile_order = #id2} : memref<32x64xf16> -> !ktdp.access_tile<32x64xindex>
    %tv = ktdp.construct_access_tile %V[0, 0] {access_tile_set = #all, access_tile_order = #id2} : memref<32x64xf16> -> !ktdp.access_tile<32x64xindex>
    %qh = ktdp.load %tq : <16x64xindex> -> tensor<16x64xf16>
    %kh = ktdp.load %tk : <32x64xindex> -> tensor<32x64xf16>
    %vh = ktdp.load %tv : <32x64xindex> -> tensor<32x64xf16>
    %q = arith.extf %qh : tensor<16x64xf16> to tensor<16x64xf32>
    %k = arith.extf %kh : tensor<32x64xf16> to tensor<32x64xf32>
    %v = arith.extf %vh : tensor<32x64xf16> to tensor<32x64xf32>
    %kt_init = tensor.empty() : tensor<64x32xf32>
    %kt = linalg.transpose ins(%k : tensor<32x64xf32>) outs(%kt_init : tensor<64x32xf32>) permutation = [1, 0]
    %s_init = tensor.empty() : tensor<16x32xf32>
    %qk = linalg.matmul ins(%q, %kt : tensor<16x64xf32>, tensor<64x32xf32>) outs(%s_init : tensor<16x32xf32>) -> tensor<16x32xf32>
    %scale_t = tensor.splat %scale : tensor<16x32xf32>
    %s = arith.mulf %qk, %scale_t : tensor<16x32xf32>
    %masked = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]}
        ins(%s : tensor<16x32xf32>) outs(%s_init : tensor<16x32xf32>) {
      ^bb0(%in: f32, %out: f32):
        %i = linalg.index 0 : index
        %j = linalg.index 1 : index
        %qi = arith.addi %row0, %i : index
        %seen = arith.cmpi ule, %j, %qi : index
        %r = arith.select %seen, %in, %ninf : f32
        linalg.yield %r : f32
    } -> tensor<16x32xf32>
    %r_init = tensor.empty() : tensor<16xf32>
    %m_init = linalg.fill ins(%ninf : f32) outs(%r_init : tensor<16xf32>) -> tensor<16xf32>
    %m = linalg.reduce { arith.maxnumf } ins(%masked : tensor<16x32xf32>) outs(%m_init : tensor<16xf32>) dimensions = [1]
    %mb = linalg.broadcast ins(%m : tensor<16xf32>) outs(%s_init : tensor<16x32xf32>) dimensions = [1]
    %d = arith.subf %masked, %mb : tensor<16x32xf32>
    %e = math.exp %d : tensor<16x32xf32>
    %zero = arith.constant 0.0 : f32
    %l_init = linalg.fill ins(%zero : f32) outs(%r_init : tensor<16xf32>) -> tensor<16xf32>
    %l = linalg.reduce { arith.addf } ins(%e : tensor<16x32xf32>) outs(%l_init : tensor<16xf32>) dimensions = [1]
    %lb = linalg.broadcast ins(%l : tensor<16xf32>) outs(%s_init : tensor<16x32xf32>) dimensions = [1]
    %p = arith.divf %e, %lb : tensor<16x32xf32>
    %o_init = tensor.empty() : tensor<16x64xf32>
    %o32 = linalg.matmul ins(%p, %v : tensor<16x32xf32>, tensor<32x64xf32>) outs(%o_init : tensor<16x64xf32>) -> tensor<16x64xf32>
    %o = arith.truncf %o32 : tensor<16x64xf32> to tensor<16x64xf16>
    %to = ktdp.construct_access_tile %O[%row0, 0] {access_tile_set = #blk, access_tile_order = #id2} : memref<32x64xf16> -> !ktdp.access_tile<16x64xindex>
    ktdp.store %o, %to : tensor<16x64xf16>, <16x64xindex>
    return
  }
}
