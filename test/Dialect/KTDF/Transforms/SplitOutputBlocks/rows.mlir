// RUN: ktflow-opt %s -split-input-file --ktdf-import-target --ktdf-split-output-blocks | FileCheck %s
// RUN: ktflow-opt %s -split-input-file --ktdf-import-target --ktdf-split-output-blocks=max-factor=1 | FileCheck %s --check-prefix=ONE

// matmul_tiled's shape (examples/kernels/realworld): a [2, 2] grid of
// 32x64 blocks of C, each walking K in a loop that carries the f16
// accumulator, the rows placed by `%pm * %BLOCK_SIZE_M` (a plain `index`
// argument: the stride is known only at run time). 64 columns give no
// column slice of `min-columns` (64), so the pass cuts the rows too: on
// spyre_like 16 copies a point, 4 parts of 8 rows (the PT's rows) times 4
// slices of 16 columns. Each part loads its 8 rows of A and a 64x16 slice
// of B; the accumulator and the stored tile are 8x16.

// CHECK-LABEL: func.func @tiled
// CHECK-SAME: grid = [2, 2, 4, 4]
// CHECK: %[[ID:.*]]:4 = ktdp.get_compute_tile_id : index, index, index, index
// CHECK: %[[W:.*]] = arith.constant 16 : index
// CHECK: %[[COL:.*]] = arith.muli %[[ID]]#3, %[[W]] : index
// CHECK: %[[R:.*]] = arith.constant 8 : index
// CHECK: %[[ROW:.*]] = arith.muli %[[ID]]#2, %[[R]] : index
// CHECK: %[[M:.*]] = arith.muli %[[ID]]#0, %arg4 : index
// CHECK: %[[N:.*]] = arith.muli %[[ID]]#1, %arg5 : index
// CHECK: arith.constant dense<0.000000e+00> : tensor<8x16xf16>
// CHECK: scf.for {{.*}} -> (tensor<8x16xf16>)
// CHECK: %[[TA:.*]] = ktdp.construct_access_tile %{{.*}}[%[[M]] + %[[ROW]], %{{.*}}] {{.*}} -> !ktdp.access_tile<8x64xindex>
// CHECK: ktdp.load %[[TA]] : <8x64xindex> -> tensor<8x64xf16>
// CHECK: %[[TB:.*]] = ktdp.construct_access_tile %{{.*}}[%{{.*}}, %[[N]] + %[[COL]]] {{.*}} -> !ktdp.access_tile<64x16xindex>
// CHECK: ktdp.load %[[TB]] : <64x16xindex> -> tensor<64x16xf16>
// CHECK: linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<8x64xf16>, tensor<64x16xf16>) outs(%{{.*}} : tensor<8x16xf16>) -> tensor<8x16xf16>
// CHECK: arith.addf %{{.*}}, %{{.*}} : tensor<8x16xf16>
// CHECK: %[[TC:.*]] = ktdp.construct_access_tile %{{.*}}[%[[M]] + %[[ROW]], %[[N]] + %[[COL]]] {{.*}} -> !ktdp.access_tile<8x16xindex>
// CHECK: ktdp.store %{{.*}}, %[[TC]] : tensor<8x16xf16>, <8x16xindex>

// At most one copy a point (the tuner's split knob): nothing changes.
// ONE-LABEL: func.func @tiled
// ONE-SAME: grid = [2, 2]}
#a_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 255 >= 0)>
#b_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 255 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#c_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#a_blk = affine_set<(d0, d1) : (d0 >= 0, -d0 + 31 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#b_blk = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
module {
  ktdf_arch.target @spyre_like from "../../../../../examples/devices/spyre_like.mlir"
    memory_map #ktdf_arch.map<"global" = "DDR", "ct_local" = "LX">
  func.func @tiled(%a_ptr: index, %b_ptr: index, %c_ptr: index, %K: index, %BLOCK_SIZE_M: index, %BLOCK_SIZE_N: index) attributes {grid = [2, 2]} {
    %pm, %pn = ktdp.get_compute_tile_id : index, index
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    %off_m = arith.muli %pm, %BLOCK_SIZE_M : index
    %off_n = arith.muli %pn, %BLOCK_SIZE_N : index
    %A = ktdp.construct_memory_view %a_ptr, sizes: [64, 256], strides: [256, 1] {coordinate_set = #a_set, memory_space = #ktdp.memory_space<global>} : memref<64x256xf16>
    %B = ktdp.construct_memory_view %b_ptr, sizes: [256, 128], strides: [128, 1] {coordinate_set = #b_set, memory_space = #ktdp.memory_space<global>} : memref<256x128xf16>
    %C = ktdp.construct_memory_view %c_ptr, sizes: [64, 128], strides: [128, 1] {coordinate_set = #c_set, memory_space = #ktdp.memory_space<global>} : memref<64x128xf16>
    %zero = arith.constant dense<0.0> : tensor<32x64xf16>
    %acc = scf.for %off_k = %c0 to %K step %c64 iter_args(%running = %zero) -> tensor<32x64xf16> {
      %ta = ktdp.construct_access_tile %A[%off_m, %off_k] {access_tile_set = #a_blk, access_tile_order = #id2} : memref<64x256xf16> -> !ktdp.access_tile<32x64xindex>
      %tb = ktdp.construct_access_tile %B[%off_k, %off_n] {access_tile_set = #b_blk, access_tile_order = #id2} : memref<256x128xf16> -> !ktdp.access_tile<64x64xindex>
      %a = ktdp.load %ta : <32x64xindex> -> tensor<32x64xf16>
      %b = ktdp.load %tb : <64x64xindex> -> tensor<64x64xf16>
      %empty = tensor.empty() : tensor<32x64xf16>
      %prod = linalg.matmul ins(%a, %b : tensor<32x64xf16>, tensor<64x64xf16>) outs(%empty : tensor<32x64xf16>) -> tensor<32x64xf16>
      %next = arith.addf %running, %prod : tensor<32x64xf16>
      scf.yield %next : tensor<32x64xf16>
    }
    %tc = ktdp.construct_access_tile %C[%off_m, %off_n] {access_tile_set = #a_blk, access_tile_order = #id2} : memref<64x128xf16> -> !ktdp.access_tile<32x64xindex>
    ktdp.store %acc, %tc : tensor<32x64xf16>, <32x64xindex>
    return
  }
}

// -----

// On mesh_device (16 tiles, a 16x16x4 MXU): 4 copies a point. Parts of
// 8 rows would pad every MXU wave to 16 rows, so 2 parts of 16 rows times
// 2 slices of 32 columns (the same bytes a copy as 1 x 4 slices of 16:
// whole rows of A first).
// CHECK-LABEL: func.func @tiled
// CHECK-SAME: grid = [2, 2, 2, 2]
// CHECK: ktdp.construct_access_tile {{.*}} -> !ktdp.access_tile<16x64xindex>
// CHECK: ktdp.construct_access_tile {{.*}} -> !ktdp.access_tile<64x32xindex>
// CHECK: linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<16x64xf16>, tensor<64x32xf16>) outs(%{{.*}} : tensor<16x32xf16>) -> tensor<16x32xf16>
// CHECK: ktdp.store %{{.*}}, %{{.*}} : tensor<16x32xf16>, <16x32xindex>
// ONE-LABEL: func.func @tiled
// ONE-SAME: grid = [2, 2]}
#a_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 255 >= 0)>
#b_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 255 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#c_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#a_blk = affine_set<(d0, d1) : (d0 >= 0, -d0 + 31 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#b_blk = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
module {
  ktdf_arch.target @mesh_device from "../../../../../examples/devices/mesh_device.mlir"
    memory_map #ktdf_arch.map<"global" = "HBM", "ct_local" = "SPM">
  func.func @tiled(%a_ptr: index, %b_ptr: index, %c_ptr: index, %K: index, %BLOCK_SIZE_M: index, %BLOCK_SIZE_N: index) attributes {grid = [2, 2]} {
    %pm, %pn = ktdp.get_compute_tile_id : index, index
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    %off_m = arith.muli %pm, %BLOCK_SIZE_M : index
    %off_n = arith.muli %pn, %BLOCK_SIZE_N : index
    %A = ktdp.construct_memory_view %a_ptr, sizes: [64, 256], strides: [256, 1] {coordinate_set = #a_set, memory_space = #ktdp.memory_space<global>} : memref<64x256xf16>
    %B = ktdp.construct_memory_view %b_ptr, sizes: [256, 128], strides: [128, 1] {coordinate_set = #b_set, memory_space = #ktdp.memory_space<global>} : memref<256x128xf16>
    %C = ktdp.construct_memory_view %c_ptr, sizes: [64, 128], strides: [128, 1] {coordinate_set = #c_set, memory_space = #ktdp.memory_space<global>} : memref<64x128xf16>
    %zero = arith.constant dense<0.0> : tensor<32x64xf16>
    %acc = scf.for %off_k = %c0 to %K step %c64 iter_args(%running = %zero) -> tensor<32x64xf16> {
      %ta = ktdp.construct_access_tile %A[%off_m, %off_k] {access_tile_set = #a_blk, access_tile_order = #id2} : memref<64x256xf16> -> !ktdp.access_tile<32x64xindex>
      %tb = ktdp.construct_access_tile %B[%off_k, %off_n] {access_tile_set = #b_blk, access_tile_order = #id2} : memref<256x128xf16> -> !ktdp.access_tile<64x64xindex>
      %a = ktdp.load %ta : <32x64xindex> -> tensor<32x64xf16>
      %b = ktdp.load %tb : <64x64xindex> -> tensor<64x64xf16>
      %empty = tensor.empty() : tensor<32x64xf16>
      %prod = linalg.matmul ins(%a, %b : tensor<32x64xf16>, tensor<64x64xf16>) outs(%empty : tensor<32x64xf16>) -> tensor<32x64xf16>
      %next = arith.addf %running, %prod : tensor<32x64xf16>
      scf.yield %next : tensor<32x64xf16>
    }
    %tc = ktdp.construct_access_tile %C[%off_m, %off_n] {access_tile_set = #a_blk, access_tile_order = #id2} : memref<64x128xf16> -> !ktdp.access_tile<32x64xindex>
    ktdp.store %acc, %tc : tensor<32x64xf16>, <32x64xindex>
    return
  }
}

// -----

// On sample_device (8 lanes, products on the SFU): 2 copies a point; 2
// slices of 32 columns load fewer bytes a copy (32 + 32 rows and columns)
// than 2 parts of 16 rows (16 + 64): A stays whole.
// CHECK-LABEL: func.func @tiled
// CHECK-SAME: grid = [2, 2, 2]
// CHECK: ktdp.construct_access_tile {{.*}} -> !ktdp.access_tile<32x64xindex>
// CHECK: ktdp.construct_access_tile {{.*}} -> !ktdp.access_tile<64x32xindex>
// CHECK: ktdp.store %{{.*}}, %{{.*}} : tensor<32x32xf16>, <32x32xindex>
// ONE-LABEL: func.func @tiled
// ONE-SAME: grid = [2, 2]}
#a_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 255 >= 0)>
#b_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 255 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#c_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#a_blk = affine_set<(d0, d1) : (d0 >= 0, -d0 + 31 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#b_blk = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
module {
  ktdf_arch.target @sample_device from "../../../../../examples/devices/sample_device.mlir"
    memory_map #ktdf_arch.map<"global" = "DDR", "ct_local" = "L1">
  func.func @tiled(%a_ptr: index, %b_ptr: index, %c_ptr: index, %K: index, %BLOCK_SIZE_M: index, %BLOCK_SIZE_N: index) attributes {grid = [2, 2]} {
    %pm, %pn = ktdp.get_compute_tile_id : index, index
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    %off_m = arith.muli %pm, %BLOCK_SIZE_M : index
    %off_n = arith.muli %pn, %BLOCK_SIZE_N : index
    %A = ktdp.construct_memory_view %a_ptr, sizes: [64, 256], strides: [256, 1] {coordinate_set = #a_set, memory_space = #ktdp.memory_space<global>} : memref<64x256xf16>
    %B = ktdp.construct_memory_view %b_ptr, sizes: [256, 128], strides: [128, 1] {coordinate_set = #b_set, memory_space = #ktdp.memory_space<global>} : memref<256x128xf16>
    %C = ktdp.construct_memory_view %c_ptr, sizes: [64, 128], strides: [128, 1] {coordinate_set = #c_set, memory_space = #ktdp.memory_space<global>} : memref<64x128xf16>
    %zero = arith.constant dense<0.0> : tensor<32x64xf16>
    %acc = scf.for %off_k = %c0 to %K step %c64 iter_args(%running = %zero) -> tensor<32x64xf16> {
      %ta = ktdp.construct_access_tile %A[%off_m, %off_k] {access_tile_set = #a_blk, access_tile_order = #id2} : memref<64x256xf16> -> !ktdp.access_tile<32x64xindex>
      %tb = ktdp.construct_access_tile %B[%off_k, %off_n] {access_tile_set = #b_blk, access_tile_order = #id2} : memref<256x128xf16> -> !ktdp.access_tile<64x64xindex>
      %a = ktdp.load %ta : <32x64xindex> -> tensor<32x64xf16>
      %b = ktdp.load %tb : <64x64xindex> -> tensor<64x64xf16>
      %empty = tensor.empty() : tensor<32x64xf16>
      %prod = linalg.matmul ins(%a, %b : tensor<32x64xf16>, tensor<64x64xf16>) outs(%empty : tensor<32x64xf16>) -> tensor<32x64xf16>
      %next = arith.addf %running, %prod : tensor<32x64xf16>
      scf.yield %next : tensor<32x64xf16>
    }
    %tc = ktdp.construct_access_tile %C[%off_m, %off_n] {access_tile_set = #a_blk, access_tile_order = #id2} : memref<64x128xf16> -> !ktdp.access_tile<32x64xindex>
    ktdp.store %acc, %tc : tensor<32x64xf16>, <32x64xindex>
    return
  }
}

// -----

// The right operand placed by the row coordinate too (its rows follow
// %pm): it is no row of the output, so the rows cannot be cut, and 64
// columns are too few for column slices: nothing changes.
// CHECK-LABEL: func.func @right_rows
// CHECK-SAME: grid = [2, 2]}
// CHECK: linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<32x64xf16>, tensor<64x64xf16>) outs(%{{.*}} : tensor<32x64xf16>) -> tensor<32x64xf16>
// ONE-LABEL: func.func @right_rows
#a_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 255 >= 0)>
#a_blk = affine_set<(d0, d1) : (d0 >= 0, -d0 + 31 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#b_blk = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
module {
  ktdf_arch.target @spyre_like from "../../../../../examples/devices/spyre_like.mlir"
    memory_map #ktdf_arch.map<"global" = "DDR", "ct_local" = "LX">
  func.func @right_rows(%a_ptr: index, %b_ptr: index, %c_ptr: index, %BLOCK_SIZE_M: index) attributes {grid = [2, 2]} {
    %pm, %pn = ktdp.get_compute_tile_id : index, index
    %c64 = arith.constant 64 : index
    %off_m = arith.muli %pm, %BLOCK_SIZE_M : index
    %off_n = arith.muli %pn, %c64 : index
    %A = ktdp.construct_memory_view %a_ptr, sizes: [64, 256], strides: [256, 1] {coordinate_set = #a_set, memory_space = #ktdp.memory_space<global>} : memref<64x256xf16>
    %B = ktdp.construct_memory_view %b_ptr, sizes: [64, 256], strides: [256, 1] {coordinate_set = #a_set, memory_space = #ktdp.memory_space<global>} : memref<64x256xf16>
    %C = ktdp.construct_memory_view %c_ptr, sizes: [64, 256], strides: [256, 1] {coordinate_set = #a_set, memory_space = #ktdp.memory_space<global>} : memref<64x256xf16>
    %ta = ktdp.construct_access_tile %A[%off_m, %off_n] {access_tile_set = #a_blk, access_tile_order = #id2} : memref<64x256xf16> -> !ktdp.access_tile<32x64xindex>
    %tb = ktdp.construct_access_tile %B[%off_m, %off_n] {access_tile_set = #b_blk, access_tile_order = #id2} : memref<64x256xf16> -> !ktdp.access_tile<64x64xindex>
    %a = ktdp.load %ta : <32x64xindex> -> tensor<32x64xf16>
    %b = ktdp.load %tb : <64x64xindex> -> tensor<64x64xf16>
    %empty = tensor.empty() : tensor<32x64xf16>
    %prod = linalg.matmul ins(%a, %b : tensor<32x64xf16>, tensor<64x64xf16>) outs(%empty : tensor<32x64xf16>) -> tensor<32x64xf16>
    %tc = ktdp.construct_access_tile %C[%off_m, %off_n] {access_tile_set = #a_blk, access_tile_order = #id2} : memref<64x256xf16> -> !ktdp.access_tile<32x64xindex>
    ktdp.store %prod, %tc : tensor<32x64xf16>, <32x64xindex>
    return
  }
}
