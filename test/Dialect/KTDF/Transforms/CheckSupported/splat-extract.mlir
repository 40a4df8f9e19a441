// RUN: ktflow-opt %s --ktdf-check-supported -split-input-file -verify-diagnostics

// The broadcast idiom of real kernels: a row reduced to a one-element
// tensor, extracted to a scalar and splat back over the row; reductions
// initialised by a splat constant (0xFC00 is -inf), linalg.fill, or a dense
// splat constant; scalar float arithmetic on such elements, float
// arguments, integer arguments converted to float and constants.
// ktdf-generalize turns these into linalg.generic; other uses of
// tensor.splat and tensor.extract are refused at the op.

#all = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#row = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 127 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @broadcast_idiom(%x: index, %y: index) attributes {grid = [64]} {
  %r = ktdp.get_compute_tile_id : index
  %c0 = arith.constant 0 : index
  %ninf = arith.constant 0xFC00 : f16
  %zero = arith.constant 0.0 : f16
  %X = ktdp.construct_memory_view %x, sizes: [64, 128], strides: [128, 1] {coordinate_set = #all, memory_space = #ktdp.memory_space<global>} : memref<64x128xf16>
  %Y = ktdp.construct_memory_view %y, sizes: [64, 128], strides: [128, 1] {coordinate_set = #all, memory_space = #ktdp.memory_space<global>} : memref<64x128xf16>
  %tx = ktdp.construct_access_tile %X[%r, 0] {access_tile_set = #row, access_tile_order = #id2} : memref<64x128xf16> -> !ktdp.access_tile<1x128xindex>
  %ty = ktdp.construct_access_tile %Y[%r, 0] {access_tile_set = #row, access_tile_order = #id2} : memref<64x128xf16> -> !ktdp.access_tile<1x128xindex>
  %v = ktdp.load %tx : <1x128xindex> -> tensor<1x128xf16>
  %max_init = tensor.splat %ninf : tensor<1xf16>
  %max = linalg.reduce { arith.maxnumf } ins(%v : tensor<1x128xf16>) outs(%max_init : tensor<1xf16>) dimensions = [1]
  %m = tensor.extract %max[%c0] : tensor<1xf16>
  %mb = tensor.splat %m : tensor<1x128xf16>
  %e1 = tensor.empty() : tensor<1xf16>
  %sum_init = linalg.fill ins(%zero : f16) outs(%e1 : tensor<1xf16>) -> tensor<1xf16>
  %sum = linalg.reduce { arith.addf } ins(%v : tensor<1x128xf16>) outs(%sum_init : tensor<1xf16>) dimensions = [1]
  %s = tensor.extract %sum[%c0] : tensor<1xf16>
  %sb = tensor.splat %s : tensor<1x128xf16>
  %ones = arith.constant dense<1.0> : tensor<1x128xf16>
  %d = arith.subf %v, %mb : tensor<1x128xf16>
  %q = arith.divf %d, %sb : tensor<1x128xf16>
  %w = arith.addf %q, %ones : tensor<1x128xf16>
  ktdp.store %w, %ty : tensor<1x128xf16>, <1x128xindex>
  return
}

// -----

func.func @extract_of_many(%t: tensor<4xf16>) -> tensor<4x8xf16> attributes {grid = [1]} {
  %c1 = arith.constant 1 : index
  // expected-error @+1 {{tensor.extract of one element of a larger tensor is not supported by the scheduler yet (only the element of a one-element tensor, or of a ktdp.load through a box access tile, which ktdf-lift-slices loads alone, broadcast back by tensor.splat or in scalar float arithmetic)}}
  %s = tensor.extract %t[%c1] : tensor<4xf16>
  // expected-error @+1 {{tensor.splat of a scalar that is neither a constant, a float kernel argument, an integer one converted to float, the element of a one-element tensor (tensor.extract), nor arithmetic on those is not supported by the scheduler yet}}
  %b = tensor.splat %s : tensor<4x8xf16>
  return %b : tensor<4x8xf16>
}

// -----

// Scalar float arithmetic on row scalars (ktdf-generalize computes it on
// rank-0 tensors): a layernorm's rsqrt(sum / f16(N) + eps), with N an index
// argument converted through i32, the result splat over a row and into a
// one-element tensor.
func.func @scalar_arithmetic(%t: tensor<1xf16>, %n: index, %eps: f16) -> (tensor<8xf16>, tensor<1xf16>) attributes {grid = [1]} {
  %c0 = arith.constant 0 : index
  %half = arith.constant 0.5 : f16
  %n_i32 = arith.index_cast %n : index to i32
  %n_f = arith.sitofp %n_i32 : i32 to f16
  %s = tensor.extract %t[%c0] : tensor<1xf16>
  %mean = arith.divf %s, %n_f : f16
  %v = arith.addf %mean, %eps : f16
  %r = math.rsqrt %v : f16
  %h = arith.mulf %r, %half : f16
  %b = tensor.splat %h : tensor<8xf16>
  %one = tensor.splat %r : tensor<1xf16>
  return %b, %one : tensor<8xf16>, tensor<1xf16>
}

// -----

// A float constant spelt as the bitcast of an integer one (-inf as
// 0xFF800000 : i32, the field guide's idiom), splat into a reduction's
// init and used in scalar arithmetic: ktdf-generalize's rewrites fold it.
func.func @bitcast_constant(%t: tensor<1xf32>) -> (tensor<1xf32>, tensor<8xf32>) attributes {grid = [1]} {
  %c0 = arith.constant 0 : index
  %bits = arith.constant 0xFF800000 : i32
  %ninf = arith.bitcast %bits : i32 to f32
  %init = tensor.splat %ninf : tensor<1xf32>
  %s = tensor.extract %t[%c0] : tensor<1xf32>
  %m = arith.maximumf %s, %ninf : f32
  %b = tensor.splat %m : tensor<8xf32>
  return %init, %b : tensor<1xf32>, tensor<8xf32>
}

// -----

// An operand that is none of those: the float of a tile id.
func.func @scalar_arithmetic_on_tile_id(%t: tensor<1xf16>) -> tensor<8xf16> attributes {grid = [4]} {
  %c0 = arith.constant 0 : index
  %pid = ktdp.get_compute_tile_id : index
  %i = arith.index_cast %pid : index to i32
  %f = arith.sitofp %i : i32 to f16
  // expected-error @+1 {{a scalar from tensor.extract used by 'arith.mulf' is not supported by the scheduler yet (only a tensor.splat broadcasting it back, or scalar float arithmetic on one-element tensors, float arguments and constants, and comparisons of those that only selects of those pick by)}}
  %s = tensor.extract %t[%c0] : tensor<1xf16>
  %s2 = arith.mulf %s, %f : f16
  // expected-error @+1 {{tensor.splat of a scalar that is neither a constant, a float kernel argument, an integer one converted to float}}
  %b = tensor.splat %s2 : tensor<8xf16>
  return %b : tensor<8xf16>
}

// -----

// A float scalar argument (a norm's epsilon) is bound at launch: its splat
// is accepted for f16, bf16 and f32; an f64 one is not a launch scalar.
func.func @splat_of_float_arguments(%a: f16, %b: bf16, %c: f32) -> (tensor<8xf16>, tensor<8xbf16>, tensor<f32>) attributes {grid = [1]} {
  %sa = tensor.splat %a : tensor<8xf16>
  %sb = tensor.splat %b : tensor<8xbf16>
  %sc = tensor.splat %c : tensor<f32>
  return %sa, %sb, %sc : tensor<8xf16>, tensor<8xbf16>, tensor<f32>
}

// -----

func.func @splat_of_f64_argument(%a: f64) -> tensor<8xf64> attributes {grid = [1]} {
  // expected-error @+1 {{tensor.splat of a scalar that is neither a constant, a float kernel argument, an integer one converted to float}}
  %b = tensor.splat %a : tensor<8xf64>
  return %b : tensor<8xf64>
}

// -----

func.func @dynamic_splat(%n: index) -> tensor<?xf16> attributes {grid = [1]} {
  %one = arith.constant 1.0 : f16
  // expected-error @+1 {{tensor.splat to a dynamically shaped tensor is not supported by the scheduler yet}}
  %b = tensor.splat %one[%n] : tensor<?xf16>
  return %b : tensor<?xf16>
}

// -----

// A comparison of a row's element that a branch takes: control flow that
// depends on data (a select of row values or of tensors by it passes).
func.func @branch_on_row_value(%t: tensor<1xf16>) attributes {grid = [4]} {
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0.0 : f16
  // expected-error @+1 {{a scalar from tensor.extract used by 'arith.cmpf' is not supported by the scheduler yet}}
  %s = tensor.extract %t[%c0] : tensor<1xf16>
  %pos = arith.cmpf ogt, %s, %zero : f16
  scf.if %pos {
    %e = tensor.empty() : tensor<8xf16>
  }
  return
}
