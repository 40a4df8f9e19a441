// RUN: ktflow-opt %s --ktdf-check-supported -split-input-file -verify-diagnostics

// Transposes compile as permuted access tiles (TransposeIdioms.h): the
// input computed element-wise from loads of tiles in device memory, or the
// result only stored. Access tiles with a permuted order may reach past
// their views: their DMAs are clamped to the view like any other, and a
// load reads 0 past it.

#set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 31 >= 0, d1 >= 0, -d1 + 31 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#tr = affine_map<(d0, d1) -> (d1, d0)>
func.func @accepted(%x_ptr: index, %y_ptr: index) attributes {grid = [1]} {
  %X = ktdp.construct_memory_view %x_ptr, sizes: [32, 32], strides: [32, 1] {coordinate_set = #set, memory_space = #ktdp.memory_space<global>} : memref<32x32xf16>
  %Y = ktdp.construct_memory_view %y_ptr, sizes: [32, 32], strides: [32, 1] {coordinate_set = #set, memory_space = #ktdp.memory_space<global>} : memref<32x32xf16>
  %tx = ktdp.construct_access_tile %X[0, 0] {access_tile_set = #set, access_tile_order = #id2} : memref<32x32xf16> -> !ktdp.access_tile<32x32xindex>
  %ty = ktdp.construct_access_tile %Y[0, 0] {access_tile_set = #set, access_tile_order = #tr} : memref<32x32xf16> -> !ktdp.access_tile<32x32xindex>
  %x = ktdp.load %tx : <32x32xindex> -> tensor<32x32xf16>
  %w = arith.extf %x : tensor<32x32xf16> to tensor<32x32xf32>
  %e = tensor.empty() : tensor<32x32xf32>
  %wt = linalg.transpose ins(%w : tensor<32x32xf32>) outs(%e : tensor<32x32xf32>) permutation = [1, 0]
  %h = arith.truncf %wt : tensor<32x32xf32> to tensor<32x32xf16>
  ktdp.store %h, %ty : tensor<32x32xf16>, <32x32xindex>
  return
}

// -----

// A transpose of a reduction's result is neither element-wise from loads
// nor only stored.
#set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 31 >= 0, d1 >= 0, -d1 + 31 >= 0)>
#col = affine_set<(d0, d1) : (d0 >= 0, -d0 + 31 >= 0, d1 == 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @of_reduction(%x_ptr: index, %y_ptr: index) attributes {grid = [1]} {
  %X = ktdp.construct_memory_view %x_ptr, sizes: [32, 32], strides: [32, 1] {coordinate_set = #set, memory_space = #ktdp.memory_space<global>} : memref<32x32xf16>
  %tx = ktdp.construct_access_tile %X[0, 0] {access_tile_set = #set, access_tile_order = #id2} : memref<32x32xf16> -> !ktdp.access_tile<32x32xindex>
  %x = ktdp.load %tx : <32x32xindex> -> tensor<32x32xf16>
  %e = tensor.empty() : tensor<32x32xf16>
  %s = linalg.add ins(%x, %x : tensor<32x32xf16>, tensor<32x32xf16>) outs(%e : tensor<32x32xf16>) -> tensor<32x32xf16>
  // expected-error @+1 {{the scheduler compiles linalg.transpose only as permuted access tiles (transposed DMAs): its input must be computed element-wise from loads of tiles in device memory, or its only uses be stores (here its input is computed by 'linalg.add', not element-wise from loads)}}
  %st = linalg.transpose ins(%s : tensor<32x32xf16>) outs(%e : tensor<32x32xf16>) permutation = [1, 0]
  %r = arith.addf %st, %x : tensor<32x32xf16>
  ktdp.store %r, %tx : tensor<32x32xf16>, <32x32xindex>
  return
}

// -----

// The loaded tile may leave its view (rows past 20 of a 32-row tile): the
// transposed DMA is clamped to the view's rows and the rest of the buffer
// zeroed, as the load of a tile in its own order is (K^T's last block of
// a flash attention whose length is not a multiple of the key block).
#view = affine_set<(d0, d1) : (d0 >= 0, -d0 + 19 >= 0, d1 >= 0, -d1 + 31 >= 0)>
#set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 31 >= 0, d1 >= 0, -d1 + 31 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @masked(%x_ptr: index, %y_ptr: index) attributes {grid = [1]} {
  %X = ktdp.construct_memory_view %x_ptr, sizes: [20, 32], strides: [32, 1] {coordinate_set = #view, memory_space = #ktdp.memory_space<global>} : memref<20x32xf16>
  %Y = ktdp.construct_memory_view %y_ptr, sizes: [32, 32], strides: [32, 1] {coordinate_set = #set, memory_space = #ktdp.memory_space<global>} : memref<32x32xf16>
  %tx = ktdp.construct_access_tile %X[0, 0] {access_tile_set = #set, access_tile_order = #id2} : memref<20x32xf16> -> !ktdp.access_tile<32x32xindex>
  %ty = ktdp.construct_access_tile %Y[0, 0] {access_tile_set = #set, access_tile_order = #id2} : memref<32x32xf16> -> !ktdp.access_tile<32x32xindex>
  %x = ktdp.load %tx : <32x32xindex> -> tensor<32x32xf16>
  %e = tensor.empty() : tensor<32x32xf16>
  %xt = linalg.transpose ins(%x : tensor<32x32xf16>) outs(%e : tensor<32x32xf16>) permutation = [1, 0]
  %r = arith.addf %xt, %xt : tensor<32x32xf16>
  ktdp.store %r, %ty : tensor<32x32xf16>, <32x32xindex>
  return
}

// -----

// A permuted tile written by the kernel that may leave its view: clamped
// too.
#view = affine_set<(d0, d1) : (d0 >= 0, -d0 + 19 >= 0, d1 >= 0, -d1 + 31 >= 0)>
#set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 31 >= 0, d1 >= 0, -d1 + 31 >= 0)>
#tr = affine_map<(d0, d1) -> (d1, d0)>
func.func @permuted_tile_outside(%x_ptr: index) attributes {grid = [1]} {
  %X = ktdp.construct_memory_view %x_ptr, sizes: [20, 32], strides: [32, 1] {coordinate_set = #view, memory_space = #ktdp.memory_space<global>} : memref<20x32xf16>
  %tx = ktdp.construct_access_tile %X[0, 0] {access_tile_set = #set, access_tile_order = #tr} : memref<20x32xf16> -> !ktdp.access_tile<32x32xindex>
  %x = ktdp.load %tx : <32x32xindex> -> tensor<32x32xf16>
  return
}
