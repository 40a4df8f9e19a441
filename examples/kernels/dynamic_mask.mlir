// dynamic_mask.mlir - row max-subtraction over a runtime row count N that is
// not a multiple of the 8-row tile: the last block's access tile reaches past
// the views' coordinate_set and relies on masking.
//
// Computes, for 0 <= i < N, 0 <= j < 64, in f16:
//   m_i     = max_j X[i, j]                      (arith.maximumf, init -inf)
//   Y[i, j] = X[i, j] - m_i                      (f16 subtract, rounded to f16)
// Rows of Y at index >= N are never written.
//
// Masking: a block starting at row r0 covers rows [r0, r0 + 8). Coordinates
// with row >= N lie outside the coordinate_set (0 <= d0 < N) of X and Y: the
// load yields 0.0 for them (their m is 0, their Y value 0) and the store skips
// them. E.g. N = 100: tile 12 handles rows 96..103, rows 100..103 masked.
//
// Arguments:
//   %x      index, start address (in f16 elements) of X : Nx64 f16, row-major, input
//   %y      index, start address of Y : Nx64 f16, row-major, output
//   %N_arg  !ktdp.runtime_arg<index, upperbound=1024>: the row count N,
//           1 <= N <= 1024, any value (e.g. 100)
// The views have symbolic sizes [%N, 64] (memref<?x64xf16, #ktdp.memory_space<global>>),
// coordinate_set symbol s0 = N.
// Grid: [32]. Tile t handles the 8-row blocks starting at rows 8t, 8t + 256,
// 8t + 512, ... below N (scf.for from 8t to N step 256).
// Memory space spelling: #ktdp.memory_space<global>, also on the memref types.

#rows = affine_set<(d0, d1)[s0] : (d0 >= 0, -d0 + s0 - 1 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#block = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @dynamic_mask(%x: index, %y: index, %N_arg: !ktdp.runtime_arg<index, upperbound=1024>) attributes {grid = [32]} {
    %id = ktdp.get_compute_tile_id : index
    %N = ktdp.runtime_arg_extract value from %N_arg : !ktdp.runtime_arg<index, upperbound=1024> -> index
    %c8 = arith.constant 8 : index
    %c256 = arith.constant 256 : index
    %start = arith.muli %id, %c8 : index
    %X = ktdp.construct_memory_view %x, sizes: [%N, 64], strides: [64, 1] {coordinate_set = #rows, memory_space = #ktdp.memory_space<global>} : memref<?x64xf16, #ktdp.memory_space<global>>
    %Y = ktdp.construct_memory_view %y, sizes: [%N, 64], strides: [64, 1] {coordinate_set = #rows, memory_space = #ktdp.memory_space<global>} : memref<?x64xf16, #ktdp.memory_space<global>>
    %neg_inf = arith.constant 0xFC00 : f16
    scf.for %r0 = %start to %N step %c256 {
      %tx = ktdp.construct_access_tile %X[%r0, 0] {access_tile_set = #block, access_tile_order = #id2} : memref<?x64xf16, #ktdp.memory_space<global>> -> !ktdp.access_tile<8x64xindex>
      %ty = ktdp.construct_access_tile %Y[%r0, 0] {access_tile_set = #block, access_tile_order = #id2} : memref<?x64xf16, #ktdp.memory_space<global>> -> !ktdp.access_tile<8x64xindex>
      %xt = ktdp.load %tx : <8x64xindex> -> tensor<8x64xf16>
      %rows_init = tensor.empty() : tensor<8xf16>
      %max_init = linalg.fill ins(%neg_inf : f16) outs(%rows_init : tensor<8xf16>) -> tensor<8xf16>
      %max = linalg.reduce ins(%xt : tensor<8x64xf16>) outs(%max_init : tensor<8xf16>) dimensions = [1]
        (%in: f16, %acc: f16) {
          %m = arith.maximumf %in, %acc : f16
          linalg.yield %m : f16
        }
      %full = tensor.empty() : tensor<8x64xf16>
      %mb = linalg.broadcast ins(%max : tensor<8xf16>) outs(%full : tensor<8x64xf16>) dimensions = [1]
      %yt = linalg.sub ins(%xt, %mb : tensor<8x64xf16>, tensor<8x64xf16>) outs(%full : tensor<8x64xf16>) -> tensor<8x64xf16>
      ktdp.store %yt, %ty : tensor<8x64xf16>, <8x64xindex>
    }
    return
  }
}
