// allreduce_2x4096.mlir - bench/allreduce_kernels.py --emit 2 4096: tile t loads
// row t of a 2x4096 f16 tensor, the 2 tiles all-reduce it with addf, and
// tile t stores the sum into row t of the output.
#all_rows = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 4095 >= 0)>
#row = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 4095 >= 0)>
#all_tiles = affine_set<(i)[g] : (i >= 0, -i + 1 >= 0, g == 0)>
#one_group = affine_set<(g) : (g == 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @ring_allreduce(%x: index, %y: index) attributes {grid = [2]} {
    %id = ktdp.get_compute_tile_id : index
    %X = ktdp.construct_memory_view %x, sizes: [2, 4096], strides: [4096, 1] {coordinate_set = #all_rows, memory_space = #ktdp.memory_space<global>} : memref<2x4096xf16>
    %tX = ktdp.construct_access_tile %X[%id, 0] {access_tile_set = #row, access_tile_order = #id2} : memref<2x4096xf16> -> !ktdp.access_tile<1x4096xindex>
    %Y = ktdp.construct_memory_view %y, sizes: [2, 4096], strides: [4096, 1] {coordinate_set = #all_rows, memory_space = #ktdp.memory_space<global>} : memref<2x4096xf16>
    %tY = ktdp.construct_access_tile %Y[%id, 0] {access_tile_set = #row, access_tile_order = #id2} : memref<2x4096xf16> -> !ktdp.access_tile<1x4096xindex>
    %p = ktdp.load %tX : <1x4096xindex> -> tensor<1x4096xf16>
    %zero = arith.constant dense<0.0> : tensor<1x4096xf16>
    %fut = ktdp.inter_tile_produce producer_tiles_per_group = #all_tiles -> !ktdp.tile_future<(tensor<1x4096xf16>), groups = #one_group> {
    ^bb0(%gid: index):
      ktdp.yield_partial %p : tensor<1x4096xf16>
    }
    %s = ktdp.inter_tile_reduce(%fut) consumer_tiles_per_group = #all_tiles, identity(%zero : tensor<1x4096xf16>) : !ktdp.tile_future<(tensor<1x4096xf16>), groups = #one_group> -> tensor<1x4096xf16> {
    ^bb0(%a: tensor<1x4096xf16>, %b: tensor<1x4096xf16>):
      %r = arith.addf %a, %b : tensor<1x4096xf16>
      ktdp.yield_reduced %r : tensor<1x4096xf16>
    }
    ktdp.store %s, %tY : tensor<1x4096xf16>, <1x4096xindex>
    return
  }
}
