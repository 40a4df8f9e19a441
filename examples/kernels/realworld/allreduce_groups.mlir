// allreduce_groups.mlir - per-group column maxima: 16 tiles in 4 contiguous
// groups of 4, each group all-reducing its own partials; the first tile of
// each group writes its group's row.
//
// Computes, for group g < 4, c < 64 (max is exact in f16):
//   O[g, c] = max_{32g <= r < 32g + 32} X[r, c]
// Tile t (group t floordiv 4) takes the max over rows 8t..8t+7 (region-form
// linalg.reduce with arith.maximumf, init -inf = 0xFC00) and contributes it
// to its group's all-reduce (combiner arith.maximumf, identity -inf).
//
// Grid [16, 1, 1] with one tile id (the linear id). Membership
// (i)[g] : 4g <= i <= 4g + 3; groups inline in the prefixed future type as
// affine_set<(g) : (g >= 0, -g + 3 >= 0)> (a `>=` inside `!ktdp.tile_future<`).
// The writer test is `pid mod 4 == 0`; it builds a view of its group's output
// row at the computed address out_ptr + 64 g inside scf.if.

#x_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 127 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#rows8 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#o_row = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 63 >= 0)>
#quad = affine_set<(i)[g] : (i - 4*g >= 0, -i + 4*g + 3 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @group_colmax(%x_ptr: index,   // X: 128x64 f16 (input)
                          %out_ptr: index) // O: 4x64 f16, one row per group (output)
      attributes { grid = [16, 1, 1] } {
    %pid = ktdp.get_compute_tile_id : index
    %c0 = arith.constant 0 : index
    %c4 = arith.constant 4 : index
    %c8 = arith.constant 8 : index
    %c64 = arith.constant 64 : index
    %ninf = arith.constant 0xFC00 : f16
    %X = ktdp.construct_memory_view %x_ptr, sizes: [128, 64], strides: [64, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<128x64xf16>
    %row0 = arith.muli %pid, %c8 : index
    %tx = ktdp.construct_access_tile %X[%row0, 0] {access_tile_set = #rows8, access_tile_order = #id2} : memref<128x64xf16> -> !ktdp.access_tile<8x64xindex>
    %x = ktdp.load %tx : <8x64xindex> -> tensor<8x64xf16>
    %init = tensor.splat %ninf : tensor<64xf16>
    %colmax = linalg.reduce ins(%x : tensor<8x64xf16>) outs(%init : tensor<64xf16>) dimensions = [0]
      (%in: f16, %out: f16) {
        %m = arith.maximumf %in, %out : f16
        linalg.yield %m : f16
      }
    %partial = tensor.expand_shape %colmax [[0, 1]] output_shape [1, 64] : tensor<64xf16> into tensor<1x64xf16>
    %ident = tensor.splat %ninf : tensor<1x64xf16>
    %fut = ktdp.inter_tile_produce producer_tiles_per_group = #quad : tensor<1x64xf16> -> !ktdp.tile_future<tensor<1x64xf16>, groups = affine_set<(g) : (g >= 0, -g + 3 >= 0)>> {
    ^bb0(%gid: index):
      ktdp.yield_partial %partial : tensor<1x64xf16>
    }
    %gmax = ktdp.inter_tile_reduce(%fut) consumer_tiles_per_group = #quad, identity(%ident : tensor<1x64xf16>) : !ktdp.tile_future<tensor<1x64xf16>, groups = affine_set<(g) : (g >= 0, -g + 3 >= 0)>> -> tensor<1x64xf16> {
    ^bb0(%a: tensor<1x64xf16>, %b: tensor<1x64xf16>):
      %m = arith.maximumf %a, %b : tensor<1x64xf16>
      ktdp.yield_reduced %m : tensor<1x64xf16>
    }
    %lane = arith.remui %pid, %c4 : index
    %is_first = arith.cmpi eq, %lane, %c0 : index
    scf.if %is_first {
      %g = arith.divui %pid, %c4 : index
      %row_off = arith.muli %g, %c64 : index
      %dst = arith.addi %out_ptr, %row_off : index
      %O = ktdp.construct_memory_view %dst, sizes: [1, 64], strides: [64, 1] {coordinate_set = #o_row, memory_space = #ktdp.memory_space<global>} : memref<1x64xf16>
      %to = ktdp.construct_access_tile %O[0, 0] {access_tile_set = #o_row, access_tile_order = #id2} : memref<1x64xf16> -> !ktdp.access_tile<1x64xindex>
      ktdp.store %gmax, %to : tensor<1x64xf16>, <1x64xindex>
    }
    return
  }
}
