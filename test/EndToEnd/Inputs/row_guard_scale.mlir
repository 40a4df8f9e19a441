// row_guard_scale.mlir - a guarded normalisation written the way Triton
// lowers `tl.where` on a row statistic: each row of 64x128 f16 is divided
// by its maximum when that is positive (else kept), and a second output
// takes the row or its negation by the same comparison. Rows cyclic over a
// [32, 1] grid.
//
// Computes, for r < 64, j < 128 (m = max_j X[r, j], f16):
//   S[r, j] = X[r, j] * (m > 0 ? 1 / m : 1)      (f16, each op rounded)
//   N[r, j] = m > 0 ? X[r, j] : -X[r, j]

#x_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#row = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 127 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @row_guard_scale_kernel(%x_ptr: index,   // X: 64x128 f16 (input)
                                    %s_ptr: index,   // S: 64x128 f16 (output)
                                    %n_ptr: index)   // N: 64x128 f16 (output)
      attributes {grid = [32, 1]} {
    %pid = ktdp.get_compute_tile_id : index
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    %c32 = arith.constant 32 : index
    %zero = arith.constant 0.0 : f16
    %one = arith.constant 1.0 : f16
    %ninf = arith.constant 0xFC00 : f16
    %X = ktdp.construct_memory_view %x_ptr, sizes: [64, 128], strides: [128, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<64x128xf16>
    %S = ktdp.construct_memory_view %s_ptr, sizes: [64, 128], strides: [128, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<64x128xf16>
    %N = ktdp.construct_memory_view %n_ptr, sizes: [64, 128], strides: [128, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<64x128xf16>
    scf.for %r = %pid to %c64 step %c32 : index {
      %tx = ktdp.construct_access_tile %X[%r, 0] {access_tile_set = #row, access_tile_order = #id2} : memref<64x128xf16> -> !ktdp.access_tile<1x128xindex>
      %x = ktdp.load %tx : <1x128xindex> -> tensor<1x128xf16>
      %e = tensor.empty() : tensor<1xf16>
      %init = linalg.fill ins(%ninf : f16) outs(%e : tensor<1xf16>) -> tensor<1xf16>
      %mx = linalg.reduce ins(%x : tensor<1x128xf16>) outs(%init : tensor<1xf16>) dimensions = [1]
        (%in: f16, %acc: f16) {
          %a = arith.maximumf %in, %acc : f16
          linalg.yield %a : f16
        }
      %m = tensor.extract %mx[%c0] : tensor<1xf16>
      %pos = arith.cmpf ogt, %m, %zero : f16
      %inv = arith.divf %one, %m : f16
      %scale = arith.select %pos, %inv, %one : f16
      %sv = tensor.splat %scale : tensor<1x128xf16>
      %s = arith.mulf %x, %sv : tensor<1x128xf16>
      %neg = arith.negf %x : tensor<1x128xf16>
      %n = arith.select %pos, %x, %neg : tensor<1x128xf16>
      %ts = ktdp.construct_access_tile %S[%r, 0] {access_tile_set = #row, access_tile_order = #id2} : memref<64x128xf16> -> !ktdp.access_tile<1x128xindex>
      ktdp.store %s, %ts : tensor<1x128xf16>, <1x128xindex>
      %tn = ktdp.construct_access_tile %N[%r, 0] {access_tile_set = #row, access_tile_order = #id2} : memref<64x128xf16> -> !ktdp.access_tile<1x128xindex>
      ktdp.store %n, %tn : tensor<1x128xf16>, <1x128xindex>
    }
    return
  }
}
