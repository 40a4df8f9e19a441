// logsumexp_f32.mlir - cross-entropy style log-sum-exp per row, 64x128 f16
// logits computed in f32, rows cyclic over a [32, 1] grid.
//
// Computes, for r < 64 (x = f32(X[r, :])):
//   m      = max_j x[j]                          (maximumf, init -inf 0xFF800000)
//   s      = sum_j exp(x[j] - m)                 (f32, sequential)
//   L[r]   = m + log(s)                          (f32)
//   P[r,j] = f16(x[j] - L[r])                    (log-softmax, one rounding)

#x_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#v_set = affine_set<(d0) : (d0 >= 0, -d0 + 63 >= 0)>
#row = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 127 >= 0)>
#one = affine_set<(d0) : (d0 == 0)>
#id1 = affine_map<(d0) -> (d0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @logsumexp_kernel(%x_ptr: index,   // X: 64x128 f16 logits (input)
                              %l_ptr: index,   // L: 64 f32 log-sum-exp (output)
                              %p_ptr: index,   // P: 64x128 f16 log-probabilities (output)
                              %n_rows: index)  // rows: 64
      attributes {grid = [32, 1]} {
    %pid = ktdp.get_compute_tile_id : index
    %c0 = arith.constant 0 : index
    %c32 = arith.constant 32 : index
    %ninf = arith.constant 0xFF800000 : f32
    %zero = arith.constant 0.0 : f32
    %X = ktdp.construct_memory_view %x_ptr, sizes: [64, 128], strides: [128, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<64x128xf16>
    %L = ktdp.construct_memory_view %l_ptr, sizes: [64], strides: [1] {coordinate_set = #v_set, memory_space = #ktdp.memory_space<global>} : memref<64xf32>
    %P = ktdp.construct_memory_view %p_ptr, sizes: [64, 128], strides: [128, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<64x128xf16>
    scf.for %r = %pid to %n_rows step %c32 : index {
      %tx = ktdp.construct_access_tile %X[%r, 0] {access_tile_set = #row, access_tile_order = #id2} : memref<64x128xf16> -> !ktdp.access_tile<1x128xindex>
      %xh = ktdp.load %tx : <1x128xindex> -> tensor<1x128xf16>
      %x = arith.extf %xh : tensor<1x128xf16> to tensor<1x128xf32>
      %mi = tensor.splat %ninf : tensor<1xf32>
      %mr = linalg.reduce { arith.maximumf } ins(%x : tensor<1x128xf32>) outs(%mi : tensor<1xf32>) dimensions = [1]
      %m = tensor.extract %mr[%c0] : tensor<1xf32>
      %mb = tensor.splat %m : tensor<1x128xf32>
      %d = arith.subf %x, %mb : tensor<1x128xf32>
      %e = math.exp %d : tensor<1x128xf32>
      %si = tensor.splat %zero : tensor<1xf32>
      %sr = linalg.reduce { arith.addf } ins(%e : tensor<1x128xf32>) outs(%si : tensor<1xf32>) dimensions = [1]
      %lg = math.log %sr : tensor<1xf32>
      %lse = arith.addf %lg, %mr : tensor<1xf32>
      %tl = ktdp.construct_access_tile %L[%r] {access_tile_set = #one, access_tile_order = #id1} : memref<64xf32> -> !ktdp.access_tile<1xindex>
      ktdp.store %lse, %tl : tensor<1xf32>, <1xindex>
      %l = tensor.extract %lse[%c0] : tensor<1xf32>
      %lb = tensor.splat %l : tensor<1x128xf32>
      %p = arith.subf %x, %lb : tensor<1x128xf32>
      %ph = arith.truncf %p : tensor<1x128xf32> to tensor<1x128xf16>
      %tp = ktdp.construct_access_tile %P[%r, 0] {access_tile_set = #row, access_tile_order = #id2} : memref<64x128xf16> -> !ktdp.access_tile<1x128xindex>
      ktdp.store %ph, %tp : tensor<1x128xf16>, <1x128xindex>
      scf.yield
    }
    return
  }
}
