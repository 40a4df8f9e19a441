// loop_nested_args.mlir - nested loops with launch-time bounds: rows p, p + 2,
// ... below min(nr, 16) on a [2, 1] grid, column blocks 0 .. min(nc, 4);
// Y = X + 1 (an inner loop of no trip leaves Y as it was).
#x_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 255 >= 0)>
#row = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 63 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @loop_nested_args(%x_ptr: index, %y_ptr: index, %nr: index, %nc: index) attributes {grid = [2, 1]} {
    %pid = ktdp.get_compute_tile_id : index
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c4 = arith.constant 4 : index
    %c16 = arith.constant 16 : index
    %c64 = arith.constant 64 : index
    %rows = arith.minsi %nr, %c16 : index
    %cols = arith.minsi %nc, %c4 : index
    %one = arith.constant dense<1.0> : tensor<1x64xf16>
    %X = ktdp.construct_memory_view %x_ptr, sizes: [16, 256], strides: [256, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<16x256xf16>
    %Y = ktdp.construct_memory_view %y_ptr, sizes: [16, 256], strides: [256, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<16x256xf16>
    scf.for %r = %pid to %rows step %c2 : index {
      scf.for %cb = %c0 to %cols step %c1 : index {
        %off = arith.muli %cb, %c64 : index
        %tx = ktdp.construct_access_tile %X[%r, %off] {access_tile_set = #row, access_tile_order = #id2} : memref<16x256xf16> -> !ktdp.access_tile<1x64xindex>
        %x = ktdp.load %tx : <1x64xindex> -> tensor<1x64xf16>
        %y = arith.addf %x, %one : tensor<1x64xf16>
        %ty = ktdp.construct_access_tile %Y[%r, %off] {access_tile_set = #row, access_tile_order = #id2} : memref<16x256xf16> -> !ktdp.access_tile<1x64xindex>
        ktdp.store %y, %ty : tensor<1x64xf16>, <1x64xindex>
      }
    }
    return
  }
}
