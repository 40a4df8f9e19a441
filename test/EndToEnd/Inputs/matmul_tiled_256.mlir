// matmul_tiled_256.mlir - examples/kernels/realworld/matmul_tiled.mlir with
// its K loop bounded by constants (0 to 256 step 64) instead of the plain
// `index` arguments %K and %BLOCK_SIZE_K: a loop with constant bounds is
// unrolled (ktdf-unroll-carried-loops) and its accumulator stays on the
// unit, where the real-world kernel keeps it in a scratchpad view
// (test/EndToEnd/realworld-matmul-tiled.test). Everything
// else is the real-world kernel: a [2, 2] grid of 32x64 blocks of C, each
// K block's product into a fresh tensor.empty() added to a carried f16
// accumulator, which ktdf-generalize folds into the product (outs + A.B,
// the interpreter's numerics: f32 sums rounded once per output per block).
//
// C = A . B, A 64x256, B 256x128, C 64x128, all f16.

#a_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 255 >= 0)>
#b_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 255 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#c_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#a_blk = affine_set<(d0, d1) : (d0 >= 0, -d0 + 31 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#b_blk = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#c_blk = affine_set<(d0, d1) : (d0 >= 0, -d0 + 31 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#unused_alias = affine_set<(d0) : (d0 == 0)>
module {
  func.func @matmul_kernel(%a_ptr: index,        // A: 64x256 f16, row-major
                           %b_ptr: index,        // B: 256x128 f16, row-major
                           %c_ptr: index,        // C: 64x128 f16, row-major (output)
                           %K: index,            // reduction length (256)
                           %BLOCK_SIZE_M: index, // 32
                           %BLOCK_SIZE_N: index, // 64
                           %BLOCK_SIZE_K: index) // 64
      attributes {grid = [2, 2]} {
    %pm, %pn = ktdp.get_compute_tile_id : index, index
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    %c256 = arith.constant 256 : index
    %off_m = arith.muli %pm, %BLOCK_SIZE_M : index
    %off_n = arith.muli %pn, %BLOCK_SIZE_N : index
    %A = ktdp.construct_memory_view %a_ptr, sizes: [64, 256], strides: [256, 1] {coordinate_set = #a_set, memory_space = #ktdp.memory_space<global>} : memref<64x256xf16>
    %B = ktdp.construct_memory_view %b_ptr, sizes: [256, 128], strides: [128, 1] {coordinate_set = #b_set, memory_space = #ktdp.memory_space<global>} : memref<256x128xf16>
    %C = ktdp.construct_memory_view %c_ptr, sizes: [64, 128], strides: [128, 1] {coordinate_set = #c_set, memory_space = #ktdp.memory_space<global>} : memref<64x128xf16>
    %zero = arith.constant dense<0.0> : tensor<32x64xf16>
    %acc = scf.for %off_k = %c0 to %c256 step %c64 iter_args(%running = %zero) -> tensor<32x64xf16> {
      %ta = ktdp.construct_access_tile %A[%off_m, %off_k] {access_tile_set = #a_blk, access_tile_order = #id2} : memref<64x256xf16> -> !ktdp.access_tile<32x64xindex>
      %tb = ktdp.construct_access_tile %B[%off_k, %off_n] {access_tile_set = #b_blk, access_tile_order = #id2} : memref<256x128xf16> -> !ktdp.access_tile<64x64xindex>
      %a = ktdp.load %ta : <32x64xindex> -> tensor<32x64xf16>
      %b = ktdp.load %tb : <64x64xindex> -> tensor<64x64xf16>
      %empty = tensor.empty() : tensor<32x64xf16>
      %prod = linalg.matmul ins(%a, %b : tensor<32x64xf16>, tensor<64x64xf16>) outs(%empty : tensor<32x64xf16>) -> tensor<32x64xf16>
      %next = arith.addf %running, %prod : tensor<32x64xf16>   // f16 accumulation across K blocks
      scf.yield %next : tensor<32x64xf16>
    }
    %tc = ktdp.construct_access_tile %C[%off_m, %off_n] {access_tile_set = #c_blk, access_tile_order = #id2} : memref<64x128xf16> -> !ktdp.access_tile<32x64xindex>
    ktdp.store %acc, %tc : tensor<32x64xf16>, <32x64xindex>
    return
  }
}
