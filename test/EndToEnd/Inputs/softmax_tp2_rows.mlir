// softmax_tp2_rows.mlir - row softmax of a 320 x 256 f16 matrix on a [2, 4]
// grid: pc picks the column half, pb the band of 80 rows. Each trip (80 per
// band, more than ktdf-unroll-carried-loops unrolls) all-reduces the row
// maximum and then the f32 row sum of exponentials over the two tiles of
// the band: two all-reduces in one loop.
//
// Computes, for each row r, c < 256:
//   m    = max(max_{half 0} x, max_{half 1} x)          (f16)
//   e[c] = exp(f32(x[r, c]) - f32(m))                   (f32)
//   s    = (0 + sum_{half 0} e) + sum_{half 1} e         (f32)
//   Y[r, c] = f16(e[c] / s)
// e is recomputed from x after the second all-reduce, but from f32(m),
// converted before it: the scheduler refuses the kernel
// (realworld-refusals.test).
//
// Linear tile id = pc + 2 pb: the band's two tiles are the contiguous pair
// {2 pb, 2 pb + 1}, group g = pb.

#x_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 319 >= 0, d1 >= 0, -d1 + 255 >= 0)>
#row_blk = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 127 >= 0)>
#band = affine_set<(i)[g] : (i - 2*g >= 0, -i + 2*g + 1 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @softmax_tp2(%x_ptr: index,   // X: 320x256 f16 (input)
                         %y_ptr: index)   // Y: 320x256 f16 (output)
      attributes {grid = [2, 4]} {
    %pc, %pb = ktdp.get_compute_tile_id : index, index
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c80 = arith.constant 80 : index
    %c128 = arith.constant 128 : index
    %X = ktdp.construct_memory_view %x_ptr, sizes: [320, 256], strides: [256, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<320x256xf16>
    %Y = ktdp.construct_memory_view %y_ptr, sizes: [320, 256], strides: [256, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<320x256xf16>
    %col = arith.muli %pc, %c128 : index
    %row0 = arith.muli %pb, %c80 : index
    %ninf = arith.constant 0xFC00 : f16
    %zero = arith.constant 0.000000e+00 : f32
    %minit = tensor.splat %ninf : tensor<1xf16>
    %sinit = tensor.splat %zero : tensor<1xf32>
    scf.for %i = %c0 to %c80 step %c1 : index {
      %r = arith.addi %row0, %i : index
      %tx = ktdp.construct_access_tile %X[%r, %col] {access_tile_set = #row_blk, access_tile_order = #id2} : memref<320x256xf16> -> !ktdp.access_tile<1x128xindex>
      %x = ktdp.load %tx : <1x128xindex> -> tensor<1x128xf16>
      %pm = linalg.reduce { arith.maxnumf } ins(%x : tensor<1x128xf16>) outs(%minit : tensor<1xf16>) dimensions = [1]
      %fm = ktdp.inter_tile_produce producer_tiles_per_group = #band
          : tensor<1xf16> -> !ktdp.tile_future<tensor<1xf16>, groups = affine_set<(g) : (g >= 0, -g + 3 >= 0)>> {
      ^bb0(%g: index):
        ktdp.yield_partial %pm : tensor<1xf16>
      }
      %m = ktdp.inter_tile_reduce(%fm) consumer_tiles_per_group = #band, identity(%minit : tensor<1xf16>)
          : !ktdp.tile_future<tensor<1xf16>, groups = affine_set<(g) : (g >= 0, -g + 3 >= 0)>> -> tensor<1xf16> {
      ^bb0(%a: tensor<1xf16>, %b: tensor<1xf16>):
        %s = arith.maxnumf %a, %b : tensor<1xf16>
        ktdp.yield_reduced %s : tensor<1xf16>
      }
      %ms = tensor.extract %m[%c0] : tensor<1xf16>
      %msf = arith.extf %ms : f16 to f32
      %mb = tensor.splat %msf : tensor<1x128xf32>
      %xf = arith.extf %x : tensor<1x128xf16> to tensor<1x128xf32>
      %d = arith.subf %xf, %mb : tensor<1x128xf32>
      %e = math.exp %d : tensor<1x128xf32>
      %ps = linalg.reduce { arith.addf } ins(%e : tensor<1x128xf32>) outs(%sinit : tensor<1xf32>) dimensions = [1]
      %fs = ktdp.inter_tile_produce producer_tiles_per_group = #band
          : tensor<1xf32> -> !ktdp.tile_future<tensor<1xf32>, groups = affine_set<(g) : (g >= 0, -g + 3 >= 0)>> {
      ^bb0(%g: index):
        ktdp.yield_partial %ps : tensor<1xf32>
      }
      %s = ktdp.inter_tile_reduce(%fs) consumer_tiles_per_group = #band, identity(%sinit : tensor<1xf32>)
          : !ktdp.tile_future<tensor<1xf32>, groups = affine_set<(g) : (g >= 0, -g + 3 >= 0)>> -> tensor<1xf32> {
      ^bb0(%a: tensor<1xf32>, %b: tensor<1xf32>):
        %t = arith.addf %a, %b : tensor<1xf32>
        ktdp.yield_reduced %t : tensor<1xf32>
      }
      %ss = tensor.extract %s[%c0] : tensor<1xf32>
      %sb = tensor.splat %ss : tensor<1x128xf32>
      %xf2 = arith.extf %x : tensor<1x128xf16> to tensor<1x128xf32>
      %mb2 = tensor.splat %msf : tensor<1x128xf32>
      %d2 = arith.subf %xf2, %mb2 : tensor<1x128xf32>
      %e2 = math.exp %d2 : tensor<1x128xf32>
      %q = arith.divf %e2, %sb : tensor<1x128xf32>
      %y = arith.truncf %q : tensor<1x128xf32> to tensor<1x128xf16>
      %ty = ktdp.construct_access_tile %Y[%r, %col] {access_tile_set = #row_blk, access_tile_order = #id2} : memref<320x256xf16> -> !ktdp.access_tile<1x128xindex>
      ktdp.store %y, %ty : tensor<1x128xf16>, <1x128xindex>
      scf.yield
    }
    return
  }
}
