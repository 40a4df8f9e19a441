// loop_while_entry.mlir - an scf.while grid-stride loop from a launch-time
// start: Y[r] = -X[r] for r = lo + p, lo + p + 4, ... below min(n, 64) on a
// [4, 1] grid; with lo >= n its condition is false at entry (no trip).
#x_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#row = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 63 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @loop_while_entry(%x_ptr: index, %y_ptr: index, %lo: index, %n: index) attributes {grid = [4, 1]} {
    %pid = ktdp.get_compute_tile_id : index
    %c4 = arith.constant 4 : index
    %c64 = arith.constant 64 : index
    %hi = arith.minsi %n, %c64 : index
    %start = arith.addi %lo, %pid : index
    %X = ktdp.construct_memory_view %x_ptr, sizes: [64, 64], strides: [64, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<64x64xf16>
    %Y = ktdp.construct_memory_view %y_ptr, sizes: [64, 64], strides: [64, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<64x64xf16>
    %end = scf.while (%r = %start) : (index) -> index {
      %more = arith.cmpi slt, %r, %hi : index
      scf.condition(%more) %r : index
    } do {
    ^bb0(%i: index):
      %tx = ktdp.construct_access_tile %X[%i, 0] {access_tile_set = #row, access_tile_order = #id2} : memref<64x64xf16> -> !ktdp.access_tile<1x64xindex>
      %x = ktdp.load %tx : <1x64xindex> -> tensor<1x64xf16>
      %y = arith.negf %x : tensor<1x64xf16>
      %ty = ktdp.construct_access_tile %Y[%i, 0] {access_tile_set = #row, access_tile_order = #id2} : memref<64x64xf16> -> !ktdp.access_tile<1x64xindex>
      ktdp.store %y, %ty : tensor<1x64xf16>, <1x64xindex>
      %next = arith.addi %i, %c4 : index
      scf.yield %next : index
    }
    return
  }
}
