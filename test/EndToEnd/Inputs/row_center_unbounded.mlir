// row_center_unbounded.mlir - row_center_dyn.mlir with both column loops
// up to the plain `index` N itself (no min(N, 1024)): blocks past the
// views' 1024 columns read zeros (the loads mask them) and their stores
// are dropped, as the reference interpreter does.
//
// row_center_dyn.mlir - Triton-style two-pass row centring over a run-time
// number of 1x128 column blocks: rows dealt cyclically over a [16, 1] grid;
// the first column loop folds each row's blocks into a `tensor<1x128xf16>`
// that it carries in `iter_args`, the second subtracts the row's mean from
// every block. The row length N is a plain `index` argument, so both loops
// run a number of trips known only at launch; `min(N, 1024)` keeps every
// block inside the 1024-column views (the loads need no masking).
//
// Computes, for r < n_rows (64), c < n = min(N, 1024) rounded up to a block
// of 128, all values f16:
//   a[j]    = f16 running sum over the blocks: a = f16(a + X[r, 128b + j])
//   mean    = f16(f16(sum_j a[j]) / f16(N))   (reduce: f32 accumulation,
//                                              one rounding)
//   Y[r, c] = f16(X[r, c] - mean)
//   MEAN[r] = mean
// With N = 0 the loops run no trips: MEAN[r] = 0 / 0 = NaN.

#x_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 1023 >= 0)>
#r_set = affine_set<(d0) : (d0 >= 0, -d0 + 63 >= 0)>
#blk = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 127 >= 0)>
#one = affine_set<(d0) : (d0 == 0)>
#id1 = affine_map<(d0) -> (d0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @row_center_kernel(%x_ptr: index,    // X: 64x1024 f16, row-major
                               %y_ptr: index,    // Y: 64x1024 f16, row-major (output)
                               %mean_ptr: index, // MEAN: 64 f16 (output)
                               %n_rows: index,   // rows to process: 64
                               %N: index)        // row length: 512
      attributes {grid = [16, 1]} {
    %pid = ktdp.get_compute_tile_id : index
    %c0 = arith.constant 0 : index
    %c16 = arith.constant 16 : index
    %c1024 = arith.constant 1024 : index
    %BLOCK_SIZE = arith.constant 128 : index
    %zero = arith.constant 0x0000 : f16
    %zeros = arith.constant dense<0.0> : tensor<1x128xf16>
    %n = arith.minsi %N, %c1024 : index
    %N_i32 = arith.index_cast %N : index to i32
    %N_f = arith.sitofp %N_i32 : i32 to f16
    %X = ktdp.construct_memory_view %x_ptr, sizes: [64, 1024], strides: [1024, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<64x1024xf16>
    %Y = ktdp.construct_memory_view %y_ptr, sizes: [64, 1024], strides: [1024, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<64x1024xf16>
    %MEAN = ktdp.construct_memory_view %mean_ptr, sizes: [64], strides: [1] {coordinate_set = #r_set, memory_space = #ktdp.memory_space<global>} : memref<64xf16>
    scf.for %row = %pid to %n_rows step %c16 : index {
      %acc = scf.for %off = %c0 to %N step %BLOCK_SIZE iter_args(%a = %zeros) -> tensor<1x128xf16> {
        %tx = ktdp.construct_access_tile %X[%row, %off] {access_tile_set = #blk, access_tile_order = #id2} : memref<64x1024xf16> -> !ktdp.access_tile<1x128xindex>
        %x = ktdp.load %tx : <1x128xindex> -> tensor<1x128xf16>
        %a2 = arith.addf %a, %x : tensor<1x128xf16>
        scf.yield %a2 : tensor<1x128xf16>
      }
      %sum_init = tensor.splat %zero : tensor<1xf16>
      %sum = linalg.reduce ins(%acc : tensor<1x128xf16>) outs(%sum_init : tensor<1xf16>) dimensions = [1]
        (%in: f16, %init: f16) {
          %s = arith.addf %in, %init : f16
          linalg.yield %s : f16
        }
      %sum_s = tensor.extract %sum[%c0] : tensor<1xf16>
      %mean = arith.divf %sum_s, %N_f : f16
      %tm = ktdp.construct_access_tile %MEAN[%row] {access_tile_set = #one, access_tile_order = #id1} : memref<64xf16> -> !ktdp.access_tile<1xindex>
      %mean_1 = tensor.splat %mean : tensor<1xf16>
      ktdp.store %mean_1, %tm : tensor<1xf16>, <1xindex>
      %mean_b = tensor.splat %mean : tensor<1x128xf16>
      scf.for %off = %c0 to %N step %BLOCK_SIZE : index {
        %tx = ktdp.construct_access_tile %X[%row, %off] {access_tile_set = #blk, access_tile_order = #id2} : memref<64x1024xf16> -> !ktdp.access_tile<1x128xindex>
        %x = ktdp.load %tx : <1x128xindex> -> tensor<1x128xf16>
        %y = arith.subf %x, %mean_b : tensor<1x128xf16>
        %ty = ktdp.construct_access_tile %Y[%row, %off] {access_tile_set = #blk, access_tile_order = #id2} : memref<64x1024xf16> -> !ktdp.access_tile<1x128xindex>
        ktdp.store %y, %ty : tensor<1x128xf16>, <1x128xindex>
        scf.yield
      }
      scf.yield
    }
    return
  }
}
