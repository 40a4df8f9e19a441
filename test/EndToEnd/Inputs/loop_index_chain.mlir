// loop_index_chain.mlir - loop_last_write_mod.mlir with its stored row
// reached through a chain of 40 sums that each read the previous value
// twice (d_k = d_{k-1} + d_{k-1}, then d_40 - d_40 + r % 4), as CSE'd index
// arithmetic shares values: the index walks of the scheduler visit each
// value once (a walk of every path took 2^40 steps and never finished).
#x_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#y_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#row = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 63 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @loop_index_chain(%x_ptr: index,  // X: 64x64 f16 (input)
                              %y_ptr: index,  // Y: 4x64 f16 (output)
                              %n: index)      // rows to visit
      attributes {grid = [4, 1]} {
    %pid = ktdp.get_compute_tile_id : index
    %c4 = arith.constant 4 : index
    %c64 = arith.constant 64 : index
    %one = arith.constant dense<1.0> : tensor<1x64xf16>
    %rows = arith.minsi %n, %c64 : index
    %X = ktdp.construct_memory_view %x_ptr, sizes: [64, 64], strides: [64, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<64x64xf16>
    %Y = ktdp.construct_memory_view %y_ptr, sizes: [4, 64], strides: [64, 1] {coordinate_set = #y_set, memory_space = #ktdp.memory_space<global>} : memref<4x64xf16>
    scf.for %r = %pid to %rows step %c4 : index {
      %tx = ktdp.construct_access_tile %X[%r, 0] {access_tile_set = #row, access_tile_order = #id2} : memref<64x64xf16> -> !ktdp.access_tile<1x64xindex>
      %x = ktdp.load %tx : <1x64xindex> -> tensor<1x64xf16>
      %q0 = arith.remsi %r, %c4 : index
      %d1 = arith.addi %r, %r : index
      %d2 = arith.addi %d1, %d1 : index
      %d3 = arith.addi %d2, %d2 : index
      %d4 = arith.addi %d3, %d3 : index
      %d5 = arith.addi %d4, %d4 : index
      %d6 = arith.addi %d5, %d5 : index
      %d7 = arith.addi %d6, %d6 : index
      %d8 = arith.addi %d7, %d7 : index
      %d9 = arith.addi %d8, %d8 : index
      %d10 = arith.addi %d9, %d9 : index
      %d11 = arith.addi %d10, %d10 : index
      %d12 = arith.addi %d11, %d11 : index
      %d13 = arith.addi %d12, %d12 : index
      %d14 = arith.addi %d13, %d13 : index
      %d15 = arith.addi %d14, %d14 : index
      %d16 = arith.addi %d15, %d15 : index
      %d17 = arith.addi %d16, %d16 : index
      %d18 = arith.addi %d17, %d17 : index
      %d19 = arith.addi %d18, %d18 : index
      %d20 = arith.addi %d19, %d19 : index
      %d21 = arith.addi %d20, %d20 : index
      %d22 = arith.addi %d21, %d21 : index
      %d23 = arith.addi %d22, %d22 : index
      %d24 = arith.addi %d23, %d23 : index
      %d25 = arith.addi %d24, %d24 : index
      %d26 = arith.addi %d25, %d25 : index
      %d27 = arith.addi %d26, %d26 : index
      %d28 = arith.addi %d27, %d27 : index
      %d29 = arith.addi %d28, %d28 : index
      %d30 = arith.addi %d29, %d29 : index
      %d31 = arith.addi %d30, %d30 : index
      %d32 = arith.addi %d31, %d31 : index
      %d33 = arith.addi %d32, %d32 : index
      %d34 = arith.addi %d33, %d33 : index
      %d35 = arith.addi %d34, %d34 : index
      %d36 = arith.addi %d35, %d35 : index
      %d37 = arith.addi %d36, %d36 : index
      %d38 = arith.addi %d37, %d37 : index
      %d39 = arith.addi %d38, %d38 : index
      %d40 = arith.addi %d39, %d39 : index
      %z = arith.subi %d40, %d40 : index
      %q = arith.addi %z, %q0 : index
      %ty = ktdp.construct_access_tile %Y[%q, 0] {access_tile_set = #row, access_tile_order = #id2} : memref<4x64xf16> -> !ktdp.access_tile<1x64xindex>
      %y = arith.addf %x, %one : tensor<1x64xf16>
      ktdp.store %y, %ty : tensor<1x64xf16>, <1x64xindex>
    }
    return
  }
}
