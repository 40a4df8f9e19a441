// RUN: ktflow-opt %s -split-input-file --ktdf-import-target --ktdf-split-row-tiles | FileCheck %s
// RUN: ktflow-opt %s -split-input-file --ktdf-import-target --ktdf-split-row-tiles=max-factor=8 | FileCheck %s --check-prefix=CAPPED

// The shipped rmsnorm's shape on mesh_device: one point, 8 trips of 4
// rows, 16 instances. Each trip becomes 2 trips of 2 rows (16 trips); the
// row tiles move 2 rows a trip from row 0, the per-row constants are
// remade with 2 rows in the body, the weight (a staged scratchpad vector
// every row reads whole) stays whole. With max-factor=8 (ktdf-spread-
// iterations may spread 8 trips at most) the loop is left alone.

// CHECK-LABEL: func.func @rmsnorm
// CHECK: %[[C16:.*]] = arith.constant 16 : index
// CHECK: scf.for %[[K:.*]] = %{{.*}} to %[[C16]] step %{{.*}} {
// CHECK-DAG: arith.constant dense<1.280000e+02> : tensor<2xf32>
// CHECK-DAG: %[[TX:.*]] = ktdp.construct_access_tile %{{.*}}[%[[K]] * 2, 0] {{.*}} -> !ktdp.access_tile<2x128xindex>
// CHECK-DAG: %[[TY:.*]] = ktdp.construct_access_tile %{{.*}}[%[[K]] * 2, 0] {{.*}} -> !ktdp.access_tile<2x128xindex>
// CHECK: ktdp.load %[[TX]] : <2x128xindex> -> tensor<2x128xf16>
// CHECK: ktdp.load %{{.*}} : <128xindex> -> tensor<128xf16>
// CHECK: linalg.generic {{.*}} ins(%{{.*}} : tensor<2x128xf32>) outs(%{{.*}} : tensor<2xf32>)
// CHECK: math.sqrt %{{.*}} : tensor<2xf32>
// CHECK: linalg.generic {{.*}} ins(%{{.*}}, %{{.*}}, %{{.*}} : tensor<2x128xf32>, tensor<2xf32>, tensor<128xf32>) outs(%{{.*}} : tensor<2x128xf16>)
// CHECK: ktdp.store %{{.*}}, %[[TY]] : tensor<2x128xf16>, <2x128xindex>

// CAPPED-LABEL: func.func @rmsnorm
// CAPPED: scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CAPPED: ktdp.construct_access_tile %{{.*}}[%[[I]] * 4, 0] {{.*}} -> !ktdp.access_tile<4x128xindex>
#mat = affine_set<(d0, d1) : (d0 >= 0, -d0 + 31 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#vec = affine_set<(d0) : (d0 >= 0, -d0 + 127 >= 0)>
#block = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#id1 = affine_map<(d0) -> (d0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
#col = affine_map<(d0, d1) -> (d1)>
module {
  ktdf_arch.target @mesh_device from "../../../../../examples/devices/mesh_device.mlir"
    memory_map #ktdf_arch.map<"global" = "HBM", "ct_local" = "SPM">
  func.func @rmsnorm(%x: index, %w: index, %y: index) attributes {grid = [1]} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %X = ktdp.construct_memory_view %x, sizes: [32, 128], strides: [128, 1] {coordinate_set = #mat, memory_space = #ktdp.memory_space<global>} : memref<32x128xf16>
    %W = ktdp.construct_memory_view %w, sizes: [128], strides: [1] {coordinate_set = #vec, memory_space = #ktdp.memory_space<global>} : memref<128xf16>
    %Y = ktdp.construct_memory_view %y, sizes: [32, 128], strides: [128, 1] {coordinate_set = #mat, memory_space = #ktdp.memory_space<global>} : memref<32x128xf16>
    %L = ktdp.construct_memory_view %c0, sizes: [128], strides: [1] {coordinate_set = #vec, memory_space = #ktdp.memory_space<ct_local>} : memref<128xf16>
    %tw = ktdp.construct_access_tile %W[0] {access_tile_set = #vec, access_tile_order = #id1} : memref<128xf16> -> !ktdp.access_tile<128xindex>
    %tl = ktdp.construct_access_tile %L[0] {access_tile_set = #vec, access_tile_order = #id1} : memref<128xf16> -> !ktdp.access_tile<128xindex>
    %wg = ktdp.load %tw : <128xindex> -> tensor<128xf16>
    ktdp.store %wg, %tl : tensor<128xf16>, <128xindex>
    %zero = arith.constant 0.0 : f32
    %n = arith.constant dense<128.0> : tensor<4xf32>
    scf.for %i = %c0 to %c8 step %c1 {
      %tx = ktdp.construct_access_tile %X[%i * 4, 0] {access_tile_set = #block, access_tile_order = #id2} : memref<32x128xf16> -> !ktdp.access_tile<4x128xindex>
      %ty = ktdp.construct_access_tile %Y[%i * 4, 0] {access_tile_set = #block, access_tile_order = #id2} : memref<32x128xf16> -> !ktdp.access_tile<4x128xindex>
      %xh = ktdp.load %tx : <4x128xindex> -> tensor<4x128xf16>
      %wh = ktdp.load %tl : <128xindex> -> tensor<128xf16>
      %xf = arith.extf %xh : tensor<4x128xf16> to tensor<4x128xf32>
      %wf = arith.extf %wh : tensor<128xf16> to tensor<128xf32>
      %e = tensor.empty() : tensor<4xf32>
      %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<4xf32>) -> tensor<4xf32>
      %ss = linalg.generic {indexing_maps = [#id2, #row], iterator_types = ["parallel", "reduction"]} ins(%xf : tensor<4x128xf32>) outs(%acc : tensor<4xf32>) {
      ^bb0(%v: f32, %a: f32):
        %sq = arith.mulf %v, %v : f32
        %s = arith.addf %sq, %a : f32
        linalg.yield %s : f32
      } -> tensor<4xf32>
      %ms = arith.divf %ss, %n : tensor<4xf32>
      %d = math.sqrt %ms : tensor<4xf32>
      %o = tensor.empty() : tensor<4x128xf16>
      %yh = linalg.generic {indexing_maps = [#id2, #row, #col, #id2], iterator_types = ["parallel", "parallel"]} ins(%xf, %d, %wf : tensor<4x128xf32>, tensor<4xf32>, tensor<128xf32>) outs(%o : tensor<4x128xf16>) {
      ^bb0(%v: f32, %di: f32, %wj: f32, %out: f16):
        %q = arith.divf %v, %di : f32
        %p = arith.mulf %q, %wj : f32
        %h = arith.truncf %p : f32 to f16
        linalg.yield %h : f16
      } -> tensor<4x128xf16>
      ktdp.store %yh, %ty : tensor<4x128xf16>, <4x128xindex>
    }
    return
  }
}

// -----

// Two points on mesh_device, each 4 trips of 4 rows from its own block of
// 16 (`%pid * 16 + %i * 4`): 8 instances idle per point, so each trip
// becomes 2 of 2 rows, anchored `%pid * 16 + %k * 2`.

// CAPPED-LABEL: func.func @scale_rows
// CAPPED: -> !ktdp.access_tile<2x64xindex>

// CHECK-LABEL: func.func @scale_rows
// CHECK: %[[C8:.*]] = arith.constant 8 : index
// CHECK: scf.for %[[K:.*]] = %{{.*}} to %[[C8]] step %{{.*}} {
// CHECK: ktdp.construct_access_tile %{{.*}}[%{{.*}} * 16 + %[[K]] * 2, 0] {{.*}} -> !ktdp.access_tile<2x64xindex>
// CHECK: arith.mulf %{{.*}}, %{{.*}} : tensor<2x64xf32>
// CHECK: ktdp.construct_access_tile %{{.*}}[%{{.*}} * 16 + %[[K]] * 2, 0] {{.*}} -> !ktdp.access_tile<2x64xindex>
#m2 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 31 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#b2 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#i2 = affine_map<(d0, d1) -> (d0, d1)>
module {
  ktdf_arch.target @mesh_device from "../../../../../examples/devices/mesh_device.mlir"
    memory_map #ktdf_arch.map<"global" = "HBM", "ct_local" = "SPM">
  func.func @scale_rows(%x: index, %y: index) attributes {grid = [2]} {
    %pid = ktdp.get_compute_tile_id : index
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %X = ktdp.construct_memory_view %x, sizes: [32, 64], strides: [64, 1] {coordinate_set = #m2, memory_space = #ktdp.memory_space<global>} : memref<32x64xf16>
    %Y = ktdp.construct_memory_view %y, sizes: [32, 64], strides: [64, 1] {coordinate_set = #m2, memory_space = #ktdp.memory_space<global>} : memref<32x64xf32>
    %half = arith.constant dense<0.5> : tensor<4x64xf32>
    scf.for %i = %c0 to %c4 step %c1 {
      %tx = ktdp.construct_access_tile %X[%pid * 16 + %i * 4, 0] {access_tile_set = #b2, access_tile_order = #i2} : memref<32x64xf16> -> !ktdp.access_tile<4x64xindex>
      %xh = ktdp.load %tx : <4x64xindex> -> tensor<4x64xf16>
      %xf = arith.extf %xh : tensor<4x64xf16> to tensor<4x64xf32>
      %yf = arith.mulf %xf, %half : tensor<4x64xf32>
      %ty = ktdp.construct_access_tile %Y[%pid * 16 + %i * 4, 0] {access_tile_set = #b2, access_tile_order = #i2} : memref<32x64xf32> -> !ktdp.access_tile<4x64xindex>
      ktdp.store %yf, %ty : tensor<4x64xf32>, <4x64xindex>
    }
    return
  }
}
