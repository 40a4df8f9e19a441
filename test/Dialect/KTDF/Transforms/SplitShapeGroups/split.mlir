// RUN: ktflow-opt %s -split-input-file --ktdf-import-target --ktdf-split-shape-groups | FileCheck %s

// Each row minus the sum of its left half: the sum reduces the 1x64
// window ktdf-lift-slices loads, the row's op broadcasts its one-element
// result over the 1x128 row. The group is cut there: the sum is stored
// into a ktdf.handover view in LX right after it is computed and loaded
// back before the row's op, which reads it; the fill stays with the sum.

// CHECK-LABEL: func.func @reduce_window
// CHECK: %[[VIEW:.*]] = ktdp.construct_memory_view {{.*}} sizes: [1], strides: [1] {coordinate_set = {{.*}}, ktdf.handover, ktdf.memory = "LX", memory_space = #ktdp.memory_space<ct_local
// CHECK: %[[TILE:.*]] = ktdp.construct_access_tile %[[VIEW]]
// CHECK: %[[ROW:.*]] = ktdp.load {{.*}} -> tensor<1x128xf16>
// CHECK: %[[WIN:.*]] = ktdp.load {{.*}} -> tensor<1x64xf16>
// CHECK: %[[SUM:.*]] = linalg.generic {{.*}} ins(%[[WIN]] : tensor<1x64xf16>)
// CHECK-NEXT: ^bb0
// CHECK-NEXT: arith.addf
// CHECK-NEXT: linalg.yield
// CHECK-NEXT: } -> tensor<1xf16>
// CHECK-NEXT: ktdp.store %[[SUM]], %[[TILE]] : tensor<1xf16>, <1xindex>
// CHECK: %[[BACK:.*]] = ktdp.load %[[TILE]] : <1xindex> -> tensor<1xf16>
// CHECK-NEXT: linalg.generic {{.*}} ins(%[[ROW]], %[[BACK]] : tensor<1x128xf16>, tensor<1xf16>)
#row = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 127 >= 0)>
#half = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 63 >= 0)>
#x_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#id1 = affine_map<(d0) -> (d0)>
#rows = affine_map<(d0, d1) -> (d0)>
#first = affine_map<(d0, d1) -> (0)>
module {
  ktdf_arch.target @spyre_like from "../../../../../examples/devices/spyre_like.mlir"
    memory_map #ktdf_arch.map<"global" = "DDR", "ct_local" = "LX">
  func.func @reduce_window(%xp: index, %yp: index) attributes {grid = [1]} {
    %zero = arith.constant 0.0 : f16
    %X = ktdp.construct_memory_view %xp, sizes: [64, 128], strides: [128, 1] {coordinate_set = #x_set, ktdf.memory = "DDR", memory_space = #ktdp.memory_space<global>} : memref<64x128xf16>
    %Y = ktdp.construct_memory_view %yp, sizes: [64, 128], strides: [128, 1] {coordinate_set = #x_set, ktdf.memory = "DDR", memory_space = #ktdp.memory_space<global>} : memref<64x128xf16>
    %tx = ktdp.construct_access_tile %X[0, 0] {access_tile_set = #row, access_tile_order = #id2} : memref<64x128xf16> -> !ktdp.access_tile<1x128xindex>
    %tl = ktdp.construct_access_tile %X[0, 0] {access_tile_set = #half, access_tile_order = #id2} : memref<64x128xf16> -> !ktdp.access_tile<1x64xindex>
    %ty = ktdp.construct_access_tile %Y[0, 0] {access_tile_set = #row, access_tile_order = #id2} : memref<64x128xf16> -> !ktdp.access_tile<1x128xindex>
    %x = ktdp.load %tx : <1x128xindex> -> tensor<1x128xf16>
    %l = ktdp.load %tl : <1x64xindex> -> tensor<1x64xf16>
    %e1 = tensor.empty() : tensor<1xf16>
    %init = linalg.generic {indexing_maps = [#id1], iterator_types = ["parallel"]} outs(%e1 : tensor<1xf16>) {
    ^bb0(%out: f16):
      linalg.yield %zero : f16
    } -> tensor<1xf16>
    %s = linalg.generic {indexing_maps = [#id2, #rows], iterator_types = ["parallel", "reduction"]} ins(%l : tensor<1x64xf16>) outs(%init : tensor<1xf16>) {
    ^bb0(%in: f16, %acc: f16):
      %a = arith.addf %in, %acc : f16
      linalg.yield %a : f16
    } -> tensor<1xf16>
    %e2 = tensor.empty() : tensor<1x128xf16>
    %y = linalg.generic {indexing_maps = [#id2, #first, #id2], iterator_types = ["parallel", "parallel"]} ins(%x, %s : tensor<1x128xf16>, tensor<1xf16>) outs(%e2 : tensor<1x128xf16>) {
    ^bb0(%in: f16, %v: f16, %out: f16):
      %d = arith.subf %in, %v : f16
      linalg.yield %d : f16
    } -> tensor<1x128xf16>
    ktdp.store %y, %ty : tensor<1x128xf16>, <1x128xindex>
    return
  }
}

// -----

// Each row minus its own maximum: the maximum and the row's op work on
// the same 1x128 row, one stage streams both (a pass per reduction), so
// the group stays whole.

// CHECK-LABEL: func.func @row_max
// CHECK-NOT: ktdf.handover
// CHECK-NOT: ktdp.store {{.*}} tensor<1xf16>
// CHECK: return
#row = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 127 >= 0)>
#x_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#id1 = affine_map<(d0) -> (d0)>
#rows = affine_map<(d0, d1) -> (d0)>
#first = affine_map<(d0, d1) -> (0)>
module {
  ktdf_arch.target @spyre_like from "../../../../../examples/devices/spyre_like.mlir"
    memory_map #ktdf_arch.map<"global" = "DDR", "ct_local" = "LX">
  func.func @row_max(%xp: index, %yp: index) attributes {grid = [1]} {
    %ninf = arith.constant 0xFC00 : f16
    %X = ktdp.construct_memory_view %xp, sizes: [64, 128], strides: [128, 1] {coordinate_set = #x_set, ktdf.memory = "DDR", memory_space = #ktdp.memory_space<global>} : memref<64x128xf16>
    %Y = ktdp.construct_memory_view %yp, sizes: [64, 128], strides: [128, 1] {coordinate_set = #x_set, ktdf.memory = "DDR", memory_space = #ktdp.memory_space<global>} : memref<64x128xf16>
    %tx = ktdp.construct_access_tile %X[0, 0] {access_tile_set = #row, access_tile_order = #id2} : memref<64x128xf16> -> !ktdp.access_tile<1x128xindex>
    %ty = ktdp.construct_access_tile %Y[0, 0] {access_tile_set = #row, access_tile_order = #id2} : memref<64x128xf16> -> !ktdp.access_tile<1x128xindex>
    %x = ktdp.load %tx : <1x128xindex> -> tensor<1x128xf16>
    %e1 = tensor.empty() : tensor<1xf16>
    %init = linalg.generic {indexing_maps = [#id1], iterator_types = ["parallel"]} outs(%e1 : tensor<1xf16>) {
    ^bb0(%out: f16):
      linalg.yield %ninf : f16
    } -> tensor<1xf16>
    %m = linalg.generic {indexing_maps = [#id2, #rows], iterator_types = ["parallel", "reduction"]} ins(%x : tensor<1x128xf16>) outs(%init : tensor<1xf16>) {
    ^bb0(%in: f16, %acc: f16):
      %a = arith.maxnumf %in, %acc : f16
      linalg.yield %a : f16
    } -> tensor<1xf16>
    %e2 = tensor.empty() : tensor<1x128xf16>
    %y = linalg.generic {indexing_maps = [#id2, #first, #id2], iterator_types = ["parallel", "parallel"]} ins(%x, %m : tensor<1x128xf16>, tensor<1xf16>) outs(%e2 : tensor<1x128xf16>) {
    ^bb0(%in: f16, %v: f16, %out: f16):
      %d = arith.subf %in, %v : f16
      linalg.yield %d : f16
    } -> tensor<1x128xf16>
    ktdp.store %y, %ty : tensor<1x128xf16>, <1x128xindex>
    return
  }
}

// -----

// The row times exp of its second element: the exp of the one-element
// window is computed apart (a 1x1 stage) and handed over in a 1x1 view;
// the element loaded alone (x[r, 0], the row's scale) stays with the row's
// op, which the stream planner reads as one value per row.

// CHECK-LABEL: func.func @exp_element
// CHECK-COUNT-1: ktdf.handover
// CHECK-NOT: ktdf.handover
// CHECK: %[[EL:.*]] = ktdp.load {{.*}} -> tensor<1x1xf16>
// CHECK: %[[EX:.*]] = linalg.generic {{.*}} ins(%[[EL]] : tensor<1x1xf16>)
// CHECK: ktdp.store %[[EX]], {{.*}} : tensor<1x1xf16>, <1x1xindex>
// CHECK: %[[BACK:.*]] = ktdp.load {{.*}} : <1x1xindex> -> tensor<1x1xf16>
// CHECK-NEXT: linalg.generic {{.*}} ins(%{{.*}}, %[[BACK]], %{{.*}} : tensor<1x128xf16>, tensor<1x1xf16>, tensor<1x1xf16>)
#row = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 127 >= 0)>
#one = affine_set<(d0, d1) : (d0 == 0, d1 == 0)>
#x_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#first = affine_map<(d0, d1) -> (0, 0)>
module {
  ktdf_arch.target @spyre_like from "../../../../../examples/devices/spyre_like.mlir"
    memory_map #ktdf_arch.map<"global" = "DDR", "ct_local" = "LX">
  func.func @exp_element(%xp: index, %yp: index) attributes {grid = [1]} {
    %X = ktdp.construct_memory_view %xp, sizes: [64, 128], strides: [128, 1] {coordinate_set = #x_set, ktdf.memory = "DDR", memory_space = #ktdp.memory_space<global>} : memref<64x128xf16>
    %Y = ktdp.construct_memory_view %yp, sizes: [64, 128], strides: [128, 1] {coordinate_set = #x_set, ktdf.memory = "DDR", memory_space = #ktdp.memory_space<global>} : memref<64x128xf16>
    %tx = ktdp.construct_access_tile %X[0, 0] {access_tile_set = #row, access_tile_order = #id2} : memref<64x128xf16> -> !ktdp.access_tile<1x128xindex>
    %t1 = ktdp.construct_access_tile %X[0, 1] {access_tile_set = #one, access_tile_order = #id2} : memref<64x128xf16> -> !ktdp.access_tile<1x1xindex>
    %t0 = ktdp.construct_access_tile %X[0, 0] {access_tile_set = #one, access_tile_order = #id2} : memref<64x128xf16> -> !ktdp.access_tile<1x1xindex>
    %ty = ktdp.construct_access_tile %Y[0, 0] {access_tile_set = #row, access_tile_order = #id2} : memref<64x128xf16> -> !ktdp.access_tile<1x128xindex>
    %x = ktdp.load %tx : <1x128xindex> -> tensor<1x128xf16>
    %el = ktdp.load %t1 : <1x1xindex> -> tensor<1x1xf16>
    %scale = ktdp.load %t0 : <1x1xindex> -> tensor<1x1xf16>
    %e1 = tensor.empty() : tensor<1x1xf16>
    %ex = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]} ins(%el : tensor<1x1xf16>) outs(%e1 : tensor<1x1xf16>) {
    ^bb0(%in: f16, %out: f16):
      %e = math.exp %in : f16
      linalg.yield %e : f16
    } -> tensor<1x1xf16>
    %e2 = tensor.empty() : tensor<1x128xf16>
    %y = linalg.generic {indexing_maps = [#id2, #first, #first, #id2], iterator_types = ["parallel", "parallel"]} ins(%x, %ex, %scale : tensor<1x128xf16>, tensor<1x1xf16>, tensor<1x1xf16>) outs(%e2 : tensor<1x128xf16>) {
    ^bb0(%in: f16, %v: f16, %s: f16, %out: f16):
      %m = arith.mulf %in, %v : f16
      %n = arith.mulf %m, %s : f16
      linalg.yield %n : f16
    } -> tensor<1x128xf16>
    ktdp.store %y, %ty : tensor<1x128xf16>, <1x128xindex>
    return
  }
}

// -----

// A row scalar loaded alone (an exchanged sum of squares) and its sqrt on
// tensor<1xf16>, an op of fewer loops than the row has dimensions: the
// stream planner computes it in the row's stage, so the group stays whole.

// CHECK-LABEL: func.func @row_arithmetic
// CHECK-NOT: ktdf.handover
// CHECK-NOT: ktdp.store {{.*}} tensor<1xf16>
// CHECK: return
#row = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 127 >= 0)>
#one = affine_set<(d0) : (d0 == 0)>
#x_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#s_set = affine_set<(d0) : (d0 >= 0, -d0 + 63 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#id1 = affine_map<(d0) -> (d0)>
#first = affine_map<(d0, d1) -> (0)>
module {
  ktdf_arch.target @spyre_like from "../../../../../examples/devices/spyre_like.mlir"
    memory_map #ktdf_arch.map<"global" = "DDR", "ct_local" = "LX">
  func.func @row_arithmetic(%xp: index, %sp: index, %yp: index) attributes {grid = [1]} {
    %X = ktdp.construct_memory_view %xp, sizes: [64, 128], strides: [128, 1] {coordinate_set = #x_set, ktdf.memory = "DDR", memory_space = #ktdp.memory_space<global>} : memref<64x128xf16>
    %S = ktdp.construct_memory_view %sp, sizes: [64], strides: [1] {coordinate_set = #s_set, ktdf.memory = "DDR", memory_space = #ktdp.memory_space<global>} : memref<64xf16>
    %Y = ktdp.construct_memory_view %yp, sizes: [64, 128], strides: [128, 1] {coordinate_set = #x_set, ktdf.memory = "DDR", memory_space = #ktdp.memory_space<global>} : memref<64x128xf16>
    %tx = ktdp.construct_access_tile %X[0, 0] {access_tile_set = #row, access_tile_order = #id2} : memref<64x128xf16> -> !ktdp.access_tile<1x128xindex>
    %ts = ktdp.construct_access_tile %S[0] {access_tile_set = #one, access_tile_order = #id1} : memref<64xf16> -> !ktdp.access_tile<1xindex>
    %ty = ktdp.construct_access_tile %Y[0, 0] {access_tile_set = #row, access_tile_order = #id2} : memref<64x128xf16> -> !ktdp.access_tile<1x128xindex>
    %x = ktdp.load %tx : <1x128xindex> -> tensor<1x128xf16>
    %s = ktdp.load %ts : <1xindex> -> tensor<1xf16>
    %e1 = tensor.empty() : tensor<1xf16>
    %r = linalg.generic {indexing_maps = [#id1, #id1], iterator_types = ["parallel"]} ins(%s : tensor<1xf16>) outs(%e1 : tensor<1xf16>) {
    ^bb0(%in: f16, %out: f16):
      %q = math.sqrt %in : f16
      linalg.yield %q : f16
    } -> tensor<1xf16>
    %e2 = tensor.empty() : tensor<1x128xf16>
    %y = linalg.generic {indexing_maps = [#id2, #first, #id2], iterator_types = ["parallel", "parallel"]} ins(%x, %r : tensor<1x128xf16>, tensor<1xf16>) outs(%e2 : tensor<1x128xf16>) {
    ^bb0(%in: f16, %v: f16, %out: f16):
      %d = arith.divf %in, %v : f16
      linalg.yield %d : f16
    } -> tensor<1x128xf16>
    ktdp.store %y, %ty : tensor<1x128xf16>, <1x128xindex>
    return
  }
}
