// swiglu_ffn_64x1024x4096.mlir - benchmark shape of the SwiGLU FFN
// (issue 15's Measure list; examples/kernels/realworld/swiglu_ffn.mlir at
// full size, plus the residual): 64 tokens, d_model 1024, d_ff 4096, f16.
//
// Computes, for token t < 64, d < 1024, hidden chunk j = 0, 64, ..., d_ff - 64,
// all f16:
//   H1 = f16(X . W1[:, j : j + 64]), H3 = f16(X . W3[:, j : j + 64])
//        (f32 accumulation, one rounding; outs are zeros: linalg.fill and a
//         dense<0.0> constant)
//   G  = f16(f16(H1 * f16(1 / f16(1 + f16(exp(-H1))))) * H3)
//   ACC = f16(ACC + G . W2[j : j + 64, :])   (matmul into outs = ACC: the
//        products accumulate in f32 on top of ACC, one rounding per element)
//   OUT = f16(X + ACC after the last chunk)  (ACC starts at 0; residual)
//
// Grid [8]: tile t takes the 8 tokens [8t, 8t + 8) and walks the hidden
// dimension up to the plain `index` argument %d_ff (4096) in chunks of 64.

#x_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 1023 >= 0)>
#up_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1023 >= 0, d1 >= 0, -d1 + 4095 >= 0)>
#down_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 4095 >= 0, d1 >= 0, -d1 + 1023 >= 0)>
#x_blk = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 1023 >= 0)>
#up_blk = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1023 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#down_blk = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 1023 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @swiglu_mlp(%x_ptr: index,   // X:   64x1024 f16 (input)
                        %w1_ptr: index,  // W1:  1024x4096 f16, gate projection (input)
                        %w3_ptr: index,  // W3:  1024x4096 f16, up projection (input)
                        %w2_ptr: index,  // W2:  4096x1024 f16, down projection (input)
                        %out_ptr: index, // OUT: 64x1024 f16 (output)
                        %d_ff: index)    // hidden size (4096)
      attributes {grid = [8]} {
    %pid = ktdp.get_compute_tile_id : index
    %c0 = arith.constant 0 : index
    %c8 = arith.constant 8 : index
    %c64 = arith.constant 64 : index
    %zero = arith.constant 0.0 : f16
    %row0 = arith.muli %pid, %c8 : index
    %X = ktdp.construct_memory_view %x_ptr, sizes: [64, 1024], strides: [1024, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<64x1024xf16>
    %W1 = ktdp.construct_memory_view %w1_ptr, sizes: [1024, 4096], strides: [4096, 1] {coordinate_set = #up_set, memory_space = #ktdp.memory_space<global>} : memref<1024x4096xf16>
    %W3 = ktdp.construct_memory_view %w3_ptr, sizes: [1024, 4096], strides: [4096, 1] {coordinate_set = #up_set, memory_space = #ktdp.memory_space<global>} : memref<1024x4096xf16>
    %W2 = ktdp.construct_memory_view %w2_ptr, sizes: [4096, 1024], strides: [1024, 1] {coordinate_set = #down_set, memory_space = #ktdp.memory_space<global>} : memref<4096x1024xf16>
    %OUT = ktdp.construct_memory_view %out_ptr, sizes: [64, 1024], strides: [1024, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<64x1024xf16>
    %tx = ktdp.construct_access_tile %X[%row0, 0] {access_tile_set = #x_blk, access_tile_order = #id2} : memref<64x1024xf16> -> !ktdp.access_tile<8x1024xindex>
    %x = ktdp.load %tx : <8x1024xindex> -> tensor<8x1024xf16>
    %one = arith.constant dense<1.0> : tensor<8x64xf16>
    %empty = tensor.empty() : tensor<8x1024xf16>
    %e64 = tensor.empty() : tensor<8x64xf16>
    %acc0 = linalg.fill ins(%zero : f16) outs(%empty : tensor<8x1024xf16>) -> tensor<8x1024xf16>
    %acc = scf.for %j = %c0 to %d_ff step %c64 iter_args(%running = %acc0) -> (tensor<8x1024xf16>) {
      %t1 = ktdp.construct_access_tile %W1[0, %j] {access_tile_set = #up_blk, access_tile_order = #id2} : memref<1024x4096xf16> -> !ktdp.access_tile<1024x64xindex>
      %t3 = ktdp.construct_access_tile %W3[0, %j] {access_tile_set = #up_blk, access_tile_order = #id2} : memref<1024x4096xf16> -> !ktdp.access_tile<1024x64xindex>
      %t2 = ktdp.construct_access_tile %W2[%j, 0] {access_tile_set = #down_blk, access_tile_order = #id2} : memref<4096x1024xf16> -> !ktdp.access_tile<64x1024xindex>
      %w1 = ktdp.load %t1 : <1024x64xindex> -> tensor<1024x64xf16>
      %w3 = ktdp.load %t3 : <1024x64xindex> -> tensor<1024x64xf16>
      %w2 = ktdp.load %t2 : <64x1024xindex> -> tensor<64x1024xf16>
      %z1 = linalg.fill ins(%zero : f16) outs(%e64 : tensor<8x64xf16>) -> tensor<8x64xf16>
      %h1 = linalg.matmul ins(%x, %w1 : tensor<8x1024xf16>, tensor<1024x64xf16>) outs(%z1 : tensor<8x64xf16>) -> tensor<8x64xf16>
      %z3 = arith.constant dense<0.0> : tensor<8x64xf16>
      %h3 = linalg.matmul ins(%x, %w3 : tensor<8x1024xf16>, tensor<1024x64xf16>) outs(%z3 : tensor<8x64xf16>) -> tensor<8x64xf16>
      %neg = arith.negf %h1 : tensor<8x64xf16>
      %ex = math.exp %neg : tensor<8x64xf16>
      %den = arith.addf %one, %ex : tensor<8x64xf16>
      %sig = arith.divf %one, %den : tensor<8x64xf16>
      %silu = arith.mulf %h1, %sig : tensor<8x64xf16>
      %gate = arith.mulf %silu, %h3 : tensor<8x64xf16>
      %next = linalg.matmul ins(%gate, %w2 : tensor<8x64xf16>, tensor<64x1024xf16>) outs(%running : tensor<8x1024xf16>) -> tensor<8x1024xf16>
      scf.yield %next : tensor<8x1024xf16>
    }
    %res = arith.addf %x, %acc : tensor<8x1024xf16>
    %to = ktdp.construct_access_tile %OUT[%row0, 0] {access_tile_set = #x_blk, access_tile_order = #id2} : memref<64x1024xf16> -> !ktdp.access_tile<8x1024xindex>
    ktdp.store %res, %to : tensor<8x1024xf16>, <8x1024xindex>
    return
  }
}
