// splitk_then_proj.mlir - split-K product followed by a second product, on 4
// tiles: tile t multiplies A's column block t (16x64) by B's row block t
// (64x64), the four 16x64 partials are all-reduced, and every tile
// multiplies the sum C by its 8-column slice of W (64x32) into D.
//
// Computes, all f16 (matmuls accumulate in f32, one rounding each):
//   P_t = f16(A[:, 64t:64t+64] . B[64t:64t+64, :])
//   C   = f16(f16(f16(f16(0 + P_0) + P_1) + P_2) + P_3)
//   D[:, 8t:8t+8] = f16(C . W[:, 8t:8t+8])

#a_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 255 >= 0)>
#b_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 255 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#w_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 31 >= 0)>
#d_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 31 >= 0)>
#a_blk = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#b_blk = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#w_blk = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 7 >= 0)>
#d_blk = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 7 >= 0)>
#all4 = affine_set<(i)[g] : (i >= 0, -i + 3 >= 0, g == 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @splitk_then_proj(%a_ptr: index,  // A: 16x256 f16 (input)
                              %b_ptr: index,  // B: 256x64 f16 (input)
                              %w_ptr: index,  // W: 64x32 f16 (input)
                              %d_ptr: index)  // D: 16x32 f16 (output)
      attributes {grid = [4, 1]} {
    %pid = ktdp.get_compute_tile_id : index
    %c8 = arith.constant 8 : index
    %c64 = arith.constant 64 : index
    %A = ktdp.construct_memory_view %a_ptr, sizes: [16, 256], strides: [256, 1] {coordinate_set = #a_set, memory_space = #ktdp.memory_space<global>} : memref<16x256xf16>
    %B = ktdp.construct_memory_view %b_ptr, sizes: [256, 64], strides: [64, 1] {coordinate_set = #b_set, memory_space = #ktdp.memory_space<global>} : memref<256x64xf16>
    %W = ktdp.construct_memory_view %w_ptr, sizes: [64, 32], strides: [32, 1] {coordinate_set = #w_set, memory_space = #ktdp.memory_space<global>} : memref<64x32xf16>
    %D = ktdp.construct_memory_view %d_ptr, sizes: [16, 32], strides: [32, 1] {coordinate_set = #d_set, memory_space = #ktdp.memory_space<global>} : memref<16x32xf16>
    %k0 = arith.muli %pid, %c64 : index
    %n0 = arith.muli %pid, %c8 : index
    %ta = ktdp.construct_access_tile %A[0, %k0] {access_tile_set = #a_blk, access_tile_order = #id2} : memref<16x256xf16> -> !ktdp.access_tile<16x64xindex>
    %tb = ktdp.construct_access_tile %B[%k0, 0] {access_tile_set = #b_blk, access_tile_order = #id2} : memref<256x64xf16> -> !ktdp.access_tile<64x64xindex>
    %a = ktdp.load %ta : <16x64xindex> -> tensor<16x64xf16>
    %b = ktdp.load %tb : <64x64xindex> -> tensor<64x64xf16>
    %e0 = tensor.empty() : tensor<16x64xf16>
    %p = linalg.matmul ins(%a, %b : tensor<16x64xf16>, tensor<64x64xf16>) outs(%e0 : tensor<16x64xf16>) -> tensor<16x64xf16>
    %ident = arith.constant dense<0.0> : tensor<16x64xf16>
    %f = ktdp.inter_tile_produce producer_tiles_per_group = #all4
        : tensor<16x64xf16> -> !ktdp.tile_future<tensor<16x64xf16>, groups = affine_set<(g) : (g == 0)>> {
    ^bb0(%g: index):
      ktdp.yield_partial %p : tensor<16x64xf16>
    }
    %c = ktdp.inter_tile_reduce(%f) consumer_tiles_per_group = #all4, identity(%ident : tensor<16x64xf16>)
        : !ktdp.tile_future<tensor<16x64xf16>, groups = affine_set<(g) : (g == 0)>> -> tensor<16x64xf16> {
    ^bb0(%x: tensor<16x64xf16>, %y: tensor<16x64xf16>):
      %s = linalg.add ins(%x, %y : tensor<16x64xf16>, tensor<16x64xf16>) outs(%x : tensor<16x64xf16>) -> tensor<16x64xf16>
      ktdp.yield_reduced %s : tensor<16x64xf16>
    }
    %tw = ktdp.construct_access_tile %W[0, %n0] {access_tile_set = #w_blk, access_tile_order = #id2} : memref<64x32xf16> -> !ktdp.access_tile<64x8xindex>
    %w = ktdp.load %tw : <64x8xindex> -> tensor<64x8xf16>
    %e1 = tensor.empty() : tensor<16x8xf16>
    %d = linalg.matmul ins(%c, %w : tensor<16x64xf16>, tensor<64x8xf16>) outs(%e1 : tensor<16x8xf16>) -> tensor<16x8xf16>
    %td = ktdp.construct_access_tile %D[0, %n0] {access_tile_set = #d_blk, access_tile_order = #id2} : memref<16x32xf16> -> !ktdp.access_tile<16x8xindex>
    ktdp.store %d, %td : tensor<16x8xf16>, <16x8xindex>
    return
  }
}
