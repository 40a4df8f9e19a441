// RUN: ktflow-opt %s --ktdf-sink-into-loops -split-input-file | FileCheck %s

// After ktdf-carry-in-scratchpad: a column loop's running sum is loaded from
// its scratchpad view (ktdf.carried) after the loop, and the row's mean
// computed from it is used by the next column loop. The load is cloned
// into that loop although the kernel stores to the view (nothing writes it
// again before the loop is done), and so is the scalar float arithmetic
// between the sum and the splat (the division by f16(N)), which stays one
// compute group with the loop's loads.

#x = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 1023 >= 0)>
#blk = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 127 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-LABEL: func.func @centre
// CHECK: scf.for
// CHECK: scf.for
// CHECK-NEXT: %[[N:.*]] = arith.sitofp
// CHECK: %[[SUM:.*]] = ktdp.load %[[ACC:.*]] : <1x128xindex> -> tensor<1x128xf16>
// CHECK: linalg.reduce { arith.addf } ins(%[[SUM]]
// CHECK: %[[E:.*]] = tensor.extract
// CHECK: %[[MEAN:.*]] = arith.divf %[[E]], %[[N]] : f16
// CHECK: %[[B:.*]] = tensor.splat %[[MEAN]] : tensor<1x128xf16>
// CHECK: %[[X:.*]] = ktdp.load
// CHECK: arith.subf %[[X]], %[[B]]
func.func @centre(%x_ptr: index, %y_ptr: index, %N: index) attributes {grid = [1]} {
  %c0 = arith.constant 0 : index
  %c128 = arith.constant 128 : index
  %zero = arith.constant 0.0 : f16
  %zeros = arith.constant dense<0.0> : tensor<1x128xf16>
  %N_i32 = arith.index_cast %N : index to i32
  %N_f = arith.sitofp %N_i32 : i32 to f16
  %c0_1 = arith.constant 0 : index
  %C = ktdp.construct_memory_view %c0_1, sizes: [1, 128], strides: [128, 1] {coordinate_set = #blk, ktdf.carried, memory_space = #ktdp.memory_space<ct_local, ct_id = 0>} : memref<1x128xf16, #ktdp.memory_space<ct_local, ct_id = 0>>
  %tc = ktdp.construct_access_tile %C[0, 0] {access_tile_set = #blk, access_tile_order = #id2} : memref<1x128xf16, #ktdp.memory_space<ct_local, ct_id = 0>> -> !ktdp.access_tile<1x128xindex>
  %X = ktdp.construct_memory_view %x_ptr, sizes: [64, 1024], strides: [1024, 1] {coordinate_set = #x, memory_space = #ktdp.memory_space<global>} : memref<64x1024xf16>
  %Y = ktdp.construct_memory_view %y_ptr, sizes: [64, 1024], strides: [1024, 1] {coordinate_set = #x, memory_space = #ktdp.memory_space<global>} : memref<64x1024xf16>
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
  scf.for %off = %c0 to %N step %c128 {
    %tx = ktdp.construct_access_tile %X[0, %off] {access_tile_set = #blk, access_tile_order = #id2} : memref<64x1024xf16> -> !ktdp.access_tile<1x128xindex>
    %x = ktdp.load %tx : <1x128xindex> -> tensor<1x128xf16>
    %y = arith.subf %x, %mean_b : tensor<1x128xf16>
    %ty = ktdp.construct_access_tile %Y[0, %off] {access_tile_set = #blk, access_tile_order = #id2} : memref<64x1024xf16> -> !ktdp.access_tile<1x128xindex>
    ktdp.store %y, %ty : tensor<1x128xf16>, <1x128xindex>
  }
  return
}

// -----

// The same, with the row's sum captured by the body of the generic that
// divides by it (the wide-row softmax streamed in chunks): the captured
// use is sunk like an operand, so the loop's generic reads a load of the
// carried view made in the loop's own block.

#x = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 1023 >= 0)>
#one = affine_set<(d0) : (d0 == 0)>
#blk = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 127 >= 0)>
#id1 = affine_map<(d0) -> (d0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-LABEL: func.func @divide
// CHECK: scf.for
// CHECK: scf.for
// CHECK: scf.for
// CHECK-NEXT: %[[SUM:.*]] = ktdp.load %{{.*}} : <1xindex> -> tensor<1xf32>
// CHECK-NEXT: %[[S:.*]] = tensor.extract %[[SUM]]
// CHECK: linalg.generic
// CHECK: arith.divf %{{.*}}, %[[S]] : f32
func.func @divide(%x_ptr: index, %y_ptr: index, %N: index) attributes {grid = [1]} {
  %c0 = arith.constant 0 : index
  %c128 = arith.constant 128 : index
  %zeros = arith.constant dense<0.0> : tensor<1xf32>
  %c0_1 = arith.constant 0 : index
  %C = ktdp.construct_memory_view %c0_1, sizes: [1], strides: [1] {coordinate_set = #one, ktdf.carried, memory_space = #ktdp.memory_space<ct_local, ct_id = 0>} : memref<1xf32, #ktdp.memory_space<ct_local, ct_id = 0>>
  %tc = ktdp.construct_access_tile %C[0] {access_tile_set = #one, access_tile_order = #id1} : memref<1xf32, #ktdp.memory_space<ct_local, ct_id = 0>> -> !ktdp.access_tile<1xindex>
  %X = ktdp.construct_memory_view %x_ptr, sizes: [64, 1024], strides: [1024, 1] {coordinate_set = #x, memory_space = #ktdp.memory_space<global>} : memref<64x1024xf16>
  %Y = ktdp.construct_memory_view %y_ptr, sizes: [64, 1024], strides: [1024, 1] {coordinate_set = #x, memory_space = #ktdp.memory_space<global>} : memref<64x1024xf16>
  scf.for %r = %c0 to %N step %c128 {
    ktdp.store %zeros, %tc : tensor<1xf32>, <1xindex>
    scf.for %off = %c0 to %c128 step %c128 {
      %a = ktdp.load %tc : <1xindex> -> tensor<1xf32>
      %tx = ktdp.construct_access_tile %X[0, %off] {access_tile_set = #blk, access_tile_order = #id2} : memref<64x1024xf16> -> !ktdp.access_tile<1x128xindex>
      %x = ktdp.load %tx : <1x128xindex> -> tensor<1x128xf16>
      %s = linalg.generic {indexing_maps = [#id2, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%x : tensor<1x128xf16>) outs(%a : tensor<1xf32>) {
      ^bb0(%in: f16, %acc: f32):
        %w = arith.extf %in : f16 to f32
        %v = arith.addf %w, %acc : f32
        linalg.yield %v : f32
      } -> tensor<1xf32>
      ktdp.store %s, %tc : tensor<1xf32>, <1xindex>
    }
    %sum = ktdp.load %tc : <1xindex> -> tensor<1xf32>
    %sum_s = tensor.extract %sum[%c0] : tensor<1xf32>
    scf.for %off = %c0 to %c128 step %c128 {
      %tx = ktdp.construct_access_tile %X[0, %off] {access_tile_set = #blk, access_tile_order = #id2} : memref<64x1024xf16> -> !ktdp.access_tile<1x128xindex>
      %x = ktdp.load %tx : <1x128xindex> -> tensor<1x128xf16>
      %empty = tensor.empty() : tensor<1x128xf16>
      %y = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<1x128xf16>) outs(%empty : tensor<1x128xf16>) {
      ^bb0(%in: f16, %out: f16):
        %w = arith.extf %in : f16 to f32
        %q = arith.divf %w, %sum_s : f32
        %t = arith.truncf %q : f32 to f16
        linalg.yield %t : f16
      } -> tensor<1x128xf16>
      %ty = ktdp.construct_access_tile %Y[0, %off] {access_tile_set = #blk, access_tile_order = #id2} : memref<64x1024xf16> -> !ktdp.access_tile<1x128xindex>
      ktdp.store %y, %ty : tensor<1x128xf16>, <1x128xindex>
    }
  }
  return
}
