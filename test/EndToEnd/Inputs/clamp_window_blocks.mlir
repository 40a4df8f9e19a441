// A joined key loop over block numbers: query block t sums the 32x64 key
// blocks b = lo + i for i below hi - lo, lo = max(t - 1, 0) and
// hi = min(t + 2, 4, n) (n an i32 argument): the trip count is the
// difference of two clamped bounds.
#x_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 127 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#blk = affine_set<(d0, d1) : (d0 >= 0, -d0 + 31 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @window_sum(%k_ptr: index, %y_ptr: index, %n_i32: i32)
      attributes {grid = [4, 1]} {
    %pid = ktdp.get_compute_tile_id : index
    %c0 = arith.constant 0 : index
    %c32 = arith.constant 32 : index
    %c64 = arith.constant 64 : index
    %c128 = arith.constant 128 : index
    %zeros = arith.constant dense<0.0> : tensor<32x64xf16>
    %K = ktdp.construct_memory_view %k_ptr, sizes: [128, 64], strides: [64, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<128x64xf16>
    %Y = ktdp.construct_memory_view %y_ptr, sizes: [128, 64], strides: [64, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<128x64xf16>
    %n = arith.index_cast %n_i32 : i32 to index
    %q0 = arith.muli %pid, %c32 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c4 = arith.constant 4 : index
    %lo0 = arith.subi %pid, %c1 : index
    %lo = arith.maxsi %lo0, %c0 : index
    %hi0 = arith.addi %pid, %c2 : index
    %hi1 = arith.minsi %hi0, %c4 : index
    %hi = arith.minsi %hi1, %n : index
    %nb = arith.subi %hi, %lo : index
    %acc = scf.for %i = %c0 to %nb step %c1 iter_args(%a = %zeros) -> tensor<32x64xf16> {
      %b = arith.addi %lo, %i : index
      %j = arith.muli %b, %c32 : index
      %tk = ktdp.construct_access_tile %K[%j, 0] {access_tile_set = #blk, access_tile_order = #id2} : memref<128x64xf16> -> !ktdp.access_tile<32x64xindex>
      %k = ktdp.load %tk : <32x64xindex> -> tensor<32x64xf16>
      %a2 = arith.addf %a, %k : tensor<32x64xf16>
      scf.yield %a2 : tensor<32x64xf16>
    }
    %ty = ktdp.construct_access_tile %Y[%q0, 0] {access_tile_set = #blk, access_tile_order = #id2} : memref<128x64xf16> -> !ktdp.access_tile<32x64xindex>
    ktdp.store %acc, %ty : tensor<32x64xf16>, <32x64xindex>
    return
  }
}
