// RUN: ktflow-opt %s --ktdf-carry-in-scratchpad -split-input-file | FileCheck %s

// What a loop carries over a run-time trip count goes to a scratchpad view
// of its own: the init stored before the loop, loaded right before its
// first use in each trip (a trip adding an all-reduce's result to it then
// reloads it after the exchange), what the trip yields stored at its end,
// the result loaded after.

#set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 1023 >= 0)>
#blk = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 127 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-LABEL: func.func @row_sum
// CHECK-DAG: %[[ADDR:.*]] = arith.constant 0 : index
// CHECK: %[[VIEW:.*]] = ktdp.construct_memory_view %[[ADDR]], sizes: [1, 128], strides: [128, 1] {coordinate_set = #{{.*}}, ktdf.carried, memory_space = #ktdp.memory_space<ct_local, ct_id = 0>} : memref<1x128xf16, #ktdp.memory_space<ct_local, ct_id = 0>>
// CHECK: %[[TILE:.*]] = ktdp.construct_access_tile %[[VIEW]][0, 0]
// CHECK-SAME: -> !ktdp.access_tile<1x128xindex>
// CHECK: %[[ZEROS:.*]] = arith.constant dense<0.000000e+00> : tensor<1x128xf16>
// CHECK: ktdp.store %[[ZEROS]], %[[TILE]]
// CHECK: scf.for %[[OFF:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK-NOT: ktdp.load %[[TILE]]
// CHECK: %[[X:.*]] = ktdp.load
// CHECK-NEXT: %[[A:.*]] = ktdp.load %[[TILE]]
// CHECK-NEXT: %[[S:.*]] = arith.addf %[[A]], %[[X]]
// CHECK-NEXT: ktdp.store %[[S]], %[[TILE]]
// CHECK-NEXT: }
// CHECK-NEXT: %[[R:.*]] = ktdp.load %[[TILE]]
// CHECK: ktdp.store %[[R]], %{{.*}}
// CHECK-NOT: iter_args
func.func @row_sum(%x_ptr: index, %y_ptr: index, %N: index) attributes {grid = [1]} {
  %c0 = arith.constant 0 : index
  %c128 = arith.constant 128 : index
  %zeros = arith.constant dense<0.0> : tensor<1x128xf16>
  %X = ktdp.construct_memory_view %x_ptr, sizes: [64, 1024], strides: [1024, 1] {coordinate_set = #set, memory_space = #ktdp.memory_space<global>} : memref<64x1024xf16>
  %Y = ktdp.construct_memory_view %y_ptr, sizes: [64, 1024], strides: [1024, 1] {coordinate_set = #set, memory_space = #ktdp.memory_space<global>} : memref<64x1024xf16>
  %acc = scf.for %off = %c0 to %N step %c128 iter_args(%a = %zeros) -> tensor<1x128xf16> {
    %tx = ktdp.construct_access_tile %X[0, %off] {access_tile_set = #blk, access_tile_order = #id2} : memref<64x1024xf16> -> !ktdp.access_tile<1x128xindex>
    %x = ktdp.load %tx : <1x128xindex> -> tensor<1x128xf16>
    %a2 = arith.addf %a, %x : tensor<1x128xf16>
    scf.yield %a2 : tensor<1x128xf16>
  }
  %ty = ktdp.construct_access_tile %Y[0, 0] {access_tile_set = #blk, access_tile_order = #id2} : memref<64x1024xf16> -> !ktdp.access_tile<1x128xindex>
  ktdp.store %acc, %ty : tensor<1x128xf16>, <1x128xindex>
  return
}

// -----

// Two carried values of different types, placed after the kernel's own
// scratchpad view (64 f16 at element 32: bytes 64 to 192) on 256-byte
// boundaries: the f32 tensor at byte 256 (element 64), the f16 one after
// its 512 bytes, at byte 768 (element 384). A carried value no trip reads
// is not loaded in the body; a result nothing uses is not loaded after.

#one = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 63 >= 0)>
#b32 = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 127 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-LABEL: func.func @two_carried
// CHECK-DAG: arith.constant 384 : index
// CHECK-DAG: arith.constant 64 : index
// CHECK-DAG: ktdp.construct_memory_view %{{.*}}, sizes: [1, 128], strides: [128, 1] {{.*}}ktdf.carried{{.*}} : memref<1x128xf16, #ktdp.memory_space<ct_local, ct_id = 0>>
// CHECK-DAG: ktdp.construct_memory_view %{{.*}}, sizes: [1, 128], strides: [128, 1] {{.*}}ktdf.carried{{.*}} : memref<1x128xf32, #ktdp.memory_space<ct_local, ct_id = 0>>
// CHECK: ktdp.store
// CHECK: ktdp.store
// CHECK: scf.for
// CHECK-NEXT: %[[F:.*]] = ktdp.load %{{.*}} : <1x128xindex> -> tensor<1x128xf32>
// CHECK-NOT: ktdp.load
// CHECK: arith.addf %[[F]]
// CHECK: ktdp.store
// CHECK: ktdp.store
// CHECK-NEXT: }
// CHECK-NEXT: ktdp.load %{{.*}} : <1x128xindex> -> tensor<1x128xf32>
// CHECK-NOT: ktdp.load
// CHECK: return
func.func @two_carried(%y_ptr: index, %n: index) attributes {grid = [1]} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  %L = ktdp.construct_memory_view %c32, sizes: [1, 64], strides: [64, 1] {coordinate_set = #one, memory_space = #ktdp.memory_space<ct_local, ct_id = 0>} : memref<1x64xf16, #ktdp.memory_space<ct_local, ct_id = 0>>
  %Y = ktdp.construct_memory_view %y_ptr, sizes: [1, 128], strides: [128, 1] {coordinate_set = #b32, memory_space = #ktdp.memory_space<global>} : memref<1x128xf32>
  %f = arith.constant dense<1.0> : tensor<1x128xf32>
  %h = arith.constant dense<2.0> : tensor<1x128xf16>
  %r:2 = scf.for %i = %c0 to %n step %c1 iter_args(%a = %f, %b = %h) -> (tensor<1x128xf32>, tensor<1x128xf16>) {
    %a2 = arith.addf %a, %f : tensor<1x128xf32>
    scf.yield %a2, %h : tensor<1x128xf32>, tensor<1x128xf16>
  }
  %ty = ktdp.construct_access_tile %Y[0, 0] {access_tile_set = #b32, access_tile_order = #id2} : memref<1x128xf32> -> !ktdp.access_tile<1x128xindex>
  ktdp.store %r#0, %ty : tensor<1x128xf32>, <1x128xindex>
  return
}

// -----

// Nested carrying loops: the inner one first, then the outer one, each
// with a view of its own.

#b = affine_set<(d0) : (d0 >= 0, -d0 + 63 >= 0)>
#id1 = affine_map<(d0) -> (d0)>
// CHECK-LABEL: func.func @nested
// CHECK-COUNT-2: ktdf.carried
// CHECK: scf.for
// CHECK-NEXT: %[[OUTER:.*]] = ktdp.load %[[OT:.*]] :
// CHECK-NEXT: ktdp.store %[[OUTER]], %[[IT:.*]] :
// CHECK-NEXT: scf.for
// CHECK-NEXT: %[[INNER:.*]] = ktdp.load %[[IT]] :
// CHECK-NEXT: %[[SUM:.*]] = arith.addf %[[INNER]], %[[INNER]]
// CHECK-NEXT: ktdp.store %[[SUM]], %[[IT]] :
// CHECK-NEXT: }
// CHECK-NEXT: %[[DONE:.*]] = ktdp.load %[[IT]] :
// CHECK-NEXT: ktdp.store %[[DONE]], %[[OT]] :
// CHECK-NEXT: }
func.func @nested(%y_ptr: index, %n: index, %m: index) attributes {grid = [1]} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %Y = ktdp.construct_memory_view %y_ptr, sizes: [64], strides: [1] {coordinate_set = #b, memory_space = #ktdp.memory_space<global>} : memref<64xf16>
  %h = arith.constant dense<1.0> : tensor<64xf16>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%a = %h) -> tensor<64xf16> {
    %s = scf.for %j = %c0 to %m step %c1 iter_args(%b = %a) -> tensor<64xf16> {
      %b2 = arith.addf %b, %b : tensor<64xf16>
      scf.yield %b2 : tensor<64xf16>
    }
    scf.yield %s : tensor<64xf16>
  }
  %ty = ktdp.construct_access_tile %Y[0] {access_tile_set = #b, access_tile_order = #id1} : memref<64xf16> -> !ktdp.access_tile<64xindex>
  ktdp.store %r, %ty : tensor<64xf16>, <64xindex>
  return
}
