// rmsnorm_powf2.mlir - an RMSNorm that squares with math.powf by 2.0 (the
// spelling of x ** 2 a Triton or PyTorch port writes), 64x256 f16, rows
// cyclic over a [32, 1] grid.
//
// Computes, for r < 64, j < 256, all arithmetic in f32:
//   x[j]    = f32(X[r, j])
//   ss      = sum_j powf(x[j], 2.0)                    (f32, sequential)
//   rs      = rsqrt(ss / 256 + eps)                    (f32)
//   Y[r, j] = f16(powf(x[j] * rs, 1.0) * f32(W[j]))    (f32, one rounding)
// powf(x, 2.0) in double is x * x exactly, rounded once to f32 as
// arith.mulf x, x rounds it; powf(v, 1.0) is v.
// Argument eps: f32 (e.g. 1e-6).

#x_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 255 >= 0)>
#w_set = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 255 >= 0)>
#row = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 255 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @rmsnorm_powf2_kernel(%x_ptr: index,   // X: 64x256 f16 (input)
                                  %w_ptr: index,   // W: 256 f16 weight (input)
                                  %y_ptr: index,   // Y: 64x256 f16 (output)
                                  %eps: f32)       // epsilon
      attributes {grid = [32, 1]} {
    %pid = ktdp.get_compute_tile_id : index
    %c0 = arith.constant 0 : index
    %c32 = arith.constant 32 : index
    %c64 = arith.constant 64 : index
    %zero = arith.constant 0.0 : f32
    %inv_n = arith.constant 3.906250e-03 : f32   // 1/256
    %two = arith.constant dense<2.0> : tensor<1x256xf32>
    %one = arith.constant dense<1.0> : tensor<1x256xf32>
    %X = ktdp.construct_memory_view %x_ptr, sizes: [64, 256], strides: [256, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<64x256xf16>
    %W = ktdp.construct_memory_view %w_ptr, sizes: [1, 256], strides: [256, 1] {coordinate_set = #w_set, memory_space = #ktdp.memory_space<global>} : memref<1x256xf16>
    %Y = ktdp.construct_memory_view %y_ptr, sizes: [64, 256], strides: [256, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<64x256xf16>
    %tw = ktdp.construct_access_tile %W[0, 0] {access_tile_set = #row, access_tile_order = #id2} : memref<1x256xf16> -> !ktdp.access_tile<1x256xindex>
    %wh = ktdp.load %tw : <1x256xindex> -> tensor<1x256xf16>
    %w = arith.extf %wh : tensor<1x256xf16> to tensor<1x256xf32>
    scf.for %r = %pid to %c64 step %c32 : index {
      %tx = ktdp.construct_access_tile %X[%r, 0] {access_tile_set = #row, access_tile_order = #id2} : memref<64x256xf16> -> !ktdp.access_tile<1x256xindex>
      %xh = ktdp.load %tx : <1x256xindex> -> tensor<1x256xf16>
      %x = arith.extf %xh : tensor<1x256xf16> to tensor<1x256xf32>
      %sq = math.powf %x, %two : tensor<1x256xf32>
      %si = tensor.splat %zero : tensor<1xf32>
      %ss = linalg.reduce { arith.addf } ins(%sq : tensor<1x256xf32>) outs(%si : tensor<1xf32>) dimensions = [1]
      %s = tensor.extract %ss[%c0] : tensor<1xf32>
      %mean = arith.mulf %s, %inv_n : f32
      %me = arith.addf %mean, %eps : f32
      %rs = math.rsqrt %me : f32
      %rsb = tensor.splat %rs : tensor<1x256xf32>
      %n = arith.mulf %x, %rsb : tensor<1x256xf32>
      %n1 = math.powf %n, %one : tensor<1x256xf32>
      %yw = arith.mulf %n1, %w : tensor<1x256xf32>
      %y = arith.truncf %yw : tensor<1x256xf32> to tensor<1x256xf16>
      %ty = ktdp.construct_access_tile %Y[%r, 0] {access_tile_set = #row, access_tile_order = #id2} : memref<64x256xf16> -> !ktdp.access_tile<1x256xindex>
      ktdp.store %y, %ty : tensor<1x256xf16>, <1x256xindex>
      scf.yield
    }
    return
  }
}
