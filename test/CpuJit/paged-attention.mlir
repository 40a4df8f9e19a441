// Paged attention on the compiled tier: bench/kernels/paged_attention_4x8.mlir
// (the field guide's shape) scaled down - a [2, 2] grid of (sequence, KV
// head), 4 query heads per KV head, 3 pages of 4 tokens per sequence
// through a 2x3 i32 page table into 16-page K and V caches, head dim 16,
// an f32 online softmax carrying three values over the pages. Both
// engines must print the same output lines (bit-identical checksums).
// RUN: rm -rf %t && mkdir -p %t
// RUN: ktflow interp %s --seed 5 --arg scale=0.25 --input bt_ptr=range:0:16 --engine=interp > %t/interp
// RUN: ktflow interp %s --seed 5 --arg scale=0.25 --input bt_ptr=range:0:16 --engine=jit > %t/jit 2> %t/note
// RUN: diff %t/interp %t/jit
// RUN: FileCheck %s --input-file=%t/note
// CHECK: engine: jit
// RUN: FileCheck %s --check-prefix=OUT --input-file=%t/jit
// OUT: o_ptr: shape=2x8x16 dtype=f16

#q_set = affine_set<(d0, d1, d2) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 7 >= 0, d2 >= 0, -d2 + 15 >= 0)>
#kv_set = affine_set<(d0, d1, d2, d3) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 3 >= 0, d2 >= 0, -d2 + 1 >= 0, d3 >= 0, -d3 + 15 >= 0)>
#bt_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 2 >= 0)>
#q_tile = affine_set<(d0, d1, d2) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 + 3 >= 0, d2 >= 0, -d2 + 15 >= 0)>
#kv_vars = affine_set<(d0, d1, d2, d3) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 + 3 >= 0, d2 >= 0, -d2 >= 0, d3 >= 0, -d3 + 15 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#id4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#rowmap = affine_map<(d0, d1) -> (d0)>
module {
  func.func @paged_attention(%q_ptr: index,  // Q: 2x8x16 f16 (input)
                             %k_ptr: index,  // K cache: 16x4x2x16 f16 (input)
                             %v_ptr: index,  // V cache: 16x4x2x16 f16 (input)
                             %bt_ptr: index, // BT: 2x3 i32 page table (input)
                             %o_ptr: index,  // O: 2x8x16 f16 (output)
                             %scale: f32)    // softmax scale
      attributes {grid = [2, 2]} {
    %s, %h = ktdp.get_compute_tile_id : index, index
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c3 = arith.constant 3 : index
    %c4 = arith.constant 4 : index
    %q0 = arith.muli %h, %c4 : index
    %ninf_bits = arith.constant 0xFF800000 : i32
    %ninf = arith.bitcast %ninf_bits : i32 to f32
    %zero = arith.constant 0.0 : f32
    %Q = ktdp.construct_memory_view %q_ptr, sizes: [2, 8, 16], strides: [128, 16, 1] {coordinate_set = #q_set, memory_space = #ktdp.memory_space<global>} : memref<2x8x16xf16>
    %K = ktdp.construct_memory_view %k_ptr, sizes: [16, 4, 2, 16], strides: [128, 32, 16, 1] {coordinate_set = #kv_set, memory_space = #ktdp.memory_space<global>} : memref<16x4x2x16xf16>
    %V = ktdp.construct_memory_view %v_ptr, sizes: [16, 4, 2, 16], strides: [128, 32, 16, 1] {coordinate_set = #kv_set, memory_space = #ktdp.memory_space<global>} : memref<16x4x2x16xf16>
    %BT = ktdp.construct_memory_view %bt_ptr, sizes: [2, 3], strides: [3, 1] {coordinate_set = #bt_set, memory_space = #ktdp.memory_space<global>} : memref<2x3xi32>
    %O = ktdp.construct_memory_view %o_ptr, sizes: [2, 8, 16], strides: [128, 16, 1] {coordinate_set = #q_set, memory_space = #ktdp.memory_space<global>} : memref<2x8x16xf16>
    %tq = ktdp.construct_access_tile %Q[%s, %q0, 0] {access_tile_set = #q_tile, access_tile_order = #id3} : memref<2x8x16xf16> -> !ktdp.access_tile<1x4x16xindex>
    %q3 = ktdp.load %tq : <1x4x16xindex> -> tensor<1x4x16xf16>
    %qh = tensor.collapse_shape %q3 [[0, 1], [2]] : tensor<1x4x16xf16> into tensor<4x16xf16>
    %q = arith.extf %qh : tensor<4x16xf16> to tensor<4x16xf32>
    %e8 = tensor.empty() : tensor<4xf32>
    %e_s = tensor.empty() : tensor<4x4xf32>
    %e_o = tensor.empty() : tensor<4x16xf32>
    %m0 = linalg.fill ins(%ninf : f32) outs(%e8 : tensor<4xf32>) -> tensor<4xf32>
    %l0 = linalg.fill ins(%zero : f32) outs(%e8 : tensor<4xf32>) -> tensor<4xf32>
    %acc0 = linalg.fill ins(%zero : f32) outs(%e_o : tensor<4x16xf32>) -> tensor<4x16xf32>
    %m, %l, %acc = scf.for %j = %c0 to %c3 step %c1 iter_args(%m_run = %m0, %l_run = %l0, %acc_run = %acc0) -> (tensor<4xf32>, tensor<4xf32>, tensor<4x16xf32>) {
      %tk = ktdp.construct_indirect_access_tile intermediate_variables(%d0, %d1, %d2, %d3) %K[ind(%BT[%s, %j + %d0]), (%d1), (%h + %d2), (%d3)] {variables_space_set = #kv_vars, variables_space_order = #id4} : memref<16x4x2x16xf16>, memref<2x3xi32> -> !ktdp.access_tile<1x4x1x16xindex>
      %tv = ktdp.construct_indirect_access_tile intermediate_variables(%d0, %d1, %d2, %d3) %V[ind(%BT[%s, %j + %d0]), (%d1), (%h + %d2), (%d3)] {variables_space_set = #kv_vars, variables_space_order = #id4} : memref<16x4x2x16xf16>, memref<2x3xi32> -> !ktdp.access_tile<1x4x1x16xindex>
      %k4 = ktdp.load %tk : <1x4x1x16xindex> -> tensor<1x4x1x16xf16>
      %v4 = ktdp.load %tv : <1x4x1x16xindex> -> tensor<1x4x1x16xf16>
      %kh = tensor.collapse_shape %k4 [[0, 1], [2, 3]] : tensor<1x4x1x16xf16> into tensor<4x16xf16>
      %vh = tensor.collapse_shape %v4 [[0, 1], [2, 3]] : tensor<1x4x1x16xf16> into tensor<4x16xf16>
      %k = arith.extf %kh : tensor<4x16xf16> to tensor<4x16xf32>
      %v = arith.extf %vh : tensor<4x16xf16> to tensor<4x16xf32>
      %kt_init = tensor.empty() : tensor<16x4xf32>
      %kt = linalg.transpose ins(%k : tensor<4x16xf32>) outs(%kt_init : tensor<16x4xf32>) permutation = [1, 0]
      %z_s = linalg.fill ins(%zero : f32) outs(%e_s : tensor<4x4xf32>) -> tensor<4x4xf32>
      %qk = linalg.matmul ins(%q, %kt : tensor<4x16xf32>, tensor<16x4xf32>) outs(%z_s : tensor<4x4xf32>) -> tensor<4x4xf32>
      %scale_t = tensor.splat %scale : tensor<4x4xf32>
      %sc = arith.mulf %qk, %scale_t : tensor<4x4xf32>
      %mb_init = linalg.fill ins(%ninf : f32) outs(%e8 : tensor<4xf32>) -> tensor<4xf32>
      %mb = linalg.reduce { arith.maximumf } ins(%sc : tensor<4x4xf32>) outs(%mb_init : tensor<4xf32>) dimensions = [1]
      %m_new = arith.maximumf %m_run, %mb : tensor<4xf32>
      %p = linalg.generic {indexing_maps = [#id2, #rowmap, #id2], iterator_types = ["parallel", "parallel"]}
          ins(%sc, %m_new : tensor<4x4xf32>, tensor<4xf32>) outs(%e_s : tensor<4x4xf32>) {
        ^bb0(%val: f32, %mi: f32, %out: f32):
          %d = arith.subf %val, %mi : f32
          %ex = math.exp %d : f32
          linalg.yield %ex : f32
      } -> tensor<4x4xf32>
      %dm = arith.subf %m_run, %m_new : tensor<4xf32>
      %alpha = math.exp %dm : tensor<4xf32>
      %ps_init = linalg.fill ins(%zero : f32) outs(%e8 : tensor<4xf32>) -> tensor<4xf32>
      %ps = linalg.reduce { arith.addf } ins(%p : tensor<4x4xf32>) outs(%ps_init : tensor<4xf32>) dimensions = [1]
      %l_scaled = arith.mulf %l_run, %alpha : tensor<4xf32>
      %l_new = arith.addf %l_scaled, %ps : tensor<4xf32>
      %acc_scaled = linalg.generic {indexing_maps = [#id2, #rowmap, #id2], iterator_types = ["parallel", "parallel"]}
          ins(%acc_run, %alpha : tensor<4x16xf32>, tensor<4xf32>) outs(%e_o : tensor<4x16xf32>) {
        ^bb0(%a_in: f32, %al: f32, %out: f32):
          %r = arith.mulf %a_in, %al : f32
          linalg.yield %r : f32
      } -> tensor<4x16xf32>
      %acc_new = linalg.matmul ins(%p, %v : tensor<4x4xf32>, tensor<4x16xf32>) outs(%acc_scaled : tensor<4x16xf32>) -> tensor<4x16xf32>
      scf.yield %m_new, %l_new, %acc_new : tensor<4xf32>, tensor<4xf32>, tensor<4x16xf32>
    }
    %lb = linalg.broadcast ins(%l : tensor<4xf32>) outs(%e_o : tensor<4x16xf32>) dimensions = [1]
    %o = arith.divf %acc, %lb : tensor<4x16xf32>
    %oh = arith.truncf %o : tensor<4x16xf32> to tensor<4x16xf16>
    %o3 = tensor.expand_shape %oh [[0, 1], [2]] output_shape [1, 4, 16] : tensor<4x16xf16> into tensor<1x4x16xf16>
    %to = ktdp.construct_access_tile %O[%s, %q0, 0] {access_tile_set = #q_tile, access_tile_order = #id3} : memref<2x8x16xf16> -> !ktdp.access_tile<1x4x16xindex>
    ktdp.store %o3, %to : tensor<1x4x16xf16>, <1x4x16xindex>
    return
  }
}
