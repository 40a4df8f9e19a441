// combo_guard_softmax.mlir - a row softmax guarded by a row condition:
// rows whose maximum is positive are normalised (the sum's reciprocal
// written as powf(s, -1.0)), the others are passed through. 64x128 f16,
// f32 statistics, rows cyclic over a [32, 1] grid.
//
// Computes, for r < 64, j < 128 (m = max_j X[r, j], f32 per op):
//   e[j] = exp(X[r, j] - m),  s = sum_j e[j]
//   Y[r, j] = m > 0 ? f16(e[j] * s^-1) : X[r, j]
#x_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#row = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 127 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @guard_softmax_kernel(%x_ptr: index,   // X: 64x128 f16 (input)
                                  %y_ptr: index)   // Y: 64x128 f16 (output)
      attributes {grid = [32, 1]} {
    %pid = ktdp.get_compute_tile_id : index
    %c0 = arith.constant 0 : index
    %c32 = arith.constant 32 : index
    %c64 = arith.constant 64 : index
    %zero = arith.constant 0.0 : f32
    %mone = arith.constant -1.0 : f32
    %ninf = arith.constant 0xFF800000 : f32
    %X = ktdp.construct_memory_view %x_ptr, sizes: [64, 128], strides: [128, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<64x128xf16>
    %Y = ktdp.construct_memory_view %y_ptr, sizes: [64, 128], strides: [128, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<64x128xf16>
    scf.for %r = %pid to %c64 step %c32 : index {
      %tx = ktdp.construct_access_tile %X[%r, 0] {access_tile_set = #row, access_tile_order = #id2} : memref<64x128xf16> -> !ktdp.access_tile<1x128xindex>
      %xh = ktdp.load %tx : <1x128xindex> -> tensor<1x128xf16>
      %x = arith.extf %xh : tensor<1x128xf16> to tensor<1x128xf32>
      %e0 = tensor.empty() : tensor<1xf32>
      %minit = linalg.fill ins(%ninf : f32) outs(%e0 : tensor<1xf32>) -> tensor<1xf32>
      %mx = linalg.reduce ins(%x : tensor<1x128xf32>) outs(%minit : tensor<1xf32>) dimensions = [1]
        (%in: f32, %acc: f32) {
          %a = arith.maxnumf %in, %acc : f32
          linalg.yield %a : f32
        }
      %m = tensor.extract %mx[%c0] : tensor<1xf32>
      %mv = tensor.splat %m : tensor<1x128xf32>
      %d = arith.subf %x, %mv : tensor<1x128xf32>
      %e = math.exp %d : tensor<1x128xf32>
      %sinit = linalg.fill ins(%zero : f32) outs(%e0 : tensor<1xf32>) -> tensor<1xf32>
      %sm = linalg.reduce ins(%e : tensor<1x128xf32>) outs(%sinit : tensor<1xf32>) dimensions = [1]
        (%in: f32, %acc: f32) {
          %a = arith.addf %in, %acc : f32
          linalg.yield %a : f32
        }
      %s = tensor.extract %sm[%c0] : tensor<1xf32>
      %inv = math.powf %s, %mone : f32
      %iv = tensor.splat %inv : tensor<1x128xf32>
      %p = arith.mulf %e, %iv : tensor<1x128xf32>
      %ph = arith.truncf %p : tensor<1x128xf32> to tensor<1x128xf16>
      %pos = arith.cmpf ogt, %m, %zero : f32
      %y = arith.select %pos, %ph, %xh : tensor<1x128xf16>
      %ty = ktdp.construct_access_tile %Y[%r, 0] {access_tile_set = #row, access_tile_order = #id2} : memref<64x128xf16> -> !ktdp.access_tile<1x128xindex>
      ktdp.store %y, %ty : tensor<1x128xf16>, <1x128xindex>
    }
    return
  }
}
