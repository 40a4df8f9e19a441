// row_sum_offsets.mlir - Triton-style row sums over a run-time number of
// 1x128 column blocks: the block loop carries both an f32 accumulator
// tensor and the block's column offset (`off += BLOCK_SIZE`, Triton's
// pointer increment) in iter_args; rows dealt cyclically over a [16, 1]
// grid.
//
// Computes, for r < n_rows (64), with B = n_blocks (at most 4 inside the
// views' 512 columns; blocks past them are masked):
//   a[j]  = sum over b < B of f32(X[r, 128 b + j]), in that order (f32)
//   S[r]  = sum over j of a[j]                      (reduce: f32)
#x_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 511 >= 0)>
#r_set = affine_set<(d0) : (d0 >= 0, -d0 + 63 >= 0)>
#blk = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 127 >= 0)>
#one = affine_set<(d0) : (d0 == 0)>
#id1 = affine_map<(d0) -> (d0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @row_sum_offsets(%x_ptr: index,    // X: 64x512 f16, row-major
                             %s_ptr: index,    // S: 64 f32 (output)
                             %n_rows: index,   // rows to process: 64
                             %n_blocks: index) // 1x128 blocks per row: 4
      attributes {grid = [16, 1]} {
    %pid = ktdp.get_compute_tile_id : index
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c16 = arith.constant 16 : index
    %BLOCK_SIZE = arith.constant 128 : index
    %zero = arith.constant 0.0 : f32
    %zeros = arith.constant dense<0.0> : tensor<1x128xf32>
    %X = ktdp.construct_memory_view %x_ptr, sizes: [64, 512], strides: [512, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<64x512xf16>
    %S = ktdp.construct_memory_view %s_ptr, sizes: [64], strides: [1] {coordinate_set = #r_set, memory_space = #ktdp.memory_space<global>} : memref<64xf32>
    scf.for %row = %pid to %n_rows step %c16 : index {
      %acc, %end = scf.for %i = %c0 to %n_blocks step %c1 iter_args(%a = %zeros, %off = %c0) -> (tensor<1x128xf32>, index) {
        %tx = ktdp.construct_access_tile %X[%row, %off] {access_tile_set = #blk, access_tile_order = #id2} : memref<64x512xf16> -> !ktdp.access_tile<1x128xindex>
        %x = ktdp.load %tx : <1x128xindex> -> tensor<1x128xf16>
        %xf = arith.extf %x : tensor<1x128xf16> to tensor<1x128xf32>
        %a2 = arith.addf %a, %xf : tensor<1x128xf32>
        %next = arith.addi %off, %BLOCK_SIZE : index   // off += BLOCK_SIZE
        scf.yield %a2, %next : tensor<1x128xf32>, index
      }
      %init = tensor.splat %zero : tensor<1xf32>
      %sum = linalg.reduce ins(%acc : tensor<1x128xf32>) outs(%init : tensor<1xf32>) dimensions = [1]
        (%in: f32, %o: f32) {
          %s = arith.addf %in, %o : f32
          linalg.yield %s : f32
        }
      %ts = ktdp.construct_access_tile %S[%row] {access_tile_set = #one, access_tile_order = #id1} : memref<64xf32> -> !ktdp.access_tile<1xindex>
      ktdp.store %sum, %ts : tensor<1xf32>, <1xindex>
      scf.yield
    }
    return
  }
}
