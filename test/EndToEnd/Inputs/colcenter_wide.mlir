// colcenter_wide.mlir - Inputs/colcenter_blocks.mlir with 4096-column
// blocks on a [2] grid: a loop over 8 column blocks of a 32 x 32768 f16
// matrix (16 rows per tile) all-reduces 4096 column sums per trip between
// the two tiles, a partial wide enough for the ring's other shapes inside
// the loop: two combining lanes per core on spyre_like (`lanes = 2`), two
// rings one after the other on mesh_device and sample_device
// (`rings = 2`), 8 pieces a chunk.
//
// Arguments: %x_ptr X (32x32768 f16, input), %y_ptr Y (32x32768 f16, output).

#m_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 31 >= 0, d1 >= 0, -d1 + 32767 >= 0)>
#blk = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 4095 >= 0)>
#pair = affine_set<(i)[g] : (i >= 0, -i + 1 >= 0, g == 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#bcast = affine_map<(d0, d1) -> (d1)>
func.func @colcenter(%x_ptr: index, %y_ptr: index) attributes {grid = [2]} {
  %pid = ktdp.get_compute_tile_id : index
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %c4096 = arith.constant 4096 : index
  %c32768 = arith.constant 32768 : index
  %X = ktdp.construct_memory_view %x_ptr, sizes: [32, 32768], strides: [32768, 1] {coordinate_set = #m_set, memory_space = #ktdp.memory_space<global>} : memref<32x32768xf16>
  %Y = ktdp.construct_memory_view %y_ptr, sizes: [32, 32768], strides: [32768, 1] {coordinate_set = #m_set, memory_space = #ktdp.memory_space<global>} : memref<32x32768xf16>
  %row = arith.muli %pid, %c16 : index
  %zeros = arith.constant dense<0.0> : tensor<4096xf16>
  %ident = arith.constant dense<0.0> : tensor<4096xf16>
  %n = arith.constant dense<32.0> : tensor<4096xf16>
  scf.for %col = %c0 to %c32768 step %c4096 {
    %tx = ktdp.construct_access_tile %X[%row, %col] {access_tile_set = #blk, access_tile_order = #id2} : memref<32x32768xf16> -> !ktdp.access_tile<16x4096xindex>
    %x = ktdp.load %tx : <16x4096xindex> -> tensor<16x4096xf16>
    %part = linalg.reduce { arith.addf } ins(%x : tensor<16x4096xf16>) outs(%zeros : tensor<4096xf16>) dimensions = [0]
    %f = ktdp.inter_tile_produce producer_tiles_per_group = #pair
        : tensor<4096xf16> -> !ktdp.tile_future<tensor<4096xf16>, groups = affine_set<(g) : (g == 0)>> {
    ^bb0(%g: index):
      ktdp.yield_partial %part : tensor<4096xf16>
    }
    %sum = ktdp.inter_tile_reduce(%f) consumer_tiles_per_group = #pair, identity(%ident : tensor<4096xf16>)
        : !ktdp.tile_future<tensor<4096xf16>, groups = affine_set<(g) : (g == 0)>> -> tensor<4096xf16> {
    ^bb0(%a: tensor<4096xf16>, %b: tensor<4096xf16>):
      %s = arith.addf %a, %b : tensor<4096xf16>
      ktdp.yield_reduced %s : tensor<4096xf16>
    }
    %mean = arith.divf %sum, %n : tensor<4096xf16>
    %empty = tensor.empty() : tensor<16x4096xf16>
    %y = linalg.generic {indexing_maps = [#id2, #bcast, #id2], iterator_types = ["parallel", "parallel"]}
        ins(%x, %mean : tensor<16x4096xf16>, tensor<4096xf16>) outs(%empty : tensor<16x4096xf16>) {
    ^bb0(%a: f16, %m: f16, %o: f16):
      %d = arith.subf %a, %m : f16
      linalg.yield %d : f16
    } -> tensor<16x4096xf16>
    %ty = ktdp.construct_access_tile %Y[%row, %col] {access_tile_set = #blk, access_tile_order = #id2} : memref<32x32768xf16> -> !ktdp.access_tile<16x4096xindex>
    ktdp.store %y, %ty : tensor<16x4096xf16>, <16x4096xindex>
  }
  return
}
