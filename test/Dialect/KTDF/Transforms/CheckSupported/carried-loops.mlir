// RUN: ktflow-opt %s --ktdf-check-supported -split-input-file -verify-diagnostics

// Loops carrying values over a trip count known only at run time:
// ktdf-carry-in-scratchpad keeps statically shaped tensors in the
// scratchpad; a scalar or a dynamically shaped tensor has no place there.

#set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#blk = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 127 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
// A tensor carried over n trips: accepted.
func.func @tensor_carried(%x_ptr: index, %y_ptr: index, %n: index) attributes {grid = [1]} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zeros = arith.constant dense<0.0> : tensor<1x128xf16>
  %X = ktdp.construct_memory_view %x_ptr, sizes: [64, 128], strides: [128, 1] {coordinate_set = #set, memory_space = #ktdp.memory_space<global>} : memref<64x128xf16>
  %Y = ktdp.construct_memory_view %y_ptr, sizes: [64, 128], strides: [128, 1] {coordinate_set = #set, memory_space = #ktdp.memory_space<global>} : memref<64x128xf16>
  %tx = ktdp.construct_access_tile %X[0, 0] {access_tile_set = #blk, access_tile_order = #id2} : memref<64x128xf16> -> !ktdp.access_tile<1x128xindex>
  %s = scf.for %i = %c0 to %n step %c1 iter_args(%a = %zeros) -> tensor<1x128xf16> {
    %x = ktdp.load %tx : <1x128xindex> -> tensor<1x128xf16>
    %a2 = arith.addf %a, %x : tensor<1x128xf16>
    scf.yield %a2 : tensor<1x128xf16>
  }
  %ty = ktdp.construct_access_tile %Y[0, 0] {access_tile_set = #blk, access_tile_order = #id2} : memref<64x128xf16> -> !ktdp.access_tile<1x128xindex>
  ktdp.store %s, %ty : tensor<1x128xf16>, <1x128xindex>
  return
}

// -----

#set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#blk = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 127 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
// A scalar carried over n trips, then spread over a stored row.
func.func @scalar_carried(%y_ptr: index, %n: index) attributes {grid = [1]} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %one = arith.constant 1.0 : f16
  %Y = ktdp.construct_memory_view %y_ptr, sizes: [64, 128], strides: [128, 1] {coordinate_set = #set, memory_space = #ktdp.memory_space<global>} : memref<64x128xf16>
  // expected-error @+1 {{a loop carrying values over a trip count known only at run time (or over many trips) keeps them in the scratchpad, which needs statically shaped tensors of rank 1 or more; this one carries a scalar}}
  %s = scf.for %i = %c0 to %n step %c1 iter_args(%a = %one) -> f16 {
    %a2 = arith.addf %a, %one : f16
    scf.yield %a2 : f16
  }
  // expected-error @+1 {{tensor.splat of a scalar that is neither}}
  %row = tensor.splat %s : tensor<1x128xf16>
  %ty = ktdp.construct_access_tile %Y[0, 0] {access_tile_set = #blk, access_tile_order = #id2} : memref<64x128xf16> -> !ktdp.access_tile<1x128xindex>
  ktdp.store %row, %ty : tensor<1x128xf16>, <1x128xindex>
  return
}
