// row_block_sum.mlir - Triton-style folding of a wide row into one block:
// rows dealt cyclically over a [16, 1] grid; each row's four 1x128 column
// blocks are summed into a `tensor<1x128xf16>` that the column loop carries
// in `iter_args` (BLOCK_SIZE and the row length are constexprs, so the loop
// has a constant trip count), then shifted by its own maximum.
//
// Computes, for r < n_rows (64), j < 128, all values f16:
//   a[j]    = f16 running sum over the 4 blocks: a = f16(a + X[r, 128b + j])
//   m       = max_j a[j]                       (maxnumf, init -inf = 0xFC00)
//   Y[r, j] = f16(a[j] - m)
// With n_rows past the views' 64 rows, the rows past them are neither read
// nor written.

#x_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 511 >= 0)>
#y_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#blk = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 127 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @row_block_sum_kernel(%x_ptr: index,  // X: 64x512 f16, row-major
                                  %y_ptr: index,  // Y: 64x128 f16, row-major (output)
                                  %n_rows: index) // rows to process: 64
      attributes {grid = [16, 1]} {
    %pid = ktdp.get_compute_tile_id : index
    %c0 = arith.constant 0 : index
    %c16 = arith.constant 16 : index
    %N = arith.constant 512 : index
    %BLOCK_SIZE = arith.constant 128 : index
    %ninf = arith.constant 0xFC00 : f16  // -inf
    %zeros = arith.constant dense<0.0> : tensor<1x128xf16>
    %X = ktdp.construct_memory_view %x_ptr, sizes: [64, 512], strides: [512, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<64x512xf16>
    %Y = ktdp.construct_memory_view %y_ptr, sizes: [64, 128], strides: [128, 1] {coordinate_set = #y_set, memory_space = #ktdp.memory_space<global>} : memref<64x128xf16>
    scf.for %row = %pid to %n_rows step %c16 : index {
      %acc = scf.for %off = %c0 to %N step %BLOCK_SIZE iter_args(%a = %zeros) -> tensor<1x128xf16> {
        %tx = ktdp.construct_access_tile %X[%row, %off] {access_tile_set = #blk, access_tile_order = #id2} : memref<64x512xf16> -> !ktdp.access_tile<1x128xindex>
        %x = ktdp.load %tx : <1x128xindex> -> tensor<1x128xf16>
        %a2 = arith.addf %a, %x : tensor<1x128xf16>
        scf.yield %a2 : tensor<1x128xf16>
      }
      %max_init = tensor.splat %ninf : tensor<1xf16>
      %max = linalg.reduce { arith.maxnumf } ins(%acc : tensor<1x128xf16>) outs(%max_init : tensor<1xf16>) dimensions = [1]
      %m = tensor.extract %max[%c0] : tensor<1xf16>
      %mb = tensor.splat %m : tensor<1x128xf16>
      %y = arith.subf %acc, %mb : tensor<1x128xf16>
      %ty = ktdp.construct_access_tile %Y[%row, 0] {access_tile_set = #blk, access_tile_order = #id2} : memref<64x128xf16> -> !ktdp.access_tile<1x128xindex>
      ktdp.store %y, %ty : tensor<1x128xf16>, <1x128xindex>
      scf.yield
    }
    return
  }
}
