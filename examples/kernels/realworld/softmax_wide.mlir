// softmax_wide.mlir - the field guide's wide-row softmax (§3 item 7): a
// [1, 1] grid, 2 rows of 262,144 f16, one whole 1x262144 row per iteration.
// ktdf-split-wide-reductions cuts each row into column parts over the
// cores, all-reducing the max and the sum; at -O0 mesh_device streams the
// 512 KiB row in column chunks (ktdf-stream-wide-rows), re-reading X.
//
// Computes, for r < n_rows (2), c < 262144:
//   m       = max_c X[r, c]                     (maxnumf, init -inf = 0xFC00)
//   e[c]    = f16(exp(f16(X[r, c] - m)))
//   s       = sum_c f32(e[c])                   (f32, by a linalg.generic that
//                                                widens each element; an f16
//                                                sum of 262,144 values overflows)
//   Y[r, c] = f16(f32(e[c]) / s)               (s captured by the generic body)

#x_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 262143 >= 0)>
#row = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 262143 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#to_row = affine_map<(d0, d1) -> (d0)>
module {
  func.func @softmax_wide(%x_ptr: index,   // X: 2x262144 f16
                          %y_ptr: index,   // Y: 2x262144 f16 (output)
                          %n_rows: index)  // rows: 2
      attributes {grid = [1, 1]} {
    %tid = ktdp.get_compute_tile_id : index
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %ninf = arith.constant 0xFC00 : f16  // -inf
    %zero = arith.constant 0.0 : f32
    %X = ktdp.construct_memory_view %x_ptr, sizes: [2, 262144], strides: [262144, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<2x262144xf16>
    %Y = ktdp.construct_memory_view %y_ptr, sizes: [2, 262144], strides: [262144, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<2x262144xf16>
    scf.for %r = %tid to %n_rows step %c1 : index {
      %tx = ktdp.construct_access_tile %X[%r, 0] {access_tile_set = #row, access_tile_order = #id2} : memref<2x262144xf16> -> !ktdp.access_tile<1x262144xindex>
      %x = ktdp.load %tx : <1x262144xindex> -> tensor<1x262144xf16>
      %max_init = tensor.splat %ninf : tensor<1xf16>
      %max = linalg.reduce { arith.maxnumf } ins(%x : tensor<1x262144xf16>) outs(%max_init : tensor<1xf16>) dimensions = [1]
      %m = tensor.extract %max[%c0] : tensor<1xf16>
      %mb = tensor.splat %m : tensor<1x262144xf16>
      %shifted = arith.subf %x, %mb : tensor<1x262144xf16>
      %e = math.exp %shifted : tensor<1x262144xf16>
      %sum_init = tensor.splat %zero : tensor<1xf32>
      %sum = linalg.generic {indexing_maps = [#id2, #to_row], iterator_types = ["parallel", "reduction"]} ins(%e : tensor<1x262144xf16>) outs(%sum_init : tensor<1xf32>) {
      ^bb0(%in: f16, %acc: f32):
        %w = arith.extf %in : f16 to f32
        %a = arith.addf %w, %acc : f32
        linalg.yield %a : f32
      } -> tensor<1xf32>
      %s = tensor.extract %sum[%c0] : tensor<1xf32>
      %empty = tensor.empty() : tensor<1x262144xf16>
      %y = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]} ins(%e : tensor<1x262144xf16>) outs(%empty : tensor<1x262144xf16>) {
      ^bb0(%in: f16, %out: f16):
        %w = arith.extf %in : f16 to f32
        %q = arith.divf %w, %s : f32
        %t = arith.truncf %q : f32 to f16
        linalg.yield %t : f16
      } -> tensor<1x262144xf16>
      %ty = ktdp.construct_access_tile %Y[%r, 0] {access_tile_set = #row, access_tile_order = #id2} : memref<2x262144xf16> -> !ktdp.access_tile<1x262144xindex>
      ktdp.store %y, %ty : tensor<1x262144xf16>, <1x262144xindex>
      scf.yield
    }
    return
  }
}
