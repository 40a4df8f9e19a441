// int_ops_i8.mlir - integer element-wise on i8, 64x128, rows cyclic over
// a [32, 1] grid: a saturating average and a bit mask.
//
// Computes, for r < 64, j < 128 (a = A[r, j], b = B[r, j], i8):
//   Y[r, j] = trunci((extsi(a) + extsi(b)) >>s 1) : i8     (via i16, no overflow)
//   Z[r, j] = (a & 0x0F) | (b >>u 4)                        (andi, shrui, ori on i8)

#x_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#row = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 127 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @int_ops_i8_kernel(%a_ptr: index,   // A: 64x128 i8 (input)
                               %b_ptr: index,   // B: 64x128 i8 (input)
                               %y_ptr: index,   // Y: 64x128 i8 (output)
                               %z_ptr: index)   // Z: 64x128 i8 (output)
      attributes {grid = [32, 1]} {
    %pid = ktdp.get_compute_tile_id : index
    %c32 = arith.constant 32 : index
    %c64 = arith.constant 64 : index
    %one16 = arith.constant dense<1> : tensor<1x128xi16>
    %low = arith.constant dense<15> : tensor<1x128xi8>
    %four = arith.constant dense<4> : tensor<1x128xi8>
    %A = ktdp.construct_memory_view %a_ptr, sizes: [64, 128], strides: [128, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<64x128xi8>
    %B = ktdp.construct_memory_view %b_ptr, sizes: [64, 128], strides: [128, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<64x128xi8>
    %Y = ktdp.construct_memory_view %y_ptr, sizes: [64, 128], strides: [128, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<64x128xi8>
    %Z = ktdp.construct_memory_view %z_ptr, sizes: [64, 128], strides: [128, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<64x128xi8>
    scf.for %r = %pid to %c64 step %c32 : index {
      %ta = ktdp.construct_access_tile %A[%r, 0] {access_tile_set = #row, access_tile_order = #id2} : memref<64x128xi8> -> !ktdp.access_tile<1x128xindex>
      %tb = ktdp.construct_access_tile %B[%r, 0] {access_tile_set = #row, access_tile_order = #id2} : memref<64x128xi8> -> !ktdp.access_tile<1x128xindex>
      %a = ktdp.load %ta : <1x128xindex> -> tensor<1x128xi8>
      %b = ktdp.load %tb : <1x128xindex> -> tensor<1x128xi8>
      %a16 = arith.extsi %a : tensor<1x128xi8> to tensor<1x128xi16>
      %b16 = arith.extsi %b : tensor<1x128xi8> to tensor<1x128xi16>
      %s16 = arith.addi %a16, %b16 : tensor<1x128xi16>
      %h16 = arith.shrsi %s16, %one16 : tensor<1x128xi16>
      %y = arith.trunci %h16 : tensor<1x128xi16> to tensor<1x128xi8>
      %al = arith.andi %a, %low : tensor<1x128xi8>
      %bh = arith.shrui %b, %four : tensor<1x128xi8>
      %z = arith.ori %al, %bh : tensor<1x128xi8>
      %ty = ktdp.construct_access_tile %Y[%r, 0] {access_tile_set = #row, access_tile_order = #id2} : memref<64x128xi8> -> !ktdp.access_tile<1x128xindex>
      %tz = ktdp.construct_access_tile %Z[%r, 0] {access_tile_set = #row, access_tile_order = #id2} : memref<64x128xi8> -> !ktdp.access_tile<1x128xindex>
      ktdp.store %y, %ty : tensor<1x128xi8>, <1x128xindex>
      ktdp.store %z, %tz : tensor<1x128xi8>, <1x128xindex>
      scf.yield
    }
    return
  }
}
