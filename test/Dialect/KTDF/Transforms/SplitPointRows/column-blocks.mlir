// RUN: ktflow-opt %s -split-input-file --arch %examples/devices/mesh_device.mlir --ktdf-import-target --ktdf-split-point-rows | FileCheck %s --check-prefixes=CHECK,MESH
// RUN: ktflow-opt %s -split-input-file --arch %examples/devices/spyre_like.mlir --ktdf-import-target --ktdf-split-point-rows | FileCheck %s --check-prefixes=CHECK,SPYRE
// RUN: ktflow-opt %s -split-input-file --arch %examples/devices/sample_device.mlir --ktdf-import-target --ktdf-split-point-rows | FileCheck %s --check-prefixes=CHECK,SAMPLE
// RUN: ktflow-opt %examples/kernels/realworld/row_halves_scale.mlir --arch %examples/devices/mesh_device.mlir --ktdf-import-target --ktdf-record-tensor-extents --ktdf-resolve-distributed-views --ktdf-split-point-rows | FileCheck %s --check-prefix=PIECES

// A grid point of one column block (the tile id places its columns,
// `pid * 64`) holds all 64 rows of it: 4 points leave 12 of mesh_device's
// 16 instances idle, 60 of spyre_like's 64, 4 of sample_device's 8 (2 a
// point, too few for parts). Each point becomes P parts of 64/P rows (4 on
// mesh_device, 16 on spyre_like), a last grid dimension; part h's tiles
// sit h * 64/P rows further, at the point's columns.

// CHECK-LABEL: func.func @scale_blocks
// MESH-SAME: grid = [4, 1, 4]
// SPYRE-SAME: grid = [4, 1, 16]
// SAMPLE-SAME: grid = [4, 1]
// MESH: %[[ID:.*]]:3 = ktdp.get_compute_tile_id : index, index, index
// MESH: %[[ROWS:.*]] = arith.constant 16 : index
// MESH: %[[OFF:.*]] = arith.muli %[[ID]]#2, %[[ROWS]] : index
// MESH: %[[COL:.*]] = arith.muli %[[ID]]#0, %{{.*}} : index
// MESH: %[[TX:.*]] = ktdp.construct_access_tile %{{.*}}[%[[OFF]], %[[COL]]] {{.*}} -> !ktdp.access_tile<16x64xindex>
// MESH: %[[TW:.*]] = ktdp.construct_access_tile %{{.*}}[%[[OFF]], %[[COL]]] {{.*}} -> !ktdp.access_tile<16x64xindex>
// MESH: %[[TY:.*]] = ktdp.construct_access_tile %{{.*}}[%[[OFF]], %[[COL]]] {{.*}} -> !ktdp.access_tile<16x64xindex>
// MESH: %[[Y:.*]] = arith.mulf %{{.*}}, %{{.*}} : tensor<16x64xf16>
// MESH: ktdp.store %[[Y]], %[[TY]] : tensor<16x64xf16>, <16x64xindex>
// SPYRE: -> !ktdp.access_tile<4x64xindex>
// SPYRE: arith.mulf %{{.*}}, %{{.*}} : tensor<4x64xf16>
// SAMPLE: ktdp.get_compute_tile_id : index
// SAMPLE: arith.mulf %{{.*}}, %{{.*}} : tensor<64x64xf16>
#all = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 255 >= 0)>
#blk = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @scale_blocks(%x_ptr: index,  // X: 64x256 f16 (input)
                          %w_ptr: index,  // W: 64x256 f16 (input)
                          %y_ptr: index)  // Y: 64x256 f16 (output)
      attributes {grid = [4, 1]} {
    %pid = ktdp.get_compute_tile_id : index
    %c64 = arith.constant 64 : index
    %X = ktdp.construct_memory_view %x_ptr, sizes: [64, 256], strides: [256, 1] {coordinate_set = #all, memory_space = #ktdp.memory_space<global>} : memref<64x256xf16>
    %W = ktdp.construct_memory_view %w_ptr, sizes: [64, 256], strides: [256, 1] {coordinate_set = #all, memory_space = #ktdp.memory_space<global>} : memref<64x256xf16>
    %Y = ktdp.construct_memory_view %y_ptr, sizes: [64, 256], strides: [256, 1] {coordinate_set = #all, memory_space = #ktdp.memory_space<global>} : memref<64x256xf16>
    %col = arith.muli %pid, %c64 : index
    %tx = ktdp.construct_access_tile %X[0, %col] {access_tile_set = #blk, access_tile_order = #id2} : memref<64x256xf16> -> !ktdp.access_tile<64x64xindex>
    %tw = ktdp.construct_access_tile %W[0, %col] {access_tile_set = #blk, access_tile_order = #id2} : memref<64x256xf16> -> !ktdp.access_tile<64x64xindex>
    %ty = ktdp.construct_access_tile %Y[0, %col] {access_tile_set = #blk, access_tile_order = #id2} : memref<64x256xf16> -> !ktdp.access_tile<64x64xindex>
    %x = ktdp.load %tx : <64x64xindex> -> tensor<64x64xf16>
    %w = ktdp.load %tw : <64x64xindex> -> tensor<64x64xf16>
    %y = arith.mulf %x, %w : tensor<64x64xf16>
    ktdp.store %y, %ty : tensor<64x64xf16>, <64x64xindex>
    return
  }
}

// -----

// Left whole: the column sums fold the block's rows, so its rows are no
// parts; and a weight block every point reads whole (W[0, 0], not placed
// by the tile id) multiplies each row of the point's block, so the rows
// of its product cannot be cut without cutting W's. Nor a point that
// walks its column's row blocks in a loop of m / 64 trips:
// ktdf-spread-iterations deals the trips to the idle instances whole,
// where parts would pay each trip's latency once a part.

// CHECK-LABEL: func.func @column_sums
// CHECK-SAME: grid = [4, 1]
// CHECK: ktdp.get_compute_tile_id : index
// CHECK: -> !ktdp.access_tile<64x64xindex>
// CHECK-LABEL: func.func @row_loop
// CHECK-SAME: grid = [4, 1]
// CHECK: ktdp.get_compute_tile_id : index
// CHECK: arith.mulf %{{.*}}, %{{.*}} : tensor<64x64xf16>
// CHECK-LABEL: func.func @shared_weight
// CHECK-SAME: grid = [4, 1]
// CHECK: ktdp.get_compute_tile_id : index
// CHECK: arith.mulf %{{.*}}, %{{.*}} : tensor<64x64xf16>
#all = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 255 >= 0)>
#vec = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 255 >= 0)>
#blk = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#row = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 63 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @column_sums(%x_ptr: index,  // X: 64x256 f16 (input)
                         %s_ptr: index)  // S: 1x256 f16 (output)
      attributes {grid = [4, 1]} {
    %pid = ktdp.get_compute_tile_id : index
    %c64 = arith.constant 64 : index
    %zero = arith.constant 0.0 : f16
    %X = ktdp.construct_memory_view %x_ptr, sizes: [64, 256], strides: [256, 1] {coordinate_set = #all, memory_space = #ktdp.memory_space<global>} : memref<64x256xf16>
    %S = ktdp.construct_memory_view %s_ptr, sizes: [1, 256], strides: [256, 1] {coordinate_set = #vec, memory_space = #ktdp.memory_space<global>} : memref<1x256xf16>
    %col = arith.muli %pid, %c64 : index
    %tx = ktdp.construct_access_tile %X[0, %col] {access_tile_set = #blk, access_tile_order = #id2} : memref<64x256xf16> -> !ktdp.access_tile<64x64xindex>
    %ts = ktdp.construct_access_tile %S[0, %col] {access_tile_set = #row, access_tile_order = #id2} : memref<1x256xf16> -> !ktdp.access_tile<1x64xindex>
    %x = ktdp.load %tx : <64x64xindex> -> tensor<64x64xf16>
    %empty = tensor.empty() : tensor<64xf16>
    %init = linalg.fill ins(%zero : f16) outs(%empty : tensor<64xf16>) -> tensor<64xf16>
    %sum = linalg.reduce { arith.addf } ins(%x : tensor<64x64xf16>) outs(%init : tensor<64xf16>) dimensions = [0]
    %s = tensor.expand_shape %sum [[0, 1]] output_shape [1, 64] : tensor<64xf16> into tensor<1x64xf16>
    ktdp.store %s, %ts : tensor<1x64xf16>, <1x64xindex>
    return
  }
  func.func @row_loop(%x_ptr: index,  // X: 64x256 f16 (input)
                      %w_ptr: index,  // W: 64x256 f16 (input)
                      %y_ptr: index,  // Y: 64x256 f16 (output)
                      %m: index)      // rows to walk: 64
      attributes {grid = [4, 1]} {
    %pid = ktdp.get_compute_tile_id : index
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    %X = ktdp.construct_memory_view %x_ptr, sizes: [64, 256], strides: [256, 1] {coordinate_set = #all, memory_space = #ktdp.memory_space<global>} : memref<64x256xf16>
    %W = ktdp.construct_memory_view %w_ptr, sizes: [64, 256], strides: [256, 1] {coordinate_set = #all, memory_space = #ktdp.memory_space<global>} : memref<64x256xf16>
    %Y = ktdp.construct_memory_view %y_ptr, sizes: [64, 256], strides: [256, 1] {coordinate_set = #all, memory_space = #ktdp.memory_space<global>} : memref<64x256xf16>
    %col = arith.muli %pid, %c64 : index
    scf.for %r = %c0 to %m step %c64 {
      %tx = ktdp.construct_access_tile %X[%r, %col] {access_tile_set = #blk, access_tile_order = #id2} : memref<64x256xf16> -> !ktdp.access_tile<64x64xindex>
      %tw = ktdp.construct_access_tile %W[%r, %col] {access_tile_set = #blk, access_tile_order = #id2} : memref<64x256xf16> -> !ktdp.access_tile<64x64xindex>
      %ty = ktdp.construct_access_tile %Y[%r, %col] {access_tile_set = #blk, access_tile_order = #id2} : memref<64x256xf16> -> !ktdp.access_tile<64x64xindex>
      %x = ktdp.load %tx : <64x64xindex> -> tensor<64x64xf16>
      %w = ktdp.load %tw : <64x64xindex> -> tensor<64x64xf16>
      %y = arith.mulf %x, %w : tensor<64x64xf16>
      ktdp.store %y, %ty : tensor<64x64xf16>, <64x64xindex>
    }
    return
  }
  func.func @shared_weight(%x_ptr: index,  // X: 64x256 f16 (input)
                           %w_ptr: index,  // W: 64x64 f16 (input)
                           %y_ptr: index)  // Y: 64x256 f16 (output)
      attributes {grid = [4, 1]} {
    %pid = ktdp.get_compute_tile_id : index
    %c64 = arith.constant 64 : index
    %X = ktdp.construct_memory_view %x_ptr, sizes: [64, 256], strides: [256, 1] {coordinate_set = #all, memory_space = #ktdp.memory_space<global>} : memref<64x256xf16>
    %W = ktdp.construct_memory_view %w_ptr, sizes: [64, 64], strides: [64, 1] {coordinate_set = #blk, memory_space = #ktdp.memory_space<global>} : memref<64x64xf16>
    %Y = ktdp.construct_memory_view %y_ptr, sizes: [64, 256], strides: [256, 1] {coordinate_set = #all, memory_space = #ktdp.memory_space<global>} : memref<64x256xf16>
    %col = arith.muli %pid, %c64 : index
    %tx = ktdp.construct_access_tile %X[0, %col] {access_tile_set = #blk, access_tile_order = #id2} : memref<64x256xf16> -> !ktdp.access_tile<64x64xindex>
    %tw = ktdp.construct_access_tile %W[0, 0] {access_tile_set = #blk, access_tile_order = #id2} : memref<64x64xf16> -> !ktdp.access_tile<64x64xindex>
    %ty = ktdp.construct_access_tile %Y[0, %col] {access_tile_set = #blk, access_tile_order = #id2} : memref<64x256xf16> -> !ktdp.access_tile<64x64xindex>
    %x = ktdp.load %tx : <64x64xindex> -> tensor<64x64xf16>
    %w = ktdp.load %tw : <64x64xindex> -> tensor<64x64xf16>
    %y = arith.mulf %x, %w : tensor<64x64xf16>
    ktdp.store %y, %ty : tensor<64x64xf16>, <64x64xindex>
    return
  }
}

// The realworld row_halves_scale (two 32x256 row halves, every 64x64 block
// straddling them). mesh_device kept each block as masked part pieces,
// each cut into parts where it is; since its DMA engine issues a block's
// independent pipelines' loads before their stores (LoadsFirstRuns.cpp),
// ktdf-resolve-distributed-views cuts the block into its two 32-row
// pieces there too (Y's rows 0-31 from the first halves, 32-63 from the
// second), and each piece into 4 parts of 8 rows (364 cycles, was 493).
// PIECES-LABEL: func.func @scale_halves
// PIECES-SAME: grid = [4, 1, 4]
// PIECES: %[[ID:.*]]:3 = ktdp.get_compute_tile_id : index, index, index
// PIECES: %[[OFF:.*]] = arith.muli %[[ID]]#2, %{{.*}} : index
// PIECES: %[[COL:.*]] = arith.muli %[[ID]]#0, %{{.*}} : index
// PIECES-NOT: ktdf.part_piece
// PIECES: ktdp.construct_access_tile %{{.*}}[%[[OFF]], %[[COL]]] {{.*}} : memref<32x256xf16> -> !ktdp.access_tile<8x64xindex>
// PIECES: ktdp.construct_access_tile %{{.*}}[%[[OFF]], %[[COL]]] {{.*}} : memref<64x256xf16> -> !ktdp.access_tile<8x64xindex>
// PIECES: arith.mulf %{{.*}}, %{{.*}} : tensor<8x64xf16>
// PIECES: ktdp.construct_access_tile %{{.*}}[%[[OFF]] + 32, %[[COL]]] {{.*}} : memref<64x256xf16> -> !ktdp.access_tile<8x64xindex>
// PIECES: arith.mulf %{{.*}}, %{{.*}} : tensor<8x64xf16>
// PIECES-NOT: ktdf.part_piece
