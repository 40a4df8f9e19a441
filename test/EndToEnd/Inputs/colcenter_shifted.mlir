// colcenter_shifted.mlir - colcenter_blocks with Z = X - colmean(X) + Y:
// a 64 x 256 f16 matrix X split by rows over 4 tiles (16 rows each), a
// loop over 4 column blocks of 64 sums the tile's 16 rows of the block,
// all-reduces the 64 sums over the 4 tiles, and stores x - sum / 64 + y,
// Y loaded after the all-reduce. The f16 rounding of x - mean absorbs a
// move of the mean one way and not the other (docs/interpreter.md §9).
//
// Arguments: %x_ptr X (64x256 f16, input), %y_ptr Y (64x320 f16, input),
// %z_ptr Z (64x320 f16, output; columns 256.. not written).

#m_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 255 >= 0)>
#y_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 319 >= 0)>
#blk = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#all4 = affine_set<(i)[g] : (i >= 0, -i + 3 >= 0, g == 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#bcast = affine_map<(d0, d1) -> (d1)>
func.func @colcenter(%x_ptr: index, %y_ptr: index, %z_ptr: index) attributes {grid = [4]} {
  %pid = ktdp.get_compute_tile_id : index
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %c64 = arith.constant 64 : index
  %c256 = arith.constant 256 : index
  %X = ktdp.construct_memory_view %x_ptr, sizes: [64, 256], strides: [256, 1] {coordinate_set = #m_set, memory_space = #ktdp.memory_space<global>} : memref<64x256xf16>
  %Y = ktdp.construct_memory_view %y_ptr, sizes: [64, 320], strides: [320, 1] {coordinate_set = #y_set, memory_space = #ktdp.memory_space<global>} : memref<64x320xf16>
  %Z = ktdp.construct_memory_view %z_ptr, sizes: [64, 320], strides: [320, 1] {coordinate_set = #y_set, memory_space = #ktdp.memory_space<global>} : memref<64x320xf16>
  %row = arith.muli %pid, %c16 : index
  %zeros = arith.constant dense<0.0> : tensor<64xf16>
  %ident = arith.constant dense<0.0> : tensor<64xf16>
  %n = arith.constant dense<64.0> : tensor<64xf16>
  scf.for %col = %c0 to %c256 step %c64 {
    %tx = ktdp.construct_access_tile %X[%row, %col] {access_tile_set = #blk, access_tile_order = #id2} : memref<64x256xf16> -> !ktdp.access_tile<16x64xindex>
    %x = ktdp.load %tx : <16x64xindex> -> tensor<16x64xf16>
    %part = linalg.reduce { arith.addf } ins(%x : tensor<16x64xf16>) outs(%zeros : tensor<64xf16>) dimensions = [0]
    %f = ktdp.inter_tile_produce producer_tiles_per_group = #all4
        : tensor<64xf16> -> !ktdp.tile_future<tensor<64xf16>, groups = affine_set<(g) : (g == 0)>> {
    ^bb0(%g: index):
      ktdp.yield_partial %part : tensor<64xf16>
    }
    %sum = ktdp.inter_tile_reduce(%f) consumer_tiles_per_group = #all4, identity(%ident : tensor<64xf16>)
        : !ktdp.tile_future<tensor<64xf16>, groups = affine_set<(g) : (g == 0)>> -> tensor<64xf16> {
    ^bb0(%a: tensor<64xf16>, %b: tensor<64xf16>):
      %s = arith.addf %a, %b : tensor<64xf16>
      ktdp.yield_reduced %s : tensor<64xf16>
    }
    %tp = ktdp.construct_access_tile %Y[%row, %col] {access_tile_set = #blk, access_tile_order = #id2} : memref<64x320xf16> -> !ktdp.access_tile<16x64xindex>
    %yp = ktdp.load %tp : <16x64xindex> -> tensor<16x64xf16>
    %mean = arith.divf %sum, %n : tensor<64xf16>
    %empty = tensor.empty() : tensor<16x64xf16>
    %y = linalg.generic {indexing_maps = [#id2, #bcast, #id2, #id2], iterator_types = ["parallel", "parallel"]}
        ins(%x, %mean, %yp : tensor<16x64xf16>, tensor<64xf16>, tensor<16x64xf16>) outs(%empty : tensor<16x64xf16>) {
    ^bb0(%a: f16, %m: f16, %q: f16, %o: f16):
      %d = arith.subf %a, %m : f16
      %e = arith.addf %d, %q : f16
      linalg.yield %e : f16
    } -> tensor<16x64xf16>
    %colnext = arith.addi %col, %c64 : index
    %ty = ktdp.construct_access_tile %Z[%row, %col] {access_tile_set = #blk, access_tile_order = #id2} : memref<64x320xf16> -> !ktdp.access_tile<16x64xindex>
    ktdp.store %y, %ty : tensor<16x64xf16>, <16x64xindex>
  }
  return
}
