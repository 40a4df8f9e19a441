// scale_pitch320_dyn.mlir - rows of 256 f16 at a row pitch of 320 elements
// (padded rows), the row count %n a run-time argument: a view of dynamic size
// whose stride is not its width; tile t doubles rows t, t + 8, ...
#x = affine_set<(d0, d1)[s0] : (d0 >= 0, -d0 + s0 - 1 >= 0, d1 >= 0, -d1 + 255 >= 0)>
#blk = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 255 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @scale_pitch(%x_ptr: index, %y_ptr: index, %n: index) attributes {grid = [8]} {
    %pid = ktdp.get_compute_tile_id : index
    %c8 = arith.constant 8 : index
    %two = arith.constant dense<2.0> : tensor<1x256xf16>
    %X = ktdp.construct_memory_view %x_ptr, sizes: [%n, 256], strides: [320, 1] {coordinate_set = #x, memory_space = #ktdp.memory_space<global>} : memref<?x256xf16>
    %Y = ktdp.construct_memory_view %y_ptr, sizes: [%n, 256], strides: [320, 1] {coordinate_set = #x, memory_space = #ktdp.memory_space<global>} : memref<?x256xf16>
    scf.for %r = %pid to %n step %c8 {
      %tx = ktdp.construct_access_tile %X[%r, 0] {access_tile_set = #blk, access_tile_order = #id2} : memref<?x256xf16> -> !ktdp.access_tile<1x256xindex>
      %v = ktdp.load %tx : <1x256xindex> -> tensor<1x256xf16>
      %w = arith.mulf %v, %two : tensor<1x256xf16>
      %ty = ktdp.construct_access_tile %Y[%r, 0] {access_tile_set = #blk, access_tile_order = #id2} : memref<?x256xf16> -> !ktdp.access_tile<1x256xindex>
      ktdp.store %w, %ty : tensor<1x256xf16>, <1x256xindex>
    }
    return
  }
}
