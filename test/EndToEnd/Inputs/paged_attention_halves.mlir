// paged_attention_halves.mlir - realworld/paged_attention.mlir with each
// (sequence, KV head) point's 8 query rows written as two halves of 4: grid
// [2, 4, 8], copy c computes rows 4c .. 4c + 3 of point (b, h) (what
// ktdf-split-point-rows makes of the realworld kernel on spyre_like). On
// spyre_like instance k runs point k, and instances k and k + 32 share a
// core: the two halves of a point run on one core's two corelets, whose DMA
// engine gathers the same K and V pages for both (the block table is only
// read). Arguments and numerics as realworld/paged_attention.mlir.

#q_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 255 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#kv_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 16383 >= 0)>
#bt_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 7 >= 0)>
#q_tile = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#page_vars = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#kt_order = affine_map<(d0, d1) -> (d1, d0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#rowmap = affine_map<(d0, d1) -> (d0)>
module {
  func.func @paged_attention(%q_ptr: index,   // Q:  256x128 f16 (input), rows (b, h, g)
                             %k_ptr: index,   // K:  64 pages x (16 x 8 x 128) f16 (input, paged cache)
                             %v_ptr: index,   // V:  64 pages x (16 x 8 x 128) f16 (input, paged cache)
                             %bt_ptr: index,  // BT: 4x8 i32 block table (input)
                             %o_ptr: index,   // O:  256x128 f16 (output), rows (b, h, g)
                             %scale: f32)     // softmax scale
      attributes {grid = [2, 4, 8]} {
    %c, %b, %h = ktdp.get_compute_tile_id : index, index, index
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %ninf_bits = arith.constant 0xFF800000 : i32
    %ninf = arith.bitcast %ninf_bits : i32 to f32
    %zero = arith.constant 0.0 : f32
    %Q = ktdp.construct_memory_view %q_ptr, sizes: [256, 128], strides: [128, 1] {coordinate_set = #q_set, memory_space = #ktdp.memory_space<global>} : memref<256x128xf16>
    %K = ktdp.construct_memory_view %k_ptr, sizes: [64, 16384], strides: [16384, 1] {coordinate_set = #kv_set, memory_space = #ktdp.memory_space<global>} : memref<64x16384xf16>
    %V = ktdp.construct_memory_view %v_ptr, sizes: [64, 16384], strides: [16384, 1] {coordinate_set = #kv_set, memory_space = #ktdp.memory_space<global>} : memref<64x16384xf16>
    %c128 = arith.constant 128 : index
    %hoff = arith.muli %h, %c128 : index   // head h's columns in a token's 1024
    %BT = ktdp.construct_memory_view %bt_ptr, sizes: [4, 8], strides: [8, 1] {coordinate_set = #bt_set, memory_space = #ktdp.memory_space<global>} : memref<4x8xi32>
    %O = ktdp.construct_memory_view %o_ptr, sizes: [256, 128], strides: [128, 1] {coordinate_set = #q_set, memory_space = #ktdp.memory_space<global>} : memref<256x128xf16>
    %bh = arith.muli %b, %c8 : index
    %seq_head = arith.addi %bh, %h : index
    %row00 = arith.muli %seq_head, %c8 : index
    %c4 = arith.constant 4 : index
    %half = arith.muli %c, %c4 : index
    %row0 = arith.addi %row00, %half : index
    %tq = ktdp.construct_access_tile %Q[%row0, 0] {access_tile_set = #q_tile, access_tile_order = #id2} : memref<256x128xf16> -> !ktdp.access_tile<4x128xindex>
    %qh = ktdp.load %tq : <4x128xindex> -> tensor<4x128xf16>
    %q = arith.extf %qh : tensor<4x128xf16> to tensor<4x128xf32>
    %e8 = tensor.empty() : tensor<4xf32>
    %e_s = tensor.empty() : tensor<4x16xf32>
    %e_o = tensor.empty() : tensor<4x128xf32>
    %m0 = linalg.fill ins(%ninf : f32) outs(%e8 : tensor<4xf32>) -> tensor<4xf32>
    %l0 = linalg.fill ins(%zero : f32) outs(%e8 : tensor<4xf32>) -> tensor<4xf32>
    %acc0 = linalg.fill ins(%zero : f32) outs(%e_o : tensor<4x128xf32>) -> tensor<4x128xf32>
    %m, %l, %acc = scf.for %j = %c0 to %c8 step %c1 iter_args(%m_run = %m0, %l_run = %l0, %acc_run = %acc0) -> (tensor<4xf32>, tensor<4xf32>, tensor<4x128xf32>) {
      %tk = ktdp.construct_indirect_access_tile intermediate_variables(%t, %e) %K[ind(%BT[%b, %j]), (%t * 1024 + %hoff + %e)] {variables_space_set = #page_vars, variables_space_order = #kt_order} : memref<64x16384xf16>, memref<4x8xi32>
          -> !ktdp.access_tile<128x16xindex>
      %tv = ktdp.construct_indirect_access_tile intermediate_variables(%t, %e) %V[ind(%BT[%b, %j]), (%t * 1024 + %hoff + %e)] {variables_space_set = #page_vars, variables_space_order = #id2} : memref<64x16384xf16>, memref<4x8xi32>
          -> !ktdp.access_tile<16x128xindex>
      %kth = ktdp.load %tk : <128x16xindex> -> tensor<128x16xf16>
      %vh = ktdp.load %tv : <16x128xindex> -> tensor<16x128xf16>
      %kt = arith.extf %kth : tensor<128x16xf16> to tensor<128x16xf32>
      %v = arith.extf %vh : tensor<16x128xf16> to tensor<16x128xf32>
      %z_s = linalg.fill ins(%zero : f32) outs(%e_s : tensor<4x16xf32>) -> tensor<4x16xf32>
      %qk = linalg.matmul ins(%q, %kt : tensor<4x128xf32>, tensor<128x16xf32>) outs(%z_s : tensor<4x16xf32>) -> tensor<4x16xf32>
      %scale_t = tensor.splat %scale : tensor<4x16xf32>
      %s = arith.mulf %qk, %scale_t : tensor<4x16xf32>
      %mb_init = linalg.fill ins(%ninf : f32) outs(%e8 : tensor<4xf32>) -> tensor<4xf32>
      %mb = linalg.reduce { arith.maximumf } ins(%s : tensor<4x16xf32>) outs(%mb_init : tensor<4xf32>) dimensions = [1]
      %m_new = arith.maximumf %m_run, %mb : tensor<4xf32>
      %p = linalg.generic {indexing_maps = [#id2, #rowmap, #id2], iterator_types = ["parallel", "parallel"]}
          ins(%s, %m_new : tensor<4x16xf32>, tensor<4xf32>) outs(%e_s : tensor<4x16xf32>) {
        ^bb0(%val: f32, %mi: f32, %out: f32):
          %dd = arith.subf %val, %mi : f32
          %ex = math.exp %dd : f32
          linalg.yield %ex : f32
      } -> tensor<4x16xf32>
      %dm = arith.subf %m_run, %m_new : tensor<4xf32>
      %alpha = math.exp %dm : tensor<4xf32>
      %ps_init = linalg.fill ins(%zero : f32) outs(%e8 : tensor<4xf32>) -> tensor<4xf32>
      %ps = linalg.reduce { arith.addf } ins(%p : tensor<4x16xf32>) outs(%ps_init : tensor<4xf32>) dimensions = [1]
      %l_scaled = arith.mulf %l_run, %alpha : tensor<4xf32>
      %l_new = arith.addf %l_scaled, %ps : tensor<4xf32>
      %acc_scaled = linalg.generic {indexing_maps = [#id2, #rowmap, #id2], iterator_types = ["parallel", "parallel"]}
          ins(%acc_run, %alpha : tensor<4x128xf32>, tensor<4xf32>) outs(%e_o : tensor<4x128xf32>) {
        ^bb0(%a_in: f32, %al: f32, %out: f32):
          %r = arith.mulf %a_in, %al : f32
          linalg.yield %r : f32
      } -> tensor<4x128xf32>
      %acc_new = linalg.matmul ins(%p, %v : tensor<4x16xf32>, tensor<16x128xf32>) outs(%acc_scaled : tensor<4x128xf32>) -> tensor<4x128xf32>
      scf.yield %m_new, %l_new, %acc_new : tensor<4xf32>, tensor<4xf32>, tensor<4x128xf32>
    }
    %lb = linalg.broadcast ins(%l : tensor<4xf32>) outs(%e_o : tensor<4x128xf32>) dimensions = [1]
    %o = arith.divf %acc, %lb : tensor<4x128xf32>
    %oh = arith.truncf %o : tensor<4x128xf32> to tensor<4x128xf16>
    %to = ktdp.construct_access_tile %O[%row0, 0] {access_tile_set = #q_tile, access_tile_order = #id2} : memref<256x128xf16> -> !ktdp.access_tile<4x128xindex>
    ktdp.store %oh, %to : tensor<4x128xf16>, <4x128xindex>
    return
  }
}
