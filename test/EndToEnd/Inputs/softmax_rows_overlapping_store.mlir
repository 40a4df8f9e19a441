// softmax_rows.mlir with the output tile's origin [%r, 0] mutated to
// [0, %r] (mutation campaign, issue 17): every row r writes Y[0, r..127],
// so grid points (and iterations) store the same elements with different
// values. The loop runs to the runtime scalar %n_rows, so the scheduler
// cannot decide it; the simulator reports the write-write race.
// softmax_rows.mlir - Triton-style row softmax: a [32, 1] grid whose single
// tile id deals the rows out cyclically, one 1x128 row per iteration.
//
// Computes, for r < n_rows (64), c < 128, all values f16:
//   m      = max_c X[r, c]                    (maxnumf, init -inf = 0xFC00)
//   e[c]   = f16(exp(f16(X[r, c] - m)))
//   s      = f16(sum_c e[c])                  (f32 accumulation, one rounding)
//   Y[r, c] = f16(e[c] / s)
//
// Grid [32, 1] with one `get_compute_tile_id : index`: the id is the x
// coordinate, i.e. the linear tile id 0..31. Tile t handles rows t, t + 32.
// The reductions return tensor<1xf16>, which is extracted to a scalar and
// splat back over the row.

#x_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#row = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 127 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @softmax_kernel(%input_ptr: index,  // X: 64x128 f16, row-major
                            %output_ptr: index, // Y: 64x128 f16, row-major (output)
                            %n_rows: index)     // rows to process: 64
      attributes {grid = [32, 1]} {
    %tid = ktdp.get_compute_tile_id : index
    %c0 = arith.constant 0 : index
    %c32 = arith.constant 32 : index
    %ninf = arith.constant 0xFC00 : f16  // -inf
    %zero = arith.constant 0x0000 : f16
    %X = ktdp.construct_memory_view %input_ptr, sizes: [64, 128], strides: [128, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<64x128xf16>
    %Y = ktdp.construct_memory_view %output_ptr, sizes: [64, 128], strides: [128, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<64x128xf16>
    scf.for %r = %tid to %n_rows step %c32 : index {
      %tx = ktdp.construct_access_tile %X[%r, 0] {access_tile_set = #row, access_tile_order = #id2} : memref<64x128xf16> -> !ktdp.access_tile<1x128xindex>
      %x = ktdp.load %tx : <1x128xindex> -> tensor<1x128xf16>
      %max_init = tensor.splat %ninf : tensor<1xf16>
      %max = linalg.reduce { arith.maxnumf } ins(%x : tensor<1x128xf16>) outs(%max_init : tensor<1xf16>) dimensions = [1]
      %m = tensor.extract %max[%c0] : tensor<1xf16>
      %mb = tensor.splat %m : tensor<1x128xf16>
      %shifted = arith.subf %x, %mb : tensor<1x128xf16>
      %e = math.exp %shifted : tensor<1x128xf16>
      %sum_init = tensor.splat %zero : tensor<1xf16>
      %sum = linalg.reduce { arith.addf } ins(%e : tensor<1x128xf16>) outs(%sum_init : tensor<1xf16>) dimensions = [1]
      %s = tensor.extract %sum[%c0] : tensor<1xf16>
      %sb = tensor.splat %s : tensor<1x128xf16>
      %y = arith.divf %e, %sb : tensor<1x128xf16>
      %ty = ktdp.construct_access_tile %Y[0, %r] {access_tile_set = #row, access_tile_order = #id2} : memref<64x128xf16> -> !ktdp.access_tile<1x128xindex>
      ktdp.store %y, %ty : tensor<1x128xf16>, <1x128xindex>
      scf.yield
    }
    return
  }
}
