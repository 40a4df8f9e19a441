// halves_softmax.mlir - Triton-style row softmax of a 64x192 f16 tensor held
// as two 64x96 column halves (a 2-way tensor-parallel layout), written into
// an output held the same way. Every row straddles the cut at column 96, so
// each row's maximum and sum span both halves.
//
// Computes, for r < n_rows (64), c < 192, the math in f32:
//   x[c]    = f32(X[r, c])
//   m       = max_c x[c]                      (maximumf, init -inf)
//   e[c]    = exp(x[c] - m)
//   s       = sum_c e[c]                      (f32, init 0)
//   Y[r, c] = f16(e[c] / s)
//
// Memory layout: X and Y are each stored as two column halves at their own
// pointers: half h holds columns [96h, 96h + 96) as a 64x96 row-major
// block. Distributed views stitch the halves into the global 64x192 shape;
// each part's coordinate_set is in global columns.
//
// Grid [16, 1] with one tile id: tile t handles rows t, t + 16, t + 32,
// t + 48, one 1x192 row per iteration. The reductions return tensor<1xf32>,
// extracted to a scalar and splat back over the row.

#half0 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 95 >= 0)>
#half1 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 - 96 >= 0, -d1 + 191 >= 0)>
#row = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 191 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @softmax_halves(%x0_ptr: index,  // X columns 0-95: 64x96 f16 (input)
                            %x1_ptr: index,  // X columns 96-191: 64x96 f16 (input)
                            %y0_ptr: index,  // Y columns 0-95: 64x96 f16 (output)
                            %y1_ptr: index,  // Y columns 96-191: 64x96 f16 (output)
                            %n_rows: index)  // rows to process: 64
      attributes {grid = [16, 1]} {
    %tid = ktdp.get_compute_tile_id : index
    %c0 = arith.constant 0 : index
    %c16 = arith.constant 16 : index
    %ninf = arith.constant 0xFF800000 : f32  // -inf
    %zero = arith.constant 0.000000e+00 : f32
    %X0 = ktdp.construct_memory_view %x0_ptr, sizes: [64, 96], strides: [96, 1] {coordinate_set = #half0, memory_space = #ktdp.memory_space<global>} : memref<64x96xf16>
    %X1 = ktdp.construct_memory_view %x1_ptr, sizes: [64, 96], strides: [96, 1] {coordinate_set = #half1, memory_space = #ktdp.memory_space<global>} : memref<64x96xf16>
    %X = ktdp.construct_distributed_memory_view(%X0, %X1 : memref<64x96xf16>, memref<64x96xf16>) : memref<64x192xf16>
    %Y0 = ktdp.construct_memory_view %y0_ptr, sizes: [64, 96], strides: [96, 1] {coordinate_set = #half0, memory_space = #ktdp.memory_space<global>} : memref<64x96xf16>
    %Y1 = ktdp.construct_memory_view %y1_ptr, sizes: [64, 96], strides: [96, 1] {coordinate_set = #half1, memory_space = #ktdp.memory_space<global>} : memref<64x96xf16>
    %Y = ktdp.construct_distributed_memory_view(%Y0, %Y1 : memref<64x96xf16>, memref<64x96xf16>) : memref<64x192xf16>
    scf.for %r = %tid to %n_rows step %c16 : index {
      %tx = ktdp.construct_access_tile %X[%r, 0] {access_tile_set = #row, access_tile_order = #id2} : memref<64x192xf16> -> !ktdp.access_tile<1x192xindex>
      %xh = ktdp.load %tx : <1x192xindex> -> tensor<1x192xf16>
      %x = arith.extf %xh : tensor<1x192xf16> to tensor<1x192xf32>
      %max_init = tensor.splat %ninf : tensor<1xf32>
      %max = linalg.reduce { arith.maximumf } ins(%x : tensor<1x192xf32>) outs(%max_init : tensor<1xf32>) dimensions = [1]
      %m = tensor.extract %max[%c0] : tensor<1xf32>
      %mb = tensor.splat %m : tensor<1x192xf32>
      %shifted = arith.subf %x, %mb : tensor<1x192xf32>
      %e = math.exp %shifted : tensor<1x192xf32>
      %sum_init = tensor.splat %zero : tensor<1xf32>
      %sum = linalg.reduce { arith.addf } ins(%e : tensor<1x192xf32>) outs(%sum_init : tensor<1xf32>) dimensions = [1]
      %s = tensor.extract %sum[%c0] : tensor<1xf32>
      %sb = tensor.splat %s : tensor<1x192xf32>
      %p = arith.divf %e, %sb : tensor<1x192xf32>
      %y = arith.truncf %p : tensor<1x192xf32> to tensor<1x192xf16>
      %ty = ktdp.construct_access_tile %Y[%r, 0] {access_tile_set = #row, access_tile_order = #id2} : memref<64x192xf16> -> !ktdp.access_tile<1x192xindex>
      ktdp.store %y, %ty : tensor<1x192xf16>, <1x192xindex>
      scf.yield
    }
    return
  }
}
