// RUN: ktflow-opt %s --ktdf-forward-stores -split-input-file | FileCheck %s

// A two-pass row block that parks exp(x) in its output and reads it back:
// the tile lies inside its view, so the reload becomes the stored tensor,
// and the parked store, which the final store overwrites before anything
// reads it, is erased.

// CHECK-LABEL: func.func @park_and_reload
// CHECK: %[[X:.*]] = ktdp.load
// CHECK: %[[E:.*]] = math.exp %[[X]]
// CHECK-NOT: ktdp.store
// CHECK-NOT: ktdp.load
// CHECK: %[[Y:.*]] = arith.addf %[[E]], %[[E]]
// CHECK: ktdp.store %[[Y]]
// CHECK-NOT: ktdp.store
#set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#blk = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @park_and_reload(%x_ptr: index, %y_ptr: index) attributes {grid = [4, 1]} {
  %pid = ktdp.get_compute_tile_id : index
  %c16 = arith.constant 16 : index
  %row = arith.muli %pid, %c16 : index
  %X = ktdp.construct_memory_view %x_ptr, sizes: [64, 128], strides: [128, 1] {coordinate_set = #set, memory_space = #ktdp.memory_space<global>} : memref<64x128xf16>
  %Y = ktdp.construct_memory_view %y_ptr, sizes: [64, 128], strides: [128, 1] {coordinate_set = #set, memory_space = #ktdp.memory_space<global>} : memref<64x128xf16>
  %tx = ktdp.construct_access_tile %X[%row, 0] {access_tile_set = #blk, access_tile_order = #id2} : memref<64x128xf16> -> !ktdp.access_tile<16x128xindex>
  %x = ktdp.load %tx : <16x128xindex> -> tensor<16x128xf16>
  %e = math.exp %x : tensor<16x128xf16>
  %ty = ktdp.construct_access_tile %Y[%row, 0] {access_tile_set = #blk, access_tile_order = #id2} : memref<64x128xf16> -> !ktdp.access_tile<16x128xindex>
  ktdp.store %e, %ty : tensor<16x128xf16>, <16x128xindex>
  %r = ktdp.load %ty : <16x128xindex> -> tensor<16x128xf16>
  %y = arith.addf %r, %r : tensor<16x128xf16>
  ktdp.store %y, %ty : tensor<16x128xf16>, <16x128xindex>
  return
}

// -----

// The same tile built twice inside a loop is the same tile; the stored
// tensor is used. The loop distributes rows cyclically (`%pid to 64 step
// 4`): its rows stay below 64, so the tile stays inside its view.

// CHECK-LABEL: func.func @rebuilt_tile_in_loop
// CHECK: scf.for
// CHECK: %[[X:.*]] = ktdp.load
// CHECK: %[[E:.*]] = math.exp %[[X]]
// CHECK: ktdp.store %[[E]]
// CHECK-NOT: ktdp.load
// CHECK: arith.addf %[[E]], %[[X]]
#set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#row = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 127 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @rebuilt_tile_in_loop(%x_ptr: index, %y_ptr: index, %z_ptr: index) attributes {grid = [4, 1]} {
  %pid = ktdp.get_compute_tile_id : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c64 = arith.constant 64 : index
  %X = ktdp.construct_memory_view %x_ptr, sizes: [64, 128], strides: [128, 1] {coordinate_set = #set, memory_space = #ktdp.memory_space<global>} : memref<64x128xf16>
  %Y = ktdp.construct_memory_view %y_ptr, sizes: [64, 128], strides: [128, 1] {coordinate_set = #set, memory_space = #ktdp.memory_space<global>} : memref<64x128xf16>
  %Z = ktdp.construct_memory_view %z_ptr, sizes: [64, 128], strides: [128, 1] {coordinate_set = #set, memory_space = #ktdp.memory_space<global>} : memref<64x128xf16>
  scf.for %r = %pid to %c64 step %c4 {
    %tx = ktdp.construct_access_tile %X[%r, 0] {access_tile_set = #row, access_tile_order = #id2} : memref<64x128xf16> -> !ktdp.access_tile<1x128xindex>
    %x = ktdp.load %tx : <1x128xindex> -> tensor<1x128xf16>
    %e = math.exp %x : tensor<1x128xf16>
    %ty = ktdp.construct_access_tile %Y[%r, 0] {access_tile_set = #row, access_tile_order = #id2} : memref<64x128xf16> -> !ktdp.access_tile<1x128xindex>
    ktdp.store %e, %ty : tensor<1x128xf16>, <1x128xindex>
    %ty2 = ktdp.construct_access_tile %Y[%r, 0] {access_tile_set = #row, access_tile_order = #id2} : memref<64x128xf16> -> !ktdp.access_tile<1x128xindex>
    %back = ktdp.load %ty2 : <1x128xindex> -> tensor<1x128xf16>
    %z = arith.addf %back, %x : tensor<1x128xf16>
    %tz = ktdp.construct_access_tile %Z[%r, 0] {access_tile_set = #row, access_tile_order = #id2} : memref<64x128xf16> -> !ktdp.access_tile<1x128xindex>
    ktdp.store %z, %tz : tensor<1x128xf16>, <1x128xindex>
  }
  return
}

// -----

// Left alone: a tile that may leave its view (rows up to a runtime count:
// the reload reads 0 past them), and a store in between (it may write the
// same elements). A load of the tensor between two stores of one tile keeps
// the first.

// CHECK-LABEL: func.func @not_forwarded
// CHECK: ktdp.store
// CHECK: ktdp.load
// CHECK: ktdp.store
// CHECK: ktdp.store
// CHECK: ktdp.load
// CHECK: ktdp.store
// CHECK: ktdp.load
// CHECK: ktdp.store
#dyn = affine_set<(d0, d1)[s0] : (d0 >= 0, -d0 + s0 - 1 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#blk = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @not_forwarded(%y_ptr: index, %z_ptr: index, %n: index) attributes {grid = [4, 1]} {
  %pid = ktdp.get_compute_tile_id : index
  %c16 = arith.constant 16 : index
  %c48 = arith.constant 48 : index
  %row = arith.muli %pid, %c16 : index
  %cst = arith.constant dense<1.0> : tensor<16x128xf16>
  %Y = ktdp.construct_memory_view %y_ptr, sizes: [%n, 128], strides: [128, 1] {coordinate_set = #dyn, memory_space = #ktdp.memory_space<global>} : memref<?x128xf16>
  %ty = ktdp.construct_access_tile %Y[%row, 0] {access_tile_set = #blk, access_tile_order = #id2} : memref<?x128xf16> -> !ktdp.access_tile<16x128xindex>
  ktdp.store %cst, %ty : tensor<16x128xf16>, <16x128xindex>
  %a = ktdp.load %ty : <16x128xindex> -> tensor<16x128xf16>
  ktdp.store %a, %ty : tensor<16x128xf16>, <16x128xindex>
  %Z = ktdp.construct_memory_view %z_ptr, sizes: [64, 128], strides: [128, 1] {coordinate_set = #set, memory_space = #ktdp.memory_space<global>} : memref<64x128xf16>
  %tz = ktdp.construct_access_tile %Z[%row, 0] {access_tile_set = #blk, access_tile_order = #id2} : memref<64x128xf16> -> !ktdp.access_tile<16x128xindex>
  %tz_last = ktdp.construct_access_tile %Z[%c48, 0] {access_tile_set = #blk, access_tile_order = #id2} : memref<64x128xf16> -> !ktdp.access_tile<16x128xindex>
  ktdp.store %cst, %tz : tensor<16x128xf16>, <16x128xindex>
  ktdp.store %cst, %tz_last : tensor<16x128xf16>, <16x128xindex>
  %b = ktdp.load %tz : <16x128xindex> -> tensor<16x128xf16>
  ktdp.store %b, %tz : tensor<16x128xf16>, <16x128xindex>
  %c = ktdp.load %tz_last : <16x128xindex> -> tensor<16x128xf16>
  ktdp.store %c, %tz : tensor<16x128xf16>, <16x128xindex>
  return
}
