// RUN: ktflow-opt %s --ktdf-sink-into-loops | FileCheck %s

// A row statistic both stored once per row (a layernorm's MEAN) and read by
// a later column loop is reduced once: the store, and any other op of the
// row's block outside loops that uses it, reads the one-element scratchpad
// view the statistic is kept in (a splat of it into one element is that
// view's load), so nothing is left of the original computation.

// CHECK-LABEL: func.func @centre
// CHECK: %[[STAT:.*]] = ktdp.construct_memory_view %{{.*}}, sizes: [1], strides: [1] {{{.*}}ktdf.carried
// CHECK: %[[TS:.*]] = ktdp.construct_access_tile %[[STAT]][0]
// CHECK: %[[M:.*]] = ktdp.construct_memory_view %arg2
// CHECK: linalg.reduce
// CHECK-NOT: linalg.reduce
// CHECK: %[[ONE:.*]] = tensor.splat %{{.*}} : tensor<1xf16>
// CHECK-NEXT: ktdp.store %[[ONE]], %[[TS]] : tensor<1xf16>, <1xindex>
// CHECK-NEXT: %[[TM:.*]] = ktdp.construct_access_tile %[[M]][0]
// CHECK-NEXT: %[[L:.*]] = ktdp.load %[[TS]] : <1xindex> -> tensor<1xf16>
// CHECK-NEXT: ktdp.store %[[L]], %[[TM]] : tensor<1xf16>, <1xindex>
// CHECK-NEXT: %[[L2:.*]] = ktdp.load %[[TS]] : <1xindex> -> tensor<1xf16>
// CHECK-NEXT: %[[C0:.*]] = arith.constant 0 : index
// CHECK-NEXT: %[[E:.*]] = tensor.extract %[[L2]][%[[C0]]] : tensor<1xf16>
// CHECK-NEXT: %[[TWICE:.*]] = arith.addf %[[E]], %[[E]] : f16
// CHECK-NEXT: %[[T1:.*]] = tensor.splat %[[TWICE]] : tensor<1xf16>
// CHECK-NEXT: ktdp.store %[[T1]], %[[TM]]
// CHECK-NEXT: scf.for
// CHECK-NEXT: ktdp.load %[[TS]] : <1xindex> -> tensor<1xf16>
// CHECK-NOT: linalg.reduce

#x = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 1023 >= 0)>
#r = affine_set<(d0) : (d0 >= 0, -d0 + 63 >= 0)>
#one = affine_set<(d0) : (d0 == 0)>
#blk = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 127 >= 0)>
#id1 = affine_map<(d0) -> (d0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @centre(%x_ptr: index, %y_ptr: index, %m_ptr: index, %N: index) attributes {grid = [1]} {
  %c0 = arith.constant 0 : index
  %c128 = arith.constant 128 : index
  %zero = arith.constant 0.0 : f16
  %zeros = arith.constant dense<0.0> : tensor<1x128xf16>
  %N_i32 = arith.index_cast %N : index to i32
  %N_f = arith.sitofp %N_i32 : i32 to f16
  %c0_1 = arith.constant 0 : index
  %C = ktdp.construct_memory_view %c0_1, sizes: [1, 128], strides: [128, 1] {coordinate_set = #blk, ktdf.carried, ktdf.memory = "SPM", memory_space = #ktdp.memory_space<ct_local, ct_id = 0>} : memref<1x128xf16, #ktdp.memory_space<ct_local, ct_id = 0>>
  %tc = ktdp.construct_access_tile %C[0, 0] {access_tile_set = #blk, access_tile_order = #id2} : memref<1x128xf16, #ktdp.memory_space<ct_local, ct_id = 0>> -> !ktdp.access_tile<1x128xindex>
  %X = ktdp.construct_memory_view %x_ptr, sizes: [64, 1024], strides: [1024, 1] {coordinate_set = #x, ktdf.memory = "HBM", memory_space = #ktdp.memory_space<global>} : memref<64x1024xf16>
  %Y = ktdp.construct_memory_view %y_ptr, sizes: [64, 1024], strides: [1024, 1] {coordinate_set = #x, ktdf.memory = "HBM", memory_space = #ktdp.memory_space<global>} : memref<64x1024xf16>
  %M = ktdp.construct_memory_view %m_ptr, sizes: [64], strides: [1] {coordinate_set = #r, ktdf.memory = "HBM", memory_space = #ktdp.memory_space<global>} : memref<64xf16>
  ktdp.store %zeros, %tc : tensor<1x128xf16>, <1x128xindex>
  scf.for %off = %c0 to %N step %c128 {
    %a = ktdp.load %tc : <1x128xindex> -> tensor<1x128xf16>
    %tx = ktdp.construct_access_tile %X[0, %off] {access_tile_set = #blk, access_tile_order = #id2} : memref<64x1024xf16> -> !ktdp.access_tile<1x128xindex>
    %x = ktdp.load %tx : <1x128xindex> -> tensor<1x128xf16>
    %s = arith.addf %a, %x : tensor<1x128xf16>
    ktdp.store %s, %tc : tensor<1x128xf16>, <1x128xindex>
  }
  %acc = ktdp.load %tc : <1x128xindex> -> tensor<1x128xf16>
  %init = tensor.splat %zero : tensor<1xf16>
  %sum = linalg.reduce { arith.addf } ins(%acc : tensor<1x128xf16>) outs(%init : tensor<1xf16>) dimensions = [1]
  %sum_s = tensor.extract %sum[%c0] : tensor<1xf16>
  %mean = arith.divf %sum_s, %N_f : f16
  %mean_b = tensor.splat %mean : tensor<1x128xf16>
  %tm = ktdp.construct_access_tile %M[0] {access_tile_set = #one, access_tile_order = #id1} : memref<64xf16> -> !ktdp.access_tile<1xindex>
  %mean_1 = tensor.splat %mean : tensor<1xf16>
  ktdp.store %mean_1, %tm : tensor<1xf16>, <1xindex>
  %twice = arith.addf %mean, %mean : f16
  %twice_1 = tensor.splat %twice : tensor<1xf16>
  ktdp.store %twice_1, %tm : tensor<1xf16>, <1xindex>
  scf.for %off = %c0 to %N step %c128 {
    %tx = ktdp.construct_access_tile %X[0, %off] {access_tile_set = #blk, access_tile_order = #id2} : memref<64x1024xf16> -> !ktdp.access_tile<1x128xindex>
    %x = ktdp.load %tx : <1x128xindex> -> tensor<1x128xf16>
    %y = arith.subf %x, %mean_b : tensor<1x128xf16>
    %ty = ktdp.construct_access_tile %Y[0, %off] {access_tile_set = #blk, access_tile_order = #id2} : memref<64x1024xf16> -> !ktdp.access_tile<1x128xindex>
    ktdp.store %y, %ty : tensor<1x128xf16>, <1x128xindex>
  }
  return
}
