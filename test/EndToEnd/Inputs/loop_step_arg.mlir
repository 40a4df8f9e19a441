// loop_step_arg.mlir - a row loop whose step is a scalar argument: Y[r, 64p:64p+64]
// = exp(X[r, ...]) for r = 0, s, 2s, ... below min(n, 64) on a [4, 1] grid
// (a step past the range: one trip).
#x_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 255 >= 0)>
#row = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 63 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @loop_step_arg(%x_ptr: index, %y_ptr: index, %n: index, %s: index) attributes {grid = [4, 1]} {
    %pid = ktdp.get_compute_tile_id : index
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    %col = arith.muli %pid, %c64 : index
    %hi = arith.minsi %n, %c64 : index
    %X = ktdp.construct_memory_view %x_ptr, sizes: [64, 256], strides: [256, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<64x256xf16>
    %Y = ktdp.construct_memory_view %y_ptr, sizes: [64, 256], strides: [256, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<64x256xf16>
    scf.for %r = %c0 to %hi step %s : index {
      %tx = ktdp.construct_access_tile %X[%r, %col] {access_tile_set = #row, access_tile_order = #id2} : memref<64x256xf16> -> !ktdp.access_tile<1x64xindex>
      %x = ktdp.load %tx : <1x64xindex> -> tensor<1x64xf16>
      %y = math.exp %x : tensor<1x64xf16>
      %ty = ktdp.construct_access_tile %Y[%r, %col] {access_tile_set = #row, access_tile_order = #id2} : memref<64x256xf16> -> !ktdp.access_tile<1x64xindex>
      ktdp.store %y, %ty : tensor<1x64xf16>, <1x64xindex>
    }
    return
  }
}
