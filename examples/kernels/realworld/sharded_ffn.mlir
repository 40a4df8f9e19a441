// sharded_ffn.mlir - SwiGLU feed-forward block sharded over the hidden
// dimension on 4 tiles: each tile reads its weight partitions through
// distributed views, computes a partial down-projection, and an all-reduce
// of the flattened partial sums them; tile 0 adds the residual and stores.
//
// Computes, for token t < 4, d < 64, hidden j < 256, all values f16
// (matmuls: f32 accumulation, one rounding per element):
//   H1 = f16(X . W1), H3 = f16(X . W3)                      (4x256)
//   G  = f16(f16(H1 * f16(1 / f16(1 + f16(exp(-H1))))) * H3) (silu(H1) * H3)
//   P_k = f16(G[:, 64k : 64k + 64] . W2[64k : 64k + 64, :])  (4x64, tile k)
//   S  = f16(f16(f16(f16(0 + P_0) + P_1) + P_2) + P_3)       (fold in tile order)
//   OUT = f16(X + S)
//
// Weight layout: W1 and W3 (64x256) are stored as 4 column partitions of
// 64x64, partition k at ptr + 4096 k holding global columns [64k, 64k + 64);
// W2 (256x64) as 4 row partitions of 64x64 at ptr + 4096 k. Distributed
// views stitch them back; every part's coordinate_set is in global
// coordinates, and tile k's 64x64 tiles fall inside part k.
// Grid [4]; one group of all 4 tiles; the 4x64 partial is collapsed to 256
// for the all-reduce and the result expanded back with output_shape [4, 64].

#x_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#c0 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#c1 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 - 64 >= 0, -d1 + 127 >= 0)>
#c2 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 - 128 >= 0, -d1 + 191 >= 0)>
#c3 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 - 192 >= 0, -d1 + 255 >= 0)>
#r1 = affine_set<(d0, d1) : (d0 - 64 >= 0, -d0 + 127 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#r2 = affine_set<(d0, d1) : (d0 - 128 >= 0, -d0 + 191 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#r3 = affine_set<(d0, d1) : (d0 - 192 >= 0, -d0 + 255 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#all4 = affine_set<(i)[g] : (i - 4*g >= 0, -i + 4*g + 3 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @ffn_tp4(%x_ptr: index,  // X:  4x64 f16 (input, also the residual)
                     %w1_ptr: index, // W1: 64x256 f16, 4 column partitions (input)
                     %w3_ptr: index, // W3: 64x256 f16, 4 column partitions (input)
                     %w2_ptr: index, // W2: 256x64 f16, 4 row partitions (input)
                     %out_ptr: index) // OUT: 4x64 f16 (output)
      attributes {grid = [4]} {
    %pid = ktdp.get_compute_tile_id : index
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    %c4096 = arith.constant 4096 : index
    %c8192 = arith.constant 8192 : index
    %c12288 = arith.constant 12288 : index
    %w1_p1 = arith.addi %w1_ptr, %c4096 : index
    %w1_p2 = arith.addi %w1_ptr, %c8192 : index
    %w1_p3 = arith.addi %w1_ptr, %c12288 : index
    %w3_p1 = arith.addi %w3_ptr, %c4096 : index
    %w3_p2 = arith.addi %w3_ptr, %c8192 : index
    %w3_p3 = arith.addi %w3_ptr, %c12288 : index
    %w2_p1 = arith.addi %w2_ptr, %c4096 : index
    %w2_p2 = arith.addi %w2_ptr, %c8192 : index
    %w2_p3 = arith.addi %w2_ptr, %c12288 : index
    %A0 = ktdp.construct_memory_view %w1_ptr, sizes: [64, 64], strides: [64, 1] {coordinate_set = #c0, memory_space = #ktdp.memory_space<global>} : memref<64x64xf16>
    %A1 = ktdp.construct_memory_view %w1_p1, sizes: [64, 64], strides: [64, 1] {coordinate_set = #c1, memory_space = #ktdp.memory_space<global>} : memref<64x64xf16>
    %A2 = ktdp.construct_memory_view %w1_p2, sizes: [64, 64], strides: [64, 1] {coordinate_set = #c2, memory_space = #ktdp.memory_space<global>} : memref<64x64xf16>
    %A3 = ktdp.construct_memory_view %w1_p3, sizes: [64, 64], strides: [64, 1] {coordinate_set = #c3, memory_space = #ktdp.memory_space<global>} : memref<64x64xf16>
    %W1 = ktdp.construct_distributed_memory_view(%A0, %A1, %A2, %A3 : memref<64x64xf16>, memref<64x64xf16>, memref<64x64xf16>, memref<64x64xf16>) : memref<64x256xf16>
    %B0 = ktdp.construct_memory_view %w3_ptr, sizes: [64, 64], strides: [64, 1] {coordinate_set = #c0, memory_space = #ktdp.memory_space<global>} : memref<64x64xf16>
    %B1 = ktdp.construct_memory_view %w3_p1, sizes: [64, 64], strides: [64, 1] {coordinate_set = #c1, memory_space = #ktdp.memory_space<global>} : memref<64x64xf16>
    %B2 = ktdp.construct_memory_view %w3_p2, sizes: [64, 64], strides: [64, 1] {coordinate_set = #c2, memory_space = #ktdp.memory_space<global>} : memref<64x64xf16>
    %B3 = ktdp.construct_memory_view %w3_p3, sizes: [64, 64], strides: [64, 1] {coordinate_set = #c3, memory_space = #ktdp.memory_space<global>} : memref<64x64xf16>
    %W3 = ktdp.construct_distributed_memory_view(%B0, %B1, %B2, %B3 : memref<64x64xf16>, memref<64x64xf16>, memref<64x64xf16>, memref<64x64xf16>) : memref<64x256xf16>
    %D0 = ktdp.construct_memory_view %w2_ptr, sizes: [64, 64], strides: [64, 1] {coordinate_set = #c0, memory_space = #ktdp.memory_space<global>} : memref<64x64xf16>
    %D1 = ktdp.construct_memory_view %w2_p1, sizes: [64, 64], strides: [64, 1] {coordinate_set = #r1, memory_space = #ktdp.memory_space<global>} : memref<64x64xf16>
    %D2 = ktdp.construct_memory_view %w2_p2, sizes: [64, 64], strides: [64, 1] {coordinate_set = #r2, memory_space = #ktdp.memory_space<global>} : memref<64x64xf16>
    %D3 = ktdp.construct_memory_view %w2_p3, sizes: [64, 64], strides: [64, 1] {coordinate_set = #r3, memory_space = #ktdp.memory_space<global>} : memref<64x64xf16>
    %W2 = ktdp.construct_distributed_memory_view(%D0, %D1, %D2, %D3 : memref<64x64xf16>, memref<64x64xf16>, memref<64x64xf16>, memref<64x64xf16>) : memref<256x64xf16>
    %X = ktdp.construct_memory_view %x_ptr, sizes: [4, 64], strides: [64, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<4x64xf16>

    %h0 = arith.muli %pid, %c64 : index
    %tx = ktdp.construct_access_tile %X[0, 0] {access_tile_set = #x_set, access_tile_order = #id2} : memref<4x64xf16> -> !ktdp.access_tile<4x64xindex>
    %t1 = ktdp.construct_access_tile %W1[0, %h0] {access_tile_set = #c0, access_tile_order = #id2} : memref<64x256xf16> -> !ktdp.access_tile<64x64xindex>
    %t3 = ktdp.construct_access_tile %W3[0, %h0] {access_tile_set = #c0, access_tile_order = #id2} : memref<64x256xf16> -> !ktdp.access_tile<64x64xindex>
    %t2 = ktdp.construct_access_tile %W2[%h0, 0] {access_tile_set = #c0, access_tile_order = #id2} : memref<256x64xf16> -> !ktdp.access_tile<64x64xindex>
    %x = ktdp.load %tx : <4x64xindex> -> tensor<4x64xf16>
    %w1 = ktdp.load %t1 : <64x64xindex> -> tensor<64x64xf16>
    %w3 = ktdp.load %t3 : <64x64xindex> -> tensor<64x64xf16>
    %w2 = ktdp.load %t2 : <64x64xindex> -> tensor<64x64xf16>

    %e0 = tensor.empty() : tensor<4x64xf16>
    %h1 = linalg.matmul ins(%x, %w1 : tensor<4x64xf16>, tensor<64x64xf16>) outs(%e0 : tensor<4x64xf16>) -> tensor<4x64xf16>
    %e1 = tensor.empty() : tensor<4x64xf16>
    %h3 = linalg.matmul ins(%x, %w3 : tensor<4x64xf16>, tensor<64x64xf16>) outs(%e1 : tensor<4x64xf16>) -> tensor<4x64xf16>
    %one = arith.constant dense<1.000000e+00> : tensor<4x64xf16>
    %neg = arith.negf %h1 : tensor<4x64xf16>
    %ex = math.exp %neg : tensor<4x64xf16>
    %den = arith.addf %one, %ex : tensor<4x64xf16>
    %sig = arith.divf %one, %den : tensor<4x64xf16>
    %silu = arith.mulf %h1, %sig : tensor<4x64xf16>
    %gate = arith.mulf %silu, %h3 : tensor<4x64xf16>
    %e2 = tensor.empty() : tensor<4x64xf16>
    %part = linalg.matmul ins(%gate, %w2 : tensor<4x64xf16>, tensor<64x64xf16>) outs(%e2 : tensor<4x64xf16>) -> tensor<4x64xf16>

    %flat = tensor.collapse_shape %part [[0, 1]] : tensor<4x64xf16> into tensor<256xf16>
    %ident = arith.constant dense<0.000000e+00> : tensor<256xf16>
    %fut = ktdp.inter_tile_produce producer_tiles_per_group = #all4 : tensor<256xf16> -> !ktdp.tile_future<tensor<256xf16>, groups = affine_set<(g) : (g == 0)>> {
    ^bb0(%gid: index):
      ktdp.yield_partial %flat : tensor<256xf16>
    }
    %sum = ktdp.inter_tile_reduce(%fut) consumer_tiles_per_group = #all4, identity(%ident : tensor<256xf16>) : !ktdp.tile_future<tensor<256xf16>, groups = affine_set<(g) : (g == 0)>> -> tensor<256xf16> {
    ^bb0(%a: tensor<256xf16>, %b: tensor<256xf16>):
      %s = linalg.add ins(%a, %b : tensor<256xf16>, tensor<256xf16>) outs(%a : tensor<256xf16>) -> tensor<256xf16>
      ktdp.yield_reduced %s : tensor<256xf16>
    }
    %ffn = tensor.expand_shape %sum [[0, 1]] output_shape [4, 64] : tensor<256xf16> into tensor<4x64xf16>
    %y = arith.addf %x, %ffn : tensor<4x64xf16>
    %is_root = arith.cmpi eq, %pid, %c0 : index
    scf.if %is_root {
      %OUT = ktdp.construct_memory_view %out_ptr, sizes: [4, 64], strides: [64, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<4x64xf16>
      %to = ktdp.construct_access_tile %OUT[0, 0] {access_tile_set = #x_set, access_tile_order = #id2} : memref<4x64xf16> -> !ktdp.access_tile<4x64xindex>
      ktdp.store %y, %to : tensor<4x64xf16>, <4x64xindex>
    }
    return
  }
}
