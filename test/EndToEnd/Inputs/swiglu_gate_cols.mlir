// swiglu_gate_cols.mlir - a Triton-style SwiGLU gate: program j multiplies
// the 8 tokens of X by its 8 columns of W1 and of W3 (`tl.dot` into a
// `tensor.splat` zero accumulator of f32), and stores silu(H1) * H3 times
// the run-time f32 `scale`, rounded to f16, into its 8x8 block of A.
//
// Computes, for program j < 8 (columns 8j .. 8j + 7), token t < 8:
//   H1 = X . W1[:, 8j : 8j + 8], H3 = X . W3[:, 8j : 8j + 8]   (f32)
//   A[:, 8j : 8j + 8] = f16(H1 / (1 + exp(-H1)) * H3 * scale)  (f32 math)
//
// Both products share X and their 8 + 8 columns fit mesh_device's 16-wide
// matrix block: ktdf-join-product-columns multiplies X.[W1|W3] once
// (test/EndToEnd/join-product-columns.test).

#x_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#w_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#a_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#w_blk = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 7 >= 0)>
#a_blk = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 7 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @swiglu_gate_cols(%x_ptr: index,    // X:  8x64 f16
                              %w1_ptr: index,   // W1: 64x64 f16, gate
                              %w3_ptr: index,   // W3: 64x64 f16, up
                              %a_ptr: index,    // A:  8x64 f16 (output)
                              %scale: f32)      // output scale
      attributes {grid = [8]} {
    %pid = ktdp.get_compute_tile_id : index
    %c8 = arith.constant 8 : index
    %col = arith.muli %pid, %c8 : index
    %zero = arith.constant 0.000000e+00 : f32
    %one = arith.constant 1.000000e+00 : f32
    %X = ktdp.construct_memory_view %x_ptr, sizes: [8, 64], strides: [64, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<8x64xf16>
    %W1 = ktdp.construct_memory_view %w1_ptr, sizes: [64, 64], strides: [64, 1] {coordinate_set = #w_set, memory_space = #ktdp.memory_space<global>} : memref<64x64xf16>
    %W3 = ktdp.construct_memory_view %w3_ptr, sizes: [64, 64], strides: [64, 1] {coordinate_set = #w_set, memory_space = #ktdp.memory_space<global>} : memref<64x64xf16>
    %A = ktdp.construct_memory_view %a_ptr, sizes: [8, 64], strides: [64, 1] {coordinate_set = #a_set, memory_space = #ktdp.memory_space<global>} : memref<8x64xf16>
    %tx = ktdp.construct_access_tile %X[0, 0] {access_tile_set = #x_set, access_tile_order = #id2} : memref<8x64xf16> -> !ktdp.access_tile<8x64xindex>
    %t1 = ktdp.construct_access_tile %W1[0, %col] {access_tile_set = #w_blk, access_tile_order = #id2} : memref<64x64xf16> -> !ktdp.access_tile<64x8xindex>
    %t3 = ktdp.construct_access_tile %W3[0, %col] {access_tile_set = #w_blk, access_tile_order = #id2} : memref<64x64xf16> -> !ktdp.access_tile<64x8xindex>
    %x = ktdp.load %tx : <8x64xindex> -> tensor<8x64xf16>
    %w1 = ktdp.load %t1 : <64x8xindex> -> tensor<64x8xf16>
    %w3 = ktdp.load %t3 : <64x8xindex> -> tensor<64x8xf16>
    %acc = tensor.splat %zero : tensor<8x8xf32>
    %h1 = linalg.matmul ins(%x, %w1 : tensor<8x64xf16>, tensor<64x8xf16>) outs(%acc : tensor<8x8xf32>) -> tensor<8x8xf32>
    %h3 = linalg.matmul ins(%x, %w3 : tensor<8x64xf16>, tensor<64x8xf16>) outs(%acc : tensor<8x8xf32>) -> tensor<8x8xf32>
    %ones = tensor.splat %one : tensor<8x8xf32>
    %neg = arith.negf %h1 : tensor<8x8xf32>
    %ex = math.exp %neg : tensor<8x8xf32>
    %den = arith.addf %ones, %ex : tensor<8x8xf32>
    %silu = arith.divf %h1, %den : tensor<8x8xf32>
    %gate = arith.mulf %silu, %h3 : tensor<8x8xf32>
    %scales = tensor.splat %scale : tensor<8x8xf32>
    %scaled = arith.mulf %gate, %scales : tensor<8x8xf32>
    %out = arith.truncf %scaled : tensor<8x8xf32> to tensor<8x8xf16>
    %ta = ktdp.construct_access_tile %A[0, %col] {access_tile_set = #a_blk, access_tile_order = #id2} : memref<8x64xf16> -> !ktdp.access_tile<8x8xindex>
    ktdp.store %out, %ta : tensor<8x8xf16>, <8x8xindex>
    return
  }
}
