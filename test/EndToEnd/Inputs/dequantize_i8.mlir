// dequantize_i8.mlir - int8 dequantisation with a per-column f16 scale,
// 64x128, one 4x128 block per tile on a [16, 1] grid.
//
// Computes, for i < 64, j < 128:
//   Y[i, j] = f16(f32(sitofp(Q[i, j]) : f32) * f32(S[j]))     (one rounding)
// in a linalg.generic whose broadcast map reads S by column.

#q_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#s_set = affine_set<(d0) : (d0 >= 0, -d0 + 127 >= 0)>
#blk = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#id1 = affine_map<(d0) -> (d0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#col = affine_map<(d0, d1) -> (d1)>
module {
  func.func @dequantize_kernel(%q_ptr: index,   // Q: 64x128 i8 (input)
                               %s_ptr: index,   // S: 128 f16 per-column scale (input)
                               %y_ptr: index)   // Y: 64x128 f16 (output)
      attributes {grid = [16, 1]} {
    %pid = ktdp.get_compute_tile_id : index
    %c4 = arith.constant 4 : index
    %r0 = arith.muli %pid, %c4 : index
    %Q = ktdp.construct_memory_view %q_ptr, sizes: [64, 128], strides: [128, 1] {coordinate_set = #q_set, memory_space = #ktdp.memory_space<global>} : memref<64x128xi8>
    %S = ktdp.construct_memory_view %s_ptr, sizes: [128], strides: [1] {coordinate_set = #s_set, memory_space = #ktdp.memory_space<global>} : memref<128xf16>
    %Y = ktdp.construct_memory_view %y_ptr, sizes: [64, 128], strides: [128, 1] {coordinate_set = #q_set, memory_space = #ktdp.memory_space<global>} : memref<64x128xf16>
    %tq = ktdp.construct_access_tile %Q[%r0, 0] {access_tile_set = #blk, access_tile_order = #id2} : memref<64x128xi8> -> !ktdp.access_tile<4x128xindex>
    %ts = ktdp.construct_access_tile %S[0] {access_tile_set = #s_set, access_tile_order = #id1} : memref<128xf16> -> !ktdp.access_tile<128xindex>
    %q = ktdp.load %tq : <4x128xindex> -> tensor<4x128xi8>
    %s = ktdp.load %ts : <128xindex> -> tensor<128xf16>
    %e = tensor.empty() : tensor<4x128xf16>
    %y = linalg.generic {indexing_maps = [#id2, #col, #id2], iterator_types = ["parallel", "parallel"]}
        ins(%q, %s : tensor<4x128xi8>, tensor<128xf16>) outs(%e : tensor<4x128xf16>) {
      ^bb0(%qv: i8, %sv: f16, %o: f16):
        %qf = arith.sitofp %qv : i8 to f32
        %sf = arith.extf %sv : f16 to f32
        %p = arith.mulf %qf, %sf : f32
        %ph = arith.truncf %p : f32 to f16
        linalg.yield %ph : f16
    } -> tensor<4x128xf16>
    %ty = ktdp.construct_access_tile %Y[%r0, 0] {access_tile_set = #blk, access_tile_order = #id2} : memref<64x128xf16> -> !ktdp.access_tile<4x128xindex>
    ktdp.store %y, %ty : tensor<4x128xf16>, <4x128xindex>
    return
  }
}
