// uneven_around_allreduce_6.mlir - uneven work per tile on both sides of
// a loop that holds an all-reduce, on a [6] grid in two groups of three
// contiguous tiles: the tiles deal the 50 rows of Z cyclically (9, 9, 8,
// 8, 8 and 8 rows) and scale them into V, then walk 70 column blocks of
// their 8 rows of X, all-reducing the column sums inside their group (the
// exchange stays in the loop) and storing X minus the group's column mean,
// then deal the 50 rows of Z again and store Z + 1 into W. On
// sample_device two tiles share each of cores 0 and 1 (and its DMA
// engines) with different row counts.
//
// Computes, all f16:
//   V[r, :] = z[r, :] * 0.5,  W[r, :] = z[r, :] + 1              for r < 50
//   per group g (rows 24g .. 24g + 23) and 64-column block b:
//   m = f16(fold of the group's 3 column sums) / 24;  Y[r, 64b + c] = x[r, 64b + c] - m[c]

#z_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 49 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#x_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 47 >= 0, d1 >= 0, -d1 + 4479 >= 0)>
#row = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 127 >= 0)>
#blk = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#all3 = affine_set<(i)[g] : (i - 3*g >= 0, -i + 3*g + 2 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#bcast = affine_map<(d0, d1) -> (d1)>
module {
  func.func @uneven_around_allreduce(%z_ptr: index,  // Z: 50x128 f16 (input)
                                     %v_ptr: index,  // V: 50x128 f16 (output)
                                     %x_ptr: index,  // X: 48x4480 f16 (input)
                                     %y_ptr: index,  // Y: 48x4480 f16 (output)
                                     %w_ptr: index,  // W: 50x128 f16 (output)
                                     %n_rows: index) // 50
      attributes {grid = [6]} {
    %pid = ktdp.get_compute_tile_id : index
    %c0 = arith.constant 0 : index
    %c3 = arith.constant 6 : index
    %c8 = arith.constant 8 : index
    %c64 = arith.constant 64 : index
    %c4480 = arith.constant 4480 : index
    %Z = ktdp.construct_memory_view %z_ptr, sizes: [50, 128], strides: [128, 1] {coordinate_set = #z_set, memory_space = #ktdp.memory_space<global>} : memref<50x128xf16>
    %V = ktdp.construct_memory_view %v_ptr, sizes: [50, 128], strides: [128, 1] {coordinate_set = #z_set, memory_space = #ktdp.memory_space<global>} : memref<50x128xf16>
    %W = ktdp.construct_memory_view %w_ptr, sizes: [50, 128], strides: [128, 1] {coordinate_set = #z_set, memory_space = #ktdp.memory_space<global>} : memref<50x128xf16>
    %X = ktdp.construct_memory_view %x_ptr, sizes: [48, 4480], strides: [4480, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<48x4480xf16>
    %Y = ktdp.construct_memory_view %y_ptr, sizes: [48, 4480], strides: [4480, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<48x4480xf16>
    %half = arith.constant dense<5.000000e-01> : tensor<1x128xf16>
    %one = arith.constant dense<1.000000e+00> : tensor<1x128xf16>
    scf.for %r = %pid to %n_rows step %c3 : index {
      %tz = ktdp.construct_access_tile %Z[%r, 0] {access_tile_set = #row, access_tile_order = #id2} : memref<50x128xf16> -> !ktdp.access_tile<1x128xindex>
      %z = ktdp.load %tz : <1x128xindex> -> tensor<1x128xf16>
      %v = arith.mulf %z, %half : tensor<1x128xf16>
      %tv = ktdp.construct_access_tile %V[%r, 0] {access_tile_set = #row, access_tile_order = #id2} : memref<50x128xf16> -> !ktdp.access_tile<1x128xindex>
      ktdp.store %v, %tv : tensor<1x128xf16>, <1x128xindex>
    }
    %row0 = arith.muli %pid, %c8 : index
    %zero = arith.constant dense<0.0> : tensor<64xf16>
    %n = arith.constant dense<24.0> : tensor<64xf16>
    scf.for %col = %c0 to %c4480 step %c64 : index {
      %tx = ktdp.construct_access_tile %X[%row0, %col] {access_tile_set = #blk, access_tile_order = #id2} : memref<48x4480xf16> -> !ktdp.access_tile<8x64xindex>
      %x = ktdp.load %tx : <8x64xindex> -> tensor<8x64xf16>
      %p = linalg.reduce { arith.addf } ins(%x : tensor<8x64xf16>) outs(%zero : tensor<64xf16>) dimensions = [0]
      %f = ktdp.inter_tile_produce producer_tiles_per_group = #all3
          : tensor<64xf16> -> !ktdp.tile_future<tensor<64xf16>, groups = affine_set<(g) : (g >= 0, -g + 1 >= 0)>> {
      ^bb0(%g: index):
        ktdp.yield_partial %p : tensor<64xf16>
      }
      %s = ktdp.inter_tile_reduce(%f) consumer_tiles_per_group = #all3, identity(%zero : tensor<64xf16>)
          : !ktdp.tile_future<tensor<64xf16>, groups = affine_set<(g) : (g >= 0, -g + 1 >= 0)>> -> tensor<64xf16> {
      ^bb0(%a: tensor<64xf16>, %b: tensor<64xf16>):
        %t = arith.addf %a, %b : tensor<64xf16>
        ktdp.yield_reduced %t : tensor<64xf16>
      }
      %m = arith.divf %s, %n : tensor<64xf16>
      %e = tensor.empty() : tensor<8x64xf16>
      %y = linalg.generic {indexing_maps = [#id2, #bcast, #id2], iterator_types = ["parallel", "parallel"]}
          ins(%x, %m : tensor<8x64xf16>, tensor<64xf16>) outs(%e : tensor<8x64xf16>) {
      ^bb0(%a: f16, %mm: f16, %o: f16):
        %d = arith.subf %a, %mm : f16
        linalg.yield %d : f16
      } -> tensor<8x64xf16>
      %ty = ktdp.construct_access_tile %Y[%row0, %col] {access_tile_set = #blk, access_tile_order = #id2} : memref<48x4480xf16> -> !ktdp.access_tile<8x64xindex>
      ktdp.store %y, %ty : tensor<8x64xf16>, <8x64xindex>
    }
    scf.for %r = %pid to %n_rows step %c3 : index {
      %tz = ktdp.construct_access_tile %Z[%r, 0] {access_tile_set = #row, access_tile_order = #id2} : memref<50x128xf16> -> !ktdp.access_tile<1x128xindex>
      %z = ktdp.load %tz : <1x128xindex> -> tensor<1x128xf16>
      %w = arith.addf %z, %one : tensor<1x128xf16>
      %tw = ktdp.construct_access_tile %W[%r, 0] {access_tile_set = #row, access_tile_order = #id2} : memref<50x128xf16> -> !ktdp.access_tile<1x128xindex>
      ktdp.store %w, %tw : tensor<1x128xf16>, <1x128xindex>
    }
    return
  }
}
