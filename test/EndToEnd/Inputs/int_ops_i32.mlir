// int_ops_i32.mlir - integer element-wise on i32, 2048 elements, one
// 256-element block per program id on an [8, 1] grid.
//
// Computes, for i < 2048, i32 with wrap-around:
//   Y[i] = (((A[i] + B[i]) * 3) >> 1) & 0x3FF    (addi, muli, shrsi, andi)
//   Z[i] = (A[i] << 2) ^ B[i]                    (shli, xori)

#v_set = affine_set<(d0) : (d0 >= 0, -d0 + 2047 >= 0)>
#blk = affine_set<(d0) : (d0 >= 0, -d0 + 255 >= 0)>
#id1 = affine_map<(d0) -> (d0)>
module {
  func.func @int_ops_kernel(%a_ptr: index,   // A: 2048 i32 (input)
                            %b_ptr: index,   // B: 2048 i32 (input)
                            %y_ptr: index,   // Y: 2048 i32 (output)
                            %z_ptr: index)   // Z: 2048 i32 (output)
      attributes {grid = [8, 1]} {
    %pid = ktdp.get_compute_tile_id : index
    %BLOCK_SIZE = arith.constant 256 : index
    %off = arith.muli %pid, %BLOCK_SIZE : index
    %c3 = arith.constant dense<3> : tensor<256xi32>
    %c1 = arith.constant dense<1> : tensor<256xi32>
    %c2 = arith.constant dense<2> : tensor<256xi32>
    %mask = arith.constant dense<1023> : tensor<256xi32>
    %A = ktdp.construct_memory_view %a_ptr, sizes: [2048], strides: [1] {coordinate_set = #v_set, memory_space = #ktdp.memory_space<global>} : memref<2048xi32>
    %B = ktdp.construct_memory_view %b_ptr, sizes: [2048], strides: [1] {coordinate_set = #v_set, memory_space = #ktdp.memory_space<global>} : memref<2048xi32>
    %Y = ktdp.construct_memory_view %y_ptr, sizes: [2048], strides: [1] {coordinate_set = #v_set, memory_space = #ktdp.memory_space<global>} : memref<2048xi32>
    %Z = ktdp.construct_memory_view %z_ptr, sizes: [2048], strides: [1] {coordinate_set = #v_set, memory_space = #ktdp.memory_space<global>} : memref<2048xi32>
    %ta = ktdp.construct_access_tile %A[%off] {access_tile_set = #blk, access_tile_order = #id1} : memref<2048xi32> -> !ktdp.access_tile<256xindex>
    %tb = ktdp.construct_access_tile %B[%off] {access_tile_set = #blk, access_tile_order = #id1} : memref<2048xi32> -> !ktdp.access_tile<256xindex>
    %a = ktdp.load %ta : <256xindex> -> tensor<256xi32>
    %b = ktdp.load %tb : <256xindex> -> tensor<256xi32>
    %s = arith.addi %a, %b : tensor<256xi32>
    %m = arith.muli %s, %c3 : tensor<256xi32>
    %h = arith.shrsi %m, %c1 : tensor<256xi32>
    %y = arith.andi %h, %mask : tensor<256xi32>
    %al = arith.shli %a, %c2 : tensor<256xi32>
    %z = arith.xori %al, %b : tensor<256xi32>
    %ty = ktdp.construct_access_tile %Y[%off] {access_tile_set = #blk, access_tile_order = #id1} : memref<2048xi32> -> !ktdp.access_tile<256xindex>
    %tz = ktdp.construct_access_tile %Z[%off] {access_tile_set = #blk, access_tile_order = #id1} : memref<2048xi32> -> !ktdp.access_tile<256xindex>
    ktdp.store %y, %ty : tensor<256xi32>, <256xindex>
    ktdp.store %z, %tz : tensor<256xi32>, <256xindex>
    return
  }
}
