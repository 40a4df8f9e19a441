// RUN: ktflow-opt %s --ktdf-lift-slices -split-input-file | FileCheck %s

// The two halves of a loaded row block: each becomes a load of the sub-tile
// whose anchor moves by the slice's offset; the whole block is no longer
// loaded.

// CHECK-LABEL: func.func @halves
// CHECK-DAG: %[[HI:.*]] = ktdp.construct_access_tile %{{.*}}[%[[ROW:.*]], 64] {access_tile_order = #{{.*}}, access_tile_set = #[[HALF:.*]]} : memref<64x128xf16> -> !ktdp.access_tile<4x64xindex>
// CHECK-DAG: %[[LO:.*]] = ktdp.construct_access_tile %{{.*}}[%[[ROW]], 0] {access_tile_order = #{{.*}}, access_tile_set = #[[HALF]]} : memref<64x128xf16> -> !ktdp.access_tile<4x64xindex>
// CHECK-DAG: %[[X2:.*]] = ktdp.load %[[HI]] : <4x64xindex> -> tensor<4x64xf16>
// CHECK-DAG: %[[X1:.*]] = ktdp.load %[[LO]] : <4x64xindex> -> tensor<4x64xf16>
// CHECK-NOT: tensor<4x128xf16>
// CHECK: arith.subf %[[X1]], %[[X2]] : tensor<4x64xf16>
#x = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#y = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#blk = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#half = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @halves(%x_ptr: index, %y_ptr: index) attributes {grid = [16]} {
  %pid = ktdp.get_compute_tile_id : index
  %c4 = arith.constant 4 : index
  %row = arith.muli %pid, %c4 : index
  %X = ktdp.construct_memory_view %x_ptr, sizes: [64, 128], strides: [128, 1] {coordinate_set = #x, memory_space = #ktdp.memory_space<global>} : memref<64x128xf16>
  %Y = ktdp.construct_memory_view %y_ptr, sizes: [64, 64], strides: [64, 1] {coordinate_set = #y, memory_space = #ktdp.memory_space<global>} : memref<64x64xf16>
  %tx = ktdp.construct_access_tile %X[%row, 0] {access_tile_set = #blk, access_tile_order = #id2} : memref<64x128xf16> -> !ktdp.access_tile<4x128xindex>
  %v = ktdp.load %tx : <4x128xindex> -> tensor<4x128xf16>
  %a = tensor.extract_slice %v[0, 0] [4, 64] [1, 1] : tensor<4x128xf16> to tensor<4x64xf16>
  %b = tensor.extract_slice %v[0, 64] [4, 64] [1, 1] : tensor<4x128xf16> to tensor<4x64xf16>
  %d = arith.subf %a, %b : tensor<4x64xf16>
  %ty = ktdp.construct_access_tile %Y[%row, 0] {access_tile_set = #half, access_tile_order = #id2} : memref<64x64xf16> -> !ktdp.access_tile<4x64xindex>
  ktdp.store %d, %ty : tensor<4x64xf16>, <4x64xindex>
  return
}

// -----

// Through element-wise arithmetic and a splat constant: the arithmetic is
// redone on the window only; a rank-reducing slice (one row) collapses the
// unit dimension of the window's load. The whole block stays loaded for
// its other use.

// CHECK-LABEL: func.func @row_of_scaled
// CHECK: %[[WHOLE:.*]] = ktdp.load %{{.*}} : <4x128xindex> -> tensor<4x128xf16>
// CHECK: %[[T:.*]] = ktdp.construct_access_tile %{{.*}}[%{{.*}} + 2, 32] {{.*}} -> !ktdp.access_tile<1x64xindex>
// CHECK: %[[W:.*]] = ktdp.load %[[T]] : <1x64xindex> -> tensor<1x64xf16>
// CHECK: %[[S:.*]] = arith.constant dense<5.000000e-01> : tensor<1x64xf16>
// CHECK: %[[M:.*]] = arith.mulf %[[W]], %[[S]] : tensor<1x64xf16>
// CHECK: arith.mulf %[[WHOLE]], %{{.*}} : tensor<4x128xf16>
// CHECK: tensor.collapse_shape %[[M]] {{\[\[}}0, 1]] : tensor<1x64xf16> into tensor<64xf16>
#x = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#r = affine_set<(d0) : (d0 >= 0, -d0 + 1023 >= 0)>
#blk = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#seg = affine_set<(d0) : (d0 >= 0, -d0 + 63 >= 0)>
#id1 = affine_map<(d0) -> (d0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @row_of_scaled(%x_ptr: index, %y_ptr: index, %z_ptr: index) attributes {grid = [16]} {
  %pid = ktdp.get_compute_tile_id : index
  %c4 = arith.constant 4 : index
  %c64 = arith.constant 64 : index
  %row = arith.muli %pid, %c4 : index
  %at = arith.muli %pid, %c64 : index
  %X = ktdp.construct_memory_view %x_ptr, sizes: [64, 128], strides: [128, 1] {coordinate_set = #x, memory_space = #ktdp.memory_space<global>} : memref<64x128xf16>
  %Y = ktdp.construct_memory_view %y_ptr, sizes: [1024], strides: [1] {coordinate_set = #r, memory_space = #ktdp.memory_space<global>} : memref<1024xf16>
  %Z = ktdp.construct_memory_view %z_ptr, sizes: [64, 128], strides: [128, 1] {coordinate_set = #x, memory_space = #ktdp.memory_space<global>} : memref<64x128xf16>
  %tx = ktdp.construct_access_tile %X[%row, 0] {access_tile_set = #blk, access_tile_order = #id2} : memref<64x128xf16> -> !ktdp.access_tile<4x128xindex>
  %v = ktdp.load %tx : <4x128xindex> -> tensor<4x128xf16>
  %half = arith.constant dense<0.5> : tensor<4x128xf16>
  %s = arith.mulf %v, %half : tensor<4x128xf16>
  %w = arith.mulf %v, %v : tensor<4x128xf16>
  %r = tensor.extract_slice %s[2, 32] [1, 64] [1, 1] : tensor<4x128xf16> to tensor<64xf16>
  %ty = ktdp.construct_access_tile %Y[%at] {access_tile_set = #seg, access_tile_order = #id1} : memref<1024xf16> -> !ktdp.access_tile<64xindex>
  ktdp.store %r, %ty : tensor<64xf16>, <64xindex>
  %tz = ktdp.construct_access_tile %Z[%row, 0] {access_tile_set = #blk, access_tile_order = #id2} : memref<64x128xf16> -> !ktdp.access_tile<4x128xindex>
  ktdp.store %w, %tz : tensor<4x128xf16>, <4x128xindex>
  return
}

// -----

// A permuted (transposed) tile: the tensor's dimension 1 walks the view's
// dimension 0, so a window of the tensor's columns moves the anchor's row
// and shortens the set's dimension 0.

// CHECK: #[[S:set[0-9]*]] = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 31 >= 0)>
// CHECK-LABEL: func.func @transposed
// CHECK: ktdp.construct_access_tile %{{.*}}[%{{.*}} + 8, 0] {access_tile_order = #{{.*}}, access_tile_set = #[[S]]} : memref<64x32xf16> -> !ktdp.access_tile<32x8xindex>
// CHECK: ktdp.load %{{.*}} : <32x8xindex> -> tensor<32x8xf16>
#x = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 31 >= 0)>
#blk = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 31 >= 0)>
#t2 = affine_map<(d0, d1) -> (d1, d0)>
func.func @transposed(%x_ptr: index) attributes {grid = [4]} {
  %pid = ktdp.get_compute_tile_id : index
  %c16 = arith.constant 16 : index
  %row = arith.muli %pid, %c16 : index
  %X = ktdp.construct_memory_view %x_ptr, sizes: [64, 32], strides: [32, 1] {coordinate_set = #x, memory_space = #ktdp.memory_space<global>} : memref<64x32xf16>
  %tx = ktdp.construct_access_tile %X[%row, 0] {access_tile_set = #blk, access_tile_order = #t2} : memref<64x32xf16> -> !ktdp.access_tile<32x16xindex>
  %v = ktdp.load %tx : <32x16xindex> -> tensor<32x16xf16>
  %s = tensor.extract_slice %v[0, 8] [32, 8] [1, 1] : tensor<32x16xf16> to tensor<32x8xf16>
  %e = math.exp %s : tensor<32x8xf16>
  return
}

// -----

// An offset known only at run time (a loop's head): the sub-tile's anchor
// takes it as an index, and the window is loaded in the loop, where the
// slice was.

// CHECK-LABEL: func.func @head_loop
// CHECK-NOT: access_tile<8x256xindex>
// CHECK: scf.for %[[H:.*]] =
// CHECK: %[[COL:.*]] = arith.muli %[[H]]
// CHECK: %[[T:.*]] = ktdp.construct_access_tile %{{.*}}[%[[ROW:.*]], %[[COL]]] {{.*}} -> !ktdp.access_tile<8x128xindex>
// CHECK: ktdp.load %[[T]] : <8x128xindex> -> tensor<8x128xf16>
#q = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 255 >= 0)>
#blk = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 255 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @head_loop(%q_ptr: index) attributes {grid = [8]} {
  %pid = ktdp.get_compute_tile_id : index
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c8 = arith.constant 8 : index
  %c128 = arith.constant 128 : index
  %row = arith.muli %pid, %c8 : index
  %Q = ktdp.construct_memory_view %q_ptr, sizes: [64, 256], strides: [256, 1] {coordinate_set = #q, memory_space = #ktdp.memory_space<global>} : memref<64x256xf16>
  %tq = ktdp.construct_access_tile %Q[%row, 0] {access_tile_set = #blk, access_tile_order = #id2} : memref<64x256xf16> -> !ktdp.access_tile<8x256xindex>
  %qb = ktdp.load %tq : <8x256xindex> -> tensor<8x256xf16>
  scf.for %h = %c0 to %c2 step %c1 {
    %col = arith.muli %h, %c128 : index
    %qh = tensor.extract_slice %qb[0, %col] [8, 128] [1, 1] : tensor<8x256xf16> to tensor<8x128xf16>
    %e = math.exp %qh : tensor<8x128xf16>
  }
  return
}

// -----

// One element of a loaded block (the block's row r's last element) read
// with tensor.extract: the element of a one-element window, loaded alone;
// the block stays loaded for its other use. An element a linalg body
// reads (a gather) is left alone.

// CHECK-LABEL: func.func @element
// CHECK-SAME: (%{{.*}}: index, %[[R:.*]]: index)
// CHECK: %[[ROW:.*]] = arith.muli
// CHECK: %[[ONE:.*]] = ktdp.construct_access_tile %{{.*}}[%[[ROW]] + %[[R]], 127] {access_tile_order = #{{.*}}, access_tile_set = #{{.*}}} : memref<64x128xf16> -> !ktdp.access_tile<1x1xindex>
// CHECK: %[[E:.*]] = ktdp.load %[[ONE]] : <1x1xindex> -> tensor<1x1xf16>
// CHECK: tensor.extract %[[E]][%[[C0:.*]], %[[C0]]] : tensor<1x1xf16>
// CHECK: linalg.generic
// CHECK: tensor.extract %{{.*}}[%{{.*}}, %{{.*}}] : tensor<4x128xf16>
#x = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#blk = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#id1 = affine_map<(d0) -> (d0)>
func.func @element(%x_ptr: index, %r: index) -> (f16, tensor<4x128xf16>, tensor<4xf16>) attributes {grid = [16]} {
  %pid = ktdp.get_compute_tile_id : index
  %c4 = arith.constant 4 : index
  %c127 = arith.constant 127 : index
  %row = arith.muli %pid, %c4 : index
  %X = ktdp.construct_memory_view %x_ptr, sizes: [64, 128], strides: [128, 1] {coordinate_set = #x, memory_space = #ktdp.memory_space<global>} : memref<64x128xf16>
  %tx = ktdp.construct_access_tile %X[%row, 0] {access_tile_set = #blk, access_tile_order = #id2} : memref<64x128xf16> -> !ktdp.access_tile<4x128xindex>
  %v = ktdp.load %tx : <4x128xindex> -> tensor<4x128xf16>
  %e = tensor.extract %v[%r, %c127] : tensor<4x128xf16>
  %empty = tensor.empty() : tensor<4xf16>
  %g = linalg.generic {indexing_maps = [#id1], iterator_types = ["parallel"]} outs(%empty : tensor<4xf16>) {
  ^bb0(%o: f16):
    %i = linalg.index 0 : index
    %ge = tensor.extract %v[%i, %c127] : tensor<4x128xf16>
    linalg.yield %ge : f16
  } -> tensor<4xf16>
  return %e, %v, %g : f16, tensor<4x128xf16>, tensor<4xf16>
}
