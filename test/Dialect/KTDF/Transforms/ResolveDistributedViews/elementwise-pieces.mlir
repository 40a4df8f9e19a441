// RUN: ktflow-opt %s -split-input-file --arch %examples/devices/sample_device.mlir --ktdf-import-target --ktdf-resolve-distributed-views | FileCheck %s --check-prefixes=CHECK,CUT
// RUN: ktflow-opt %s -split-input-file --arch %examples/devices/spyre_like.mlir --ktdf-import-target --ktdf-resolve-distributed-views | FileCheck %s --check-prefixes=CHECK,CUT
// RUN: ktflow-opt %s -split-input-file --arch %examples/devices/mesh_device.mlir --ktdf-import-target --ktdf-resolve-distributed-views | FileCheck %s --check-prefixes=CHECK,CUT

// A 64x64 block at row 0 of two 32x256 row halves, times a block of a
// plain W, stored into two row halves (the realworld row_halves_scale's
// shape): the anchor is a constant along the rows the halves cut, so on
// the three devices each half computes only its 32x64 piece (its X and
// Y piece at row 0 of the half, W's rows 32h to 32h + 31 loaded for it),
// not the whole block masked. mesh_device's one DMA engine, which loads
// and stores, issues the pieces' loads before their stores
// (test/Conversion/KTDFToDFIR/loads-first-runs.test), so it cuts too.

// CHECK-LABEL: func.func @scale_halves
// CUT: %[[X0:.*]] = ktdp.construct_access_tile %{{.*}}[0, %[[COL:.*]]] {{.*}} -> !ktdp.access_tile<32x64xindex>
// CUT: %[[X1:.*]] = ktdp.construct_access_tile %{{.*}}[0, %[[COL]]] {{.*}} -> !ktdp.access_tile<32x64xindex>
// CUT: %[[Y0:.*]] = ktdp.construct_access_tile %{{.*}}[0, %[[COL]]] {{.*}} -> !ktdp.access_tile<32x64xindex>
// CUT: %[[Y1:.*]] = ktdp.construct_access_tile %{{.*}}[0, %[[COL]]] {{.*}} -> !ktdp.access_tile<32x64xindex>
// CUT: %[[A:.*]] = ktdp.load %[[X0]] : <32x64xindex> -> tensor<32x64xf16>
// CUT: %[[B:.*]] = ktdp.load %[[X1]] : <32x64xindex> -> tensor<32x64xf16>
// CUT: %[[W0:.*]] = ktdp.construct_access_tile %{{.*}}[0, %[[COL]]] {{.*}} -> !ktdp.access_tile<32x64xindex>
// CUT: %[[WA:.*]] = ktdp.load %[[W0]] : <32x64xindex> -> tensor<32x64xf16>
// CUT: %[[P:.*]] = arith.mulf %[[A]], %[[WA]] : tensor<32x64xf16>
// CUT: %[[W1:.*]] = ktdp.construct_access_tile %{{.*}}[32, %[[COL]]] {{.*}} -> !ktdp.access_tile<32x64xindex>
// CUT: %[[WB:.*]] = ktdp.load %[[W1]] : <32x64xindex> -> tensor<32x64xf16>
// CUT: %[[Q:.*]] = arith.mulf %[[B]], %[[WB]] : tensor<32x64xf16>
// CUT: ktdp.store %[[P]], %[[Y0]] : tensor<32x64xf16>, <32x64xindex>
// CUT: ktdp.store %[[Q]], %[[Y1]] : tensor<32x64xf16>, <32x64xindex>
// CUT-NOT: tensor<64x64xf16>
#top = affine_set<(d0, d1) : (d0 >= 0, -d0 + 31 >= 0, d1 >= 0, -d1 + 255 >= 0)>
#bottom = affine_set<(d0, d1) : (d0 - 32 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 255 >= 0)>
#all = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 255 >= 0)>
#blk = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @scale_halves(%x0: index, %x1: index, %w_ptr: index, %y0: index, %y1: index) attributes {grid = [4, 1]} {
    %pid = ktdp.get_compute_tile_id : index
    %c64 = arith.constant 64 : index
    %X0 = ktdp.construct_memory_view %x0, sizes: [32, 256], strides: [256, 1] {coordinate_set = #top, memory_space = #ktdp.memory_space<global>} : memref<32x256xf16>
    %X1 = ktdp.construct_memory_view %x1, sizes: [32, 256], strides: [256, 1] {coordinate_set = #bottom, memory_space = #ktdp.memory_space<global>} : memref<32x256xf16>
    %X = ktdp.construct_distributed_memory_view(%X0, %X1 : memref<32x256xf16>, memref<32x256xf16>) : memref<64x256xf16>
    %W = ktdp.construct_memory_view %w_ptr, sizes: [64, 256], strides: [256, 1] {coordinate_set = #all, memory_space = #ktdp.memory_space<global>} : memref<64x256xf16>
    %Y0 = ktdp.construct_memory_view %y0, sizes: [32, 256], strides: [256, 1] {coordinate_set = #top, memory_space = #ktdp.memory_space<global>} : memref<32x256xf16>
    %Y1 = ktdp.construct_memory_view %y1, sizes: [32, 256], strides: [256, 1] {coordinate_set = #bottom, memory_space = #ktdp.memory_space<global>} : memref<32x256xf16>
    %Y = ktdp.construct_distributed_memory_view(%Y0, %Y1 : memref<32x256xf16>, memref<32x256xf16>) : memref<64x256xf16>
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

// A block whose row anchor moves with a loop (row blocks of 64 over the
// halves' 64 rows at a run-time step): no constant place to cut, so each
// half computes the whole block, masked, on every device.

// CHECK-LABEL: func.func @moving_rows
// CHECK: arith.mulf %{{.*}}, %{{.*}} : tensor<64x64xf16>
// CHECK: arith.mulf %{{.*}}, %{{.*}} : tensor<64x64xf16>
#top = affine_set<(d0, d1) : (d0 >= 0, -d0 + 31 >= 0, d1 >= 0, -d1 + 255 >= 0)>
#bottom = affine_set<(d0, d1) : (d0 - 32 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 255 >= 0)>
#all = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 255 >= 0)>
#blk = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @moving_rows(%x0: index, %x1: index, %w_ptr: index, %y0: index, %y1: index, %step: index) attributes {grid = [4, 1]} {
    %pid = ktdp.get_compute_tile_id : index
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    %X0 = ktdp.construct_memory_view %x0, sizes: [32, 256], strides: [256, 1] {coordinate_set = #top, memory_space = #ktdp.memory_space<global>} : memref<32x256xf16>
    %X1 = ktdp.construct_memory_view %x1, sizes: [32, 256], strides: [256, 1] {coordinate_set = #bottom, memory_space = #ktdp.memory_space<global>} : memref<32x256xf16>
    %X = ktdp.construct_distributed_memory_view(%X0, %X1 : memref<32x256xf16>, memref<32x256xf16>) : memref<64x256xf16>
    %W = ktdp.construct_memory_view %w_ptr, sizes: [64, 256], strides: [256, 1] {coordinate_set = #all, memory_space = #ktdp.memory_space<global>} : memref<64x256xf16>
    %Y0 = ktdp.construct_memory_view %y0, sizes: [32, 256], strides: [256, 1] {coordinate_set = #top, memory_space = #ktdp.memory_space<global>} : memref<32x256xf16>
    %Y1 = ktdp.construct_memory_view %y1, sizes: [32, 256], strides: [256, 1] {coordinate_set = #bottom, memory_space = #ktdp.memory_space<global>} : memref<32x256xf16>
    %Y = ktdp.construct_distributed_memory_view(%Y0, %Y1 : memref<32x256xf16>, memref<32x256xf16>) : memref<64x256xf16>
    %col = arith.muli %pid, %c64 : index
    scf.for %row = %c0 to %c64 step %step {
      %tx = ktdp.construct_access_tile %X[%row, %col] {access_tile_set = #blk, access_tile_order = #id2} : memref<64x256xf16> -> !ktdp.access_tile<64x64xindex>
      %tw = ktdp.construct_access_tile %W[%row, %col] {access_tile_set = #blk, access_tile_order = #id2} : memref<64x256xf16> -> !ktdp.access_tile<64x64xindex>
      %ty = ktdp.construct_access_tile %Y[%row, %col] {access_tile_set = #blk, access_tile_order = #id2} : memref<64x256xf16> -> !ktdp.access_tile<64x64xindex>
      %x = ktdp.load %tx : <64x64xindex> -> tensor<64x64xf16>
      %w = ktdp.load %tw : <64x64xindex> -> tensor<64x64xf16>
      %y = arith.mulf %x, %w : tensor<64x64xf16>
      ktdp.store %y, %ty : tensor<64x64xf16>, <64x64xindex>
    }
    return
  }
}
