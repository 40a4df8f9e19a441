// silu_f16.mlir - SiLU in f16 throughout, 4096-element vector, one
// 256-element block per program id on a [16, 1] grid.
//
// Computes, for i < 4096, all f16, rounded per op:
//   Y[i] = x / (1 + exp(-x))        with x = X[i]   (negf, exp, addf, divf)

#v_set = affine_set<(d0) : (d0 >= 0, -d0 + 4095 >= 0)>
#blk = affine_set<(d0) : (d0 >= 0, -d0 + 255 >= 0)>
#id1 = affine_map<(d0) -> (d0)>
module {
  func.func @silu_kernel(%x_ptr: index,   // X: 4096 f16 (input)
                         %y_ptr: index)   // Y: 4096 f16 (output)
      attributes {grid = [16, 1]} {
    %pid = ktdp.get_compute_tile_id : index
    %BLOCK_SIZE = arith.constant 256 : index
    %off = arith.muli %pid, %BLOCK_SIZE : index
    %one = arith.constant dense<1.0> : tensor<256xf16>
    %X = ktdp.construct_memory_view %x_ptr, sizes: [4096], strides: [1] {coordinate_set = #v_set, memory_space = #ktdp.memory_space<global>} : memref<4096xf16>
    %Y = ktdp.construct_memory_view %y_ptr, sizes: [4096], strides: [1] {coordinate_set = #v_set, memory_space = #ktdp.memory_space<global>} : memref<4096xf16>
    %tx = ktdp.construct_access_tile %X[%off] {access_tile_set = #blk, access_tile_order = #id1} : memref<4096xf16> -> !ktdp.access_tile<256xindex>
    %x = ktdp.load %tx : <256xindex> -> tensor<256xf16>
    %n = arith.negf %x : tensor<256xf16>
    %e = math.exp %n : tensor<256xf16>
    %d = arith.addf %one, %e : tensor<256xf16>
    %y = arith.divf %x, %d : tensor<256xf16>
    %ty = ktdp.construct_access_tile %Y[%off] {access_tile_set = #blk, access_tile_order = #id1} : memref<4096xf16> -> !ktdp.access_tile<256xindex>
    ktdp.store %y, %ty : tensor<256xf16>, <256xindex>
    return
  }
}
