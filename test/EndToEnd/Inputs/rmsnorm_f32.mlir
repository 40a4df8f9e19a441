// rmsnorm_f32.mlir - examples/kernels/rmsnorm.mlir with f32 inputs, outputs
// and arithmetic (no conversions): RMS normalisation with weight, on a single compute tile
// that keeps the weight in its scratchpad.
//
// Computes, for 0 <= i < 32, 0 <= j < 128, all arithmetic in f32
// (x = f32(X[i, :]), w = f32(W), eps = 1e-6):
//   ms_i    = (sum_j x[j] * x[j]) / 128
//   d_i     = sqrt(ms_i + eps)                   (math.sqrt)
//   Y[i, j] = f32((x[j] / d_i) * w[j])           (round to nearest even)
//
// Arguments (all `index`, tensor start addresses counted in f32 elements):
//   %x  X : 32x128 f32, row-major (strides [128, 1]), input
//   %w  W : 128 f32, contiguous, input (weight)
//   %y  Y : 32x128 f32, row-major, output
// Grid: [1 : index] (one compute tile, id 0). The tile first copies W from
// HBM into its own scratchpad (`#ktdp.spyre_memory_space<LX, core = 0>`, at
// scratchpad element address 0, 128 f32), then an scf.for over %i in [0, 8)
// processes rows [4i, 4i + 4) as one 4x128 tile anchored at [%i * 4, 0],
// re-reading W from the scratchpad each iteration.
// Memory space spelling: #ktdp.spyre_memory_space<HBM> and <LX, core = 0>.

#mat = affine_set<(d0, d1) : (d0 >= 0, -d0 + 31 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#vec = affine_set<(d0) : (d0 >= 0, -d0 + 127 >= 0)>
#block = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#id1 = affine_map<(d0) -> (d0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
#col = affine_map<(d0, d1) -> (d1)>
module {
  func.func @rmsnorm(%x: index, %w: index, %y: index) attributes {grid = [1 : index]} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %lx_w = arith.constant 0 : index
    %X = ktdp.construct_memory_view %x, sizes: [32, 128], strides: [128, 1] {coordinate_set = #mat, memory_space = #ktdp.spyre_memory_space<HBM>} : memref<32x128xf32>
    %W = ktdp.construct_memory_view %w, sizes: [128], strides: [1] {coordinate_set = #vec, memory_space = #ktdp.spyre_memory_space<HBM>} : memref<128xf32>
    %Y = ktdp.construct_memory_view %y, sizes: [32, 128], strides: [128, 1] {coordinate_set = #mat, memory_space = #ktdp.spyre_memory_space<HBM>} : memref<32x128xf32>
    %Wlx = ktdp.construct_memory_view %lx_w, sizes: [128], strides: [1] {coordinate_set = #vec, memory_space = #ktdp.spyre_memory_space<LX, core = 0>} : memref<128xf32, #ktdp.spyre_memory_space<LX, core = 0>>

    // Stage the weight into the scratchpad once.
    %tw = ktdp.construct_access_tile %W[0] {access_tile_set = #vec, access_tile_order = #id1} : memref<128xf32> -> !ktdp.access_tile<128xindex>
    %tw_lx = ktdp.construct_access_tile %Wlx[0] {access_tile_set = #vec, access_tile_order = #id1} : memref<128xf32, #ktdp.spyre_memory_space<LX, core = 0>> -> !ktdp.access_tile<128xindex>
    %w_hbm = ktdp.load %tw : <128xindex> -> tensor<128xf32>
    ktdp.store %w_hbm, %tw_lx : tensor<128xf32>, <128xindex>

    %zero = arith.constant 0.0 : f32
    %n = arith.constant dense<128.0> : tensor<4xf32>
    %eps = arith.constant dense<1.0e-06> : tensor<4xf32>
    scf.for %i = %c0 to %c8 step %c1 {
      %tx = ktdp.construct_access_tile %X[%i * 4, 0] {access_tile_set = #block, access_tile_order = #id2} : memref<32x128xf32> -> !ktdp.access_tile<4x128xindex>
      %ty = ktdp.construct_access_tile %Y[%i * 4, 0] {access_tile_set = #block, access_tile_order = #id2} : memref<32x128xf32> -> !ktdp.access_tile<4x128xindex>
      %xh = ktdp.load %tx : <4x128xindex> -> tensor<4x128xf32>
      %wh = ktdp.load %tw_lx : <128xindex> -> tensor<128xf32>

      %rows = tensor.empty() : tensor<4xf32>
      %acc0 = linalg.fill ins(%zero : f32) outs(%rows : tensor<4xf32>) -> tensor<4xf32>
      %sqsum = linalg.generic {indexing_maps = [#id2, #row], iterator_types = ["parallel", "reduction"]}
          ins(%xh : tensor<4x128xf32>) outs(%acc0 : tensor<4xf32>) {
        ^bb0(%v: f32, %acc: f32):
          %sq = arith.mulf %v, %v : f32
          %s = arith.addf %sq, %acc : f32
          linalg.yield %s : f32
      } -> tensor<4xf32>
      %ms = arith.divf %sqsum, %n : tensor<4xf32>
      %ms_eps = arith.addf %ms, %eps : tensor<4xf32>
      %d = math.sqrt %ms_eps : tensor<4xf32>

      %out = tensor.empty() : tensor<4x128xf32>
      %yh = linalg.generic {indexing_maps = [#id2, #row, #col, #id2], iterator_types = ["parallel", "parallel"]}
          ins(%xh, %d, %wh : tensor<4x128xf32>, tensor<4xf32>, tensor<128xf32>) outs(%out : tensor<4x128xf32>) {
        ^bb0(%v: f32, %di: f32, %wj: f32, %o: f32):
          %q = arith.divf %v, %di : f32
          %p = arith.mulf %q, %wj : f32
          linalg.yield %p : f32
      } -> tensor<4x128xf32>
      ktdp.store %yh, %ty : tensor<4x128xf32>, <4x128xindex>
    }
    return
  }
}
