// RUN: ktflow-opt %s --ktdf-lower-if --ktdf-lower-inter-tile -split-input-file | FileCheck %s

// An RMSNorm-style row loop of 100 trips (more than
// ktdf-unroll-carried-loops unrolls) with a per-row all-reduce of one f16
// by the two tiles of a row band: the exchange stays in the loop body. Each
// trip stores its partial into the same exchange view, all-reduces it and
// loads the result; the row used after the exchange is loaded again there.

#x_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 199 >= 0, d1 >= 0, -d1 + 255 >= 0)>
#row_blk = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 127 >= 0)>
#band = affine_set<(i)[g] : (i - 2*g >= 0, -i + 2*g + 1 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-LABEL: func.func @rows
// CHECK: ktdp.construct_memory_view {{.*}} ktdf.exchange
// CHECK: scf.for
// CHECK: %[[X:.*]] = ktdp.load %[[TX:.*]] : <1x128xindex>
// CHECK: %[[P:.*]] = linalg.reduce
// CHECK-NEXT: ktdp.store %[[P]], %[[TE:.*]] :
// CHECK-NEXT: ktdf.all_reduce %{{.*}}, %{{.*}} {combiner = "arith.addf", groups = [array<i64: 0, 1>, array<i64: 2, 3>]}
// CHECK-NEXT: %[[S:.*]] = ktdp.load %[[TE]] : <1xindex> -> tensor<1xf16>
// CHECK-NEXT: %[[X2:.*]] = ktdp.load %[[TX]]
// CHECK: ktdp.store
// CHECK-NEXT: }
// CHECK-NEXT: return
// CHECK-NOT: inter_tile
func.func @rows(%x_ptr: index, %y_ptr: index) attributes {grid = [2, 2]} {
  %px, %py = ktdp.get_compute_tile_id : index, index
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c100 = arith.constant 100 : index
  %c128 = arith.constant 128 : index
  %X = ktdp.construct_memory_view %x_ptr, sizes: [200, 256], strides: [256, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<200x256xf16>
  %Y = ktdp.construct_memory_view %y_ptr, sizes: [200, 256], strides: [256, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<200x256xf16>
  %col0 = arith.muli %px, %c128 : index
  %row0 = arith.muli %py, %c100 : index
  %zero1 = arith.constant dense<0.0> : tensor<1xf16>
  scf.for %i = %c0 to %c100 step %c1 {
    %row = arith.addi %row0, %i : index
    %tx = ktdp.construct_access_tile %X[%row, %col0] {access_tile_set = #row_blk, access_tile_order = #id2} : memref<200x256xf16> -> !ktdp.access_tile<1x128xindex>
    %x = ktdp.load %tx : <1x128xindex> -> tensor<1x128xf16>
    %sq = arith.mulf %x, %x : tensor<1x128xf16>
    %part = linalg.reduce { arith.addf } ins(%sq : tensor<1x128xf16>) outs(%zero1 : tensor<1xf16>) dimensions = [1]
    %f = ktdp.inter_tile_produce producer_tiles_per_group = #band -> <(tensor<1xf16>), groups = affine_set<(g) : (g >= 0, -g + 1 >= 0)>> {
    ^bb0(%gid: index):
      ktdp.yield_partial %part : tensor<1xf16>
    }
    %ss = ktdp.inter_tile_reduce(%f) consumer_tiles_per_group = #band, identity(%zero1 : tensor<1xf16>) : <(tensor<1xf16>), groups = affine_set<(g) : (g >= 0, -g + 1 >= 0)>> -> tensor<1xf16> {
    ^bb0(%lhs: tensor<1xf16>, %rhs: tensor<1xf16>):
      %s = linalg.add ins(%lhs, %rhs : tensor<1xf16>, tensor<1xf16>) outs(%lhs : tensor<1xf16>) -> tensor<1xf16>
      ktdp.yield_reduced %s : tensor<1xf16>
    }
    %r = tensor.extract %ss[%c0] : tensor<1xf16>
    %rb = tensor.splat %r : tensor<1x128xf16>
    %y = arith.divf %x, %rb : tensor<1x128xf16>
    %ty = ktdp.construct_access_tile %Y[%row, %col0] {access_tile_set = #row_blk, access_tile_order = #id2} : memref<200x256xf16> -> !ktdp.access_tile<1x128xindex>
    ktdp.store %y, %ty : tensor<1x128xf16>, <1x128xindex>
  }
  return
}

// -----

// A branch whose condition is the same on every tile (a launch argument):
// ktdf-lower-if makes it a loop of one trip or none, which every tile
// runs alike, so the exchange stays in it.

#all4 = affine_set<(i)[g] : (i >= 0, -i + 3 >= 0, g == 0)>
#s_set = affine_set<(d0) : (d0 >= 0, -d0 + 63 >= 0)>
#id1 = affine_map<(d0) -> (d0)>
// CHECK-LABEL: func.func @uniform_branch
// CHECK: %[[T:.*]] = arith.select %{{.*}}, %{{.*}}, %{{.*}} : index
// CHECK: scf.for %{{.*}} = %{{.*}} to %[[T]]
// CHECK: ktdp.store
// CHECK-NEXT: ktdf.all_reduce
// CHECK-NEXT: ktdp.load
func.func @uniform_branch(%flag: i32, %s_ptr: index) attributes {grid = [4]} {
  %c0 = arith.constant 0 : i32
  %p = arith.constant dense<1.0> : tensor<64xf16>
  %zero = arith.constant dense<0.0> : tensor<64xf16>
  %on = arith.cmpi sgt, %flag, %c0 : i32
  scf.if %on {
    %q = arith.addf %p, %p : tensor<64xf16>
    %f = ktdp.inter_tile_produce producer_tiles_per_group = #all4
        : tensor<64xf16> -> !ktdp.tile_future<tensor<64xf16>, groups = affine_set<(g) : (g == 0)>> {
    ^bb0(%g: index):
      ktdp.yield_partial %q : tensor<64xf16>
    }
    %r = ktdp.inter_tile_reduce(%f) consumer_tiles_per_group = #all4, identity(%zero : tensor<64xf16>)
        : !ktdp.tile_future<tensor<64xf16>, groups = affine_set<(g) : (g == 0)>> -> tensor<64xf16> {
    ^bb0(%a: tensor<64xf16>, %b: tensor<64xf16>):
      %s = arith.addf %a, %b : tensor<64xf16>
      ktdp.yield_reduced %s : tensor<64xf16>
    }
    %h = arith.mulf %r, %r : tensor<64xf16>
    %S = ktdp.construct_memory_view %s_ptr, sizes: [64], strides: [1] {coordinate_set = #s_set, memory_space = #ktdp.memory_space<global>} : memref<64xf16>
    %ts = ktdp.construct_access_tile %S[0] {access_tile_set = #s_set, access_tile_order = #id1} : memref<64xf16> -> !ktdp.access_tile<64xindex>
    ktdp.store %h, %ts : tensor<64xf16>, <64xindex>
  }
  return
}
