// pow_abs_min.mlir - powf, absf, negf and minimumf, 64x128 f32, a 2x128
// block per tile on a [32, 1] grid.
//
// Computes, for i < 64, j < 128, all f32 rounded per op:
//   Y[i, j] = minimumf(powf(|X[i, j]|, 1.5), -W[i, j])

#x_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#blk = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @pow_abs_min_kernel(%x_ptr: index,   // X: 64x128 f32 (input)
                                %w_ptr: index,   // W: 64x128 f32 (input)
                                %y_ptr: index)   // Y: 64x128 f32 (output)
      attributes {grid = [32, 1]} {
    %pid = ktdp.get_compute_tile_id : index
    %c2 = arith.constant 2 : index
    %r0 = arith.muli %pid, %c2 : index
    %p = arith.constant dense<1.5> : tensor<2x128xf32>
    %X = ktdp.construct_memory_view %x_ptr, sizes: [64, 128], strides: [128, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<64x128xf32>
    %W = ktdp.construct_memory_view %w_ptr, sizes: [64, 128], strides: [128, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<64x128xf32>
    %Y = ktdp.construct_memory_view %y_ptr, sizes: [64, 128], strides: [128, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<64x128xf32>
    %tx = ktdp.construct_access_tile %X[%r0, 0] {access_tile_set = #blk, access_tile_order = #id2} : memref<64x128xf32> -> !ktdp.access_tile<2x128xindex>
    %tw = ktdp.construct_access_tile %W[%r0, 0] {access_tile_set = #blk, access_tile_order = #id2} : memref<64x128xf32> -> !ktdp.access_tile<2x128xindex>
    %x = ktdp.load %tx : <2x128xindex> -> tensor<2x128xf32>
    %w = ktdp.load %tw : <2x128xindex> -> tensor<2x128xf32>
    %a = math.absf %x : tensor<2x128xf32>
    %pw = math.powf %a, %p : tensor<2x128xf32>
    %nw = arith.negf %w : tensor<2x128xf32>
    %y = arith.minimumf %pw, %nw : tensor<2x128xf32>
    %ty = ktdp.construct_access_tile %Y[%r0, 0] {access_tile_set = #blk, access_tile_order = #id2} : memref<64x128xf32> -> !ktdp.access_tile<2x128xindex>
    ktdp.store %y, %ty : tensor<2x128xf32>, <2x128xindex>
    return
  }
}
