// rope_halves_heads.mlir - RoPE (half-split form) as Triton writes its head
// loop: a run-time count of heads per tile (an i32 argument) bounds the
// inner loop, whose row offset is computed from the head; comma-form tile
// ids over a [4, 2] grid.
//
// Computes, for head h < 2 * heads, position s < 64, j < 16, all f16:
//   r = h * 64 + s; x1 = X[r, j], x2 = X[r, j + 16], c = COS[s, j],
//   sn = SIN[s, j]
//   OUT[r, j]      = f16(f16(x1 * c) - f16(x2 * sn))
//   OUT[r, j + 16] = f16(f16(x2 * c) + f16(x1 * sn))
// Tile (ps, ph) takes positions [16ps, 16ps + 16) in two chunks of 8 and
// heads [ph * heads, (ph + 1) * heads); X and OUT are 256x32 f16 (heads =
// 2), COS and SIN 64x16 f16.

#x_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 255 >= 0, d1 >= 0, -d1 + 31 >= 0)>
#cs_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 15 >= 0)>
#half = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 15 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @rope_fwd(%x_ptr: index, %cos_ptr: index, %sin_ptr: index,
                      %out_ptr: index, %heads: i32) attributes {grid = [4, 2]} {
    %ps, %ph = ktdp.get_compute_tile_id : index, index
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %c16 = arith.constant 16 : index
    %c64 = arith.constant 64 : index
    %nh = arith.index_cast %heads : i32 to index
    %X = ktdp.construct_memory_view %x_ptr, sizes: [256, 32], strides: [32, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<256x32xf16>
    %COS = ktdp.construct_memory_view %cos_ptr, sizes: [64, 16], strides: [16, 1] {coordinate_set = #cs_set, memory_space = #ktdp.memory_space<global>} : memref<64x16xf16>
    %SIN = ktdp.construct_memory_view %sin_ptr, sizes: [64, 16], strides: [16, 1] {coordinate_set = #cs_set, memory_space = #ktdp.memory_space<global>} : memref<64x16xf16>
    %OUT = ktdp.construct_memory_view %out_ptr, sizes: [256, 32], strides: [32, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<256x32xf16>
    %s_begin = arith.muli %ps, %c16 : index
    %s_end = arith.addi %s_begin, %c16 : index
    %h_begin = arith.muli %ph, %nh : index
    %row_begin = arith.muli %h_begin, %c64 : index
    scf.for %s0 = %s_begin to %s_end step %c8 : index {
      %tcos = ktdp.construct_access_tile %COS[%s0, 0] {access_tile_set = #half, access_tile_order = #id2} : memref<64x16xf16> -> !ktdp.access_tile<8x16xindex>
      %tsin = ktdp.construct_access_tile %SIN[%s0, 0] {access_tile_set = #half, access_tile_order = #id2} : memref<64x16xf16> -> !ktdp.access_tile<8x16xindex>
      %cos = ktdp.load %tcos : <8x16xindex> -> tensor<8x16xf16>
      %sin = ktdp.load %tsin : <8x16xindex> -> tensor<8x16xf16>
      %row0 = arith.addi %row_begin, %s0 : index
      scf.for %h = %c0 to %nh step %c1 : index {
        %hrow = arith.muli %h, %c64 : index
        %row = arith.addi %row0, %hrow : index
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
