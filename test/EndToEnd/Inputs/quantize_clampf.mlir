// quantize_clampf.mlir - int8 quantisation clamped in float: 2048 f32
// values, one 256-element block per program id on an [8, 1] grid.
//
// Computes, for i < 2048:
//   Q[i] = fptosi(minimumf(maximumf(X[i] * s, -128.0), 127.0)) : i8
// Argument s: f32 (e.g. 16.0).

#v_set = affine_set<(d0) : (d0 >= 0, -d0 + 2047 >= 0)>
#blk = affine_set<(d0) : (d0 >= 0, -d0 + 255 >= 0)>
#id1 = affine_map<(d0) -> (d0)>
module {
  func.func @quantize_clampf_kernel(%x_ptr: index,   // X: 2048 f32 (input)
                                    %q_ptr: index,   // Q: 2048 i8 (output)
                                    %s: f32)         // scale
      attributes {grid = [8, 1]} {
    %pid = ktdp.get_compute_tile_id : index
    %BLOCK_SIZE = arith.constant 256 : index
    %off = arith.muli %pid, %BLOCK_SIZE : index
    %lo = arith.constant dense<-128.0> : tensor<256xf32>
    %hi = arith.constant dense<127.0> : tensor<256xf32>
    %X = ktdp.construct_memory_view %x_ptr, sizes: [2048], strides: [1] {coordinate_set = #v_set, memory_space = #ktdp.memory_space<global>} : memref<2048xf32>
    %Q = ktdp.construct_memory_view %q_ptr, sizes: [2048], strides: [1] {coordinate_set = #v_set, memory_space = #ktdp.memory_space<global>} : memref<2048xi8>
    %tx = ktdp.construct_access_tile %X[%off] {access_tile_set = #blk, access_tile_order = #id1} : memref<2048xf32> -> !ktdp.access_tile<256xindex>
    %x = ktdp.load %tx : <256xindex> -> tensor<256xf32>
    %sb = tensor.splat %s : tensor<256xf32>
    %xs = arith.mulf %x, %sb : tensor<256xf32>
    %c1 = arith.maximumf %xs, %lo : tensor<256xf32>
    %c2 = arith.minimumf %c1, %hi : tensor<256xf32>
    %q = arith.fptosi %c2 : tensor<256xf32> to tensor<256xi8>
    %tq = ktdp.construct_access_tile %Q[%off] {access_tile_set = #blk, access_tile_order = #id1} : memref<2048xi8> -> !ktdp.access_tile<256xindex>
    ktdp.store %q, %tq : tensor<256xi8>, <256xindex>
    return
  }
}
