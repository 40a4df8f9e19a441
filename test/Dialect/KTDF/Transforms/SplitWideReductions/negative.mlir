// RUN: ktflow-opt %s -split-input-file --ktdf-import-target --ktdf-split-wide-reductions | FileCheck %s

// Kernels left whole (each keeps its grid and its whole-row tiles):
//  * narrow: rows of 1024 f16 would give parts of 512 columns, under
//    min-part-columns;
//  * many_rows: 64 known rows (a loop of 64 constant trips) fill
//    spyre_like's 32 cores already (ktdf-split-row-tiles' work);
//  * biased_sum: a sum from 1.0, not the neutral element, would count the
//    init once per part;
//  * two_points: a grid of two points;
//  * column_read: a row element read by tensor.extract (its column moves
//    with the part).

// CHECK-LABEL: func.func @narrow
// CHECK-SAME: grid = [1]
// CHECK-NOT: inter_tile
// CHECK: ktdp.store {{.*}} : tensor<1x1024xf32>
#x_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 1023 >= 0)>
#row = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 1023 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#to_row = affine_map<(d0, d1) -> (d0)>
module {
  ktdf_arch.target @spyre_like from "../../../../../examples/devices/spyre_like.mlir"
    memory_map #ktdf_arch.map<"global" = "DDR", "ct_local" = "LX">
  func.func @narrow(%x_ptr: index, %y_ptr: index, %n_rows: index)
      attributes {grid = [1]} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    %init = arith.constant 0.0 : f32
    %X = ktdp.construct_memory_view %x_ptr, sizes: [64, 1024], strides: [1024, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<64x1024xf32>
    %Y = ktdp.construct_memory_view %y_ptr, sizes: [64, 1024], strides: [1024, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<64x1024xf32>
    scf.for %r = %c0 to %n_rows step %c1 : index {
      %tx = ktdp.construct_access_tile %X[%r, 0] {access_tile_set = #row, access_tile_order = #id2} : memref<64x1024xf32> -> !ktdp.access_tile<1x1024xindex>
      %x = ktdp.load %tx : <1x1024xindex> -> tensor<1x1024xf32>
      %sum_init = tensor.splat %init : tensor<1xf32>
      %sum = linalg.reduce { arith.addf } ins(%x : tensor<1x1024xf32>) outs(%sum_init : tensor<1xf32>) dimensions = [1]
      %s = tensor.extract %sum[%c0] : tensor<1xf32>
      %sb = tensor.splat %s : tensor<1x1024xf32>
      %y = arith.divf %x, %sb : tensor<1x1024xf32>
      %ty = ktdp.construct_access_tile %Y[%r, 0] {access_tile_set = #row, access_tile_order = #id2} : memref<64x1024xf32> -> !ktdp.access_tile<1x1024xindex>
      ktdp.store %y, %ty : tensor<1x1024xf32>, <1x1024xindex>
    }
    return
  }
}

// -----

// CHECK-LABEL: func.func @many_rows
// CHECK-SAME: grid = [1]
// CHECK-NOT: inter_tile
// CHECK: ktdp.store {{.*}} : tensor<1x8192xf32>
#x_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 8191 >= 0)>
#row = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 8191 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#to_row = affine_map<(d0, d1) -> (d0)>
module {
  ktdf_arch.target @spyre_like from "../../../../../examples/devices/spyre_like.mlir"
    memory_map #ktdf_arch.map<"global" = "DDR", "ct_local" = "LX">
  func.func @many_rows(%x_ptr: index, %y_ptr: index, %n_rows: index)
      attributes {grid = [1]} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    %init = arith.constant 0.0 : f32
    %X = ktdp.construct_memory_view %x_ptr, sizes: [64, 8192], strides: [8192, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<64x8192xf32>
    %Y = ktdp.construct_memory_view %y_ptr, sizes: [64, 8192], strides: [8192, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<64x8192xf32>
    scf.for %r = %c0 to %c64 step %c1 : index {
      %tx = ktdp.construct_access_tile %X[%r, 0] {access_tile_set = #row, access_tile_order = #id2} : memref<64x8192xf32> -> !ktdp.access_tile<1x8192xindex>
      %x = ktdp.load %tx : <1x8192xindex> -> tensor<1x8192xf32>
      %sum_init = tensor.splat %init : tensor<1xf32>
      %sum = linalg.reduce { arith.addf } ins(%x : tensor<1x8192xf32>) outs(%sum_init : tensor<1xf32>) dimensions = [1]
      %s = tensor.extract %sum[%c0] : tensor<1xf32>
      %sb = tensor.splat %s : tensor<1x8192xf32>
      %y = arith.divf %x, %sb : tensor<1x8192xf32>
      %ty = ktdp.construct_access_tile %Y[%r, 0] {access_tile_set = #row, access_tile_order = #id2} : memref<64x8192xf32> -> !ktdp.access_tile<1x8192xindex>
      ktdp.store %y, %ty : tensor<1x8192xf32>, <1x8192xindex>
    }
    return
  }
}

// -----

// CHECK-LABEL: func.func @biased_sum
// CHECK-SAME: grid = [1]
// CHECK-NOT: inter_tile
// CHECK: ktdp.store {{.*}} : tensor<1x8192xf32>
#x_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 8191 >= 0)>
#row = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 8191 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#to_row = affine_map<(d0, d1) -> (d0)>
module {
  ktdf_arch.target @spyre_like from "../../../../../examples/devices/spyre_like.mlir"
    memory_map #ktdf_arch.map<"global" = "DDR", "ct_local" = "LX">
  func.func @biased_sum(%x_ptr: index, %y_ptr: index, %n_rows: index)
      attributes {grid = [1]} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    %init = arith.constant 1.0 : f32
    %X = ktdp.construct_memory_view %x_ptr, sizes: [64, 8192], strides: [8192, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<64x8192xf32>
    %Y = ktdp.construct_memory_view %y_ptr, sizes: [64, 8192], strides: [8192, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<64x8192xf32>
    scf.for %r = %c0 to %n_rows step %c1 : index {
      %tx = ktdp.construct_access_tile %X[%r, 0] {access_tile_set = #row, access_tile_order = #id2} : memref<64x8192xf32> -> !ktdp.access_tile<1x8192xindex>
      %x = ktdp.load %tx : <1x8192xindex> -> tensor<1x8192xf32>
      %sum_init = tensor.splat %init : tensor<1xf32>
      %sum = linalg.reduce { arith.addf } ins(%x : tensor<1x8192xf32>) outs(%sum_init : tensor<1xf32>) dimensions = [1]
      %s = tensor.extract %sum[%c0] : tensor<1xf32>
      %sb = tensor.splat %s : tensor<1x8192xf32>
      %y = arith.divf %x, %sb : tensor<1x8192xf32>
      %ty = ktdp.construct_access_tile %Y[%r, 0] {access_tile_set = #row, access_tile_order = #id2} : memref<64x8192xf32> -> !ktdp.access_tile<1x8192xindex>
      ktdp.store %y, %ty : tensor<1x8192xf32>, <1x8192xindex>
    }
    return
  }
}

// -----

// CHECK-LABEL: func.func @two_points
// CHECK-SAME: grid = [2]
// CHECK-NOT: inter_tile
// CHECK: ktdp.store {{.*}} : tensor<1x8192xf32>
#x_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 8191 >= 0)>
#row = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 8191 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#to_row = affine_map<(d0, d1) -> (d0)>
module {
  ktdf_arch.target @spyre_like from "../../../../../examples/devices/spyre_like.mlir"
    memory_map #ktdf_arch.map<"global" = "DDR", "ct_local" = "LX">
  func.func @two_points(%x_ptr: index, %y_ptr: index, %n_rows: index)
      attributes {grid = [2]} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    %init = arith.constant 0.0 : f32
    %X = ktdp.construct_memory_view %x_ptr, sizes: [64, 8192], strides: [8192, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<64x8192xf32>
    %Y = ktdp.construct_memory_view %y_ptr, sizes: [64, 8192], strides: [8192, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<64x8192xf32>
    scf.for %r = %c0 to %n_rows step %c1 : index {
      %tx = ktdp.construct_access_tile %X[%r, 0] {access_tile_set = #row, access_tile_order = #id2} : memref<64x8192xf32> -> !ktdp.access_tile<1x8192xindex>
      %x = ktdp.load %tx : <1x8192xindex> -> tensor<1x8192xf32>
      %sum_init = tensor.splat %init : tensor<1xf32>
      %sum = linalg.reduce { arith.addf } ins(%x : tensor<1x8192xf32>) outs(%sum_init : tensor<1xf32>) dimensions = [1]
      %s = tensor.extract %sum[%c0] : tensor<1xf32>
      %sb = tensor.splat %s : tensor<1x8192xf32>
      %y = arith.divf %x, %sb : tensor<1x8192xf32>
      %ty = ktdp.construct_access_tile %Y[%r, 0] {access_tile_set = #row, access_tile_order = #id2} : memref<64x8192xf32> -> !ktdp.access_tile<1x8192xindex>
      ktdp.store %y, %ty : tensor<1x8192xf32>, <1x8192xindex>
    }
    return
  }
}

// -----

// CHECK-LABEL: func.func @column_read
// CHECK-SAME: grid = [1]
// CHECK-NOT: inter_tile
// CHECK: ktdp.store {{.*}} : tensor<1x8192xf32>
#x_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 8191 >= 0)>
#row = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 8191 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#to_row = affine_map<(d0, d1) -> (d0)>
module {
  ktdf_arch.target @spyre_like from "../../../../../examples/devices/spyre_like.mlir"
    memory_map #ktdf_arch.map<"global" = "DDR", "ct_local" = "LX">
  func.func @column_read(%x_ptr: index, %y_ptr: index, %n_rows: index)
      attributes {grid = [1]} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    %init = arith.constant 0.0 : f32
    %X = ktdp.construct_memory_view %x_ptr, sizes: [64, 8192], strides: [8192, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<64x8192xf32>
    %Y = ktdp.construct_memory_view %y_ptr, sizes: [64, 8192], strides: [8192, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<64x8192xf32>
    scf.for %r = %c0 to %n_rows step %c1 : index {
      %tx = ktdp.construct_access_tile %X[%r, 0] {access_tile_set = #row, access_tile_order = #id2} : memref<64x8192xf32> -> !ktdp.access_tile<1x8192xindex>
      %x = ktdp.load %tx : <1x8192xindex> -> tensor<1x8192xf32>
      %sum_init = tensor.splat %init : tensor<1xf32>
      %sum = linalg.reduce { arith.addf } ins(%x : tensor<1x8192xf32>) outs(%sum_init : tensor<1xf32>) dimensions = [1]
      %s0 = tensor.extract %sum[%c0] : tensor<1xf32>
      %x5 = tensor.extract %x[%c0, %c1] : tensor<1x8192xf32>
      %s = arith.addf %s0, %x5 : f32
      %sb = tensor.splat %s : tensor<1x8192xf32>
      %y = arith.divf %x, %sb : tensor<1x8192xf32>
      %ty = ktdp.construct_access_tile %Y[%r, 0] {access_tile_set = #row, access_tile_order = #id2} : memref<64x8192xf32> -> !ktdp.access_tile<1x8192xindex>
      ktdp.store %y, %ty : tensor<1x8192xf32>, <1x8192xindex>
    }
    return
  }
}
