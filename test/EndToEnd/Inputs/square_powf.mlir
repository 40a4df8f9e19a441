// square_powf.mlir - math.powf by 2.0 on f16 and on f32, 64x128, a 2x128
// block per tile on a [32, 1] grid.
//
// Computes, for i < 64, j < 128:
//   S[i, j] = powf(X[i, j], 2.0)               (f16, rounded once)
//   T[i, j] = powf(f32(X[i, j]) * 3.0, 2.0)    (f32, each op rounded once)
// The reference interpreter computes pow in double, where the square is
// exact, and rounds it once: as x * x rounds it.

#x_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#blk = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @square_powf_kernel(%x_ptr: index,   // X: 64x128 f16 (input)
                                %s_ptr: index,   // S: 64x128 f16 (output)
                                %t_ptr: index)   // T: 64x128 f32 (output)
      attributes {grid = [32, 1]} {
    %pid = ktdp.get_compute_tile_id : index
    %c2 = arith.constant 2 : index
    %r0 = arith.muli %pid, %c2 : index
    %two16 = arith.constant dense<2.0> : tensor<2x128xf16>
    %two32 = arith.constant dense<2.0> : tensor<2x128xf32>
    %three = arith.constant dense<3.0> : tensor<2x128xf32>
    %X = ktdp.construct_memory_view %x_ptr, sizes: [64, 128], strides: [128, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<64x128xf16>
    %S = ktdp.construct_memory_view %s_ptr, sizes: [64, 128], strides: [128, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<64x128xf16>
    %T = ktdp.construct_memory_view %t_ptr, sizes: [64, 128], strides: [128, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<64x128xf32>
    %tx = ktdp.construct_access_tile %X[%r0, 0] {access_tile_set = #blk, access_tile_order = #id2} : memref<64x128xf16> -> !ktdp.access_tile<2x128xindex>
    %x = ktdp.load %tx : <2x128xindex> -> tensor<2x128xf16>
    %s = math.powf %x, %two16 : tensor<2x128xf16>
    %xf = arith.extf %x : tensor<2x128xf16> to tensor<2x128xf32>
    %x3 = arith.mulf %xf, %three : tensor<2x128xf32>
    %t = math.powf %x3, %two32 : tensor<2x128xf32>
    %ts = ktdp.construct_access_tile %S[%r0, 0] {access_tile_set = #blk, access_tile_order = #id2} : memref<64x128xf16> -> !ktdp.access_tile<2x128xindex>
    ktdp.store %s, %ts : tensor<2x128xf16>, <2x128xindex>
    %tt = ktdp.construct_access_tile %T[%r0, 0] {access_tile_set = #blk, access_tile_order = #id2} : memref<64x128xf32> -> !ktdp.access_tile<2x128xindex>
    ktdp.store %t, %tt : tensor<2x128xf32>, <2x128xindex>
    return
  }
}
