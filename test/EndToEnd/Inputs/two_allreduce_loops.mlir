// two_allreduce_loops.mlir - two sibling loops, each holding an all-reduce of 70
// trips (kept in the loops), on a [3] grid: tile t owns rows 8t .. 8t + 7
// of two 24 x 4480 f16 matrices X and Z; the first loop stores X minus the
// per-block column mean, the second Z times the per-block column maximum.
//
// Computes, per 64-column block b, all f16:
//   mx = f16(fold of the 3 tiles' f16 column sums of X) / 24;  Y = X - mx
//   mz = max over the 3 tiles of the column maxima of Z;       V = Z * mz

#m_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 23 >= 0, d1 >= 0, -d1 + 4479 >= 0)>
#blk = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#all3 = affine_set<(i)[g] : (i >= 0, -i + 2 >= 0, g == 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#bcast = affine_map<(d0, d1) -> (d1)>
module {
  func.func @two_passes(%x_ptr: index,  // X: 24x4480 f16 (input)
                        %z_ptr: index,  // Z: 24x4480 f16 (input)
                        %y_ptr: index,  // Y: 24x4480 f16 (output)
                        %v_ptr: index)  // V: 24x4480 f16 (output)
      attributes {grid = [3]} {
    %pid = ktdp.get_compute_tile_id : index
    %c0 = arith.constant 0 : index
    %c8 = arith.constant 8 : index
    %c64 = arith.constant 64 : index
    %c4480 = arith.constant 4480 : index
    %X = ktdp.construct_memory_view %x_ptr, sizes: [24, 4480], strides: [4480, 1] {coordinate_set = #m_set, memory_space = #ktdp.memory_space<global>} : memref<24x4480xf16>
    %Z = ktdp.construct_memory_view %z_ptr, sizes: [24, 4480], strides: [4480, 1] {coordinate_set = #m_set, memory_space = #ktdp.memory_space<global>} : memref<24x4480xf16>
    %Y = ktdp.construct_memory_view %y_ptr, sizes: [24, 4480], strides: [4480, 1] {coordinate_set = #m_set, memory_space = #ktdp.memory_space<global>} : memref<24x4480xf16>
    %V = ktdp.construct_memory_view %v_ptr, sizes: [24, 4480], strides: [4480, 1] {coordinate_set = #m_set, memory_space = #ktdp.memory_space<global>} : memref<24x4480xf16>
    %row = arith.muli %pid, %c8 : index
    %zero = arith.constant dense<0.0> : tensor<64xf16>
    %ninf = arith.constant dense<0xFC00> : tensor<64xf16>
    %n = arith.constant dense<24.0> : tensor<64xf16>
    scf.for %col = %c0 to %c4480 step %c64 : index {
      %tx = ktdp.construct_access_tile %X[%row, %col] {access_tile_set = #blk, access_tile_order = #id2} : memref<24x4480xf16> -> !ktdp.access_tile<8x64xindex>
      %x = ktdp.load %tx : <8x64xindex> -> tensor<8x64xf16>
      %p = linalg.reduce { arith.addf } ins(%x : tensor<8x64xf16>) outs(%zero : tensor<64xf16>) dimensions = [0]
      %f = ktdp.inter_tile_produce producer_tiles_per_group = #all3
          : tensor<64xf16> -> !ktdp.tile_future<tensor<64xf16>, groups = affine_set<(g) : (g == 0)>> {
      ^bb0(%g: index):
        ktdp.yield_partial %p : tensor<64xf16>
      }
      %s = ktdp.inter_tile_reduce(%f) consumer_tiles_per_group = #all3, identity(%zero : tensor<64xf16>)
          : !ktdp.tile_future<tensor<64xf16>, groups = affine_set<(g) : (g == 0)>> -> tensor<64xf16> {
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
      %ty = ktdp.construct_access_tile %Y[%row, %col] {access_tile_set = #blk, access_tile_order = #id2} : memref<24x4480xf16> -> !ktdp.access_tile<8x64xindex>
      ktdp.store %y, %ty : tensor<8x64xf16>, <8x64xindex>
    }
    scf.for %col = %c0 to %c4480 step %c64 : index {
      %tz = ktdp.construct_access_tile %Z[%row, %col] {access_tile_set = #blk, access_tile_order = #id2} : memref<24x4480xf16> -> !ktdp.access_tile<8x64xindex>
      %z = ktdp.load %tz : <8x64xindex> -> tensor<8x64xf16>
      %p = linalg.reduce { arith.maxnumf } ins(%z : tensor<8x64xf16>) outs(%ninf : tensor<64xf16>) dimensions = [0]
      %f = ktdp.inter_tile_produce producer_tiles_per_group = #all3
          : tensor<64xf16> -> !ktdp.tile_future<tensor<64xf16>, groups = affine_set<(g) : (g == 0)>> {
      ^bb0(%g: index):
        ktdp.yield_partial %p : tensor<64xf16>
      }
      %mz = ktdp.inter_tile_reduce(%f) consumer_tiles_per_group = #all3, identity(%ninf : tensor<64xf16>)
          : !ktdp.tile_future<tensor<64xf16>, groups = affine_set<(g) : (g == 0)>> -> tensor<64xf16> {
      ^bb0(%a: tensor<64xf16>, %b: tensor<64xf16>):
        %t = arith.maxnumf %a, %b : tensor<64xf16>
        ktdp.yield_reduced %t : tensor<64xf16>
      }
      %e = tensor.empty() : tensor<8x64xf16>
      %v = linalg.generic {indexing_maps = [#id2, #bcast, #id2], iterator_types = ["parallel", "parallel"]}
          ins(%z, %mz : tensor<8x64xf16>, tensor<64xf16>) outs(%e : tensor<8x64xf16>) {
      ^bb0(%a: f16, %mm: f16, %o: f16):
        %d = arith.mulf %a, %mm : f16
        linalg.yield %d : f16
      } -> tensor<8x64xf16>
      %tv = ktdp.construct_access_tile %V[%row, %col] {access_tile_set = #blk, access_tile_order = #id2} : memref<24x4480xf16> -> !ktdp.access_tile<8x64xindex>
      ktdp.store %v, %tv : tensor<8x64xf16>, <8x64xindex>
    }
    return
  }
}
