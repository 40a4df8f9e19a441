// colcenter_odd_1000.mlir - column centering of a 6 x 70000 f16 matrix on
// 3 tiles of 2 rows: a loop of 70 column blocks of 1000 (kept in the loop)
// all-reduces the 1000 column sums of each block over the 3 tiles (1000
// sums split in pieces that no tile count divides) and stores x minus the
// column mean.
//
// Computes, per block b, all f16:
//   p_t = f16(x[2t, :] + x[2t + 1, :]) over the block's 1000 columns
//   Y[r, 1000b + c] = f16(x[r, 1000b + c] - f16(fold of p_0, p_1, p_2 from 0)[c] / 6)
//
// Arguments: %x_ptr X (6x70000 f16, input), %y_ptr Y (6x70000 f16, output).

#m_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 5 >= 0, d1 >= 0, -d1 + 69999 >= 0)>
#blk = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 999 >= 0)>
#allg = affine_set<(i)[g] : (i >= 0, -i + 2 >= 0, g == 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#bcast = affine_map<(d0, d1) -> (d1)>
func.func @cc(%x_ptr: index, %y_ptr: index) attributes {grid = [3]} {
  %pid = ktdp.get_compute_tile_id : index
  %c0 = arith.constant 0 : index
  %cR = arith.constant 2 : index
  %cW = arith.constant 1000 : index
  %cC = arith.constant 70000 : index
  %X = ktdp.construct_memory_view %x_ptr, sizes: [6, 70000], strides: [70000, 1] {coordinate_set = #m_set, memory_space = #ktdp.memory_space<global>} : memref<6x70000xf16>
  %Y = ktdp.construct_memory_view %y_ptr, sizes: [6, 70000], strides: [70000, 1] {coordinate_set = #m_set, memory_space = #ktdp.memory_space<global>} : memref<6x70000xf16>
  %row = arith.muli %pid, %cR : index
  %zeros = arith.constant dense<0.0> : tensor<1000xf16>
  %n = arith.constant dense<6.0> : tensor<1000xf16>
  scf.for %col = %c0 to %cC step %cW {
    %tx = ktdp.construct_access_tile %X[%row, %col] {access_tile_set = #blk, access_tile_order = #id2} : memref<6x70000xf16> -> !ktdp.access_tile<2x1000xindex>
    %x = ktdp.load %tx : <2x1000xindex> -> tensor<2x1000xf16>
    %part = linalg.reduce { arith.addf } ins(%x : tensor<2x1000xf16>) outs(%zeros : tensor<1000xf16>) dimensions = [0]
    %f = ktdp.inter_tile_produce producer_tiles_per_group = #allg
        : tensor<1000xf16> -> !ktdp.tile_future<tensor<1000xf16>, groups = affine_set<(g) : (g == 0)>> {
    ^bb0(%g: index):
      ktdp.yield_partial %part : tensor<1000xf16>
    }
    %sum = ktdp.inter_tile_reduce(%f) consumer_tiles_per_group = #allg, identity(%zeros : tensor<1000xf16>)
        : !ktdp.tile_future<tensor<1000xf16>, groups = affine_set<(g) : (g == 0)>> -> tensor<1000xf16> {
    ^bb0(%a: tensor<1000xf16>, %b: tensor<1000xf16>):
      %s = arith.addf %a, %b : tensor<1000xf16>
      ktdp.yield_reduced %s : tensor<1000xf16>
    }
    %mean = arith.divf %sum, %n : tensor<1000xf16>
    %empty = tensor.empty() : tensor<2x1000xf16>
    %y = linalg.generic {indexing_maps = [#id2, #bcast, #id2], iterator_types = ["parallel", "parallel"]}
        ins(%x, %mean : tensor<2x1000xf16>, tensor<1000xf16>) outs(%empty : tensor<2x1000xf16>) {
    ^bb0(%a: f16, %m: f16, %o: f16):
      %d = arith.subf %a, %m : f16
      linalg.yield %d : f16
    } -> tensor<2x1000xf16>
    %ty = ktdp.construct_access_tile %Y[%row, %col] {access_tile_set = #blk, access_tile_order = #id2} : memref<6x70000xf16> -> !ktdp.access_tile<2x1000xindex>
    ktdp.store %y, %ty : tensor<2x1000xf16>, <2x1000xindex>
  }
  return
}
