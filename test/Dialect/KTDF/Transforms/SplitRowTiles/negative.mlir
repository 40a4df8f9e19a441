// RUN: ktflow-opt %s -split-input-file --ktdf-import-target --ktdf-split-row-tiles | FileCheck %s

// Loops whose trips are not cut: each keeps its 8 trips of 4 rows.

// sample_device has 8 instances: the 8 trips fill them already.

// CHECK-LABEL: func.func @enough_trips
// CHECK: ktdp.construct_access_tile {{.*}} -> !ktdp.access_tile<4x64xindex>
// CHECK-NOT: access_tile<2x64xindex>
#m = affine_set<(d0, d1) : (d0 >= 0, -d0 + 31 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#b = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#i2 = affine_map<(d0, d1) -> (d0, d1)>
module {
  ktdf_arch.target @sample_device from "../../../../../examples/devices/sample_device.mlir"
    memory_map #ktdf_arch.map<"global" = "DDR">
  func.func @enough_trips(%x: index, %y: index) attributes {grid = [1]} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %X = ktdp.construct_memory_view %x, sizes: [32, 64], strides: [64, 1] {coordinate_set = #m, memory_space = #ktdp.memory_space<global>} : memref<32x64xf16>
    %Y = ktdp.construct_memory_view %y, sizes: [32, 64], strides: [64, 1] {coordinate_set = #m, memory_space = #ktdp.memory_space<global>} : memref<32x64xf16>
    scf.for %i = %c0 to %c8 step %c1 {
      %tx = ktdp.construct_access_tile %X[%i * 4, 0] {access_tile_set = #b, access_tile_order = #i2} : memref<32x64xf16> -> !ktdp.access_tile<4x64xindex>
      %xh = ktdp.load %tx : <4x64xindex> -> tensor<4x64xf16>
      %yh = arith.addf %xh, %xh : tensor<4x64xf16>
      %ty = ktdp.construct_access_tile %Y[%i * 4, 0] {access_tile_set = #b, access_tile_order = #i2} : memref<32x64xf16> -> !ktdp.access_tile<4x64xindex>
      ktdp.store %yh, %ty : tensor<4x64xf16>, <4x64xindex>
    }
    return
  }
}

// -----

// The output tile lies 4 rows below the input tile of its trip: a trip's
// slices would store rows another slice of the same trip loads.

// CHECK-LABEL: func.func @shifted_rows
// CHECK-NOT: access_tile<2x64xindex>
#m = affine_set<(d0, d1) : (d0 >= 0, -d0 + 35 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#b = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#i2 = affine_map<(d0, d1) -> (d0, d1)>
module {
  ktdf_arch.target @mesh_device from "../../../../../examples/devices/mesh_device.mlir"
    memory_map #ktdf_arch.map<"global" = "HBM", "ct_local" = "SPM">
  func.func @shifted_rows(%x: index, %y: index) attributes {grid = [1]} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %X = ktdp.construct_memory_view %x, sizes: [36, 64], strides: [64, 1] {coordinate_set = #m, memory_space = #ktdp.memory_space<global>} : memref<36x64xf16>
    %Y = ktdp.construct_memory_view %y, sizes: [36, 64], strides: [64, 1] {coordinate_set = #m, memory_space = #ktdp.memory_space<global>} : memref<36x64xf16>
    scf.for %i = %c0 to %c8 step %c1 {
      %tx = ktdp.construct_access_tile %X[%i * 4, 0] {access_tile_set = #b, access_tile_order = #i2} : memref<36x64xf16> -> !ktdp.access_tile<4x64xindex>
      %xh = ktdp.load %tx : <4x64xindex> -> tensor<4x64xf16>
      %yh = arith.addf %xh, %xh : tensor<4x64xf16>
      %ty = ktdp.construct_access_tile %Y[%i * 4 + 4, 0] {access_tile_set = #b, access_tile_order = #i2} : memref<36x64xf16> -> !ktdp.access_tile<4x64xindex>
      ktdp.store %yh, %ty : tensor<4x64xf16>, <4x64xindex>
    }
    return
  }
}

// -----

// A sum over the tile's rows (one value per column), added back to every
// row, needs every row of the trip.

// CHECK-LABEL: func.func @column_sums
// CHECK-NOT: access_tile<2x64xindex>
#m = affine_set<(d0, d1) : (d0 >= 0, -d0 + 31 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#b = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#i2 = affine_map<(d0, d1) -> (d0, d1)>
#c = affine_map<(d0, d1) -> (d1)>
module {
  ktdf_arch.target @mesh_device from "../../../../../examples/devices/mesh_device.mlir"
    memory_map #ktdf_arch.map<"global" = "HBM", "ct_local" = "SPM">
  func.func @column_sums(%x: index, %y: index) attributes {grid = [1]} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %zero = arith.constant 0.0 : f32
    %X = ktdp.construct_memory_view %x, sizes: [32, 64], strides: [64, 1] {coordinate_set = #m, memory_space = #ktdp.memory_space<global>} : memref<32x64xf32>
    %Y = ktdp.construct_memory_view %y, sizes: [32, 64], strides: [64, 1] {coordinate_set = #m, memory_space = #ktdp.memory_space<global>} : memref<32x64xf32>
    scf.for %i = %c0 to %c8 step %c1 {
      %tx = ktdp.construct_access_tile %X[%i * 4, 0] {access_tile_set = #b, access_tile_order = #i2} : memref<32x64xf32> -> !ktdp.access_tile<4x64xindex>
      %xf = ktdp.load %tx : <4x64xindex> -> tensor<4x64xf32>
      %e = tensor.empty() : tensor<64xf32>
      %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<64xf32>) -> tensor<64xf32>
      %s = linalg.generic {indexing_maps = [#i2, #c], iterator_types = ["reduction", "parallel"]} ins(%xf : tensor<4x64xf32>) outs(%acc : tensor<64xf32>) {
      ^bb0(%v: f32, %a: f32):
        %t = arith.addf %v, %a : f32
        linalg.yield %t : f32
      } -> tensor<64xf32>
      %o = tensor.empty() : tensor<4x64xf32>
      %yf = linalg.generic {indexing_maps = [#i2, #c, #i2], iterator_types = ["parallel", "parallel"]} ins(%xf, %s : tensor<4x64xf32>, tensor<64xf32>) outs(%o : tensor<4x64xf32>) {
      ^bb0(%v: f32, %t: f32, %out: f32):
        %r = arith.addf %v, %t : f32
        linalg.yield %r : f32
      } -> tensor<4x64xf32>
      %ty = ktdp.construct_access_tile %Y[%i * 4, 0] {access_tile_set = #b, access_tile_order = #i2} : memref<32x64xf32> -> !ktdp.access_tile<4x64xindex>
      ktdp.store %yf, %ty : tensor<4x64xf32>, <4x64xindex>
    }
    return
  }
}

// -----

// The loop variable is computed with (a row number as data): the slices
// would see their trip's number, not their own.

// CHECK-LABEL: func.func @trip_as_data
// CHECK-NOT: access_tile<2x64xindex>
#m = affine_set<(d0, d1) : (d0 >= 0, -d0 + 31 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#b = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#i2 = affine_map<(d0, d1) -> (d0, d1)>
module {
  ktdf_arch.target @mesh_device from "../../../../../examples/devices/mesh_device.mlir"
    memory_map #ktdf_arch.map<"global" = "HBM", "ct_local" = "SPM">
  func.func @trip_as_data(%x: index, %y: index) attributes {grid = [1]} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %X = ktdp.construct_memory_view %x, sizes: [32, 64], strides: [64, 1] {coordinate_set = #m, memory_space = #ktdp.memory_space<global>} : memref<32x64xf32>
    %Y = ktdp.construct_memory_view %y, sizes: [32, 64], strides: [64, 1] {coordinate_set = #m, memory_space = #ktdp.memory_space<global>} : memref<32x64xf32>
    scf.for %i = %c0 to %c8 step %c1 {
      %tx = ktdp.construct_access_tile %X[%i * 4, 0] {access_tile_set = #b, access_tile_order = #i2} : memref<32x64xf32> -> !ktdp.access_tile<4x64xindex>
      %xf = ktdp.load %tx : <4x64xindex> -> tensor<4x64xf32>
      %n = arith.index_cast %i : index to i32
      %f = arith.sitofp %n : i32 to f32
      %s = tensor.splat %f : tensor<4x64xf32>
      %yf = arith.addf %xf, %s : tensor<4x64xf32>
      %ty = ktdp.construct_access_tile %Y[%i * 4, 0] {access_tile_set = #b, access_tile_order = #i2} : memref<32x64xf32> -> !ktdp.access_tile<4x64xindex>
      ktdp.store %yf, %ty : tensor<4x64xf32>, <4x64xindex>
    }
    return
  }
}
