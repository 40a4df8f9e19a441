// RUN: ktflow-opt %s --ktdf-lower-inter-tile -split-input-file --allow-unregistered-dialect | FileCheck %s

// An all-reduce of 1x128 partials over the four tiles of one group: the
// column sums the partial expands go into a scratchpad view of their own
// (128 elements at element address 0), the all-reduce combines
// the views in place (the three other tiles' 32-element chunks arrive in a
// second view of 96, 256 bytes further), and the result is loaded back
// (already the declared rank-reduced type).

#x_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#rows16 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#s_set = affine_set<(d0) : (d0 >= 0, -d0 + 127 >= 0)>
#grp4 = affine_set<(i)[g] : (i - 4*g >= 0, -i + 4*g + 3 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#id1 = affine_map<(d0) -> (d0)>
// CHECK-LABEL: func.func @colsum
// CHECK-DAG: %[[RADDR:.*]] = arith.constant 128 : index
// CHECK-DAG: %[[EADDR:.*]] = arith.constant 0 : index
// CHECK-DAG: %[[R:.*]] = ktdp.construct_memory_view %[[RADDR]], sizes: [96], strides: [1] {coordinate_set = #{{.*}}, ktdf.exchange, memory_space = #ktdp.memory_space<ct_local, ct_id = 0>}
// CHECK-DAG: %[[E:.*]] = ktdp.construct_memory_view %[[EADDR]], sizes: [128], strides: [1] {coordinate_set = #{{.*}}, ktdf.exchange, memory_space = #ktdp.memory_space<ct_local, ct_id = 0>}
// CHECK-DAG: %[[TE:.*]] = ktdp.construct_access_tile %[[E]][0]
// CHECK: %[[C:.*]] = linalg.reduce
// CHECK: ktdp.store %[[C]], %[[TE]]
// CHECK-NEXT: ktdf.all_reduce %[[E]], %[[R]] {combiner = "arith.addf", groups = [array<i64: 0, 1, 2, 3>]}
// CHECK-NEXT: %[[V:.*]] = ktdp.load %[[TE]] : <128xindex> -> tensor<128xf16>
// CHECK: ktdp.store %[[V]]
// CHECK-NOT: inter_tile
func.func @colsum(%in_ptr: index, %out_ptr: index) attributes {grid = [4]} {
  %pid = ktdp.get_compute_tile_id : index
  %c16 = arith.constant 16 : index
  %X = ktdp.construct_memory_view %in_ptr, sizes: [64, 128], strides: [128, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<64x128xf16>
  %row = arith.muli %pid, %c16 : index
  %tx = ktdp.construct_access_tile %X[%row, 0] {access_tile_set = #rows16, access_tile_order = #id2} : memref<64x128xf16> -> !ktdp.access_tile<16x128xindex>
  %x = ktdp.load %tx : <16x128xindex> -> tensor<16x128xf16>
  %zeros = arith.constant dense<0.0> : tensor<128xf16>
  %colsum = linalg.reduce { arith.addf } ins(%x : tensor<16x128xf16>) outs(%zeros : tensor<128xf16>) dimensions = [0]
  %partial = tensor.expand_shape %colsum [[0, 1]] output_shape [1, 128] : tensor<128xf16> into tensor<1x128xf16>
  %ident = arith.constant dense<0.0> : tensor<1x128xf16>
  %fut = ktdp.inter_tile_produce producer_tiles_per_group = #grp4
      : tensor<1x128xf16> -> !ktdp.tile_future<tensor<1x128xf16>, groups = affine_set<(g) : (g == 0)>> {
  ^bb0(%gid: index):
    ktdp.yield_partial %partial : tensor<1x128xf16>
  }
  %total = ktdp.inter_tile_reduce(%fut) consumer_tiles_per_group = #grp4, identity(%ident : tensor<1x128xf16>)
      : !ktdp.tile_future<tensor<1x128xf16>, groups = affine_set<(g) : (g == 0)>> -> tensor<128xf16> {
  ^bb0(%lhs: tensor<1x128xf16>, %rhs: tensor<1x128xf16>):
    %s = arith.addf %lhs, %rhs : tensor<1x128xf16>
    ktdp.yield_reduced %s : tensor<1x128xf16>
  }
  %S = ktdp.construct_memory_view %out_ptr, sizes: [128], strides: [1] {coordinate_set = #s_set, memory_space = #ktdp.memory_space<global>} : memref<128xf16>
  %ts = ktdp.construct_access_tile %S[0] {access_tile_set = #s_set, access_tile_order = #id1} : memref<128xf16> -> !ktdp.access_tile<128xindex>
  ktdp.store %total, %ts : tensor<128xf16>, <128xindex>
  return
}

// -----

// Groups 4 tiles apart (mod-strided), a maximumf combiner with a -inf
// splat identity; the loaded row, used again after the exchange, is
// loaded again there (a compute group lies on one side of it).

#x_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#row = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 63 >= 0)>
#strided = affine_set<(i)[g] : (i - g - 4 * (i floordiv 4) == 0, i >= 0, -i + 7 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-LABEL: func.func @strided_max
// CHECK: %[[X:.*]] = ktdp.load %[[TX:.*]] :
// CHECK: ktdp.store %[[X]], %[[TE:.*]] :
// CHECK-NEXT: ktdf.all_reduce %{{.*}}, %{{.*}} {combiner = "arith.maximumf", groups = [array<i64: 0, 4>, array<i64: 1, 5>, array<i64: 2, 6>, array<i64: 3, 7>]}
// CHECK-NEXT: %[[M:.*]] = ktdp.load %[[TE]]
// CHECK-NEXT: %[[X2:.*]] = ktdp.load %[[TX]]
// CHECK-NEXT: %[[D:.*]] = arith.subf %[[X2]], %[[M]]
// CHECK-NEXT: ktdp.store %[[D]]
func.func @strided_max(%x_ptr: index, %y_ptr: index) attributes {grid = [8]} {
  %pid = ktdp.get_compute_tile_id : index
  %X = ktdp.construct_memory_view %x_ptr, sizes: [8, 64], strides: [64, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<8x64xf16>
  %Y = ktdp.construct_memory_view %y_ptr, sizes: [8, 64], strides: [64, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<8x64xf16>
  %tx = ktdp.construct_access_tile %X[%pid, 0] {access_tile_set = #row, access_tile_order = #id2} : memref<8x64xf16> -> !ktdp.access_tile<1x64xindex>
  %ty = ktdp.construct_access_tile %Y[%pid, 0] {access_tile_set = #row, access_tile_order = #id2} : memref<8x64xf16> -> !ktdp.access_tile<1x64xindex>
  %x = ktdp.load %tx : <1x64xindex> -> tensor<1x64xf16>
  %ninf = arith.constant 0xFC00 : f16
  %ident = tensor.splat %ninf : tensor<1x64xf16>
  %fut = ktdp.inter_tile_produce producer_tiles_per_group = #strided
      : tensor<1x64xf16> -> !ktdp.tile_future<tensor<1x64xf16>, groups = affine_set<(g) : (g >= 0, -g + 3 >= 0)>> {
  ^bb0(%gid: index):
    ktdp.yield_partial %x : tensor<1x64xf16>
  }
  %m = ktdp.inter_tile_reduce(%fut) consumer_tiles_per_group = #strided, identity(%ident : tensor<1x64xf16>)
      : !ktdp.tile_future<tensor<1x64xf16>, groups = affine_set<(g) : (g >= 0, -g + 3 >= 0)>> -> tensor<1x64xf16> {
  ^bb0(%a: tensor<1x64xf16>, %b: tensor<1x64xf16>):
    %r = arith.maximumf %a, %b : tensor<1x64xf16>
    ktdp.yield_reduced %r : tensor<1x64xf16>
  }
  %d = arith.subf %x, %m : tensor<1x64xf16>
  ktdp.store %d, %ty : tensor<1x64xf16>, <1x64xindex>
  return
}

// -----

// A 4x64 partial flattened to 256 for the exchange and expanded back, with
// a linalg.add combiner (sharded_ffn's down-projection): the 4x64 value is
// exchanged as computed (the view holds it row-major, the elements in the
// order of the flat 256), the reshapes disappear and the loaded 4x64 value
// is what the expand gave.

// CHECK-LABEL: func.func @flattened
// CHECK-DAG: %[[E:.*]] = ktdp.construct_memory_view %{{.*}}, sizes: [4, 64], strides: [64, 1] {{.*}}ktdf.exchange
// CHECK-DAG: %[[TE:.*]] = ktdp.construct_access_tile %[[E]][0, 0]
// CHECK: %[[P:.*]] = "test.partial"() : () -> tensor<4x64xf16>
// CHECK: ktdp.store %[[P]], %[[TE]] : tensor<4x64xf16>
// CHECK-NEXT: ktdf.all_reduce %[[E]], %{{.*}} {combiner = "arith.addf", groups = [array<i64: 0, 1, 2, 3>]}
// CHECK-NEXT: %[[V:.*]] = ktdp.load %[[TE]] : <4x64xindex> -> tensor<4x64xf16>
// CHECK-NEXT: "test.use"(%[[V]]) : (tensor<4x64xf16>) -> ()
// CHECK-NOT: tensor.collapse_shape
// CHECK-NOT: tensor.expand_shape
#all4 = affine_set<(i)[g] : (i - 4*g >= 0, -i + 4*g + 3 >= 0)>
func.func @flattened() attributes {grid = [4]} {
  %part = "test.partial"() : () -> tensor<4x64xf16>
  %flat = tensor.collapse_shape %part [[0, 1]] : tensor<4x64xf16> into tensor<256xf16>
  %ident = arith.constant dense<0.000000e+00> : tensor<256xf16>
  %fut = ktdp.inter_tile_produce producer_tiles_per_group = #all4 : tensor<256xf16> -> !ktdp.tile_future<tensor<256xf16>, groups = affine_set<(g) : (g == 0)>> {
  ^bb0(%gid: index):
    ktdp.yield_partial %flat : tensor<256xf16>
  }
  %sum = ktdp.inter_tile_reduce(%fut) consumer_tiles_per_group = #all4, identity(%ident : tensor<256xf16>) : !ktdp.tile_future<tensor<256xf16>, groups = affine_set<(g) : (g == 0)>> -> tensor<256xf16> {
  ^bb0(%a: tensor<256xf16>, %b: tensor<256xf16>):
    %s = linalg.add ins(%a, %b : tensor<256xf16>, tensor<256xf16>) outs(%a : tensor<256xf16>) -> tensor<256xf16>
    ktdp.yield_reduced %s : tensor<256xf16>
  }
  %back = tensor.expand_shape %sum [[0, 1]] output_shape [4, 64] : tensor<256xf16> into tensor<4x64xf16>
  "test.use"(%back) : (tensor<4x64xf16>) -> ()
  return
}
