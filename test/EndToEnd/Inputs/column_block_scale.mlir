// column_block_scale.mlir - Triton-style column blocks of a 64x256 f16
// product scaled by a run-time f32 scalar, one block of 64 columns per grid
// point (pid * BLOCK_N), every row of it in the point:
//   Y[r, c] = f16(f32(X[r, c]) * f32(W[r, c]) * scale)
// Grid [4, 1], one tile id; no loop.

#all = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 255 >= 0)>
#blk = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @column_block_scale(%x_ptr: index,  // X: 64x256 f16 (input)
                                %w_ptr: index,  // W: 64x256 f16 (input)
                                %y_ptr: index,  // Y: 64x256 f16 (output)
                                %scale: f32)    // run-time scale
      attributes {grid = [4, 1]} {
    %pid = ktdp.get_compute_tile_id : index
    %BLOCK_N = arith.constant 64 : index
    %X = ktdp.construct_memory_view %x_ptr, sizes: [64, 256], strides: [256, 1] {coordinate_set = #all, memory_space = #ktdp.memory_space<global>} : memref<64x256xf16>
    %W = ktdp.construct_memory_view %w_ptr, sizes: [64, 256], strides: [256, 1] {coordinate_set = #all, memory_space = #ktdp.memory_space<global>} : memref<64x256xf16>
    %Y = ktdp.construct_memory_view %y_ptr, sizes: [64, 256], strides: [256, 1] {coordinate_set = #all, memory_space = #ktdp.memory_space<global>} : memref<64x256xf16>
    %col = arith.muli %pid, %BLOCK_N : index
    %tx = ktdp.construct_access_tile %X[0, %col] {access_tile_set = #blk, access_tile_order = #id2} : memref<64x256xf16> -> !ktdp.access_tile<64x64xindex>
    %tw = ktdp.construct_access_tile %W[0, %col] {access_tile_set = #blk, access_tile_order = #id2} : memref<64x256xf16> -> !ktdp.access_tile<64x64xindex>
    %ty = ktdp.construct_access_tile %Y[0, %col] {access_tile_set = #blk, access_tile_order = #id2} : memref<64x256xf16> -> !ktdp.access_tile<64x64xindex>
    %x = ktdp.load %tx : <64x64xindex> -> tensor<64x64xf16>
    %w = ktdp.load %tw : <64x64xindex> -> tensor<64x64xf16>
    %xf = arith.extf %x : tensor<64x64xf16> to tensor<64x64xf32>
    %wf = arith.extf %w : tensor<64x64xf16> to tensor<64x64xf32>
    %s = tensor.splat %scale : tensor<64x64xf32>
    %p = arith.mulf %xf, %wf : tensor<64x64xf32>
    %q = arith.mulf %p, %s : tensor<64x64xf32>
    %y = arith.truncf %q : tensor<64x64xf32> to tensor<64x64xf16>
    ktdp.store %y, %ty : tensor<64x64xf16>, <64x64xindex>
    return
  }
}
