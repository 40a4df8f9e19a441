// softmax_wide_small.mlir - softmax_wide (the field guide's wide-row
// softmax, §3 item 7) at 3 rows of 32,768 f16 on a [1, 1] grid: one grid
// point, a row loop whose trip count is a launch argument (n_rows).
// ktdf-split-wide-reductions cuts each row into column parts over the
// device's cores and all-reduces the row maximum (maxnumf, from -inf) and
// the f32 sum.
//
// Computes, for r < n_rows, c < 32768:
//   m       = max_c X[r, c]                     (maxnumf, init -inf)
//   e[c]    = f16(exp(f16(X[r, c] - m)))
//   s       = sum_c f32(e[c])                   (f32)
//   Y[r, c] = f16(f32(e[c]) / s)

#x_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 2 >= 0, d1 >= 0, -d1 + 32767 >= 0)>
#row = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 32767 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#to_row = affine_map<(d0, d1) -> (d0)>
module {
  func.func @softmax_wide_small(%x_ptr: index,   // X: 3x32768 f16
                                %y_ptr: index,   // Y: 3x32768 f16 (output)
                                %n_rows: index)  // rows: at most 3
      attributes {grid = [1, 1]} {
    %tid = ktdp.get_compute_tile_id : index
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %ninf = arith.constant 0xFC00 : f16
    %zero = arith.constant 0.0 : f32
    %X = ktdp.construct_memory_view %x_ptr, sizes: [3, 32768], strides: [32768, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<3x32768xf16>
    %Y = ktdp.construct_memory_view %y_ptr, sizes: [3, 32768], strides: [32768, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<3x32768xf16>
    scf.for %r = %tid to %n_rows step %c1 : index {
      %tx = ktdp.construct_access_tile %X[%r, 0] {access_tile_set = #row, access_tile_order = #id2} : memref<3x32768xf16> -> !ktdp.access_tile<1x32768xindex>
      %x = ktdp.load %tx : <1x32768xindex> -> tensor<1x32768xf16>
      %max_init = tensor.splat %ninf : tensor<1xf16>
      %max = linalg.reduce { arith.maxnumf } ins(%x : tensor<1x32768xf16>) outs(%max_init : tensor<1xf16>) dimensions = [1]
      %m = tensor.extract %max[%c0] : tensor<1xf16>
      %mb = tensor.splat %m : tensor<1x32768xf16>
      %shifted = arith.subf %x, %mb : tensor<1x32768xf16>
      %e = math.exp %shifted : tensor<1x32768xf16>
      %sum_init = tensor.splat %zero : tensor<1xf32>
      %sum = linalg.generic {indexing_maps = [#id2, #to_row], iterator_types = ["parallel", "reduction"]} ins(%e : tensor<1x32768xf16>) outs(%sum_init : tensor<1xf32>) {
      ^bb0(%in: f16, %acc: f32):
        %w = arith.extf %in : f16 to f32
        %a = arith.addf %w, %acc : f32
        linalg.yield %a : f32
      } -> tensor<1xf32>
      %s = tensor.extract %sum[%c0] : tensor<1xf32>
      %empty = tensor.empty() : tensor<1x32768xf16>
      %y = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]} ins(%e : tensor<1x32768xf16>) outs(%empty : tensor<1x32768xf16>) {
      ^bb0(%in: f16, %out: f16):
        %w = arith.extf %in : f16 to f32
        %q = arith.divf %w, %s : f32
        %t = arith.truncf %q : f32 to f16
        linalg.yield %t : f16
      } -> tensor<1x32768xf16>
      %ty = ktdp.construct_access_tile %Y[%r, 0] {access_tile_set = #row, access_tile_order = #id2} : memref<3x32768xf16> -> !ktdp.access_tile<1x32768xindex>
      ktdp.store %y, %ty : tensor<1x32768xf16>, <1x32768xindex>
      scf.yield
    }
    return
  }
}
