// RUN: ktflow-opt %s --ktdf-split-batched-reductions -split-input-file | FileCheck %s

// A 2x16x64 tile summed over its rows, its two batches kept: one reduction
// per batch on a window of the extended tile, each into its own fill,
// joined along the kept dimension and stored.

// CHECK-LABEL: func.func @pairs
// CHECK: %[[X:.*]] = arith.extf
// CHECK: %[[W0:.*]] = tensor.extract_slice %[[X]][0, 0, 0] [1, 16, 64] [1, 1, 1] : tensor<2x16x64xf32> to tensor<1x16x64xf32>
// CHECK: %[[I0:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : tensor<1x64xf32>)
// CHECK: %[[R0:.*]] = linalg.reduce { arith.addf } ins(%[[W0]] : tensor<1x16x64xf32>) outs(%[[I0]] : tensor<1x64xf32>) dimensions = [1]
// CHECK: %[[W1:.*]] = tensor.extract_slice %[[X]][1, 0, 0] [1, 16, 64] [1, 1, 1]
// CHECK: %[[R1:.*]] = linalg.reduce { arith.addf } ins(%[[W1]] : tensor<1x16x64xf32>)
// CHECK: %[[J:.*]] = tensor.concat dim(0) %[[R0]], %[[R1]] : (tensor<1x64xf32>, tensor<1x64xf32>) -> tensor<2x64xf32>
// CHECK: ktdp.store %[[J]]
#x_set = affine_set<(d0, d1, d2) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 15 >= 0, d2 >= 0, -d2 + 63 >= 0)>
#y_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#blk = affine_set<(d0, d1, d2) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 15 >= 0, d2 >= 0, -d2 + 63 >= 0)>
#yb = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
func.func @pairs(%x_ptr: index, %y_ptr: index) attributes {grid = [2, 1, 1]} {
  %t = ktdp.get_compute_tile_id : index
  %c2 = arith.constant 2 : index
  %b = arith.muli %t, %c2 : index
  %zero = arith.constant 0.0 : f32
  %X = ktdp.construct_memory_view %x_ptr, sizes: [4, 16, 64], strides: [1024, 64, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<4x16x64xf16>
  %Y = ktdp.construct_memory_view %y_ptr, sizes: [4, 64], strides: [64, 1] {coordinate_set = #y_set, memory_space = #ktdp.memory_space<global>} : memref<4x64xf32>
  %tx = ktdp.construct_access_tile %X[%b, 0, 0] {access_tile_set = #blk, access_tile_order = #id3} : memref<4x16x64xf16> -> !ktdp.access_tile<2x16x64xindex>
  %x = ktdp.load %tx : <2x16x64xindex> -> tensor<2x16x64xf16>
  %xf = arith.extf %x : tensor<2x16x64xf16> to tensor<2x16x64xf32>
  %e = tensor.empty() : tensor<2x64xf32>
  %i = linalg.fill ins(%zero : f32) outs(%e : tensor<2x64xf32>) -> tensor<2x64xf32>
  %s = linalg.reduce { arith.addf } ins(%xf : tensor<2x16x64xf32>) outs(%i : tensor<2x64xf32>) dimensions = [1]
  %ty = ktdp.construct_access_tile %Y[%b, 0] {access_tile_set = #yb, access_tile_order = #id2} : memref<4x64xf32> -> !ktdp.access_tile<2x64xindex>
  ktdp.store %s, %ty : tensor<2x64xf32>, <2x64xindex>
  return
}

// -----

// Left alone: a row reduction (the innermost dimension reduced), and a
// column reduction whose result is not stored.

// CHECK-LABEL: func.func @left
// CHECK-NOT: tensor.concat
// CHECK-NOT: tensor.extract_slice
func.func @left(%x: tensor<2x16x64xf32>) -> (tensor<2x16xf32>, tensor<2x64xf32>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x16xf32>
  %i = linalg.fill ins(%zero : f32) outs(%e : tensor<2x16xf32>) -> tensor<2x16xf32>
  %rows = linalg.reduce { arith.addf } ins(%x : tensor<2x16x64xf32>) outs(%i : tensor<2x16xf32>) dimensions = [2]
  %e2 = tensor.empty() : tensor<2x64xf32>
  %i2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<2x64xf32>) -> tensor<2x64xf32>
  %cols = linalg.reduce { arith.addf } ins(%x : tensor<2x16x64xf32>) outs(%i2 : tensor<2x64xf32>) dimensions = [1]
  return %rows, %cols : tensor<2x16xf32>, tensor<2x64xf32>
}
