// combo_if_halves.mlir - an scf.if picks between the two halves of a
// loaded 1x256 f16 row: even rows keep their left half, odd rows their
// right half doubled. Rows cyclic over a [16, 1] grid.
//
// Computes, for r < 64, j < 128 (f16):
//   Y[r, j] = r even ? X[r, j] : X[r, 128 + j] * 2
#x_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 255 >= 0)>
#y_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#row = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 255 >= 0)>
#half = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 127 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @if_halves_kernel(%x_ptr: index,   // X: 64x256 f16 (input)
                              %y_ptr: index)   // Y: 64x128 f16 (output)
      attributes {grid = [16, 1]} {
    %pid = ktdp.get_compute_tile_id : index
    %c0 = arith.constant 0 : index
    %c2 = arith.constant 2 : index
    %c16 = arith.constant 16 : index
    %c64 = arith.constant 64 : index
    %two = arith.constant dense<2.0> : tensor<1x128xf16>
    %X = ktdp.construct_memory_view %x_ptr, sizes: [64, 256], strides: [256, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<64x256xf16>
    %Y = ktdp.construct_memory_view %y_ptr, sizes: [64, 128], strides: [128, 1] {coordinate_set = #y_set, memory_space = #ktdp.memory_space<global>} : memref<64x128xf16>
    scf.for %r = %pid to %c64 step %c16 : index {
      %tx = ktdp.construct_access_tile %X[%r, 0] {access_tile_set = #row, access_tile_order = #id2} : memref<64x256xf16> -> !ktdp.access_tile<1x256xindex>
      %x = ktdp.load %tx : <1x256xindex> -> tensor<1x256xf16>
      %par = arith.remui %r, %c2 : index
      %even = arith.cmpi eq, %par, %c0 : index
      %y = scf.if %even -> (tensor<1x128xf16>) {
        %l = tensor.extract_slice %x[0, 0] [1, 128] [1, 1] : tensor<1x256xf16> to tensor<1x128xf16>
        scf.yield %l : tensor<1x128xf16>
      } else {
        %h = tensor.extract_slice %x[0, 128] [1, 128] [1, 1] : tensor<1x256xf16> to tensor<1x128xf16>
        %d = arith.mulf %h, %two : tensor<1x128xf16>
        scf.yield %d : tensor<1x128xf16>
      }
      %ty = ktdp.construct_access_tile %Y[%r, 0] {access_tile_set = #half, access_tile_order = #id2} : memref<64x128xf16> -> !ktdp.access_tile<1x128xindex>
      ktdp.store %y, %ty : tensor<1x128xf16>, <1x128xindex>
    }
    return
  }
}
