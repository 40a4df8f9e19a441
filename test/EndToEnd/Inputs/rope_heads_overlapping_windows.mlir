// rope_heads.mlir with its constant 16 (positions per grid point) set to
// 17 (mutant 3676 of the mutation campaign, issue 17): grid point ps takes
// positions [17ps, 17ps + 17) in 8-row tiles, so its windows overlap the
// next grid point's (rows 17..23 of ps 0 and 1), and ps = 3 reaches
// positions 67..74, past COS/SIN (masked to 0), whose rows h*64 + s land on
// the next head's rows. The stores of different grid points overlap with
// different values; every bound is a constant, so the scheduler refuses it.
// rope_heads.mlir - rotary position embedding (RoPE, half-split form) over
// a [heads * positions, head_dim] activation, with a position loop that
// loads cos/sin once and a head loop inside it that reuses them.
//
// Computes, for head h < 4, position s < 64, j < 16, all f16 (each op
// rounds to f16):
//   r           = h * 64 + s                         (row of X and OUT)
//   x1 = X[r, j], x2 = X[r, j + 16], c = COS[s, j], sn = SIN[s, j]
//   OUT[r, j]      = f16(f16(x1 * c) - f16(x2 * sn))
//   OUT[r, j + 16] = f16(f16(x2 * c) + f16(x1 * sn))
//
// Grid [4, 2] with two comma-form ids: ps takes positions [16ps, 16ps + 16)
// in two chunks of 8; ph takes heads [2ph, 2ph + 2). The cos/sin chunk is
// loaded in the outer loop and captured by the inner head loop.

#x_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 255 >= 0, d1 >= 0, -d1 + 31 >= 0)>
#cs_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 15 >= 0)>
#half = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 15 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @rope_fwd(%x_ptr: index,    // X:   256x32 f16, row h*64 + s (input)
                      %cos_ptr: index,  // COS: 64x16 f16 (input)
                      %sin_ptr: index,  // SIN: 64x16 f16 (input)
                      %out_ptr: index)  // OUT: 256x32 f16 (output)
      attributes {grid = [4, 2]} {
    %ps, %ph = ktdp.get_compute_tile_id : index, index
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c8 = arith.constant 8 : index
    %c16 = arith.constant 17 : index
    %c64 = arith.constant 64 : index
    %X = ktdp.construct_memory_view %x_ptr, sizes: [256, 32], strides: [32, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<256x32xf16>
    %COS = ktdp.construct_memory_view %cos_ptr, sizes: [64, 16], strides: [16, 1] {coordinate_set = #cs_set, memory_space = #ktdp.memory_space<global>} : memref<64x16xf16>
    %SIN = ktdp.construct_memory_view %sin_ptr, sizes: [64, 16], strides: [16, 1] {coordinate_set = #cs_set, memory_space = #ktdp.memory_space<global>} : memref<64x16xf16>
    %OUT = ktdp.construct_memory_view %out_ptr, sizes: [256, 32], strides: [32, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<256x32xf16>
    %s_begin = arith.muli %ps, %c16 : index
    %s_end = arith.addi %s_begin, %c16 : index
    %h_begin = arith.muli %ph, %c2 : index
    %h_end = arith.addi %h_begin, %c2 : index
    scf.for %s0 = %s_begin to %s_end step %c8 : index {
      %tcos = ktdp.construct_access_tile %COS[%s0, 0] {access_tile_set = #half, access_tile_order = #id2} : memref<64x16xf16> -> !ktdp.access_tile<8x16xindex>
      %tsin = ktdp.construct_access_tile %SIN[%s0, 0] {access_tile_set = #half, access_tile_order = #id2} : memref<64x16xf16> -> !ktdp.access_tile<8x16xindex>
      %cos = ktdp.load %tcos : <8x16xindex> -> tensor<8x16xf16>
      %sin = ktdp.load %tsin : <8x16xindex> -> tensor<8x16xf16>
      scf.for %h = %h_begin to %h_end step %c1 : index {
        %hrow = arith.muli %h, %c64 : index
        %row = arith.addi %hrow, %s0 : index
        %t1 = ktdp.construct_access_tile %X[%row, 0] {access_tile_set = #half, access_tile_order = #id2} : memref<256x32xf16> -> !ktdp.access_tile<8x16xindex>
        %t2 = ktdp.construct_access_tile %X[%row, 16] {access_tile_set = #half, access_tile_order = #id2} : memref<256x32xf16> -> !ktdp.access_tile<8x16xindex>
        %x1 = ktdp.load %t1 : <8x16xindex> -> tensor<8x16xf16>
        %x2 = ktdp.load %t2 : <8x16xindex> -> tensor<8x16xf16>
        %x1c = arith.mulf %x1, %cos : tensor<8x16xf16>
        %x2s = arith.mulf %x2, %sin : tensor<8x16xf16>
        %o1 = arith.subf %x1c, %x2s : tensor<8x16xf16>
        %x2c = arith.mulf %x2, %cos : tensor<8x16xf16>
        %x1s = arith.mulf %x1, %sin : tensor<8x16xf16>
        %o2 = arith.addf %x2c, %x1s : tensor<8x16xf16>
        %u1 = ktdp.construct_access_tile %OUT[%row, 0] {access_tile_set = #half, access_tile_order = #id2} : memref<256x32xf16> -> !ktdp.access_tile<8x16xindex>
        %u2 = ktdp.construct_access_tile %OUT[%row, 16] {access_tile_set = #half, access_tile_order = #id2} : memref<256x32xf16> -> !ktdp.access_tile<8x16xindex>
        ktdp.store %o1, %u1 : tensor<8x16xf16>, <8x16xindex>
        ktdp.store %o2, %u2 : tensor<8x16xf16>, <8x16xindex>
        scf.yield
      }
      scf.yield
    }
    return
  }
}
