// scale_then_colsum.mlir - uneven work per tile ahead of an all-reduce: 3
// tiles deal the 50 rows of Z cyclically (17, 17 and 16 rows) and scale
// them, then all-reduce the column sums of their 16-row blocks of X
// (48 x 128) and tile 0 stores the sums (the 1x128 partials reduce into a
// rank-reduced 128 result).
//
// Computes, all f16:
//   V[r, c] = f16(z[r, c] * 0.5)                           for r < 50
//   p_t[c]  = f16(sum_{16t <= r < 16t + 16} x[r, c])          (f32 accumulation)
//   S[c]    = f16(f16(f16(0 + p_0) + p_1) + p_2)

#z_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 49 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#x_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 47 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#s_set = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 127 >= 0)>
#row = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 127 >= 0)>
#blk16 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#all3 = affine_set<(i)[g] : (i >= 0, -i + 2 >= 0, g == 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @scale_then_colsum(%z_ptr: index,   // Z: 50x128 f16 (input)
                               %v_ptr: index,   // V: 50x128 f16 (output)
                               %x_ptr: index,   // X: 48x128 f16 (input)
                               %s_ptr: index,   // S: 1x128 f16 (output, tile 0)
                               %n_rows: index)  // 50
      attributes {grid = [3, 1]} {
    %pid = ktdp.get_compute_tile_id : index
    %c0 = arith.constant 0 : index
    %c3 = arith.constant 3 : index
    %c16 = arith.constant 16 : index
    %half = arith.constant 5.000000e-01 : f16
    %Z = ktdp.construct_memory_view %z_ptr, sizes: [50, 128], strides: [128, 1] {coordinate_set = #z_set, memory_space = #ktdp.memory_space<global>} : memref<50x128xf16>
    %V = ktdp.construct_memory_view %v_ptr, sizes: [50, 128], strides: [128, 1] {coordinate_set = #z_set, memory_space = #ktdp.memory_space<global>} : memref<50x128xf16>
    %X = ktdp.construct_memory_view %x_ptr, sizes: [48, 128], strides: [128, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<48x128xf16>
    %hv = tensor.splat %half : tensor<1x128xf16>
    scf.for %r = %pid to %n_rows step %c3 : index {
      %tz = ktdp.construct_access_tile %Z[%r, 0] {access_tile_set = #row, access_tile_order = #id2} : memref<50x128xf16> -> !ktdp.access_tile<1x128xindex>
      %z = ktdp.load %tz : <1x128xindex> -> tensor<1x128xf16>
      %v = arith.mulf %z, %hv : tensor<1x128xf16>
      %tv = ktdp.construct_access_tile %V[%r, 0] {access_tile_set = #row, access_tile_order = #id2} : memref<50x128xf16> -> !ktdp.access_tile<1x128xindex>
      ktdp.store %v, %tv : tensor<1x128xf16>, <1x128xindex>
    }
    %r0 = arith.muli %pid, %c16 : index
    %tx = ktdp.construct_access_tile %X[%r0, 0] {access_tile_set = #blk16, access_tile_order = #id2} : memref<48x128xf16> -> !ktdp.access_tile<16x128xindex>
    %x = ktdp.load %tx : <16x128xindex> -> tensor<16x128xf16>
    %zero = arith.constant dense<0.0> : tensor<1x128xf16>
    %zero1 = arith.constant dense<0.0> : tensor<128xf16>
    %p1 = linalg.reduce { arith.addf } ins(%x : tensor<16x128xf16>) outs(%zero1 : tensor<128xf16>) dimensions = [0]
    %p = tensor.expand_shape %p1 [[0, 1]] output_shape [1, 128] : tensor<128xf16> into tensor<1x128xf16>
    %f = ktdp.inter_tile_produce producer_tiles_per_group = #all3
        : tensor<1x128xf16> -> !ktdp.tile_future<tensor<1x128xf16>, groups = affine_set<(g) : (g == 0)>> {
    ^bb0(%g: index):
      ktdp.yield_partial %p : tensor<1x128xf16>
    }
    %s = ktdp.inter_tile_reduce(%f) consumer_tiles_per_group = #all3, identity(%zero : tensor<1x128xf16>)
        : !ktdp.tile_future<tensor<1x128xf16>, groups = affine_set<(g) : (g == 0)>> -> tensor<128xf16> {
    ^bb0(%a: tensor<1x128xf16>, %b: tensor<1x128xf16>):
      %t = arith.addf %a, %b : tensor<1x128xf16>
      ktdp.yield_reduced %t : tensor<1x128xf16>
    }
    %is0 = arith.cmpi eq, %pid, %c0 : index
    scf.if %is0 {
      %S = ktdp.construct_memory_view %s_ptr, sizes: [1, 128], strides: [128, 1] {coordinate_set = #s_set, memory_space = #ktdp.memory_space<global>} : memref<1x128xf16>
      %s2 = tensor.expand_shape %s [[0, 1]] output_shape [1, 128] : tensor<128xf16> into tensor<1x128xf16>
      %ts = ktdp.construct_access_tile %S[0, 0] {access_tile_set = #s_set, access_tile_order = #id2} : memref<1x128xf16> -> !ktdp.access_tile<1x128xindex>
      ktdp.store %s2, %ts : tensor<1x128xf16>, <1x128xindex>
    }
    return
  }
}
