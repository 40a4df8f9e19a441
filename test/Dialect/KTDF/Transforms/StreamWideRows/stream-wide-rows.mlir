// RUN: ktflow-opt %s --ktdf-stream-wide-rows=max-tile-bytes=512 -split-input-file -verify-diagnostics | FileCheck %s
// RUN: ktflow-opt %s --ktdf-stream-wide-rows -split-input-file | FileCheck %s --check-prefix=OFF

// A row softmax over 1x1024 f16 rows (2048 bytes) with 512-byte chunks:
// each consumer of the row becomes a loop of four 1x256 chunks that loads
// its chunk again. The max carries its accumulator from the reduction's
// init; the sum recomputes exp(x - max) on the chunk and carries the f32
// sum; the store loop recomputes the quotient and stores each chunk at
// [%r, %k]. No whole-row op is left.

// CHECK-LABEL: func.func @softmax
// CHECK: scf.for %[[R:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK: %[[INIT:.*]] = tensor.splat %{{.*}} : tensor<1xf16>
// CHECK: %[[MAX:.*]] = scf.for %[[K:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[ACC:.*]] = %[[INIT]]) -> (tensor<1xf16>) {
// CHECK-NEXT: %[[T:.*]] = ktdp.construct_access_tile %{{.*}}[%[[R]], %[[K]]] {{.*}} -> !ktdp.access_tile<1x256xindex>
// CHECK-NEXT: %[[X:.*]] = ktdp.load %[[T]] : <1x256xindex> -> tensor<1x256xf16>
// CHECK-NEXT: %[[M:.*]] = linalg.reduce { arith.maxnumf } ins(%[[X]] : tensor<1x256xf16>) outs(%[[ACC]] : tensor<1xf16>)
// CHECK-NEXT: scf.yield %[[M]] : tensor<1xf16>
// CHECK: %[[MS:.*]] = tensor.extract %[[MAX]]
// CHECK: %[[SUM:.*]] = scf.for %[[K2:.*]] = {{.*}} iter_args(%[[ACC2:.*]] = %{{.*}}) -> (tensor<1xf32>) {
// CHECK: ktdp.load %{{.*}} : <1x256xindex> -> tensor<1x256xf16>
// CHECK: tensor.splat %[[MS]] : tensor<1x256xf16>
// CHECK: arith.subf {{.*}} : tensor<1x256xf16>
// CHECK: math.exp {{.*}} : tensor<1x256xf16>
// CHECK: linalg.generic {{.*}} outs(%[[ACC2]] : tensor<1xf32>)
// CHECK: scf.for %[[K3:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK: math.exp {{.*}} : tensor<1x256xf16>
// CHECK: %[[Y:.*]] = linalg.generic
// CHECK: } -> tensor<1x256xf16>
// CHECK: %[[TY:.*]] = ktdp.construct_access_tile %{{.*}}[%[[R]], %[[K3]]] {{.*}} -> !ktdp.access_tile<1x256xindex>
// CHECK-NEXT: ktdp.store %[[Y]], %[[TY]] : tensor<1x256xf16>, <1x256xindex>
// CHECK-NOT: tensor<1x1024xf16>
// CHECK: return

// With the default limit (0) nothing changes.
// OFF-LABEL: func.func @softmax
// OFF-NOT: scf.for {{.*}} iter_args
// OFF: ktdp.load %{{.*}} : <1x1024xindex> -> tensor<1x1024xf16>
#set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 1023 >= 0)>
#row = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 1023 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#to_row = affine_map<(d0, d1) -> (d0)>
func.func @softmax(%x_ptr: index, %y_ptr: index, %n: index) attributes {grid = [1]} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %ninf = arith.constant 0xFC00 : f16
  %zero = arith.constant 0.0 : f32
  %X = ktdp.construct_memory_view %x_ptr, sizes: [8, 1024], strides: [1024, 1] {coordinate_set = #set, memory_space = #ktdp.memory_space<global>} : memref<8x1024xf16>
  %Y = ktdp.construct_memory_view %y_ptr, sizes: [8, 1024], strides: [1024, 1] {coordinate_set = #set, memory_space = #ktdp.memory_space<global>} : memref<8x1024xf16>
  scf.for %r = %c0 to %n step %c1 {
    %tx = ktdp.construct_access_tile %X[%r, 0] {access_tile_set = #row, access_tile_order = #id2} : memref<8x1024xf16> -> !ktdp.access_tile<1x1024xindex>
    %x = ktdp.load %tx : <1x1024xindex> -> tensor<1x1024xf16>
    %max_init = tensor.splat %ninf : tensor<1xf16>
    %max = linalg.reduce { arith.maxnumf } ins(%x : tensor<1x1024xf16>) outs(%max_init : tensor<1xf16>) dimensions = [1]
    %m = tensor.extract %max[%c0] : tensor<1xf16>
    %mb = tensor.splat %m : tensor<1x1024xf16>
    %shifted = arith.subf %x, %mb : tensor<1x1024xf16>
    %e = math.exp %shifted : tensor<1x1024xf16>
    %sum_init = tensor.splat %zero : tensor<1xf32>
    %sum = linalg.generic {indexing_maps = [#id2, #to_row], iterator_types = ["parallel", "reduction"]} ins(%e : tensor<1x1024xf16>) outs(%sum_init : tensor<1xf32>) {
    ^bb0(%in: f16, %acc: f32):
      %w = arith.extf %in : f16 to f32
      %a = arith.addf %w, %acc : f32
      linalg.yield %a : f32
    } -> tensor<1xf32>
    %s = tensor.extract %sum[%c0] : tensor<1xf32>
    %empty = tensor.empty() : tensor<1x1024xf16>
    %y = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]} ins(%e : tensor<1x1024xf16>) outs(%empty : tensor<1x1024xf16>) {
    ^bb0(%in: f16, %out: f16):
      %w = arith.extf %in : f16 to f32
      %q = arith.divf %w, %s : f32
      %t = arith.truncf %q : f32 to f16
      linalg.yield %t : f16
    } -> tensor<1x1024xf16>
    %ty = ktdp.construct_access_tile %Y[%r, 0] {access_tile_set = #row, access_tile_order = #id2} : memref<8x1024xf16> -> !ktdp.access_tile<1x1024xindex>
    ktdp.store %y, %ty : tensor<1x1024xf16>, <1x1024xindex>
  }
  return
}

// -----

// Two reductions of the same row that do not depend on each other (an
// RMSNorm-style sum and sum of squares) share one chunk loop carrying both
// accumulators. The rows are f32: 512 bytes are 128 columns.

// CHECK-LABEL: func.func @two_sums
// CHECK: %[[BOTH:.*]]:2 = scf.for %{{.*}} iter_args(%[[A:.*]] = %[[I:.*]], %[[B:.*]] = %[[I]]) -> (tensor<1xf32>, tensor<1xf32>) {
// CHECK: %[[X:.*]] = ktdp.load %{{.*}} : <1x128xindex> -> tensor<1x128xf32>
// CHECK: %[[SQ:.*]] = arith.mulf %[[X]], %[[X]] : tensor<1x128xf32>
// CHECK: %[[S:.*]] = linalg.reduce { arith.addf } ins(%[[X]] : tensor<1x128xf32>) outs(%[[A]] : tensor<1xf32>)
// CHECK: %[[Q:.*]] = linalg.reduce { arith.addf } ins(%[[SQ]] : tensor<1x128xf32>) outs(%[[B]] : tensor<1xf32>)
// CHECK: scf.yield %[[S]], %[[Q]]
// CHECK: ktdp.store %[[BOTH]]#0,
// CHECK: ktdp.store %[[BOTH]]#1,
#set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 511 >= 0)>
#one = affine_set<(d0) : (d0 == 0)>
#vec = affine_set<(d0) : (d0 >= 0, -d0 + 7 >= 0)>
#row = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 511 >= 0)>
#id1 = affine_map<(d0) -> (d0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @two_sums(%x_ptr: index, %s_ptr: index, %q_ptr: index) attributes {grid = [8]} {
  %r = ktdp.get_compute_tile_id : index
  %zero = arith.constant 0.0 : f32
  %X = ktdp.construct_memory_view %x_ptr, sizes: [8, 512], strides: [512, 1] {coordinate_set = #set, memory_space = #ktdp.memory_space<global>} : memref<8x512xf32>
  %S = ktdp.construct_memory_view %s_ptr, sizes: [8], strides: [1] {coordinate_set = #vec, memory_space = #ktdp.memory_space<global>} : memref<8xf32>
  %Q = ktdp.construct_memory_view %q_ptr, sizes: [8], strides: [1] {coordinate_set = #vec, memory_space = #ktdp.memory_space<global>} : memref<8xf32>
  %tx = ktdp.construct_access_tile %X[%r, 0] {access_tile_set = #row, access_tile_order = #id2} : memref<8x512xf32> -> !ktdp.access_tile<1x512xindex>
  %x = ktdp.load %tx : <1x512xindex> -> tensor<1x512xf32>
  %init = tensor.splat %zero : tensor<1xf32>
  %s = linalg.reduce { arith.addf } ins(%x : tensor<1x512xf32>) outs(%init : tensor<1xf32>) dimensions = [1]
  %sq = arith.mulf %x, %x : tensor<1x512xf32>
  %q = linalg.reduce { arith.addf } ins(%sq : tensor<1x512xf32>) outs(%init : tensor<1xf32>) dimensions = [1]
  %ts = ktdp.construct_access_tile %S[%r] {access_tile_set = #one, access_tile_order = #id1} : memref<8xf32> -> !ktdp.access_tile<1xindex>
  ktdp.store %s, %ts : tensor<1xf32>, <1xindex>
  %tq = ktdp.construct_access_tile %Q[%r] {access_tile_set = #one, access_tile_order = #id1} : memref<8xf32> -> !ktdp.access_tile<1xindex>
  ktdp.store %q, %tq : tensor<1xf32>, <1xindex>
  return
}

// -----

// A row at most max-tile-bytes (256 f16) stays whole.

// CHECK-LABEL: func.func @fits
// CHECK-NOT: scf.for
// CHECK: ktdp.load %{{.*}} : <1x256xindex> -> tensor<1x256xf16>
#set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 255 >= 0)>
#row = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 255 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @fits(%x_ptr: index, %y_ptr: index) attributes {grid = [8]} {
  %r = ktdp.get_compute_tile_id : index
  %X = ktdp.construct_memory_view %x_ptr, sizes: [8, 256], strides: [256, 1] {coordinate_set = #set, memory_space = #ktdp.memory_space<global>} : memref<8x256xf16>
  %Y = ktdp.construct_memory_view %y_ptr, sizes: [8, 256], strides: [256, 1] {coordinate_set = #set, memory_space = #ktdp.memory_space<global>} : memref<8x256xf16>
  %tx = ktdp.construct_access_tile %X[%r, 0] {access_tile_set = #row, access_tile_order = #id2} : memref<8x256xf16> -> !ktdp.access_tile<1x256xindex>
  %x = ktdp.load %tx : <1x256xindex> -> tensor<1x256xf16>
  %y = math.exp %x : tensor<1x256xf16>
  %ty = ktdp.construct_access_tile %Y[%r, 0] {access_tile_set = #row, access_tile_order = #id2} : memref<8x256xf16> -> !ktdp.access_tile<1x256xindex>
  ktdp.store %y, %ty : tensor<1x256xf16>, <1x256xindex>
  return
}

// -----

// linalg.index would read the chunk's column, not the row's: the row is
// left whole, with a warning saying why.

#set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 1023 >= 0)>
#row = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 1023 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @indexed(%x_ptr: index, %y_ptr: index) attributes {grid = [8]} {
  %r = ktdp.get_compute_tile_id : index
  %X = ktdp.construct_memory_view %x_ptr, sizes: [8, 1024], strides: [1024, 1] {coordinate_set = #set, memory_space = #ktdp.memory_space<global>} : memref<8x1024xf16>
  %Y = ktdp.construct_memory_view %y_ptr, sizes: [8, 1024], strides: [1024, 1] {coordinate_set = #set, memory_space = #ktdp.memory_space<global>} : memref<8x1024xf16>
  %tx = ktdp.construct_access_tile %X[%r, 0] {access_tile_set = #row, access_tile_order = #id2} : memref<8x1024xf16> -> !ktdp.access_tile<1x1024xindex>
  // expected-warning @+1 {{this row (2048 bytes) cannot be streamed in column chunks: an op computing on it is not element-wise, a broadcast, a reduction along its last dimension or a store of whole rows through a box tile in identity order, or it is used in another block}}
  %x = ktdp.load %tx : <1x1024xindex> -> tensor<1x1024xf16>
  %empty = tensor.empty() : tensor<1x1024xf16>
  %y = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<1x1024xf16>) outs(%empty : tensor<1x1024xf16>) {
  ^bb0(%in: f16, %out: f16):
    %j = linalg.index 1 : index
    %ji = arith.index_cast %j : index to i32
    %jf = arith.sitofp %ji : i32 to f16
    %v = arith.addf %in, %jf : f16
    linalg.yield %v : f16
  } -> tensor<1x1024xf16>
  %ty = ktdp.construct_access_tile %Y[%r, 0] {access_tile_set = #row, access_tile_order = #id2} : memref<8x1024xf16> -> !ktdp.access_tile<1x1024xindex>
  ktdp.store %y, %ty : tensor<1x1024xf16>, <1x1024xindex>
  return
}

// -----

// The row is stored (to Y, which may be X) before its sum is taken: the
// sum's loop would read X again after the store loop wrote Y, so the row is
// left whole.

#set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 1023 >= 0)>
#row = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 1023 >= 0)>
#one = affine_set<(d0) : (d0 == 0)>
#vec = affine_set<(d0) : (d0 >= 0, -d0 + 7 >= 0)>
#id1 = affine_map<(d0) -> (d0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @store_then_sum(%x_ptr: index, %y_ptr: index, %s_ptr: index) attributes {grid = [8]} {
  %r = ktdp.get_compute_tile_id : index
  %zero = arith.constant 0.0 : f16
  %X = ktdp.construct_memory_view %x_ptr, sizes: [8, 1024], strides: [1024, 1] {coordinate_set = #set, memory_space = #ktdp.memory_space<global>} : memref<8x1024xf16>
  %Y = ktdp.construct_memory_view %y_ptr, sizes: [8, 1024], strides: [1024, 1] {coordinate_set = #set, memory_space = #ktdp.memory_space<global>} : memref<8x1024xf16>
  %S = ktdp.construct_memory_view %s_ptr, sizes: [8], strides: [1] {coordinate_set = #vec, memory_space = #ktdp.memory_space<global>} : memref<8xf16>
  %tx = ktdp.construct_access_tile %X[%r, 0] {access_tile_set = #row, access_tile_order = #id2} : memref<8x1024xf16> -> !ktdp.access_tile<1x1024xindex>
  // expected-warning @+1 {{this row (2048 bytes) cannot be streamed in column chunks: a store between a load of the row and the consumer that re-reads it (or a memory access between a store of the row and the loop that makes it) would be reordered}}
  %x = ktdp.load %tx : <1x1024xindex> -> tensor<1x1024xf16>
  %ty = ktdp.construct_access_tile %Y[%r, 0] {access_tile_set = #row, access_tile_order = #id2} : memref<8x1024xf16> -> !ktdp.access_tile<1x1024xindex>
  ktdp.store %x, %ty : tensor<1x1024xf16>, <1x1024xindex>
  %init = tensor.splat %zero : tensor<1xf16>
  %s = linalg.reduce { arith.addf } ins(%x : tensor<1x1024xf16>) outs(%init : tensor<1xf16>) dimensions = [1]
  %ts = ktdp.construct_access_tile %S[%r] {access_tile_set = #one, access_tile_order = #id1} : memref<8xf16> -> !ktdp.access_tile<1xindex>
  ktdp.store %s, %ts : tensor<1xf16>, <1xindex>
  return
}
