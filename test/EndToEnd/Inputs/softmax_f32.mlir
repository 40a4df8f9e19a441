// softmax_f32.mlir - examples/kernels/softmax.mlir with f32 inputs, outputs
// and arithmetic (no conversions): numerically stable row softmax, f32 in/out, f32 math.
//
// Computes, for 0 <= i < 64, 0 <= j < 128 (x = f32(X[i, :])):
//   m_i     = max_j x[j]                         (arith.maximumf, init -inf)
//   e[j]    = exp(x[j] - m_i)                    (f32)
//   s_i     = sum_j e[j]                         (f32, init 0)
//   Y[i, j] = f32(e[j] / s_i)                    (round to nearest even)
//
// Arguments (all `index`, tensor start addresses counted in f32 elements):
//   %x  X : 64x128 f32, row-major (strides [128, 1]), input
//   %y  Y : 64x128 f32, row-major, output
// Grid: [32]. Tile t handles rows [2t, 2t + 2) with one 2x128 tile (two
// 64-element sticks per row).
// Memory space spelling: #ktdp.spyre_memory_space<HBM>.

#mat = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#block = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
module {
  func.func @softmax(%x: index, %y: index) attributes {grid = [32]} {
    %id = ktdp.get_compute_tile_id : index
    %c2 = arith.constant 2 : index
    %row0 = arith.muli %id, %c2 : index
    %X = ktdp.construct_memory_view %x, sizes: [64, 128], strides: [128, 1] {coordinate_set = #mat, memory_space = #ktdp.spyre_memory_space<HBM>} : memref<64x128xf32>
    %Y = ktdp.construct_memory_view %y, sizes: [64, 128], strides: [128, 1] {coordinate_set = #mat, memory_space = #ktdp.spyre_memory_space<HBM>} : memref<64x128xf32>
    %tx = ktdp.construct_access_tile %X[%row0, 0] {access_tile_set = #block, access_tile_order = #id2} : memref<64x128xf32> -> !ktdp.access_tile<2x128xindex>
    %ty = ktdp.construct_access_tile %Y[%row0, 0] {access_tile_set = #block, access_tile_order = #id2} : memref<64x128xf32> -> !ktdp.access_tile<2x128xindex>
    %xh = ktdp.load %tx : <2x128xindex> -> tensor<2x128xf32>

    %neg_inf = arith.constant 0xFF800000 : f32
    %zero = arith.constant 0.0 : f32
    %row_init = tensor.empty() : tensor<2xf32>
    %max_init = linalg.fill ins(%neg_inf : f32) outs(%row_init : tensor<2xf32>) -> tensor<2xf32>
    %max = linalg.reduce ins(%xh : tensor<2x128xf32>) outs(%max_init : tensor<2xf32>) dimensions = [1]
      (%in: f32, %acc: f32) {
        %m = arith.maximumf %in, %acc : f32
        linalg.yield %m : f32
      }

    %full = tensor.empty() : tensor<2x128xf32>
    %exp = linalg.generic {indexing_maps = [#id2, #row, #id2], iterator_types = ["parallel", "parallel"]}
        ins(%xh, %max : tensor<2x128xf32>, tensor<2xf32>) outs(%full : tensor<2x128xf32>) {
      ^bb0(%in: f32, %m: f32, %out: f32):
        %d = arith.subf %in, %m : f32
        %ex = math.exp %d : f32
        linalg.yield %ex : f32
    } -> tensor<2x128xf32>

    %sum_init = linalg.fill ins(%zero : f32) outs(%row_init : tensor<2xf32>) -> tensor<2xf32>
    %sum = linalg.reduce ins(%exp : tensor<2x128xf32>) outs(%sum_init : tensor<2xf32>) dimensions = [1]
      (%in: f32, %acc: f32) {
        %s = arith.addf %in, %acc : f32
        linalg.yield %s : f32
      }

    %out = tensor.empty() : tensor<2x128xf32>
    %yh = linalg.generic {indexing_maps = [#id2, #row, #id2], iterator_types = ["parallel", "parallel"]}
        ins(%exp, %sum : tensor<2x128xf32>, tensor<2xf32>) outs(%out : tensor<2x128xf32>) {
      ^bb0(%e: f32, %s: f32, %o: f32):
        %q = arith.divf %e, %s : f32
        linalg.yield %q : f32
    } -> tensor<2x128xf32>
    ktdp.store %yh, %ty : tensor<2x128xf32>, <2x128xindex>
    return
  }
}
