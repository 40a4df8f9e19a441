// swiglu_ffn_dyn.mlir - examples/kernels/realworld/swiglu_ffn.mlir with its
// hidden loop up to the plain `index` argument %d_ff (128): the running
// accumulator, the output operand of the down projection, is carried in a
// scratchpad view, and the compute group reads it from the FIFO before the
// weights of the two up projections that come first
// (test/EndToEnd/swiglu-ffn-dynamic.test).

#x_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#up_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#down_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 127 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#sq64 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @swiglu_mlp(%x_ptr: index,   // X:   8x64 f16 (input)
                        %w1_ptr: index,  // W1:  64x128 f16, gate projection (input)
                        %w3_ptr: index,  // W3:  64x128 f16, up projection (input)
                        %w2_ptr: index,  // W2:  128x64 f16, down projection (input)
                        %out_ptr: index, // OUT: 8x64 f16 (output)
                        %d_ff: index)    // hidden size (128)
      attributes {grid = [1]} {
    %pid = ktdp.get_compute_tile_id : index
    %c0 = arith.constant 0 : index
    %c8 = arith.constant 8 : index
    %c64 = arith.constant 64 : index
    %c128 = arith.constant 128 : index
    %zero = arith.constant 0.0 : f16
    %row0 = arith.muli %pid, %c8 : index
    %X = ktdp.construct_memory_view %x_ptr, sizes: [8, 64], strides: [64, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<8x64xf16>
    %W1 = ktdp.construct_memory_view %w1_ptr, sizes: [64, 128], strides: [128, 1] {coordinate_set = #up_set, memory_space = #ktdp.memory_space<global>} : memref<64x128xf16>
    %W3 = ktdp.construct_memory_view %w3_ptr, sizes: [64, 128], strides: [128, 1] {coordinate_set = #up_set, memory_space = #ktdp.memory_space<global>} : memref<64x128xf16>
    %W2 = ktdp.construct_memory_view %w2_ptr, sizes: [128, 64], strides: [64, 1] {coordinate_set = #down_set, memory_space = #ktdp.memory_space<global>} : memref<128x64xf16>
    %OUT = ktdp.construct_memory_view %out_ptr, sizes: [8, 64], strides: [64, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<8x64xf16>
    %tx = ktdp.construct_access_tile %X[%row0, 0] {access_tile_set = #x_set, access_tile_order = #id2} : memref<8x64xf16> -> !ktdp.access_tile<8x64xindex>
    %x = ktdp.load %tx : <8x64xindex> -> tensor<8x64xf16>
    %one = arith.constant dense<1.0> : tensor<8x64xf16>
    %empty = tensor.empty() : tensor<8x64xf16>
    %acc0 = linalg.fill ins(%zero : f16) outs(%empty : tensor<8x64xf16>) -> tensor<8x64xf16>
    %acc = scf.for %j = %c0 to %d_ff step %c64 iter_args(%running = %acc0) -> (tensor<8x64xf16>) {
      %t1 = ktdp.construct_access_tile %W1[0, %j] {access_tile_set = #sq64, access_tile_order = #id2} : memref<64x128xf16> -> !ktdp.access_tile<64x64xindex>
      %t3 = ktdp.construct_access_tile %W3[0, %j] {access_tile_set = #sq64, access_tile_order = #id2} : memref<64x128xf16> -> !ktdp.access_tile<64x64xindex>
      %t2 = ktdp.construct_access_tile %W2[%j, 0] {access_tile_set = #sq64, access_tile_order = #id2} : memref<128x64xf16> -> !ktdp.access_tile<64x64xindex>
      %w1 = ktdp.load %t1 : <64x64xindex> -> tensor<64x64xf16>
      %w3 = ktdp.load %t3 : <64x64xindex> -> tensor<64x64xf16>
      %w2 = ktdp.load %t2 : <64x64xindex> -> tensor<64x64xf16>
      %z1 = linalg.fill ins(%zero : f16) outs(%empty : tensor<8x64xf16>) -> tensor<8x64xf16>
      %h1 = linalg.matmul ins(%x, %w1 : tensor<8x64xf16>, tensor<64x64xf16>) outs(%z1 : tensor<8x64xf16>) -> tensor<8x64xf16>
      %z3 = arith.constant dense<0.0> : tensor<8x64xf16>
      %h3 = linalg.matmul ins(%x, %w3 : tensor<8x64xf16>, tensor<64x64xf16>) outs(%z3 : tensor<8x64xf16>) -> tensor<8x64xf16>
      %neg = arith.negf %h1 : tensor<8x64xf16>
      %ex = math.exp %neg : tensor<8x64xf16>
      %den = arith.addf %one, %ex : tensor<8x64xf16>
      %sig = arith.divf %one, %den : tensor<8x64xf16>
      %silu = arith.mulf %h1, %sig : tensor<8x64xf16>
      %gate = arith.mulf %silu, %h3 : tensor<8x64xf16>
      %next = linalg.matmul ins(%gate, %w2 : tensor<8x64xf16>, tensor<64x64xf16>) outs(%running : tensor<8x64xf16>) -> tensor<8x64xf16>
      scf.yield %next : tensor<8x64xf16>
    }
    %to = ktdp.construct_access_tile %OUT[%row0, 0] {access_tile_set = #x_set, access_tile_order = #id2} : memref<8x64xf16> -> !ktdp.access_tile<8x64xindex>
    ktdp.store %acc, %to : tensor<8x64xf16>, <8x64xindex>
    return
  }
}
