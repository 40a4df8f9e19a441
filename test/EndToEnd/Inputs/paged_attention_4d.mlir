// paged_attention_4d.mlir - bench/kernels/paged_attention_4x8.mlir (the
// field guide's spelling of paged attention) at a small size: a [2, 2]
// grid of (sequence, KV head), 4 query heads per KV head, 2 pages of 16
// tokens per sequence from 8x16x2x64 f16 K and V caches through a 2x2 i32
// page table. K's page is a 1x16x1x64 gather collapsed to 16x64 and
// transposed (linalg.transpose of the collapse), V's the same gather
// collapsed; Q and O are 1x4x64 blocks of 2x8x64 views collapsed to and
// expanded from 4x64.
#q_set = affine_set<(d0, d1, d2) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 7 >= 0, d2 >= 0, -d2 + 63 >= 0)>
#kv_set = affine_set<(d0, d1, d2, d3) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 15 >= 0, d2 >= 0, -d2 + 1 >= 0, d3 >= 0, -d3 + 63 >= 0)>
#bt_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 1 >= 0)>
#q_tile = affine_set<(d0, d1, d2) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 + 3 >= 0, d2 >= 0, -d2 + 63 >= 0)>
#kv_vars = affine_set<(d0, d1, d2, d3) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 + 15 >= 0, d2 >= 0, -d2 >= 0, d3 >= 0, -d3 + 63 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#id4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#rowmap = affine_map<(d0, d1) -> (d0)>
module {
  func.func @paged_attention(%q_ptr: index, %k_ptr: index, %v_ptr: index,
                             %bt_ptr: index, %o_ptr: index, %scale: f32)
      attributes {grid = [2, 2]} {
    %s, %h = ktdp.get_compute_tile_id : index, index
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c4 = arith.constant 4 : index
    %q0 = arith.muli %h, %c4 : index
    %ninf_bits = arith.constant 0xFF800000 : i32
    %ninf = arith.bitcast %ninf_bits : i32 to f32
    %zero = arith.constant 0.0 : f32
    %Q = ktdp.construct_memory_view %q_ptr, sizes: [2, 8, 64], strides: [512, 64, 1] {coordinate_set = #q_set, memory_space = #ktdp.memory_space<global>} : memref<2x8x64xf16>
    %K = ktdp.construct_memory_view %k_ptr, sizes: [8, 16, 2, 64], strides: [2048, 128, 64, 1] {coordinate_set = #kv_set, memory_space = #ktdp.memory_space<global>} : memref<8x16x2x64xf16>
    %V = ktdp.construct_memory_view %v_ptr, sizes: [8, 16, 2, 64], strides: [2048, 128, 64, 1] {coordinate_set = #kv_set, memory_space = #ktdp.memory_space<global>} : memref<8x16x2x64xf16>
    %BT = ktdp.construct_memory_view %bt_ptr, sizes: [2, 2], strides: [2, 1] {coordinate_set = #bt_set, memory_space = #ktdp.memory_space<global>} : memref<2x2xi32>
    %O = ktdp.construct_memory_view %o_ptr, sizes: [2, 8, 64], strides: [512, 64, 1] {coordinate_set = #q_set, memory_space = #ktdp.memory_space<global>} : memref<2x8x64xf16>
    %tq = ktdp.construct_access_tile %Q[%s, %q0, 0] {access_tile_set = #q_tile, access_tile_order = #id3} : memref<2x8x64xf16> -> !ktdp.access_tile<1x4x64xindex>
    %q3 = ktdp.load %tq : <1x4x64xindex> -> tensor<1x4x64xf16>
    %qh = tensor.collapse_shape %q3 [[0, 1], [2]] : tensor<1x4x64xf16> into tensor<4x64xf16>
    %q = arith.extf %qh : tensor<4x64xf16> to tensor<4x64xf32>
    %e4 = tensor.empty() : tensor<4xf32>
    %e_s = tensor.empty() : tensor<4x16xf32>
    %e_o = tensor.empty() : tensor<4x64xf32>
    %m0 = linalg.fill ins(%ninf : f32) outs(%e4 : tensor<4xf32>) -> tensor<4xf32>
    %l0 = linalg.fill ins(%zero : f32) outs(%e4 : tensor<4xf32>) -> tensor<4xf32>
    %acc0 = linalg.fill ins(%zero : f32) outs(%e_o : tensor<4x64xf32>) -> tensor<4x64xf32>
    %m, %l, %acc = scf.for %j = %c0 to %c2 step %c1 iter_args(%m_run = %m0, %l_run = %l0, %acc_run = %acc0) -> (tensor<4xf32>, tensor<4xf32>, tensor<4x64xf32>) {
      %tk = ktdp.construct_indirect_access_tile intermediate_variables(%d0, %d1, %d2, %d3) %K[ind(%BT[%s, %j + %d0]), (%d1), (%h + %d2), (%d3)] {variables_space_set = #kv_vars, variables_space_order = #id4} : memref<8x16x2x64xf16>, memref<2x2xi32> -> !ktdp.access_tile<1x16x1x64xindex>
      %tv = ktdp.construct_indirect_access_tile intermediate_variables(%d0, %d1, %d2, %d3) %V[ind(%BT[%s, %j + %d0]), (%d1), (%h + %d2), (%d3)] {variables_space_set = #kv_vars, variables_space_order = #id4} : memref<8x16x2x64xf16>, memref<2x2xi32> -> !ktdp.access_tile<1x16x1x64xindex>
      %k4 = ktdp.load %tk : <1x16x1x64xindex> -> tensor<1x16x1x64xf16>
      %v4 = ktdp.load %tv : <1x16x1x64xindex> -> tensor<1x16x1x64xf16>
      %kh = tensor.collapse_shape %k4 [[0, 1], [2, 3]] : tensor<1x16x1x64xf16> into tensor<16x64xf16>
      %vh = tensor.collapse_shape %v4 [[0, 1], [2, 3]] : tensor<1x16x1x64xf16> into tensor<16x64xf16>
      %k = arith.extf %kh : tensor<16x64xf16> to tensor<16x64xf32>
      %v = arith.extf %vh : tensor<16x64xf16> to tensor<16x64xf32>
      %kt_init = tensor.empty() : tensor<64x16xf32>
      %kt = linalg.transpose ins(%k : tensor<16x64xf32>) outs(%kt_init : tensor<64x16xf32>) permutation = [1, 0]
      %z_s = linalg.fill ins(%zero : f32) outs(%e_s : tensor<4x16xf32>) -> tensor<4x16xf32>
      %qk = linalg.matmul ins(%q, %kt : tensor<4x64xf32>, tensor<64x16xf32>) outs(%z_s : tensor<4x16xf32>) -> tensor<4x16xf32>
      %scale_t = tensor.splat %scale : tensor<4x16xf32>
      %sc = arith.mulf %qk, %scale_t : tensor<4x16xf32>
      %mb_init = linalg.fill ins(%ninf : f32) outs(%e4 : tensor<4xf32>) -> tensor<4xf32>
      %mb = linalg.reduce { arith.maximumf } ins(%sc : tensor<4x16xf32>) outs(%mb_init : tensor<4xf32>) dimensions = [1]
      %m_new = arith.maximumf %m_run, %mb : tensor<4xf32>
      %p = linalg.generic {indexing_maps = [#id2, #rowmap, #id2], iterator_types = ["parallel", "parallel"]}
          ins(%sc, %m_new : tensor<4x16xf32>, tensor<4xf32>) outs(%e_s : tensor<4x16xf32>) {
        ^bb0(%val: f32, %mi: f32, %out: f32):
          %d = arith.subf %val, %mi : f32
          %ex = math.exp %d : f32
          linalg.yield %ex : f32
      } -> tensor<4x16xf32>
      %dm = arith.subf %m_run, %m_new : tensor<4xf32>
      %alpha = math.exp %dm : tensor<4xf32>
      %ps_init = linalg.fill ins(%zero : f32) outs(%e4 : tensor<4xf32>) -> tensor<4xf32>
      %ps = linalg.reduce { arith.addf } ins(%p : tensor<4x16xf32>) outs(%ps_init : tensor<4xf32>) dimensions = [1]
      %l_scaled = arith.mulf %l_run, %alpha : tensor<4xf32>
      %l_new = arith.addf %l_scaled, %ps : tensor<4xf32>
      %acc_scaled = linalg.generic {indexing_maps = [#id2, #rowmap, #id2], iterator_types = ["parallel", "parallel"]}
          ins(%acc_run, %alpha : tensor<4x64xf32>, tensor<4xf32>) outs(%e_o : tensor<4x64xf32>) {
        ^bb0(%a_in: f32, %al: f32, %out: f32):
          %r = arith.mulf %a_in, %al : f32
          linalg.yield %r : f32
      } -> tensor<4x64xf32>
      %acc_new = linalg.matmul ins(%p, %v : tensor<4x16xf32>, tensor<16x64xf32>) outs(%acc_scaled : tensor<4x64xf32>) -> tensor<4x64xf32>
      scf.yield %m_new, %l_new, %acc_new : tensor<4xf32>, tensor<4xf32>, tensor<4x64xf32>
    }
    %lb = linalg.broadcast ins(%l : tensor<4xf32>) outs(%e_o : tensor<4x64xf32>) dimensions = [1]
    %o = arith.divf %acc, %lb : tensor<4x64xf32>
    %oh = arith.truncf %o : tensor<4x64xf32> to tensor<4x64xf16>
    %o3 = tensor.expand_shape %oh [[0, 1], [2]] output_shape [1, 4, 64] : tensor<4x64xf16> into tensor<1x4x64xf16>
    %to = ktdp.construct_access_tile %O[%s, %q0, 0] {access_tile_set = #q_tile, access_tile_order = #id3} : memref<2x8x64xf16> -> !ktdp.access_tile<1x4x64xindex>
    ktdp.store %o3, %to : tensor<1x4x64xf16>, <1x4x64xindex>
    return
  }
}
