// row_stats.mlir - Triton-style row reduction: the maximum and the sum of
// every row of a 64x256 f16 matrix, one row per iteration, rows dealt out
// cyclically over a [16, 1] grid.
//
// Computes, for r < n_rows (64), all values f16:
//   MAX[r] = max_c X[r, c]                  (maxnumf, init -inf = 0xFC00)
//   SUM[r] = f16(sum_c X[r, c])             (f32 accumulation, one rounding)
//
// Grid [16, 1] with one `get_compute_tile_id : index`: tile t handles rows
// t, t + 16, t + 32, t + 48 (`scf.for %r = %tid to %n_rows step %c16`).
// Each row is a 1x256 tile; its reductions are one-element tensors stored
// at element r of MAX and SUM. The maximum's init is a splat of -inf, the
// sum's a linalg.fill of 0. Rows at or past 64 (n_rows > 64) lie outside
// the views and are neither read nor written.

#x_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 255 >= 0)>
#v_set = affine_set<(d0) : (d0 >= 0, -d0 + 63 >= 0)>
#row = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 255 >= 0)>
#one = affine_set<(d0) : (d0 == 0)>
#id1 = affine_map<(d0) -> (d0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @row_stats_kernel(%x_ptr: index,    // X: 64x256 f16, row-major (input)
                              %max_ptr: index,  // MAX: 64 f16 (output)
                              %sum_ptr: index,  // SUM: 64 f16 (output)
                              %n_rows: index)   // rows to process: 64
      attributes {grid = [16, 1]} {
    %tid = ktdp.get_compute_tile_id : index
    %c16 = arith.constant 16 : index
    %ninf = arith.constant 0xFC00 : f16  // -inf
    %zero = arith.constant 0.000000e+00 : f16
    %X = ktdp.construct_memory_view %x_ptr, sizes: [64, 256], strides: [256, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<64x256xf16>
    %MAX = ktdp.construct_memory_view %max_ptr, sizes: [64], strides: [1] {coordinate_set = #v_set, memory_space = #ktdp.memory_space<global>} : memref<64xf16>
    %SUM = ktdp.construct_memory_view %sum_ptr, sizes: [64], strides: [1] {coordinate_set = #v_set, memory_space = #ktdp.memory_space<global>} : memref<64xf16>
    scf.for %r = %tid to %n_rows step %c16 : index {
      %tx = ktdp.construct_access_tile %X[%r, 0] {access_tile_set = #row, access_tile_order = #id2} : memref<64x256xf16> -> !ktdp.access_tile<1x256xindex>
      %x = ktdp.load %tx : <1x256xindex> -> tensor<1x256xf16>
      %max_init = tensor.splat %ninf : tensor<1xf16>
      %max = linalg.reduce { arith.maxnumf } ins(%x : tensor<1x256xf16>) outs(%max_init : tensor<1xf16>) dimensions = [1]
      %empty = tensor.empty() : tensor<1xf16>
      %sum_init = linalg.fill ins(%zero : f16) outs(%empty : tensor<1xf16>) -> tensor<1xf16>
      %sum = linalg.reduce { arith.addf } ins(%x : tensor<1x256xf16>) outs(%sum_init : tensor<1xf16>) dimensions = [1]
      %tm = ktdp.construct_access_tile %MAX[%r] {access_tile_set = #one, access_tile_order = #id1} : memref<64xf16> -> !ktdp.access_tile<1xindex>
      %ts = ktdp.construct_access_tile %SUM[%r] {access_tile_set = #one, access_tile_order = #id1} : memref<64xf16> -> !ktdp.access_tile<1xindex>
      ktdp.store %max, %tm : tensor<1xf16>, <1xindex>
      ktdp.store %sum, %ts : tensor<1xf16>, <1xindex>
      scf.yield
    }
    return
  }
}
