// RUN: ktflow-opt %s --ktdf-check-supported -split-input-file -verify-diagnostics

// Shape idioms of real kernels (RMSNorm as Triton lowers it): reshapes
// that only remove or add dimensions of extent 1, a row's sum of squares
// written as linalg.matmul(x, linalg.transpose(x)) with a 1x1 result, math
// on a rank-0 tensor and linalg.broadcast from rank 0 are accepted; other
// reshapes, transposes and the matrix products the scheduler cannot
// compile are refused at the op. A masked one-row load (rows past the
// view's 20 when n_rows > 20) reads 0s, which may reach any store.

#x_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 19 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#w_set = affine_set<(d0) : (d0 >= 0, -d0 + 127 >= 0)>
#row = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 127 >= 0)>
#id1 = affine_map<(d0) -> (d0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @rms_rows(%x_ptr: index, %w_ptr: index, %y_ptr: index, %n_rows: index) attributes {grid = [1]} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f16
  %X = ktdp.construct_memory_view %x_ptr, sizes: [20, 128], strides: [128, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<20x128xf16>
  %W = ktdp.construct_memory_view %w_ptr, sizes: [128], strides: [1] {coordinate_set = #w_set, memory_space = #ktdp.memory_space<global>} : memref<128xf16>
  %Y = ktdp.construct_memory_view %y_ptr, sizes: [20, 128], strides: [128, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<20x128xf16>
  %e11 = tensor.empty() : tensor<1x1xf16>
  %zeros11 = linalg.fill ins(%zero : f16) outs(%e11 : tensor<1x1xf16>) -> tensor<1x1xf16>
  %n0 = arith.constant dense<128.0> : tensor<f16>
  scf.for %r = %c0 to %n_rows step %c1 {
    %tx = ktdp.construct_access_tile %X[%r, %c0] {access_tile_set = #row, access_tile_order = #id2} : memref<20x128xf16> -> !ktdp.access_tile<1x128xindex>
    %x = ktdp.load %tx : <1x128xindex> -> tensor<1x128xf16>
    %col = tensor.empty() : tensor<128x1xf16>
    %xt = linalg.transpose ins(%x : tensor<1x128xf16>) outs(%col : tensor<128x1xf16>) permutation = [1, 0]
    %ss = linalg.matmul ins(%x, %xt : tensor<1x128xf16>, tensor<128x1xf16>) outs(%zeros11 : tensor<1x1xf16>) -> tensor<1x1xf16>
    %s0 = tensor.collapse_shape %ss [] : tensor<1x1xf16> into tensor<f16>
    %ms = arith.divf %s0, %n0 : tensor<f16>
    %rstd = math.rsqrt %ms : tensor<f16>
    %row_t = tensor.empty() : tensor<1x128xf16>
    %rstd_b = linalg.broadcast ins(%rstd : tensor<f16>) outs(%row_t : tensor<1x128xf16>) dimensions = [0, 1]
    %tw = ktdp.construct_access_tile %W[%c0] {access_tile_set = #w_set, access_tile_order = #id1} : memref<128xf16> -> !ktdp.access_tile<128xindex>
    %w1 = ktdp.load %tw : <128xindex> -> tensor<128xf16>
    %w = tensor.expand_shape %w1 [[0, 1]] output_shape [1, 128] : tensor<128xf16> into tensor<1x128xf16>
    %xn = arith.mulf %x, %rstd_b : tensor<1x128xf16>
    %y = arith.mulf %xn, %w : tensor<1x128xf16>
    %ty = ktdp.construct_access_tile %Y[%r, %c0] {access_tile_set = #row, access_tile_order = #id2} : memref<20x128xf16> -> !ktdp.access_tile<1x128xindex>
    ktdp.store %y, %ty : tensor<1x128xf16>, <1x128xindex>
  }
  return
}

// -----

// The row collapsed away (1x128 -> 128), then stored through a 1-d tile of
// another view: a masked row's 0s are stored there, as the reference
// stores them. Accepted.
#x_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 19 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#v_set = affine_set<(d0) : (d0 >= 0, -d0 + 127 >= 0)>
#row = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 127 >= 0)>
#id1 = affine_map<(d0) -> (d0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @row_dropped(%x_ptr: index, %v_ptr: index, %n_rows: index) attributes {grid = [1]} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %X = ktdp.construct_memory_view %x_ptr, sizes: [20, 128], strides: [128, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<20x128xf16>
  %V = ktdp.construct_memory_view %v_ptr, sizes: [128], strides: [1] {coordinate_set = #v_set, memory_space = #ktdp.memory_space<global>} : memref<128xf16>
  scf.for %r = %c0 to %n_rows step %c1 {
    %tx = ktdp.construct_access_tile %X[%r, %c0] {access_tile_set = #row, access_tile_order = #id2} : memref<20x128xf16> -> !ktdp.access_tile<1x128xindex>
    %x = ktdp.load %tx : <1x128xindex> -> tensor<1x128xf16>
    %v = tensor.collapse_shape %x [[0, 1]] : tensor<1x128xf16> into tensor<128xf16>
    %tv = ktdp.construct_access_tile %V[%c0] {access_tile_set = #v_set, access_tile_order = #id1} : memref<128xf16> -> !ktdp.access_tile<128xindex>
    ktdp.store %v, %tv : tensor<128xf16>, <128xindex>
  }
  return
}

// -----

// A row's sum of squares collapsed to rank 0 and expanded to a 1x1 tile:
// a value of the masked row, stored through the same row of a view that
// holds no more rows. Accepted.
#x_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 19 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#s_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 19 >= 0, d1 == 0)>
#row = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 127 >= 0)>
#one = affine_set<(d0, d1) : (d0 == 0, d1 == 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @row_sum_kept(%x_ptr: index, %s_ptr: index, %n_rows: index) attributes {grid = [1]} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %X = ktdp.construct_memory_view %x_ptr, sizes: [20, 128], strides: [128, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<20x128xf16>
  %S = ktdp.construct_memory_view %s_ptr, sizes: [20, 1], strides: [1, 1] {coordinate_set = #s_set, memory_space = #ktdp.memory_space<global>} : memref<20x1xf16>
  %e11 = tensor.empty() : tensor<1x1xf16>
  scf.for %r = %c0 to %n_rows step %c1 {
    %tx = ktdp.construct_access_tile %X[%r, %c0] {access_tile_set = #row, access_tile_order = #id2} : memref<20x128xf16> -> !ktdp.access_tile<1x128xindex>
    %x = ktdp.load %tx : <1x128xindex> -> tensor<1x128xf16>
    %col = tensor.empty() : tensor<128x1xf16>
    %xt = linalg.transpose ins(%x : tensor<1x128xf16>) outs(%col : tensor<128x1xf16>) permutation = [1, 0]
    %ss = linalg.matmul ins(%x, %xt : tensor<1x128xf16>, tensor<128x1xf16>) outs(%e11 : tensor<1x1xf16>) -> tensor<1x1xf16>
    %s0 = tensor.collapse_shape %ss [] : tensor<1x1xf16> into tensor<f16>
    %r0 = math.sqrt %s0 : tensor<f16>
    %s11 = tensor.expand_shape %r0 [] output_shape [1, 1] : tensor<f16> into tensor<1x1xf16>
    %ts = ktdp.construct_access_tile %S[%r, %c0] {access_tile_set = #one, access_tile_order = #id2} : memref<20x1xf16> -> !ktdp.access_tile<1x1xindex>
    ktdp.store %s11, %ts : tensor<1x1xf16>, <1x1xindex>
  }
  return
}

// -----

// A general matmul of static 2-d float tiles is accepted (it runs on a
// matrix or vector unit); f64 operands, mixed operand types, transposed
// operand maps and other contractions are refused at the op.
func.func @general_matmul(%a: tensor<8x64xf16>, %b: tensor<64x16xf16>, %acc: tensor<8x16xf32>) attributes {grid = [1]} {
  %r = linalg.matmul ins(%a, %b : tensor<8x64xf16>, tensor<64x16xf16>) outs(%acc : tensor<8x16xf32>) -> tensor<8x16xf32>
  return
}

// -----

func.func @f64_matmul(%a: tensor<8x64xf64>, %b: tensor<64x16xf64>, %acc: tensor<8x16xf64>) attributes {grid = [1]} {
  // expected-error @+1 {{the scheduler compiles linalg.matmul only as operands of one float type (or a narrower right operand into an output of the left one's type) and a float output, each of at most 32 bits}}
  %r = linalg.matmul ins(%a, %b : tensor<8x64xf64>, tensor<64x16xf64>) outs(%acc : tensor<8x16xf64>) -> tensor<8x16xf64>
  return
}

// -----

func.func @mixed_matmul(%a: tensor<8x64xf16>, %b: tensor<64x16xbf16>, %acc: tensor<8x16xf32>) attributes {grid = [1]} {
  // expected-error @+1 {{the scheduler compiles linalg.matmul only as operands of one float type}}
  %r = linalg.matmul ins(%a, %b : tensor<8x64xf16>, tensor<64x16xbf16>) outs(%acc : tensor<8x16xf32>) -> tensor<8x16xf32>
  return
}

// -----

#lhs_t = affine_map<(m, n, k) -> (k, m)>
#rhs = affine_map<(m, n, k) -> (k, n)>
#out = affine_map<(m, n, k) -> (m, n)>
func.func @transposed_matmul(%a: tensor<64x8xf16>, %b: tensor<64x16xf16>, %acc: tensor<8x16xf32>) attributes {grid = [1]} {
  // expected-error @+1 {{the scheduler compiles linalg.matmul only as a matrix product with the default indexing maps (transposed or broadcast operands are not supported yet)}}
  %r = linalg.matmul indexing_maps = [#lhs_t, #rhs, #out] ins(%a, %b : tensor<64x8xf16>, tensor<64x16xf16>) outs(%acc : tensor<8x16xf32>) -> tensor<8x16xf32>
  return
}

// -----

// A batched product is one matrix product per tile: the grid or a loop
// walks the batches (examples/kernels/batch_matmul.mlir); two batches in
// one tile are refused.
func.func @batch_matmul(%a: tensor<2x8x64xf16>, %b: tensor<2x64x16xf16>, %acc: tensor<2x8x16xf32>) attributes {grid = [1]} {
  // expected-error @+1 {{the scheduler compiles linalg.batch_matmul only as a batched product of one batch per tile (the grid or a loop walks the batches; this tile holds 2)}}
  %r = linalg.batch_matmul ins(%a, %b : tensor<2x8x64xf16>, tensor<2x64x16xf16>) outs(%acc : tensor<2x8x16xf32>) -> tensor<2x8x16xf32>
  return
}

// -----

func.func @batch_matmul_int(%a: tensor<1x8x64xi8>, %b: tensor<1x64x16xi8>, %acc: tensor<1x8x16xi32>) attributes {grid = [1]} {
  // expected-error @+1 {{the scheduler compiles linalg.batch_matmul only as operands of one float type (or a narrower right operand into an output of the left one's type) and a float output, each of at most 32 bits}}
  %r = linalg.batch_matmul ins(%a, %b : tensor<1x8x64xi8>, tensor<1x64x16xi8>) outs(%acc : tensor<1x8x16xi32>) -> tensor<1x8x16xi32>
  return
}

// -----

func.func @conv(%a: tensor<1x8x8x4xf16>, %f: tensor<3x3x4x8xf16>, %acc: tensor<1x6x6x8xf16>) attributes {grid = [1]} {
  // expected-error @+1 {{matrix products and convolutions other than linalg.matmul and linalg.batch_matmul (linalg.conv_2d_nhwc_hwcf) are not supported by the scheduler yet}}
  %r = linalg.conv_2d_nhwc_hwcf ins(%a, %f : tensor<1x8x8x4xf16>, tensor<3x3x4x8xf16>) outs(%acc : tensor<1x6x6x8xf16>) -> tensor<1x6x6x8xf16>
  return
}

// -----

// x . x^T of a 2-row x is a 2x2 matrix, not a sum of squares: the
// transpose must become a permuted load, and x is no load.
func.func @gram(%x: tensor<2x64xf16>, %acc: tensor<2x2xf16>) attributes {grid = [1]} {
  %col = tensor.empty() : tensor<64x2xf16>
  // expected-error @+1 {{the scheduler compiles linalg.transpose only as permuted access tiles (transposed DMAs)}}
  %xt = linalg.transpose ins(%x : tensor<2x64xf16>) outs(%col : tensor<64x2xf16>) permutation = [1, 0]
  %r = linalg.matmul ins(%x, %xt : tensor<2x64xf16>, tensor<64x2xf16>) outs(%acc : tensor<2x2xf16>) -> tensor<2x2xf16>
  return
}

// -----

// The transpose also feeds something else than the sum of squares.
func.func @transpose_used(%x: tensor<1x64xf16>, %acc: tensor<1x1xf16>) attributes {grid = [1]} {
  %col = tensor.empty() : tensor<64x1xf16>
  // expected-error @+1 {{here its input is not computed in the kernel}}
  %xt = linalg.transpose ins(%x : tensor<1x64xf16>) outs(%col : tensor<64x1xf16>) permutation = [1, 0]
  %r = linalg.matmul ins(%x, %xt : tensor<1x64xf16>, tensor<64x1xf16>) outs(%acc : tensor<1x1xf16>) -> tensor<1x1xf16>
  %d = arith.addf %xt, %xt : tensor<64x1xf16>
  return
}

// -----

func.func @merging_reshapes(%x: tensor<4x32xf16>, %y: tensor<128xf16>) attributes {grid = [1]} {
  // expected-error @+1 {{tensor.collapse_shape is supported by the scheduler only between static shapes and when it removes or adds dimensions of extent 1 (not when it merges or splits dimensions)}}
  %c = tensor.collapse_shape %x [[0, 1]] : tensor<4x32xf16> into tensor<128xf16>
  // expected-error @+1 {{tensor.expand_shape is supported by the scheduler only}}
  %e = tensor.expand_shape %y [[0, 1]] output_shape [2, 64] : tensor<128xf16> into tensor<2x64xf16>
  return
}

// -----

// A causal mask from the iteration's coordinates (linalg.index): accepted,
// the unit computes it in f32 (IndexIdioms.h; index.mlir has the refusals).
func.func @index_in_body(%x: tensor<4x64xf16>) attributes {grid = [1]} {
  %ninf = arith.constant 0xFC00 : f16
  %e = tensor.empty() : tensor<4x64xf16>
  %m = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<4x64xf16>) outs(%e : tensor<4x64xf16>) {
  ^bb0(%v: f16, %o: f16):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %keep = arith.cmpi ule, %j, %i : index
    %r = arith.select %keep, %v, %ninf : f16
    linalg.yield %r : f16
  } -> tensor<4x64xf16>
  return
}
