// row_stats_1151.mlir - Triton-style per-row maximum and sum of a 1151x128
// f16 matrix, rows dealt cyclically over a [16, 1] grid: 72 rows a point,
// more than the 64 trips ktdf-store-stats-after-loop kept before it stored
// them straight from the scratchpad.
//
//   MAX[r] = max_c X[r, c]     (maxnumf, init -inf = 0xFC00)
//   SUM[r] = f16(sum_c X[r, c])
// for r < n_rows (1151); rows at or past 1151 are neither read nor written.

#x_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1150 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#v_set = affine_set<(d0) : (d0 >= 0, -d0 + 1150 >= 0)>
#row = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 127 >= 0)>
#one = affine_set<(d0) : (d0 == 0)>
#id1 = affine_map<(d0) -> (d0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @row_stats_kernel(%x_ptr: index, %max_ptr: index, %sum_ptr: index, %n_rows: index) attributes {grid = [16, 1]} {
    %pid = ktdp.get_compute_tile_id : index
    %c16 = arith.constant 16 : index
    %ninf = arith.constant 0xFC00 : f16
    %zero = arith.constant 0.000000e+00 : f16
    %X = ktdp.construct_memory_view %x_ptr, sizes: [1151, 128], strides: [128, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<1151x128xf16>
    %MAX = ktdp.construct_memory_view %max_ptr, sizes: [1151], strides: [1] {coordinate_set = #v_set, memory_space = #ktdp.memory_space<global>} : memref<1151xf16>
    %SUM = ktdp.construct_memory_view %sum_ptr, sizes: [1151], strides: [1] {coordinate_set = #v_set, memory_space = #ktdp.memory_space<global>} : memref<1151xf16>
    scf.for %r = %pid to %n_rows step %c16 : index {
      %tx = ktdp.construct_access_tile %X[%r, 0] {access_tile_set = #row, access_tile_order = #id2} : memref<1151x128xf16> -> !ktdp.access_tile<1x128xindex>
      %x = ktdp.load %tx : <1x128xindex> -> tensor<1x128xf16>
      %max_init = tensor.splat %ninf : tensor<1xf16>
      %max = linalg.reduce ins(%x : tensor<1x128xf16>) outs(%max_init : tensor<1xf16>) dimensions = [1]
        (%in: f16, %init: f16) {
          %m = arith.maxnumf %in, %init : f16
          linalg.yield %m : f16
        }
      %sum_init = tensor.splat %zero : tensor<1xf16>
      %sum = linalg.reduce ins(%x : tensor<1x128xf16>) outs(%sum_init : tensor<1xf16>) dimensions = [1]
        (%in: f16, %init: f16) {
          %s = arith.addf %in, %init : f16
          linalg.yield %s : f16
        }
      %tm = ktdp.construct_access_tile %MAX[%r] {access_tile_set = #one, access_tile_order = #id1} : memref<1151xf16> -> !ktdp.access_tile<1xindex>
      ktdp.store %max, %tm : tensor<1xf16>, <1xindex>
      %ts = ktdp.construct_access_tile %SUM[%r] {access_tile_set = #one, access_tile_order = #id1} : memref<1151xf16> -> !ktdp.access_tile<1xindex>
      ktdp.store %sum, %ts : tensor<1xf16>, <1xindex>
    }
    return
  }
}
