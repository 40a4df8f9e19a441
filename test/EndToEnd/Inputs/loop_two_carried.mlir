// loop_two_carried.mlir - a grid-stride row loop carrying two values of
// different types: an f32 row accumulator and the index of the last row
// visited, where the sum is stored: Y[last(p)] = sum over rows r = p, p + 4,
// ... below min(n, 64) of f32(X[r]) (Y[p] = 0 when p makes no trip).
#x_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#o_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#row = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 63 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @loop_two_carried(%x_ptr: index, %y_ptr: index, %n: index) attributes {grid = [4, 1]} {
    %pid = ktdp.get_compute_tile_id : index
    %c0 = arith.constant 0 : index
    %c4 = arith.constant 4 : index
    %c64 = arith.constant 64 : index
    %hi = arith.minsi %n, %c64 : index
    %zeros = arith.constant dense<0.0> : tensor<1x64xf32>
    %X = ktdp.construct_memory_view %x_ptr, sizes: [64, 64], strides: [64, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<64x64xf16>
    %Y = ktdp.construct_memory_view %y_ptr, sizes: [64, 64], strides: [64, 1] {coordinate_set = #o_set, memory_space = #ktdp.memory_space<global>} : memref<64x64xf32>
    %acc, %last = scf.for %r = %pid to %hi step %c4 iter_args(%a = %zeros, %k = %pid) -> (tensor<1x64xf32>, index) {
      %tx = ktdp.construct_access_tile %X[%r, 0] {access_tile_set = #row, access_tile_order = #id2} : memref<64x64xf16> -> !ktdp.access_tile<1x64xindex>
      %x = ktdp.load %tx : <1x64xindex> -> tensor<1x64xf16>
      %xf = arith.extf %x : tensor<1x64xf16> to tensor<1x64xf32>
      %a2 = arith.addf %a, %xf : tensor<1x64xf32>
      scf.yield %a2, %r : tensor<1x64xf32>, index
    }
    %ty = ktdp.construct_access_tile %Y[%last, 0] {access_tile_set = #row, access_tile_order = #id2} : memref<64x64xf32> -> !ktdp.access_tile<1x64xindex>
    ktdp.store %acc, %ty : tensor<1x64xf32>, <1x64xindex>
    return
  }
}
