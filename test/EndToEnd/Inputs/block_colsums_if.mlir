// block_colsums_if.mlir - column means of 80 column blocks: 4 tiles each
// own 16 rows of a 64 x 5120 f16 matrix; a loop over the 80 column blocks
// of 64 sums the tile's rows, all-reduces the 64 sums over the tiles, and
// tile 0 stores them times 1/64 as row b of S (80 x 64), inside an scf.if
// in the loop.
//
// Computes, for b < 80, c < 64, all f16:
//   p_t = f16(sum of the tile's 16 rows of block b)    (f32 accumulation)
//   S[b, c] = f16(f16(f16(f16(f16(0 + p_0) + p_1) + p_2) + p_3) * 0.015625)

#x_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 5119 >= 0)>
#s_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 79 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#blk = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#srow = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 63 >= 0)>
#all4 = affine_set<(i)[g] : (i >= 0, -i + 3 >= 0, g == 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @block_colsums(%x_ptr: index,  // X: 64x5120 f16 (input)
                           %s_ptr: index)  // S: 80x64 f16 (output, tile 0)
      attributes {grid = [4]} {
    %pid = ktdp.get_compute_tile_id : index
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c16 = arith.constant 16 : index
    %c64 = arith.constant 64 : index
    %c80 = arith.constant 80 : index
    %X = ktdp.construct_memory_view %x_ptr, sizes: [64, 5120], strides: [5120, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<64x5120xf16>
    %S = ktdp.construct_memory_view %s_ptr, sizes: [80, 64], strides: [64, 1] {coordinate_set = #s_set, memory_space = #ktdp.memory_space<global>} : memref<80x64xf16>
    %row = arith.muli %pid, %c16 : index
    %zero = arith.constant dense<0.0> : tensor<1x64xf16>
    %zero1 = arith.constant dense<0.0> : tensor<64xf16>
    %is0 = arith.cmpi eq, %pid, %c0 : index
    %inv = arith.constant dense<1.562500e-02> : tensor<1x64xf16>
    scf.for %b = %c0 to %c80 step %c1 {
      %col = arith.muli %b, %c64 : index
      %tx = ktdp.construct_access_tile %X[%row, %col] {access_tile_set = #blk, access_tile_order = #id2} : memref<64x5120xf16> -> !ktdp.access_tile<16x64xindex>
      %x = ktdp.load %tx : <16x64xindex> -> tensor<16x64xf16>
      %p1 = linalg.reduce { arith.addf } ins(%x : tensor<16x64xf16>) outs(%zero1 : tensor<64xf16>) dimensions = [0]
      %p = tensor.expand_shape %p1 [[0, 1]] output_shape [1, 64] : tensor<64xf16> into tensor<1x64xf16>
      %f = ktdp.inter_tile_produce producer_tiles_per_group = #all4
          : tensor<1x64xf16> -> !ktdp.tile_future<tensor<1x64xf16>, groups = affine_set<(g) : (g == 0)>> {
      ^bb0(%g: index):
        ktdp.yield_partial %p : tensor<1x64xf16>
      }
      %s = ktdp.inter_tile_reduce(%f) consumer_tiles_per_group = #all4, identity(%zero : tensor<1x64xf16>)
          : !ktdp.tile_future<tensor<1x64xf16>, groups = affine_set<(g) : (g == 0)>> -> tensor<1x64xf16> {
      ^bb0(%a: tensor<1x64xf16>, %c: tensor<1x64xf16>):
        %t = arith.addf %a, %c : tensor<1x64xf16>
        ktdp.yield_reduced %t : tensor<1x64xf16>
      }
      %m = arith.mulf %s, %inv : tensor<1x64xf16>
      scf.if %is0 {
        %ts = ktdp.construct_access_tile %S[%b, 0] {access_tile_set = #srow, access_tile_order = #id2} : memref<80x64xf16> -> !ktdp.access_tile<1x64xindex>
        ktdp.store %m, %ts : tensor<1x64xf16>, <1x64xindex>
      }
    }
    return
  }
}
