// wide_row_normalise.mlir - each of 4 rows of 2 x 150000 f16 columns is split
// over 2 tiles (150000 columns, 300,000 bytes each: more than fits twice
// in mesh_device's scratchpad); each tile sums its half of the row in f32,
// the two sums are all-reduced, and the tile stores x / sum.
//
// Computes, for r < 4, c < 300000:
//   s[r] = (0 + sum_{half 0} f32(x)) + sum_{half 1} f32(x)
//   Y[r, c] = f16(f32(x[r, c]) / s[r])

#x_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 299999 >= 0)>
#half = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 149999 >= 0)>
#both = affine_set<(i)[g] : (i >= 0, -i + 1 >= 0, g == 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @wide_row_normalise(%x_ptr: index,  // X: 4x300000 f16 (input)
                                %y_ptr: index)  // Y: 4x300000 f16 (output)
      attributes {grid = [2]} {
    %pid = ktdp.get_compute_tile_id : index
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c150000 = arith.constant 150000 : index
    %X = ktdp.construct_memory_view %x_ptr, sizes: [4, 300000], strides: [300000, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<4x300000xf16>
    %Y = ktdp.construct_memory_view %y_ptr, sizes: [4, 300000], strides: [300000, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<4x300000xf16>
    %col = arith.muli %pid, %c150000 : index
    %zero = arith.constant 0.000000e+00 : f32
    %z1 = tensor.splat %zero : tensor<1xf32>
    scf.for %r = %c0 to %c4 step %c1 : index {
      %tx = ktdp.construct_access_tile %X[%r, %col] {access_tile_set = #half, access_tile_order = #id2} : memref<4x300000xf16> -> !ktdp.access_tile<1x150000xindex>
      %x = ktdp.load %tx : <1x150000xindex> -> tensor<1x150000xf16>
      %xf = arith.extf %x : tensor<1x150000xf16> to tensor<1x150000xf32>
      %p = linalg.reduce { arith.addf } ins(%xf : tensor<1x150000xf32>) outs(%z1 : tensor<1xf32>) dimensions = [1]
      %f = ktdp.inter_tile_produce producer_tiles_per_group = #both
          : tensor<1xf32> -> !ktdp.tile_future<tensor<1xf32>, groups = affine_set<(g) : (g == 0)>> {
      ^bb0(%g: index):
        ktdp.yield_partial %p : tensor<1xf32>
      }
      %s = ktdp.inter_tile_reduce(%f) consumer_tiles_per_group = #both, identity(%z1 : tensor<1xf32>)
          : !ktdp.tile_future<tensor<1xf32>, groups = affine_set<(g) : (g == 0)>> -> tensor<1xf32> {
      ^bb0(%a: tensor<1xf32>, %b: tensor<1xf32>):
        %t = arith.addf %a, %b : tensor<1xf32>
        ktdp.yield_reduced %t : tensor<1xf32>
      }
      %sv = tensor.extract %s[%c0] : tensor<1xf32>
      %sb = tensor.splat %sv : tensor<1x150000xf32>
      %xf2 = arith.extf %x : tensor<1x150000xf16> to tensor<1x150000xf32>
      %q = arith.divf %xf2, %sb : tensor<1x150000xf32>
      %y = arith.truncf %q : tensor<1x150000xf32> to tensor<1x150000xf16>
      %ty = ktdp.construct_access_tile %Y[%r, %col] {access_tile_set = #half, access_tile_order = #id2} : memref<4x300000xf16> -> !ktdp.access_tile<1x150000xindex>
      ktdp.store %y, %ty : tensor<1x150000xf16>, <1x150000xindex>
      scf.yield
    }
    return
  }
}
