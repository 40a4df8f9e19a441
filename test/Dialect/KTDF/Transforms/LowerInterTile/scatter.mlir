// RUN: ktflow-opt %s --ktdf-lower-inter-tile -split-input-file | FileCheck %s

// A reduce marked `ktdf.scatter` (ScatterAttr.h: each tile reads only its
// own rows of the result, rows p of 4 here) whose every read is a
// slice of R / P whole rows: the all-reduce is a reduce-scatter
// (`ktdf.scatter`), each tile keeping its chunk, and each slice a load of
// those rows of the exchange view, at the slice's offset.

// CHECK-LABEL: func.func @scattered
// CHECK-DAG: %[[PID:.*]] = ktdp.get_compute_tile_id
// CHECK-DAG: %[[E:.*]] = ktdp.construct_memory_view {{.*}} sizes: [4, 32], strides: [32, 1] {{{.*}}ktdf.exchange
// CHECK: %[[P:.*]] = arith.addf
// CHECK-NEXT: ktdp.store %[[P]], %{{.*}} : tensor<4x32xf32>, <4x32xindex>
// CHECK-NEXT: ktdf.all_reduce %[[E]], %{{.*}} {combiner = "arith.addf", groups = [array<i64: 0, 1, 2, 3>], ktdf.scatter}
// CHECK-NEXT: %[[T:.*]] = ktdp.construct_access_tile %[[E]][%[[PID]], 0] {{.*}} -> !ktdp.access_tile<1x32xindex>
// CHECK-NEXT: %[[MINE:.*]] = ktdp.load %[[T]] : <1x32xindex> -> tensor<1x32xf32>
// CHECK-NEXT: %[[Y:.*]] = arith.truncf %[[MINE]] : tensor<1x32xf32> to tensor<1x32xf16>
// CHECK: ktdp.store %[[Y]]
// CHECK-NOT: inter_tile
// CHECK-NOT: extract_slice
#x_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 31 >= 0)>
#one_row = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 31 >= 0)>
#all4 = affine_set<(i)[g] : (i >= 0, -i + 3 >= 0, g == 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @scattered(%x_ptr: index, %y_ptr: index, %z_ptr: index) attributes {grid = [4]} {
  %pid = ktdp.get_compute_tile_id : index
  %X = ktdp.construct_memory_view %x_ptr, sizes: [4, 32], strides: [32, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<4x32xf32>
  %Y = ktdp.construct_memory_view %y_ptr, sizes: [4, 32], strides: [32, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<4x32xf16>
  %Z = ktdp.construct_memory_view %z_ptr, sizes: [4, 32], strides: [32, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<4x32xf16>
  %tx = ktdp.construct_access_tile %X[0, 0] {access_tile_set = #x_set, access_tile_order = #id2} : memref<4x32xf32> -> !ktdp.access_tile<4x32xindex>
  %x = ktdp.load %tx : <4x32xindex> -> tensor<4x32xf32>
  %zero = arith.constant dense<0.0> : tensor<4x32xf32>
  %p = arith.addf %x, %x : tensor<4x32xf32>
  %f = ktdp.inter_tile_produce producer_tiles_per_group = #all4
      : tensor<4x32xf32> -> !ktdp.tile_future<tensor<4x32xf32>, groups = affine_set<(g) : (g == 0)>> {
  ^bb0(%g: index):
    ktdp.yield_partial %p : tensor<4x32xf32>
  }
  %s = ktdp.inter_tile_reduce(%f) consumer_tiles_per_group = #all4, identity(%zero : tensor<4x32xf32>) {ktdf.scatter}
      : !ktdp.tile_future<tensor<4x32xf32>, groups = affine_set<(g) : (g == 0)>> -> tensor<4x32xf32> {
  ^bb0(%a: tensor<4x32xf32>, %b: tensor<4x32xf32>):
    %r = arith.addf %a, %b : tensor<4x32xf32>
    ktdp.yield_reduced %r : tensor<4x32xf32>
  }
  %mine = tensor.extract_slice %s[%pid, 0] [1, 32] [1, 1] : tensor<4x32xf32> to tensor<1x32xf32>
  %y = arith.truncf %mine : tensor<1x32xf32> to tensor<1x32xf16>
  %ty = ktdp.construct_access_tile %Y[%pid, 0] {access_tile_set = #one_row, access_tile_order = #id2} : memref<4x32xf16> -> !ktdp.access_tile<1x32xindex>
  ktdp.store %y, %ty : tensor<1x32xf16>, <1x32xindex>
  return
}

// -----

// The same reduce also read whole (a second store of all of it): every
// tile needs the whole result, so the marker is not followed; the slice
// stays a slice of the loaded result.

// CHECK-LABEL: func.func @read_whole
// CHECK: ktdf.all_reduce %{{.*}}, %{{.*}} {combiner = "arith.addf", groups = [array<i64: 0, 1, 2, 3>]}
// CHECK-NEXT: %[[S:.*]] = ktdp.load %{{.*}} : <4x32xindex> -> tensor<4x32xf32>
// CHECK: tensor.extract_slice %[[S]]
#x_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 31 >= 0)>
#one_row = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 31 >= 0)>
#all4 = affine_set<(i)[g] : (i >= 0, -i + 3 >= 0, g == 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @read_whole(%x_ptr: index, %y_ptr: index, %z_ptr: index) attributes {grid = [4]} {
  %pid = ktdp.get_compute_tile_id : index
  %X = ktdp.construct_memory_view %x_ptr, sizes: [4, 32], strides: [32, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<4x32xf32>
  %Y = ktdp.construct_memory_view %y_ptr, sizes: [4, 32], strides: [32, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<4x32xf16>
  %Z = ktdp.construct_memory_view %z_ptr, sizes: [4, 32], strides: [32, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<4x32xf16>
  %tx = ktdp.construct_access_tile %X[0, 0] {access_tile_set = #x_set, access_tile_order = #id2} : memref<4x32xf32> -> !ktdp.access_tile<4x32xindex>
  %x = ktdp.load %tx : <4x32xindex> -> tensor<4x32xf32>
  %zero = arith.constant dense<0.0> : tensor<4x32xf32>
  %p = arith.addf %x, %x : tensor<4x32xf32>
  %f = ktdp.inter_tile_produce producer_tiles_per_group = #all4
      : tensor<4x32xf32> -> !ktdp.tile_future<tensor<4x32xf32>, groups = affine_set<(g) : (g == 0)>> {
  ^bb0(%g: index):
    ktdp.yield_partial %p : tensor<4x32xf32>
  }
  %s = ktdp.inter_tile_reduce(%f) consumer_tiles_per_group = #all4, identity(%zero : tensor<4x32xf32>) {ktdf.scatter}
      : !ktdp.tile_future<tensor<4x32xf32>, groups = affine_set<(g) : (g == 0)>> -> tensor<4x32xf32> {
  ^bb0(%a: tensor<4x32xf32>, %b: tensor<4x32xf32>):
    %r = arith.addf %a, %b : tensor<4x32xf32>
    ktdp.yield_reduced %r : tensor<4x32xf32>
  }
  %mine = tensor.extract_slice %s[%pid, 0] [1, 32] [1, 1] : tensor<4x32xf32> to tensor<1x32xf32>
  %y = arith.truncf %mine : tensor<1x32xf32> to tensor<1x32xf16>
  %ty = ktdp.construct_access_tile %Y[%pid, 0] {access_tile_set = #one_row, access_tile_order = #id2} : memref<4x32xf16> -> !ktdp.access_tile<1x32xindex>
  ktdp.store %y, %ty : tensor<1x32xf16>, <1x32xindex>
  %all = arith.truncf %s : tensor<4x32xf32> to tensor<4x32xf16>
  %tz = ktdp.construct_access_tile %Z[0, 0] {access_tile_set = #x_set, access_tile_order = #id2} : memref<4x32xf16> -> !ktdp.access_tile<4x32xindex>
  ktdp.store %all, %tz : tensor<4x32xf16>, <4x32xindex>
  return
}

// -----

// Inside a loop: the next trip's ring would write the received view with
// no all-gather to order it after this trip's reads, so it stays a whole
// all-reduce.

// CHECK-LABEL: func.func @in_loop
// CHECK: scf.for
// CHECK: ktdf.all_reduce %{{.*}}, %{{.*}} {combiner = "arith.addf", groups = [array<i64: 0, 1, 2, 3>]}
// CHECK-NEXT: %[[S:.*]] = ktdp.load %{{.*}} : <4x32xindex> -> tensor<4x32xf32>
// CHECK: tensor.extract_slice %[[S]]
#x_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 31 >= 0)>
#one_row = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 31 >= 0)>
#all4 = affine_set<(i)[g] : (i >= 0, -i + 3 >= 0, g == 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @in_loop(%x_ptr: index, %y_ptr: index, %z_ptr: index) attributes {grid = [4]} {
  %pid = ktdp.get_compute_tile_id : index
  %X = ktdp.construct_memory_view %x_ptr, sizes: [4, 32], strides: [32, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<4x32xf32>
  %Y = ktdp.construct_memory_view %y_ptr, sizes: [4, 32], strides: [32, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<4x32xf16>
  %Z = ktdp.construct_memory_view %z_ptr, sizes: [4, 32], strides: [32, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<4x32xf16>
  %tx = ktdp.construct_access_tile %X[0, 0] {access_tile_set = #x_set, access_tile_order = #id2} : memref<4x32xf32> -> !ktdp.access_tile<4x32xindex>
  %x = ktdp.load %tx : <4x32xindex> -> tensor<4x32xf32>
  %zero = arith.constant dense<0.0> : tensor<4x32xf32>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  scf.for %i = %c0 to %c2 step %c1 {
    %p = arith.addf %x, %x : tensor<4x32xf32>
  %f = ktdp.inter_tile_produce producer_tiles_per_group = #all4
        : tensor<4x32xf32> -> !ktdp.tile_future<tensor<4x32xf32>, groups = affine_set<(g) : (g == 0)>> {
    ^bb0(%g: index):
      ktdp.yield_partial %p : tensor<4x32xf32>
    }
    %s = ktdp.inter_tile_reduce(%f) consumer_tiles_per_group = #all4, identity(%zero : tensor<4x32xf32>) {ktdf.scatter}
        : !ktdp.tile_future<tensor<4x32xf32>, groups = affine_set<(g) : (g == 0)>> -> tensor<4x32xf32> {
    ^bb0(%a: tensor<4x32xf32>, %b: tensor<4x32xf32>):
      %r = arith.addf %a, %b : tensor<4x32xf32>
      ktdp.yield_reduced %r : tensor<4x32xf32>
    }
    %mine = tensor.extract_slice %s[%pid, 0] [1, 32] [1, 1] : tensor<4x32xf32> to tensor<1x32xf32>
    %y = arith.truncf %mine : tensor<1x32xf32> to tensor<1x32xf16>
    %ty = ktdp.construct_access_tile %Y[%pid, 0] {access_tile_set = #one_row, access_tile_order = #id2} : memref<4x32xf16> -> !ktdp.access_tile<1x32xindex>
    ktdp.store %y, %ty : tensor<1x32xf16>, <1x32xindex>
}
  return
}

// -----

// No marker: nothing says the slice is the tile's own chunk.

// CHECK-LABEL: func.func @unmarked
// CHECK: ktdf.all_reduce %{{.*}}, %{{.*}} {combiner = "arith.addf", groups = [array<i64: 0, 1, 2, 3>]}
// CHECK-NEXT: %[[S:.*]] = ktdp.load %{{.*}} : <4x32xindex> -> tensor<4x32xf32>
// CHECK: tensor.extract_slice %[[S]]
#x_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 31 >= 0)>
#one_row = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 31 >= 0)>
#all4 = affine_set<(i)[g] : (i >= 0, -i + 3 >= 0, g == 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @unmarked(%x_ptr: index, %y_ptr: index, %z_ptr: index) attributes {grid = [4]} {
  %pid = ktdp.get_compute_tile_id : index
  %X = ktdp.construct_memory_view %x_ptr, sizes: [4, 32], strides: [32, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<4x32xf32>
  %Y = ktdp.construct_memory_view %y_ptr, sizes: [4, 32], strides: [32, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<4x32xf16>
  %Z = ktdp.construct_memory_view %z_ptr, sizes: [4, 32], strides: [32, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<4x32xf16>
  %tx = ktdp.construct_access_tile %X[0, 0] {access_tile_set = #x_set, access_tile_order = #id2} : memref<4x32xf32> -> !ktdp.access_tile<4x32xindex>
  %x = ktdp.load %tx : <4x32xindex> -> tensor<4x32xf32>
  %zero = arith.constant dense<0.0> : tensor<4x32xf32>
  %p = arith.addf %x, %x : tensor<4x32xf32>
  %f = ktdp.inter_tile_produce producer_tiles_per_group = #all4
      : tensor<4x32xf32> -> !ktdp.tile_future<tensor<4x32xf32>, groups = affine_set<(g) : (g == 0)>> {
  ^bb0(%g: index):
    ktdp.yield_partial %p : tensor<4x32xf32>
  }
  %s = ktdp.inter_tile_reduce(%f) consumer_tiles_per_group = #all4, identity(%zero : tensor<4x32xf32>)
      : !ktdp.tile_future<tensor<4x32xf32>, groups = affine_set<(g) : (g == 0)>> -> tensor<4x32xf32> {
  ^bb0(%a: tensor<4x32xf32>, %b: tensor<4x32xf32>):
    %r = arith.addf %a, %b : tensor<4x32xf32>
    ktdp.yield_reduced %r : tensor<4x32xf32>
  }
  %mine = tensor.extract_slice %s[%pid, 0] [1, 32] [1, 1] : tensor<4x32xf32> to tensor<1x32xf32>
  %y = arith.truncf %mine : tensor<1x32xf32> to tensor<1x32xf16>
  %ty = ktdp.construct_access_tile %Y[%pid, 0] {access_tile_set = #one_row, access_tile_order = #id2} : memref<4x32xf16> -> !ktdp.access_tile<1x32xindex>
  ktdp.store %y, %ty : tensor<1x32xf16>, <1x32xindex>
  return
}

// -----

// A partial collapsed for the exchange (sharded_ffn's 4x32 product
// flattened to 128) whose result is read as it was stored: expanded back
// to 4x32, then rows p of it sliced. The view holds the 4x32 partial
// row-major, so chunk p of the 128 sums is row p: a reduce-scatter, each
// slice a load of its row of the exchange view, the expand gone.

// CHECK-LABEL: func.func @collapsed
// CHECK-DAG: %[[PID:.*]] = ktdp.get_compute_tile_id
// CHECK-DAG: %[[E:.*]] = ktdp.construct_memory_view {{.*}} sizes: [4, 32], strides: [32, 1] {{{.*}}ktdf.exchange
// CHECK: ktdf.all_reduce %[[E]], %{{.*}} {combiner = "arith.addf", groups = [array<i64: 0, 1, 2, 3>], ktdf.scatter}
// CHECK-NEXT: %[[T:.*]] = ktdp.construct_access_tile %[[E]][%[[PID]], 0] {{.*}} -> !ktdp.access_tile<1x32xindex>
// CHECK-NEXT: %[[MINE:.*]] = ktdp.load %[[T]] : <1x32xindex> -> tensor<1x32xf32>
// CHECK-NEXT: %[[Y:.*]] = arith.truncf %[[MINE]] : tensor<1x32xf32> to tensor<1x32xf16>
// CHECK: ktdp.store %[[Y]]
// CHECK-NOT: expand_shape
// CHECK-NOT: extract_slice
#x_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 31 >= 0)>
#one_row = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 31 >= 0)>
#all4 = affine_set<(i)[g] : (i >= 0, -i + 3 >= 0, g == 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @collapsed(%x_ptr: index, %y_ptr: index) attributes {grid = [4]} {
  %pid = ktdp.get_compute_tile_id : index
  %X = ktdp.construct_memory_view %x_ptr, sizes: [4, 32], strides: [32, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<4x32xf32>
  %Y = ktdp.construct_memory_view %y_ptr, sizes: [4, 32], strides: [32, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<4x32xf16>
  %tx = ktdp.construct_access_tile %X[0, 0] {access_tile_set = #x_set, access_tile_order = #id2} : memref<4x32xf32> -> !ktdp.access_tile<4x32xindex>
  %x = ktdp.load %tx : <4x32xindex> -> tensor<4x32xf32>
  %zero = arith.constant dense<0.0> : tensor<128xf32>
  %p = arith.addf %x, %x : tensor<4x32xf32>
  %flat = tensor.collapse_shape %p [[0, 1]] : tensor<4x32xf32> into tensor<128xf32>
  %f = ktdp.inter_tile_produce producer_tiles_per_group = #all4
      : tensor<128xf32> -> !ktdp.tile_future<tensor<128xf32>, groups = affine_set<(g) : (g == 0)>> {
  ^bb0(%g: index):
    ktdp.yield_partial %flat : tensor<128xf32>
  }
  %s = ktdp.inter_tile_reduce(%f) consumer_tiles_per_group = #all4, identity(%zero : tensor<128xf32>) {ktdf.scatter}
      : !ktdp.tile_future<tensor<128xf32>, groups = affine_set<(g) : (g == 0)>> -> tensor<128xf32> {
  ^bb0(%a: tensor<128xf32>, %b: tensor<128xf32>):
    %r = arith.addf %a, %b : tensor<128xf32>
    ktdp.yield_reduced %r : tensor<128xf32>
  }
  %whole = tensor.expand_shape %s [[0, 1]] output_shape [4, 32] : tensor<128xf32> into tensor<4x32xf32>
  %mine = tensor.extract_slice %whole[%pid, 0] [1, 32] [1, 1] : tensor<4x32xf32> to tensor<1x32xf32>
  %y = arith.truncf %mine : tensor<1x32xf32> to tensor<1x32xf16>
  %ty = ktdp.construct_access_tile %Y[%pid, 0] {access_tile_set = #one_row, access_tile_order = #id2} : memref<4x32xf16> -> !ktdp.access_tile<1x32xindex>
  ktdp.store %y, %ty : tensor<1x32xf16>, <1x32xindex>
  return
}

// -----

// The same sum expanded to another shape (2x64) than the partial was
// stored in: its rows are not the chunks' rows, so the marker is not
// followed: a whole all-reduce, the result loaded whole.

// CHECK-LABEL: func.func @collapsed_other_shape
// CHECK: ktdf.all_reduce %{{.*}}, %{{.*}} {combiner = "arith.addf", groups = [array<i64: 0, 1, 2, 3>]}
// CHECK-NEXT: ktdp.load %{{.*}} : <4x32xindex> -> tensor<4x32xf32>
// CHECK: tensor.extract_slice
#x_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 31 >= 0)>
#y_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#half = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 63 >= 0)>
#all4 = affine_set<(i)[g] : (i >= 0, -i + 3 >= 0, g == 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @collapsed_other_shape(%x_ptr: index, %y_ptr: index) attributes {grid = [4]} {
  %pid = ktdp.get_compute_tile_id : index
  %c2 = arith.constant 2 : index
  %X = ktdp.construct_memory_view %x_ptr, sizes: [4, 32], strides: [32, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<4x32xf32>
  %Y = ktdp.construct_memory_view %y_ptr, sizes: [2, 64], strides: [64, 1] {coordinate_set = #y_set, memory_space = #ktdp.memory_space<global>} : memref<2x64xf16>
  %tx = ktdp.construct_access_tile %X[0, 0] {access_tile_set = #x_set, access_tile_order = #id2} : memref<4x32xf32> -> !ktdp.access_tile<4x32xindex>
  %x = ktdp.load %tx : <4x32xindex> -> tensor<4x32xf32>
  %zero = arith.constant dense<0.0> : tensor<128xf32>
  %p = arith.addf %x, %x : tensor<4x32xf32>
  %flat = tensor.collapse_shape %p [[0, 1]] : tensor<4x32xf32> into tensor<128xf32>
  %f = ktdp.inter_tile_produce producer_tiles_per_group = #all4
      : tensor<128xf32> -> !ktdp.tile_future<tensor<128xf32>, groups = affine_set<(g) : (g == 0)>> {
  ^bb0(%g: index):
    ktdp.yield_partial %flat : tensor<128xf32>
  }
  %s = ktdp.inter_tile_reduce(%f) consumer_tiles_per_group = #all4, identity(%zero : tensor<128xf32>) {ktdf.scatter}
      : !ktdp.tile_future<tensor<128xf32>, groups = affine_set<(g) : (g == 0)>> -> tensor<128xf32> {
  ^bb0(%a: tensor<128xf32>, %b: tensor<128xf32>):
    %r = arith.addf %a, %b : tensor<128xf32>
    ktdp.yield_reduced %r : tensor<128xf32>
  }
  %whole = tensor.expand_shape %s [[0, 1]] output_shape [2, 64] : tensor<128xf32> into tensor<2x64xf32>
  %row = arith.remui %pid, %c2 : index
  %mine = tensor.extract_slice %whole[%row, 0] [1, 64] [1, 1] : tensor<2x64xf32> to tensor<1x64xf32>
  %y = arith.truncf %mine : tensor<1x64xf32> to tensor<1x64xf16>
  %ty = ktdp.construct_access_tile %Y[%row, 0] {access_tile_set = #half, access_tile_order = #id2} : memref<2x64xf16> -> !ktdp.access_tile<1x64xindex>
  ktdp.store %y, %ty : tensor<1x64xf16>, <1x64xindex>
  return
}
