// matmul_block_parts.mlir - a Triton matmul in the field guide's spelling
// (../shared/docs/ktir-field-guide.md §1d, §5) whose [4, 1] grid leaves
// most matrix units idle (test/EndToEnd/matmul-block-parts.test): C = A . B
// for A 64x128, B 128x64, C 64x64, f16. One program id, split the Triton
// way into pid_m = pid / num_pid_n and pid_n = pid mod num_pid_n; program
// (pid_m, pid_n) owns the 32x32 block of C at (pid_m * BLOCK_SIZE_M,
// pid_n * BLOCK_SIZE_N), block sizes and K plain `index` arguments; the K
// loop steps by BLOCK_SIZE_K carrying an f16 accumulator started by a
// linalg.fill:
//   acc = f16(acc + f16(sum_{k0 <= k < k0 + 32} A[m, k] * B[k, n]))
#a_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#b_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 127 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#c_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#blk = affine_set<(d0, d1) : (d0 >= 0, -d0 + 31 >= 0, d1 >= 0, -d1 + 31 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @matmul_kernel(%a_ptr: index,        // A: 64x128 f16, row-major
                           %b_ptr: index,        // B: 128x64 f16, row-major
                           %c_ptr: index,        // C: 64x64 f16, row-major (output)
                           %K: index,            // reduction length (128)
                           %BLOCK_SIZE_M: index, // 32
                           %BLOCK_SIZE_N: index, // 32
                           %BLOCK_SIZE_K: index) // 32
      attributes {grid = [4, 1]} {
    %pid = ktdp.get_compute_tile_id : index
    %c0 = arith.constant 0 : index
    %num_pid_n = arith.constant 2 : index
    %pid_m = arith.divui %pid, %num_pid_n : index
    %pid_n = arith.remui %pid, %num_pid_n : index
    %off_m = arith.muli %pid_m, %BLOCK_SIZE_M : index
    %off_n = arith.muli %pid_n, %BLOCK_SIZE_N : index
    %A = ktdp.construct_memory_view %a_ptr, sizes: [64, 128], strides: [128, 1] {coordinate_set = #a_set, memory_space = #ktdp.memory_space<global>} : memref<64x128xf16>
    %B = ktdp.construct_memory_view %b_ptr, sizes: [128, 64], strides: [64, 1] {coordinate_set = #b_set, memory_space = #ktdp.memory_space<global>} : memref<128x64xf16>
    %C = ktdp.construct_memory_view %c_ptr, sizes: [64, 64], strides: [64, 1] {coordinate_set = #c_set, memory_space = #ktdp.memory_space<global>} : memref<64x64xf16>
    %zero = arith.constant 0.0 : f16
    %init = tensor.empty() : tensor<32x32xf16>
    %acc0 = linalg.fill ins(%zero : f16) outs(%init : tensor<32x32xf16>) -> tensor<32x32xf16>
    %acc = scf.for %off_k = %c0 to %K step %BLOCK_SIZE_K iter_args(%running = %acc0) -> (tensor<32x32xf16>) {
      %ta = ktdp.construct_access_tile %A[%off_m, %off_k] {access_tile_set = #blk, access_tile_order = #id2} : memref<64x128xf16> -> !ktdp.access_tile<32x32xindex>
      %tb = ktdp.construct_access_tile %B[%off_k, %off_n] {access_tile_set = #blk, access_tile_order = #id2} : memref<128x64xf16> -> !ktdp.access_tile<32x32xindex>
      %a = ktdp.load %ta : <32x32xindex> -> tensor<32x32xf16>
      %b = ktdp.load %tb : <32x32xindex> -> tensor<32x32xf16>
      %empty = tensor.empty() : tensor<32x32xf16>
      %prod = linalg.matmul ins(%a, %b : tensor<32x32xf16>, tensor<32x32xf16>) outs(%empty : tensor<32x32xf16>) -> tensor<32x32xf16>
      %next = arith.addf %running, %prod : tensor<32x32xf16>   // f16 accumulation across K blocks
      scf.yield %next : tensor<32x32xf16>
    }
    %tc = ktdp.construct_access_tile %C[%off_m, %off_n] {access_tile_set = #blk, access_tile_order = #id2} : memref<64x64xf16> -> !ktdp.access_tile<32x32xindex>
    ktdp.store %acc, %tc : tensor<32x32xf16>, <32x32xindex>
    return
  }
}
