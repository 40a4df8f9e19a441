// swiglu_gate_1x8.mlir - SwiGLU gate on a [1, 8] grid: every tile multiplies
// the same 16x64 X by its 32-column slices of Wg and Wu (64x256 each), and
// combines them as silu(G) * U with the sigmoid in f32.
//
// Computes, for n-slice j = pn (columns 32j .. 32j + 31):
//   G = f16(X . Wg[:, slice]),  U = f16(X . Wu[:, slice])   (f32 accumulation)
//   g = f32(G);  H = f16(f32(g / (1 + exp(-g))) * f32(U))    (f32 math)

#x_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#w_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 255 >= 0)>
#h_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 255 >= 0)>
#w_blk = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 31 >= 0)>
#h_blk = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 31 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @swiglu_gate(%x_ptr: index,   // X: 16x64 f16
                         %wg_ptr: index,  // Wg: 64x256 f16
                         %wu_ptr: index,  // Wu: 64x256 f16
                         %h_ptr: index)   // H: 16x256 f16 (output)
      attributes {grid = [1, 8]} {
    %pm, %pn = ktdp.get_compute_tile_id : index, index
    %c32 = arith.constant 32 : index
    %n0 = arith.muli %pn, %c32 : index
    %X = ktdp.construct_memory_view %x_ptr, sizes: [16, 64], strides: [64, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<16x64xf16>
    %WG = ktdp.construct_memory_view %wg_ptr, sizes: [64, 256], strides: [256, 1] {coordinate_set = #w_set, memory_space = #ktdp.memory_space<global>} : memref<64x256xf16>
    %WU = ktdp.construct_memory_view %wu_ptr, sizes: [64, 256], strides: [256, 1] {coordinate_set = #w_set, memory_space = #ktdp.memory_space<global>} : memref<64x256xf16>
    %H = ktdp.construct_memory_view %h_ptr, sizes: [16, 256], strides: [256, 1] {coordinate_set = #h_set, memory_space = #ktdp.memory_space<global>} : memref<16x256xf16>
    %tx = ktdp.construct_access_tile %X[0, 0] {access_tile_set = #x_set, access_tile_order = #id2} : memref<16x64xf16> -> !ktdp.access_tile<16x64xindex>
    %x = ktdp.load %tx : <16x64xindex> -> tensor<16x64xf16>
    %tg = ktdp.construct_access_tile %WG[0, %n0] {access_tile_set = #w_blk, access_tile_order = #id2} : memref<64x256xf16> -> !ktdp.access_tile<64x32xindex>
    %tu = ktdp.construct_access_tile %WU[0, %n0] {access_tile_set = #w_blk, access_tile_order = #id2} : memref<64x256xf16> -> !ktdp.access_tile<64x32xindex>
    %wg = ktdp.load %tg : <64x32xindex> -> tensor<64x32xf16>
    %wu = ktdp.load %tu : <64x32xindex> -> tensor<64x32xf16>
    %zero = arith.constant 0.000000e+00 : f16
    %e = tensor.empty() : tensor<16x32xf16>
    %z = linalg.fill ins(%zero : f16) outs(%e : tensor<16x32xf16>) -> tensor<16x32xf16>
    %g = linalg.matmul ins(%x, %wg : tensor<16x64xf16>, tensor<64x32xf16>) outs(%z : tensor<16x32xf16>) -> tensor<16x32xf16>
    %u = linalg.matmul ins(%x, %wu : tensor<16x64xf16>, tensor<64x32xf16>) outs(%z : tensor<16x32xf16>) -> tensor<16x32xf16>
    %gf = arith.extf %g : tensor<16x32xf16> to tensor<16x32xf32>
    %uf = arith.extf %u : tensor<16x32xf16> to tensor<16x32xf32>
    %one = arith.constant dense<1.0> : tensor<16x32xf32>
    %ng = arith.negf %gf : tensor<16x32xf32>
    %ex = math.exp %ng : tensor<16x32xf32>
    %den = arith.addf %one, %ex : tensor<16x32xf32>
    %sl = arith.divf %gf, %den : tensor<16x32xf32>
    %hf = arith.mulf %sl, %uf : tensor<16x32xf32>
    %h = arith.truncf %hf : tensor<16x32xf32> to tensor<16x32xf16>
    %th = ktdp.construct_access_tile %H[0, %n0] {access_tile_set = #h_blk, access_tile_order = #id2} : memref<16x256xf16> -> !ktdp.access_tile<16x32xindex>
    ktdp.store %h, %th : tensor<16x32xf16>, <16x32xindex>
    return
  }
}
