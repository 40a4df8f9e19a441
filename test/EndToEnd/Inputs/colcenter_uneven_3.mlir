// colcenter_uneven_3.mlir - colcenter_blocks (column centering of a
// 64 x 5120 f16 matrix, 80 column blocks of 64 in a loop) on grid [3]:
// tile t sums rows 16t.. of the block in 2 + t % 2 slices of 4 rows (tile 1
// sums 12 rows, tiles 0 and 2 sum 8), all-reduces the 64 sums over the
// 3 tiles and stores x - sum / 64 for its 16 rows. ktdf-spread-iterations
// deals each tile's blocks over copies on idle lanes, so a core's lanes
// run copies of different groups, the middle tile's with more work.
//
// Arguments: %x_ptr X (64x5120 f16, input), %y_ptr Y (64x5120 f16, output).

#m_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 5119 >= 0)>
#blk = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#group3 = affine_set<(i)[g] : (i >= 0, -i + 2 >= 0, g == 0)>
#blk4 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#bcast = affine_map<(d0, d1) -> (d1)>
func.func @colcenter(%x_ptr: index, %y_ptr: index) attributes {grid = [3]} {
  %pid = ktdp.get_compute_tile_id : index
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %c64 = arith.constant 64 : index
  %c5120 = arith.constant 5120 : index
  %X = ktdp.construct_memory_view %x_ptr, sizes: [64, 5120], strides: [5120, 1] {coordinate_set = #m_set, memory_space = #ktdp.memory_space<global>} : memref<64x5120xf16>
  %Y = ktdp.construct_memory_view %y_ptr, sizes: [64, 5120], strides: [5120, 1] {coordinate_set = #m_set, memory_space = #ktdp.memory_space<global>} : memref<64x5120xf16>
  %row = arith.muli %pid, %c16 : index
  %zeros = arith.constant dense<0.0> : tensor<64xf16>
  %ident = arith.constant dense<0.0> : tensor<64xf16>
  %n = arith.constant dense<64.0> : tensor<64xf16>
  scf.for %col = %c0 to %c5120 step %c64 {
    %c4 = arith.constant 4 : index
    %c2 = arith.constant 2 : index
    %odd = arith.remui %pid, %c2 : index
    %nr = arith.addi %c2, %odd : index
    %part = scf.for %r = %c0 to %nr step %c1 iter_args(%pa = %zeros) -> (tensor<64xf16>) {
      %r4 = arith.muli %r, %c4 : index
      %rr = arith.addi %row, %r4 : index
      %tq = ktdp.construct_access_tile %X[%rr, %col] {access_tile_set = #blk4, access_tile_order = #id2} : memref<64x5120xf16> -> !ktdp.access_tile<4x64xindex>
      %xq = ktdp.load %tq : <4x64xindex> -> tensor<4x64xf16>
      %pq = linalg.reduce { arith.addf } ins(%xq : tensor<4x64xf16>) outs(%pa : tensor<64xf16>) dimensions = [0]
      scf.yield %pq : tensor<64xf16>
    }
    %tx = ktdp.construct_access_tile %X[%row, %col] {access_tile_set = #blk, access_tile_order = #id2} : memref<64x5120xf16> -> !ktdp.access_tile<16x64xindex>
    %x = ktdp.load %tx : <16x64xindex> -> tensor<16x64xf16>
    %f = ktdp.inter_tile_produce producer_tiles_per_group = #group3
        : tensor<64xf16> -> !ktdp.tile_future<tensor<64xf16>, groups = affine_set<(g) : (g == 0)>> {
    ^bb0(%g: index):
      ktdp.yield_partial %part : tensor<64xf16>
    }
    %sum = ktdp.inter_tile_reduce(%f) consumer_tiles_per_group = #group3, identity(%ident : tensor<64xf16>)
        : !ktdp.tile_future<tensor<64xf16>, groups = affine_set<(g) : (g == 0)>> -> tensor<64xf16> {
    ^bb0(%a: tensor<64xf16>, %b: tensor<64xf16>):
      %s = arith.addf %a, %b : tensor<64xf16>
      ktdp.yield_reduced %s : tensor<64xf16>
    }
    %mean = arith.divf %sum, %n : tensor<64xf16>
    %empty = tensor.empty() : tensor<16x64xf16>
    %y = linalg.generic {indexing_maps = [#id2, #bcast, #id2], iterator_types = ["parallel", "parallel"]}
        ins(%x, %mean : tensor<16x64xf16>, tensor<64xf16>) outs(%empty : tensor<16x64xf16>) {
    ^bb0(%a: f16, %m: f16, %o: f16):
      %d = arith.subf %a, %m : f16
      linalg.yield %d : f16
    } -> tensor<16x64xf16>
    %ty = ktdp.construct_access_tile %Y[%row, %col] {access_tile_set = #blk, access_tile_order = #id2} : memref<64x5120xf16> -> !ktdp.access_tile<16x64xindex>
    ktdp.store %y, %ty : tensor<16x64xf16>, <16x64xindex>
  }
  return
}
