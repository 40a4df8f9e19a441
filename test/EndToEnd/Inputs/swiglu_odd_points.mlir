// swiglu_odd_points.mlir - SwiGLU FFN over 20 tokens in 3 grid points of 8
// (the last point's rows 20..23 masked), d_model 128, d_ff a run-time
// `index` argument (at most 320), f16, gate sigmoid as 1 / (1 + exp(-h)).
//
// Computes, for token t < 20, hidden chunk j = 0, 64, ..., d_ff - 64:
//   H1 = f16(X . W1[:, j : j + 64]), H3 = f16(X . W3[:, j : j + 64])
//   G  = f16(f16(H1 * f16(1 / f16(1 + f16(exp(-H1))))) * H3)
//   ACC = f16(ACC + G . W2[j : j + 64, :])   (one rounding per trip)
//   OUT = f16(X + ACC)

#x_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 19 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#up_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 127 >= 0, d1 >= 0, -d1 + 319 >= 0)>
#down_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 319 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#x_blk = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#up_blk = affine_set<(d0, d1) : (d0 >= 0, -d0 + 127 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#down_blk = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @swiglu_odd(%x_ptr: index,   // X:   20x128 f16 (input)
                        %w1_ptr: index,  // W1:  128x320 f16, gate projection (input)
                        %w3_ptr: index,  // W3:  128x320 f16, up projection (input)
                        %w2_ptr: index,  // W2:  320x128 f16, down projection (input)
                        %out_ptr: index, // OUT: 20x128 f16 (output)
                        %d_ff: index)    // hidden size, at most 320
      attributes {grid = [3]} {
    %pid = ktdp.get_compute_tile_id : index
    %c0 = arith.constant 0 : index
    %c8 = arith.constant 8 : index
    %c64 = arith.constant 64 : index
    %zero = arith.constant 0.0 : f16
    %row0 = arith.muli %pid, %c8 : index
    %X = ktdp.construct_memory_view %x_ptr, sizes: [20, 128], strides: [128, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<20x128xf16>
    %W1 = ktdp.construct_memory_view %w1_ptr, sizes: [128, 320], strides: [320, 1] {coordinate_set = #up_set, memory_space = #ktdp.memory_space<global>} : memref<128x320xf16>
    %W3 = ktdp.construct_memory_view %w3_ptr, sizes: [128, 320], strides: [320, 1] {coordinate_set = #up_set, memory_space = #ktdp.memory_space<global>} : memref<128x320xf16>
    %W2 = ktdp.construct_memory_view %w2_ptr, sizes: [320, 128], strides: [128, 1] {coordinate_set = #down_set, memory_space = #ktdp.memory_space<global>} : memref<320x128xf16>
    %OUT = ktdp.construct_memory_view %out_ptr, sizes: [20, 128], strides: [128, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<20x128xf16>
    %tx = ktdp.construct_access_tile %X[%row0, 0] {access_tile_set = #x_blk, access_tile_order = #id2} : memref<20x128xf16> -> !ktdp.access_tile<8x128xindex>
    %x = ktdp.load %tx : <8x128xindex> -> tensor<8x128xf16>
    %one = arith.constant dense<1.0> : tensor<8x64xf16>
    %empty = tensor.empty() : tensor<8x128xf16>
    %e64 = tensor.empty() : tensor<8x64xf16>
    %acc0 = linalg.fill ins(%zero : f16) outs(%empty : tensor<8x128xf16>) -> tensor<8x128xf16>
    %acc = scf.for %j = %c0 to %d_ff step %c64 iter_args(%running = %acc0) -> (tensor<8x128xf16>) {
      %t1 = ktdp.construct_access_tile %W1[0, %j] {access_tile_set = #up_blk, access_tile_order = #id2} : memref<128x320xf16> -> !ktdp.access_tile<128x64xindex>
      %t3 = ktdp.construct_access_tile %W3[0, %j] {access_tile_set = #up_blk, access_tile_order = #id2} : memref<128x320xf16> -> !ktdp.access_tile<128x64xindex>
      %t2 = ktdp.construct_access_tile %W2[%j, 0] {access_tile_set = #down_blk, access_tile_order = #id2} : memref<320x128xf16> -> !ktdp.access_tile<64x128xindex>
      %w1 = ktdp.load %t1 : <128x64xindex> -> tensor<128x64xf16>
      %w3 = ktdp.load %t3 : <128x64xindex> -> tensor<128x64xf16>
      %w2 = ktdp.load %t2 : <64x128xindex> -> tensor<64x128xf16>
      %z1 = linalg.fill ins(%zero : f16) outs(%e64 : tensor<8x64xf16>) -> tensor<8x64xf16>
      %h1 = linalg.matmul ins(%x, %w1 : tensor<8x128xf16>, tensor<128x64xf16>) outs(%z1 : tensor<8x64xf16>) -> tensor<8x64xf16>
      %h3 = linalg.matmul ins(%x, %w3 : tensor<8x128xf16>, tensor<128x64xf16>) outs(%z1 : tensor<8x64xf16>) -> tensor<8x64xf16>
      %neg = arith.negf %h1 : tensor<8x64xf16>
      %ex = math.exp %neg : tensor<8x64xf16>
      %den = arith.addf %one, %ex : tensor<8x64xf16>
      %sig = arith.divf %one, %den : tensor<8x64xf16>
      %silu = arith.mulf %h1, %sig : tensor<8x64xf16>
      %gate = arith.mulf %silu, %h3 : tensor<8x64xf16>
      %next = linalg.matmul ins(%gate, %w2 : tensor<8x64xf16>, tensor<64x128xf16>) outs(%running : tensor<8x128xf16>) -> tensor<8x128xf16>
      scf.yield %next : tensor<8x128xf16>
    }
    %res = arith.addf %x, %acc : tensor<8x128xf16>
    %to = ktdp.construct_access_tile %OUT[%row0, 0] {access_tile_set = #x_blk, access_tile_order = #id2} : memref<20x128xf16> -> !ktdp.access_tile<8x128xindex>
    ktdp.store %res, %to : tensor<8x128xf16>, <8x128xindex>
    return
  }
}
