// splitk_pv.mlir - split-K product of one attention-probability row with V:
// 32 tiles each multiply a 32-long K slice, and the 16 tiles of a column
// half, strided in the linear tile order, reduce their partials.
//
// Computes, for c < 64, all f16:
//   P_k[c] = f16(sum_{32k <= j < 32k + 32} P[0, j] * V[j, c])  (f32 accumulation,
//            one rounding; k = 0..15)
//   O[0, c] = f16(...f16(f16(0 + P_0[c]) + P_1[c]) ... + P_15[c])  (fold from the
//            identity in tile order)
//
// Grid [2, 16], comma-form ids: px picks the column half [32px, 32px + 32),
// py the K slice. The linear id is px + 2 py, so group g = px is the set
// (i)[g] : (i - g) mod 2 == 0, g <= i <= g + 30: 16 tiles, every other
// linear id. Groups are inline with `>=`: affine_set<(g) : (g >= 0, -g + 1 >= 0)>.
// The tile with py == 0 writes its group's half of O.

#p_set = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 511 >= 0)>
#v_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 511 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#o_set = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 63 >= 0)>
#p_blk = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 31 >= 0)>
#v_blk = affine_set<(d0, d1) : (d0 >= 0, -d0 + 31 >= 0, d1 >= 0, -d1 + 31 >= 0)>
#strided = affine_set<(i)[g] : ((i - g) mod 2 == 0, i - g >= 0, -i + g + 30 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @pv_split_k(%p_ptr: index,  // P: 1x512 f16 probabilities (input)
                        %v_ptr: index,  // V: 512x64 f16 (input)
                        %o_ptr: index)  // O: 1x64 f16 (output)
      attributes {grid = [2, 16]} {
    %px, %py = ktdp.get_compute_tile_id : index, index
    %c0 = arith.constant 0 : index
    %c32 = arith.constant 32 : index
    %k0 = arith.muli %py, %c32 : index
    %n0 = arith.muli %px, %c32 : index
    %P = ktdp.construct_memory_view %p_ptr, sizes: [1, 512], strides: [512, 1] {coordinate_set = #p_set, memory_space = #ktdp.memory_space<global>} : memref<1x512xf16>
    %V = ktdp.construct_memory_view %v_ptr, sizes: [512, 64], strides: [64, 1] {coordinate_set = #v_set, memory_space = #ktdp.memory_space<global>} : memref<512x64xf16>
    %tp = ktdp.construct_access_tile %P[0, %k0] {access_tile_set = #p_blk, access_tile_order = #id2} : memref<1x512xf16> -> !ktdp.access_tile<1x32xindex>
    %tv = ktdp.construct_access_tile %V[%k0, %n0] {access_tile_set = #v_blk, access_tile_order = #id2} : memref<512x64xf16> -> !ktdp.access_tile<32x32xindex>
    %p = ktdp.load %tp : <1x32xindex> -> tensor<1x32xf16>
    %v = ktdp.load %tv : <32x32xindex> -> tensor<32x32xf16>
    %empty = tensor.empty() : tensor<1x32xf16>
    %partial = linalg.matmul ins(%p, %v : tensor<1x32xf16>, tensor<32x32xf16>) outs(%empty : tensor<1x32xf16>) -> tensor<1x32xf16>
    %ident = arith.constant dense<0.0> : tensor<1x32xf16>
    %fut = ktdp.inter_tile_produce producer_tiles_per_group = #strided
        : tensor<1x32xf16> -> !ktdp.tile_future<tensor<1x32xf16>, groups = affine_set<(g) : (g >= 0, -g + 1 >= 0)>> {
    ^bb0(%gid: index):
      ktdp.yield_partial %partial : tensor<1x32xf16>
    }
    %sum = ktdp.inter_tile_reduce(%fut) consumer_tiles_per_group = #strided, identity(%ident : tensor<1x32xf16>)
        : !ktdp.tile_future<tensor<1x32xf16>, groups = affine_set<(g) : (g >= 0, -g + 1 >= 0)>> -> tensor<1x32xf16> {
    ^bb0(%a: tensor<1x32xf16>, %b: tensor<1x32xf16>):
      %s = arith.addf %a, %b : tensor<1x32xf16>
      ktdp.yield_reduced %s : tensor<1x32xf16>
    }
    %is_writer = arith.cmpi eq, %py, %c0 : index
    scf.if %is_writer {
      %O = ktdp.construct_memory_view %o_ptr, sizes: [1, 64], strides: [64, 1] {coordinate_set = #o_set, memory_space = #ktdp.memory_space<global>} : memref<1x64xf16>
      %to = ktdp.construct_access_tile %O[0, %n0] {access_tile_set = #p_blk, access_tile_order = #id2} : memref<1x64xf16> -> !ktdp.access_tile<1x32xindex>
      ktdp.store %sum, %to : tensor<1x32xf16>, <1x32xindex>
    }
    return
  }
}
