// rope_163840x128.mlir - benchmark shape of the RoPE forward kernel
// (ktir-field-guide.md §3 item 3; examples/kernels/realworld/rope_heads.mlir
// at full size): rotary position embedding, half-split form, over 40 heads
// x 4096 positions of head_dim 128.
//
// Computes, for head h < 40, position s < 4096, j < 64, all f16:
//   r = h * 4096 + s; x1 = X[r, j], x2 = X[r, j + 64], c = COS[s, j],
//   sn = SIN[s, j]
//   OUT[r, j]      = f16(f16(x1 * c) - f16(x2 * sn))
//   OUT[r, j + 64] = f16(f16(x2 * c) + f16(x1 * sn))
//
// Grid [4, 2]: ps takes positions [1024ps, 1024ps + 1024) in four chunks of
// 256, whose 256x64 cos/sin pair is loaded once; ph takes heads
// [20ph, 20ph + 20), each loading two 256x64 halves and storing two.

#x_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 163839 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#cs_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 4095 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#half = affine_set<(d0, d1) : (d0 >= 0, -d0 + 255 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @rope_fwd(%x_ptr: index,    // X:   163840x128 f16, row h*4096 + s (input)
                      %cos_ptr: index,  // COS: 4096x64 f16 (input)
                      %sin_ptr: index,  // SIN: 4096x64 f16 (input)
                      %out_ptr: index)  // OUT: 163840x128 f16 (output)
      attributes {grid = [4, 2]} {
    %ps, %ph = ktdp.get_compute_tile_id : index, index
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c20 = arith.constant 20 : index
    %c256 = arith.constant 256 : index
    %c1024 = arith.constant 1024 : index
    %c4096 = arith.constant 4096 : index
    %X = ktdp.construct_memory_view %x_ptr, sizes: [163840, 128], strides: [128, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<163840x128xf16>
    %COS = ktdp.construct_memory_view %cos_ptr, sizes: [4096, 64], strides: [64, 1] {coordinate_set = #cs_set, memory_space = #ktdp.memory_space<global>} : memref<4096x64xf16>
    %SIN = ktdp.construct_memory_view %sin_ptr, sizes: [4096, 64], strides: [64, 1] {coordinate_set = #cs_set, memory_space = #ktdp.memory_space<global>} : memref<4096x64xf16>
    %OUT = ktdp.construct_memory_view %out_ptr, sizes: [163840, 128], strides: [128, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<163840x128xf16>
    %s_begin = arith.muli %ps, %c1024 : index
    %s_end = arith.addi %s_begin, %c1024 : index
    %h_begin = arith.muli %ph, %c20 : index
    %h_end = arith.addi %h_begin, %c20 : index
    scf.for %s0 = %s_begin to %s_end step %c256 : index {
      %tcos = ktdp.construct_access_tile %COS[%s0, 0] {access_tile_set = #half, access_tile_order = #id2} : memref<4096x64xf16> -> !ktdp.access_tile<256x64xindex>
      %tsin = ktdp.construct_access_tile %SIN[%s0, 0] {access_tile_set = #half, access_tile_order = #id2} : memref<4096x64xf16> -> !ktdp.access_tile<256x64xindex>
      %cos = ktdp.load %tcos : <256x64xindex> -> tensor<256x64xf16>
      %sin = ktdp.load %tsin : <256x64xindex> -> tensor<256x64xf16>
      scf.for %h = %h_begin to %h_end step %c1 : index {
        %hrow = arith.muli %h, %c4096 : index
        %row = arith.addi %hrow, %s0 : index
        %t1 = ktdp.construct_access_tile %X[%row, 0] {access_tile_set = #half, access_tile_order = #id2} : memref<163840x128xf16> -> !ktdp.access_tile<256x64xindex>
        %t2 = ktdp.construct_access_tile %X[%row, 64] {access_tile_set = #half, access_tile_order = #id2} : memref<163840x128xf16> -> !ktdp.access_tile<256x64xindex>
        %x1 = ktdp.load %t1 : <256x64xindex> -> tensor<256x64xf16>
        %x2 = ktdp.load %t2 : <256x64xindex> -> tensor<256x64xf16>
        %x1c = arith.mulf %x1, %cos : tensor<256x64xf16>
        %x2s = arith.mulf %x2, %sin : tensor<256x64xf16>
        %o1 = arith.subf %x1c, %x2s : tensor<256x64xf16>
        %x2c = arith.mulf %x2, %cos : tensor<256x64xf16>
        %x1s = arith.mulf %x1, %sin : tensor<256x64xf16>
        %o2 = arith.addf %x2c, %x1s : tensor<256x64xf16>
        %u1 = ktdp.construct_access_tile %OUT[%row, 0] {access_tile_set = #half, access_tile_order = #id2} : memref<163840x128xf16> -> !ktdp.access_tile<256x64xindex>
        %u2 = ktdp.construct_access_tile %OUT[%row, 64] {access_tile_set = #half, access_tile_order = #id2} : memref<163840x128xf16> -> !ktdp.access_tile<256x64xindex>
        ktdp.store %o1, %u1 : tensor<256x64xf16>, <256x64xindex>
        ktdp.store %o2, %u2 : tensor<256x64xf16>, <256x64xindex>
        scf.yield
      }
      scf.yield
    }
    return
  }
}
