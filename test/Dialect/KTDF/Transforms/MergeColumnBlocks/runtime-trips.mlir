// RUN: ktflow-opt %s -split-input-file --allow-unregistered-dialect --arch %examples/devices/sample_device.mlir --ktdf-import-target --ktdf-merge-column-blocks | FileCheck %s
// RUN: ktflow-opt %s -split-input-file --allow-unregistered-dialect --arch %examples/devices/sample_device.mlir --ktdf-import-target --ktdf-merge-column-blocks=max-block-bytes=512 | FileCheck %s --check-prefix=SMALL

// A column-block loop up to a run-time N (layernorm_rows' normalising
// pass) is split into loops of blocks 4 and 2 times as wide (the view
// holds 4 blocks of 128) and the loop itself, each from where the previous
// one stops: trips up to floor(T' / 4) * 4, then floor(T' / 2) * 2, then
// the rest, T' = min(ceil(max(N, 0) / 128), 4): the wider blocks end by
// column 512 (ktdf.blocks_end), the trips past the view are the loop's.
// The splat from outside is widened next to it.
// With max-block-bytes=512 (two blocks), the widest is 2.
// CHECK-LABEL: func.func @normalise
// CHECK:         %[[SPLAT:.*]] = tensor.splat %{{.*}} : tensor<1x128xf16>
// CHECK-DAG:     tensor.splat %{{.*}} : tensor<1x512xf16>
// CHECK-DAG:     tensor.splat %{{.*}} : tensor<1x256xf16>
// CHECK:         scf.for %[[ROW:.*]] =
// CHECK:           %[[SPAN:.*]] = arith.subi %[[N:.*]], %c0
// CHECK:           %[[POS:.*]] = arith.maxsi %[[SPAN]], %c0
// CHECK:           %[[T0:.*]] = arith.ceildivui %[[POS]], %c128
// CHECK:           %[[T:.*]] = arith.minui %[[T0]], %c4
// CHECK:           %[[G4:.*]] = arith.divui %[[T]], %c4
// CHECK:           %[[O4:.*]] = arith.muli %[[G4]], %c512
// CHECK:           %[[E4:.*]] = arith.addi %[[O4]], %c0
// CHECK:           scf.for %[[OFF4:.*]] = %c0 to %[[E4]] step %c512
// CHECK:             ktdp.construct_access_tile %{{.*}}[%[[ROW]], %[[OFF4]]] {{.*}} -> !ktdp.access_tile<1x512xindex>
// CHECK:             ktdp.construct_access_tile %{{.*}}[%[[OFF4]]] {{.*}} -> !ktdp.access_tile<512xindex>
// CHECK:             arith.subf %{{.*}} : tensor<1x512xf16>
// CHECK:             ktdp.store %{{.*}} : tensor<1x512xf16>, <1x512xindex>
// CHECK:           } {ktdf.blocks_end = 512 : i64}
// CHECK:           %[[G2:.*]] = arith.divui %[[T]], %c2
// CHECK:           %[[O2:.*]] = arith.muli %[[G2]], %c256
// CHECK:           %[[E2:.*]] = arith.addi %[[O2]], %c0
// CHECK:           scf.for %{{.*}} = %[[E4]] to %[[E2]] step %c256
// CHECK:             ktdp.store %{{.*}} : tensor<1x256xf16>, <1x256xindex>
// CHECK:           } {ktdf.blocks_end = 512 : i64}
// CHECK:           scf.for %{{.*}} = %[[E2]] to %[[N]] step %c128
// CHECK:             arith.subf %{{.*}}, %[[SPLAT]] : tensor<1x128xf16>
// CHECK:             ktdp.store %{{.*}} : tensor<1x128xf16>, <1x128xindex>
// SMALL-LABEL: func.func @normalise
// SMALL-NOT:     1x512
// SMALL:         scf.for %{{.*}} = %c0 to %{{.*}} step %c256
// SMALL:           tensor<1x256xf16>
// SMALL:         scf.for %{{.*}} step %c128
#x_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 66 >= 0, d1 >= 0, -d1 + 511 >= 0)>
#v_set = affine_set<(d0) : (d0 >= 0, -d0 + 511 >= 0)>
#blk2 = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 127 >= 0)>
#blk1 = affine_set<(d0) : (d0 >= 0, -d0 + 127 >= 0)>
#id1 = affine_map<(d0) -> (d0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @normalise(%x_ptr: index, %y_ptr: index, %w_ptr: index, %n_rows: index, %N: index, %m: f16) attributes {grid = [32, 1]} {
  %pid = ktdp.get_compute_tile_id : index
  %c0 = arith.constant 0 : index
  %c32 = arith.constant 32 : index
  %c128 = arith.constant 128 : index
  %mb = tensor.splat %m : tensor<1x128xf16>
  %X = ktdp.construct_memory_view %x_ptr, sizes: [67, 512], strides: [512, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<67x512xf16>
  %Y = ktdp.construct_memory_view %y_ptr, sizes: [67, 512], strides: [512, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<67x512xf16>
  %W = ktdp.construct_memory_view %w_ptr, sizes: [512], strides: [1] {coordinate_set = #v_set, memory_space = #ktdp.memory_space<global>} : memref<512xf16>
  scf.for %row = %pid to %n_rows step %c32 : index {
    scf.for %off = %c0 to %N step %c128 : index {
      %tx = ktdp.construct_access_tile %X[%row, %off] {access_tile_set = #blk2, access_tile_order = #id2} : memref<67x512xf16> -> !ktdp.access_tile<1x128xindex>
      %tw = ktdp.construct_access_tile %W[%off] {access_tile_set = #blk1, access_tile_order = #id1} : memref<512xf16> -> !ktdp.access_tile<128xindex>
      %x = ktdp.load %tx : <1x128xindex> -> tensor<1x128xf16>
      %w1 = ktdp.load %tw : <128xindex> -> tensor<128xf16>
      %w = tensor.expand_shape %w1 [[0, 1]] output_shape [1, 128] : tensor<128xf16> into tensor<1x128xf16>
      %d = arith.subf %x, %mb : tensor<1x128xf16>
      %y = arith.mulf %d, %w : tensor<1x128xf16>
      %ty = ktdp.construct_access_tile %Y[%row, %off] {access_tile_set = #blk2, access_tile_order = #id2} : memref<67x512xf16> -> !ktdp.access_tile<1x128xindex>
      ktdp.store %y, %ty : tensor<1x128xf16>, <1x128xindex>
    }
  }
  return
}

// -----

// A view of run-time width (?x?): blocks up to 8 times as wide (its
// extent unknown); 64x64 f16 blocks (8 KiB, scale_matrix_dyn's) stay, past
// 2 KiB a block is not mostly DMA latency.
// CHECK-LABEL: func.func @dynamic_view
// CHECK-NOT:     arith.minui
// CHECK-NOT:     ktdf.blocks_end
// CHECK:         scf.for %{{.*}} = %c0 to %{{.*}} step %c1024
// CHECK:           !ktdp.access_tile<1x1024xindex>
// CHECK:         scf.for %{{.*}} step %c512
// CHECK:         scf.for %{{.*}} step %c256
// CHECK:         scf.for %{{.*}} step %c128
// CHECK:           !ktdp.access_tile<1x128xindex>
// CHECK:         scf.for %{{.*}} = %c0 to %{{.*}} step %c64
// CHECK-NOT:       64x128
// CHECK:           !ktdp.access_tile<64x64xindex>
// SMALL-LABEL: func.func @dynamic_view
// SMALL:         step %c256
// SMALL:         step %c128
// SMALL:         step %c64
// SMALL-NOT:     scf.for
#set = affine_set<(d0, d1)[s0, s1] : (d0 >= 0, -d0 + s0 - 1 >= 0, d1 >= 0, -d1 + s1 - 1 >= 0)>
#row = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 127 >= 0)>
#blk = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @dynamic_view(%x_ptr: index, %y_ptr: index, %m: index, %n: index) attributes {grid = [2, 1]} {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %X = ktdp.construct_memory_view %x_ptr, sizes: [%m, %n], strides: [%n, 1] {coordinate_set = #set, memory_space = #ktdp.memory_space<global>} : memref<?x?xf16>
  %Y = ktdp.construct_memory_view %y_ptr, sizes: [%m, %n], strides: [%n, 1] {coordinate_set = #set, memory_space = #ktdp.memory_space<global>} : memref<?x?xf16>
  scf.for %col = %c0 to %n step %c128 : index {
    %tx = ktdp.construct_access_tile %X[%c0, %col] {access_tile_set = #row, access_tile_order = #id2} : memref<?x?xf16> -> !ktdp.access_tile<1x128xindex>
    %x = ktdp.load %tx : <1x128xindex> -> tensor<1x128xf16>
    %y = arith.addf %x, %x : tensor<1x128xf16>
    %ty = ktdp.construct_access_tile %Y[%c0, %col] {access_tile_set = #row, access_tile_order = #id2} : memref<?x?xf16> -> !ktdp.access_tile<1x128xindex>
    ktdp.store %y, %ty : tensor<1x128xf16>, <1x128xindex>
  }
  scf.for %col = %c0 to %n step %c64 : index {
    %tx = ktdp.construct_access_tile %X[%c0, %col] {access_tile_set = #blk, access_tile_order = #id2} : memref<?x?xf16> -> !ktdp.access_tile<64x64xindex>
    %x = ktdp.load %tx : <64x64xindex> -> tensor<64x64xf16>
    %y = arith.addf %x, %x : tensor<64x64xf16>
    %ty = ktdp.construct_access_tile %Y[%c0, %col] {access_tile_set = #blk, access_tile_order = #id2} : memref<?x?xf16> -> !ktdp.access_tile<64x64xindex>
    ktdp.store %y, %ty : tensor<64x64xf16>, <64x64xindex>
  }
  return
}

// -----

// Left as they are: a loop carrying a running sum up to a run-time N (its
// sum is a chain of f16 roundings the wider block would not make), and a
// run-time loop whose blocks do not move by their width.
// CHECK-LABEL: func.func @kept
// CHECK-COUNT-2: scf.for
// CHECK-NOT:     scf.for
// CHECK-NOT:     1x256
// SMALL-LABEL: func.func @kept
#set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 511 >= 0)>
#blk = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 127 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @kept(%x_ptr: index, %y_ptr: index, %row: index, %N: index) attributes {grid = [16, 1]} {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %zeros = arith.constant dense<0.0> : tensor<1x128xf16>
  %X = ktdp.construct_memory_view %x_ptr, sizes: [64, 512], strides: [512, 1] {coordinate_set = #set, memory_space = #ktdp.memory_space<global>} : memref<64x512xf16>
  %Y = ktdp.construct_memory_view %y_ptr, sizes: [64, 512], strides: [512, 1] {coordinate_set = #set, memory_space = #ktdp.memory_space<global>} : memref<64x512xf16>
  %sum = scf.for %off = %c0 to %N step %c128 iter_args(%a = %zeros) -> tensor<1x128xf16> {
    %tx = ktdp.construct_access_tile %X[%row, %off] {access_tile_set = #blk, access_tile_order = #id2} : memref<64x512xf16> -> !ktdp.access_tile<1x128xindex>
    %x = ktdp.load %tx : <1x128xindex> -> tensor<1x128xf16>
    %a2 = arith.addf %a, %x : tensor<1x128xf16>
    scf.yield %a2 : tensor<1x128xf16>
  }
  %t0 = ktdp.construct_access_tile %Y[%row, 0] {access_tile_set = #blk, access_tile_order = #id2} : memref<64x512xf16> -> !ktdp.access_tile<1x128xindex>
  ktdp.store %sum, %t0 : tensor<1x128xf16>, <1x128xindex>
  scf.for %off = %c0 to %N step %c64 {
    %tx = ktdp.construct_access_tile %X[%row, %off] {access_tile_set = #blk, access_tile_order = #id2} : memref<64x512xf16> -> !ktdp.access_tile<1x128xindex>
    %x = ktdp.load %tx : <1x128xindex> -> tensor<1x128xf16>
    %ty = ktdp.construct_access_tile %Y[%row, %off] {access_tile_set = #blk, access_tile_order = #id2} : memref<64x512xf16> -> !ktdp.access_tile<1x128xindex>
    ktdp.store %x, %ty : tensor<1x128xf16>, <1x128xindex>
  }
  return
}
