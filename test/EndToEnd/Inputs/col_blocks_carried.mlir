// Triton's column-block loop with the pointer increment: each row of X and
// W, 32x256 f16, walked in four 1x64 blocks, the block's offset carried in
// iter_args (`x_ptrs += BLOCK_SIZE`); Y = (X + W) * 0.5. Rows grid-strided
// over 16 programs.
#v_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 31 >= 0, d1 >= 0, -d1 + 255 >= 0)>
#blk = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 63 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @col_blocks_carried(%x_ptr: index, %w_ptr: index, %y_ptr: index) attributes {grid = [16, 1]} {
    %pid = ktdp.get_compute_tile_id : index
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c16 = arith.constant 16 : index
    %c32 = arith.constant 32 : index
    %BLOCK_SIZE = arith.constant 64 : index
    %half = arith.constant 0.5 : f16
    %X = ktdp.construct_memory_view %x_ptr, sizes: [32, 256], strides: [256, 1] {coordinate_set = #v_set, memory_space = #ktdp.memory_space<global>} : memref<32x256xf16>
    %W = ktdp.construct_memory_view %w_ptr, sizes: [32, 256], strides: [256, 1] {coordinate_set = #v_set, memory_space = #ktdp.memory_space<global>} : memref<32x256xf16>
    %Y = ktdp.construct_memory_view %y_ptr, sizes: [32, 256], strides: [256, 1] {coordinate_set = #v_set, memory_space = #ktdp.memory_space<global>} : memref<32x256xf16>
    scf.for %row = %pid to %c32 step %c16 : index {
      %end = scf.for %i = %c0 to %c4 step %c1 iter_args(%off = %c0) -> index {
        %tx = ktdp.construct_access_tile %X[%row, %off] {access_tile_set = #blk, access_tile_order = #id2} : memref<32x256xf16> -> !ktdp.access_tile<1x64xindex>
        %tw = ktdp.construct_access_tile %W[%row, %off] {access_tile_set = #blk, access_tile_order = #id2} : memref<32x256xf16> -> !ktdp.access_tile<1x64xindex>
        %x = ktdp.load %tx : <1x64xindex> -> tensor<1x64xf16>
        %w = ktdp.load %tw : <1x64xindex> -> tensor<1x64xf16>
        %s = arith.addf %x, %w : tensor<1x64xf16>
        %hb = tensor.splat %half : tensor<1x64xf16>
        %y = arith.mulf %s, %hb : tensor<1x64xf16>
        %ty = ktdp.construct_access_tile %Y[%row, %off] {access_tile_set = #blk, access_tile_order = #id2} : memref<32x256xf16> -> !ktdp.access_tile<1x64xindex>
        ktdp.store %y, %ty : tensor<1x64xf16>, <1x64xindex>
        %next = arith.addi %off, %BLOCK_SIZE : index
        scf.yield %next : index
      }
    }
    return
  }
}
