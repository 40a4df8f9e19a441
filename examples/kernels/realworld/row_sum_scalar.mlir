// row_sum_scalar.mlir - Triton-style row sums where each 1x128 column block
// is reduced to an f32 scalar that is added to a running sum carried in
// iter_args (`total += tl.sum(x)`), over blocks up to a plain `index` N;
// rows dealt cyclically over a [16, 1] grid.
//
// Computes, for r < n_rows (64) and blocks b = 0, 128, ... below N (blocks
// past the views' 512 columns are masked), all sums f32:
//   p_b   = sum over j < 128 of f32(X[r, b + j])    (reduce: f32)
//   S[r]  = (((0 + p_0) + p_128) + ...)             (one f32 add a block)
#x_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 511 >= 0)>
#r_set = affine_set<(d0) : (d0 >= 0, -d0 + 63 >= 0)>
#blk = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 127 >= 0)>
#one = affine_set<(d0) : (d0 == 0)>
#id1 = affine_map<(d0) -> (d0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @row_sum_scalar(%x_ptr: index,   // X: 64x512 f16, row-major
                            %s_ptr: index,   // S: 64 f32 (output)
                            %n_rows: index,  // rows to process: 64
                            %N: index)       // row length: 512
      attributes {grid = [16, 1]} {
    %pid = ktdp.get_compute_tile_id : index
    %c0 = arith.constant 0 : index
    %c16 = arith.constant 16 : index
    %BLOCK_SIZE = arith.constant 128 : index
    %zero = arith.constant 0.0 : f32
    %X = ktdp.construct_memory_view %x_ptr, sizes: [64, 512], strides: [512, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<64x512xf16>
    %S = ktdp.construct_memory_view %s_ptr, sizes: [64], strides: [1] {coordinate_set = #r_set, memory_space = #ktdp.memory_space<global>} : memref<64xf32>
    scf.for %row = %pid to %n_rows step %c16 : index {
      %total = scf.for %off = %c0 to %N step %BLOCK_SIZE iter_args(%s = %zero) -> (f32) {
        %tx = ktdp.construct_access_tile %X[%row, %off] {access_tile_set = #blk, access_tile_order = #id2} : memref<64x512xf16> -> !ktdp.access_tile<1x128xindex>
        %x = ktdp.load %tx : <1x128xindex> -> tensor<1x128xf16>
        %xf = arith.extf %x : tensor<1x128xf16> to tensor<1x128xf32>
        %init = tensor.splat %zero : tensor<1xf32>
        %part = linalg.reduce ins(%xf : tensor<1x128xf32>) outs(%init : tensor<1xf32>) dimensions = [1]
          (%in: f32, %o: f32) {
            %t = arith.addf %in, %o : f32
            linalg.yield %t : f32
          }
        %p = tensor.extract %part[%c0] : tensor<1xf32>
        %s2 = arith.addf %s, %p : f32
        scf.yield %s2 : f32
      }
      %total_1 = tensor.splat %total : tensor<1xf32>
      %ts = ktdp.construct_access_tile %S[%row] {access_tile_set = #one, access_tile_order = #id1} : memref<64xf32> -> !ktdp.access_tile<1xindex>
      ktdp.store %total_1, %ts : tensor<1xf32>, <1xindex>
      scf.yield
    }
    return
  }
}
