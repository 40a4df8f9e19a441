// mlp_tp_rows.mlir - tensor-parallel MLP over token blocks of 8 on 2 tiles,
// up to a run-time token count: tile t computes relu(X . W1[:, 32t:32t+32])
// . W2[32t:32t+32, :], the two 8x64 partial outputs are all-reduced inside
// the loop, and tile 0 stores them plus the residual X.
//
// Computes, for token block b (rows 8b .. 8b + 7), all f16 (matmuls with f32
// accumulation, one rounding each):
//   H_t = max(f16(X_b . W1[:, half t]), 0);  P_t = f16(H_t . W2[half t, :])
//   Y_b = f16(f16(f16(0 + P_0) + P_1) + X_b)

#x_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 79 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#w_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#x_blk = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#w1_blk = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 31 >= 0)>
#w2_blk = affine_set<(d0, d1) : (d0 >= 0, -d0 + 31 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#both = affine_set<(i)[g] : (i >= 0, -i + 1 >= 0, g == 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @mlp_tp(%x_ptr: index,     // X: 80x64 f16 (input)
                    %w1_ptr: index,    // W1: 64x64 f16 (input)
                    %w2_ptr: index,    // W2: 64x64 f16 (input)
                    %y_ptr: index,     // Y: 80x64 f16 (output, tile 0)
                    %n_tokens: index)  // a multiple of 8, at most 80
      attributes {grid = [2]} {
    %pid = ktdp.get_compute_tile_id : index
    %c0 = arith.constant 0 : index
    %c8 = arith.constant 8 : index
    %c32 = arith.constant 32 : index
    %X = ktdp.construct_memory_view %x_ptr, sizes: [80, 64], strides: [64, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<80x64xf16>
    %Y = ktdp.construct_memory_view %y_ptr, sizes: [80, 64], strides: [64, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<80x64xf16>
    %W1 = ktdp.construct_memory_view %w1_ptr, sizes: [64, 64], strides: [64, 1] {coordinate_set = #w_set, memory_space = #ktdp.memory_space<global>} : memref<64x64xf16>
    %W2 = ktdp.construct_memory_view %w2_ptr, sizes: [64, 64], strides: [64, 1] {coordinate_set = #w_set, memory_space = #ktdp.memory_space<global>} : memref<64x64xf16>
    %h0 = arith.muli %pid, %c32 : index
    %t1 = ktdp.construct_access_tile %W1[0, %h0] {access_tile_set = #w1_blk, access_tile_order = #id2} : memref<64x64xf16> -> !ktdp.access_tile<64x32xindex>
    %t2 = ktdp.construct_access_tile %W2[%h0, 0] {access_tile_set = #w2_blk, access_tile_order = #id2} : memref<64x64xf16> -> !ktdp.access_tile<32x64xindex>
    %w1 = ktdp.load %t1 : <64x32xindex> -> tensor<64x32xf16>
    %w2 = ktdp.load %t2 : <32x64xindex> -> tensor<32x64xf16>
    %zh = arith.constant dense<0.0> : tensor<8x32xf16>
    %zero = arith.constant dense<0.0> : tensor<8x64xf16>
    %is0 = arith.cmpi eq, %pid, %c0 : index
    scf.for %r = %c0 to %n_tokens step %c8 : index {
      %tx = ktdp.construct_access_tile %X[%r, 0] {access_tile_set = #x_blk, access_tile_order = #id2} : memref<80x64xf16> -> !ktdp.access_tile<8x64xindex>
      %x = ktdp.load %tx : <8x64xindex> -> tensor<8x64xf16>
      %e1 = tensor.empty() : tensor<8x32xf16>
      %h = linalg.matmul ins(%x, %w1 : tensor<8x64xf16>, tensor<64x32xf16>) outs(%e1 : tensor<8x32xf16>) -> tensor<8x32xf16>
      %hr = arith.maximumf %h, %zh : tensor<8x32xf16>
      %e2 = tensor.empty() : tensor<8x64xf16>
      %p = linalg.matmul ins(%hr, %w2 : tensor<8x32xf16>, tensor<32x64xf16>) outs(%e2 : tensor<8x64xf16>) -> tensor<8x64xf16>
      %f = ktdp.inter_tile_produce producer_tiles_per_group = #both
          : tensor<8x64xf16> -> !ktdp.tile_future<tensor<8x64xf16>, groups = affine_set<(g) : (g == 0)>> {
      ^bb0(%g: index):
        ktdp.yield_partial %p : tensor<8x64xf16>
      }
      %s = ktdp.inter_tile_reduce(%f) consumer_tiles_per_group = #both, identity(%zero : tensor<8x64xf16>)
          : !ktdp.tile_future<tensor<8x64xf16>, groups = affine_set<(g) : (g == 0)>> -> tensor<8x64xf16> {
      ^bb0(%a: tensor<8x64xf16>, %b: tensor<8x64xf16>):
        %t = linalg.add ins(%a, %b : tensor<8x64xf16>, tensor<8x64xf16>) outs(%a : tensor<8x64xf16>) -> tensor<8x64xf16>
        ktdp.yield_reduced %t : tensor<8x64xf16>
      }
      %y = arith.addf %s, %x : tensor<8x64xf16>
      scf.if %is0 {
        %ty = ktdp.construct_access_tile %Y[%r, 0] {access_tile_set = #x_blk, access_tile_order = #id2} : memref<80x64xf16> -> !ktdp.access_tile<8x64xindex>
        ktdp.store %y, %ty : tensor<8x64xf16>, <8x64xindex>
      }
    }
    return
  }
}
