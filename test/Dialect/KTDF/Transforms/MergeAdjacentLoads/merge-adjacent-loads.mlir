// RUN: ktflow-opt %s -split-input-file --arch %examples/devices/sample_device.mlir --ktdf-mapping --ktdf-route-transfers --ktdf-tile-streams=chunk=64 --ktdf-merge-adjacent-loads | FileCheck %s
// RUN: ktflow-opt %s -split-input-file --arch %examples/devices/mesh_device.mlir --ktdf-mapping --ktdf-route-transfers --ktdf-tile-streams=chunk=64 --ktdf-merge-adjacent-loads | FileCheck %s --check-prefix=OWN
// RUN: ktflow-opt %s -split-input-file --arch %examples/devices/mesh_device.mlir --ktdf-mapping --ktdf-route-transfers --ktdf-tile-streams=chunk=64 --ktdf-merge-adjacent-loads=all-engines=true | FileCheck %s --check-prefix=ALL
// RUN: ktflow-opt %s -split-input-file --arch %examples/devices/spyre_like.mlir --ktdf-mapping --ktdf-route-transfers --ktdf-tile-streams=chunk=64 --ktdf-merge-adjacent-loads | FileCheck %s --check-prefix=SPYRE

// sample_device's two lanes a core share its load engine: the loads of
// side-by-side tiles of one pipeline become one. mesh_device's lanes each
// have an engine: merged too, but only into a tile the route moves within
// one latency (64 B/cycle x 82 cycles), unless all-engines. A row is merged
// only when it has at least as many blocks as a lane's share of the
// engine's slots (max_outstanding over the lanes it serves): 4 / 2 = 2 on
// sample_device, 8 / 2 = 4 on spyre_like, 4 / 1 = 4 on mesh_device.

#x_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 511 >= 0)>
#y_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#blk = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 127 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>

// Triton's column-block loop carrying a running sum, unrolled by
// ktdf-unroll-carried-loops: four 1x128 blocks of a row, each its own load
// stage and buffer, become one 1x512 load into one buffer; the feed reads
// window k of it (column + 128 k) where it read buffer k, and waits for the
// one stage.
// CHECK-LABEL: func.func @carried_sum
// CHECK:         %[[T:.*]] = ktdp.construct_access_tile %{{.*}}[%{{.*}}, %c0{{.*}}] {{.*}} -> !ktdp.access_tile<1x512xindex>
// CHECK:         ktdf.pipeline
// CHECK:           %[[BUF:.*]] = ktdf.private : memref<1x512xf16, "L1">
// CHECK-NOT:       ktdf.stage
// CHECK:           %[[LOAD:.*]] = ktdf.stage "load_0"
// CHECK-NEXT:        ktdf.data_transfer %[[T]] to %[[BUF]] : !ktdp.access_tile<1x512xindex> to memref<1x512xf16, "L1">
// CHECK-NOT:       ktdf.stage "load_1"
// CHECK:           ktdf.stage "feed" depends_in(%[[LOAD]]) depends_out(1)
// CHECK:             scf.for %[[R:.*]] =
// CHECK:               scf.for %[[C:.*]] =
// CHECK:                 ktdf.data_transfer %[[BUF]][%[[R]], %[[C]]] to
// CHECK:                 %[[C1:.*]] = arith.addi %[[C]], %c128
// CHECK:                 ktdf.data_transfer %[[BUF]][%[[R]], %[[C1]]] to
// CHECK:                 %[[C2:.*]] = arith.addi %[[C]], %c256
// CHECK:                 ktdf.data_transfer %[[BUF]][%[[R]], %[[C2]]] to
// CHECK:                 %[[C3:.*]] = arith.addi %[[C]], %c384
// CHECK:                 ktdf.data_transfer %[[BUF]][%[[R]], %[[C3]]] to
// CHECK:           ktdf.stage "compute"
// OWN-LABEL: func.func @carried_sum
// OWN:         ktdf.private : memref<1x512xf16, "SPM">
// OWN-NOT:     ktdf.stage "load_1"
// OWN:         ktdf.stage "compute"
// ALL-LABEL: func.func @carried_sum
// ALL:         ktdf.private : memref<1x512xf16, "SPM">
// ALL-NOT:     ktdf.stage "load_1"
// ALL:         ktdf.stage "compute"
// SPYRE-LABEL: func.func @carried_sum
// SPYRE:         ktdf.private : memref<1x512xf16, "LX">
// SPYRE-NOT:     ktdf.stage "load_1"
// SPYRE:         ktdf.stage "compute"
func.func @carried_sum(%x_ptr: index, %y_ptr: index) attributes {grid = [16, 1]} {
  %pid = ktdp.get_compute_tile_id : index
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %c512 = arith.constant 512 : index
  %zeros = arith.constant dense<0.0> : tensor<1x128xf16>
  %X = ktdp.construct_memory_view %x_ptr, sizes: [64, 512], strides: [512, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<64x512xf16>
  %Y = ktdp.construct_memory_view %y_ptr, sizes: [64, 128], strides: [128, 1] {coordinate_set = #y_set, memory_space = #ktdp.memory_space<global>} : memref<64x128xf16>
  scf.for %row = %pid to %c64 step %c16 : index {
    %acc = scf.for %off = %c0 to %c512 step %c128 iter_args(%a = %zeros) -> tensor<1x128xf16> {
      %tx = ktdp.construct_access_tile %X[%row, %off] {access_tile_set = #blk, access_tile_order = #id2} : memref<64x512xf16> -> !ktdp.access_tile<1x128xindex>
      %x = ktdp.load %tx : <1x128xindex> -> tensor<1x128xf16>
      %a2 = arith.addf %a, %x : tensor<1x128xf16>
      scf.yield %a2 : tensor<1x128xf16>
    }
    %ty = ktdp.construct_access_tile %Y[%row, 0] {access_tile_set = #blk, access_tile_order = #id2} : memref<64x128xf16> -> !ktdp.access_tile<1x128xindex>
    ktdp.store %acc, %ty : tensor<1x128xf16>, <1x128xindex>
  }
  return
}

// -----

#x_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 511 >= 0)>
#y_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#blk = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 127 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>

// Refused: blocks with a gap between them (columns 0 and 256 of row r,
// 128 and 384 of row r + 1), and blocks of two rows (X[r, 0] and
// X[r + 1, 128] are adjacent columns, not side by side). Four stages, four
// buffers.
// CHECK-LABEL: func.func @not_side_by_side
// CHECK-COUNT-4: ktdf.private : memref<1x128xf16, "L1">
// CHECK-NOT:     memref<1x256xf16
// CHECK:         ktdf.stage "load_3"
func.func @not_side_by_side(%x_ptr: index, %y_ptr: index) attributes {grid = [16, 1]} {
  %pid = ktdp.get_compute_tile_id : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %c32 = arith.constant 32 : index
  %X = ktdp.construct_memory_view %x_ptr, sizes: [64, 512], strides: [512, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<64x512xf16>
  %Y = ktdp.construct_memory_view %y_ptr, sizes: [64, 128], strides: [128, 1] {coordinate_set = #y_set, memory_space = #ktdp.memory_space<global>} : memref<64x128xf16>
  scf.for %row = %pid to %c32 step %c16 : index {
    %next = arith.addi %row, %c1 : index
    %ta = ktdp.construct_access_tile %X[%row, 0] {access_tile_set = #blk, access_tile_order = #id2} : memref<64x512xf16> -> !ktdp.access_tile<1x128xindex>
    %tb = ktdp.construct_access_tile %X[%row, 256] {access_tile_set = #blk, access_tile_order = #id2} : memref<64x512xf16> -> !ktdp.access_tile<1x128xindex>
    %tc = ktdp.construct_access_tile %X[%next, 128] {access_tile_set = #blk, access_tile_order = #id2} : memref<64x512xf16> -> !ktdp.access_tile<1x128xindex>
    %td = ktdp.construct_access_tile %X[%next, 384] {access_tile_set = #blk, access_tile_order = #id2} : memref<64x512xf16> -> !ktdp.access_tile<1x128xindex>
    %a = ktdp.load %ta : <1x128xindex> -> tensor<1x128xf16>
    %b = ktdp.load %tb : <1x128xindex> -> tensor<1x128xf16>
    %c = ktdp.load %tc : <1x128xindex> -> tensor<1x128xf16>
    %d = ktdp.load %td : <1x128xindex> -> tensor<1x128xf16>
    %ab = arith.addf %a, %b : tensor<1x128xf16>
    %cd = arith.mulf %c, %d : tensor<1x128xf16>
    %y = arith.subf %ab, %cd : tensor<1x128xf16>
    %ty = ktdp.construct_access_tile %Y[%row, 0] {access_tile_set = #blk, access_tile_order = #id2} : memref<64x128xf16> -> !ktdp.access_tile<1x128xindex>
    ktdp.store %y, %ty : tensor<1x128xf16>, <1x128xindex>
  }
  return
}

// -----

#x_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 383 >= 0)>
#y_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#blk = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 127 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>

// A row of three blocks: at least sample_device's share of 2 slots, merged;
// fewer than spyre_like's share of 4, left alone (three stages, three
// buffers), as layernorm_bf16_rows's three blocks ran slower merged.
// CHECK-LABEL: func.func @three_blocks
// CHECK:         ktdf.private : memref<1x384xf16, "L1">
// CHECK-NOT:     ktdf.stage "load_1"
// CHECK:         ktdf.stage "compute"
// SPYRE-LABEL: func.func @three_blocks
// SPYRE-COUNT-3: ktdf.private : memref<1x128xf16, "LX">
// SPYRE-NOT:     memref<1x384xf16
// SPYRE:         ktdf.stage "load_2"
func.func @three_blocks(%x_ptr: index, %y_ptr: index) attributes {grid = [16, 1]} {
  %pid = ktdp.get_compute_tile_id : index
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %c384 = arith.constant 384 : index
  %zeros = arith.constant dense<0.0> : tensor<1x128xf16>
  %X = ktdp.construct_memory_view %x_ptr, sizes: [64, 384], strides: [384, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<64x384xf16>
  %Y = ktdp.construct_memory_view %y_ptr, sizes: [64, 128], strides: [128, 1] {coordinate_set = #y_set, memory_space = #ktdp.memory_space<global>} : memref<64x128xf16>
  scf.for %row = %pid to %c64 step %c16 : index {
    %acc = scf.for %off = %c0 to %c384 step %c128 iter_args(%a = %zeros) -> tensor<1x128xf16> {
      %tx = ktdp.construct_access_tile %X[%row, %off] {access_tile_set = #blk, access_tile_order = #id2} : memref<64x384xf16> -> !ktdp.access_tile<1x128xindex>
      %x = ktdp.load %tx : <1x128xindex> -> tensor<1x128xf16>
      %a2 = arith.addf %a, %x : tensor<1x128xf16>
      scf.yield %a2 : tensor<1x128xf16>
    }
    %ty = ktdp.construct_access_tile %Y[%row, 0] {access_tile_set = #blk, access_tile_order = #id2} : memref<64x128xf16> -> !ktdp.access_tile<1x128xindex>
    ktdp.store %acc, %ty : tensor<1x128xf16>, <1x128xindex>
  }
  return
}

// -----

#x_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 4095 >= 0)>
#y_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 1023 >= 0)>
#blk = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 1023 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>

// Rows of four 2 KiB blocks: 8 KiB merged, longer than mesh_device's route
// moves in a latency (about 5 KiB), so a lane with an engine of its own
// keeps the four loads, its feed starting on the first block while the
// others land (rmsnorm_256x4096 ran 10,711 -> 10,903 cycles merged); with
// all-engines, and on the shared engines, merged.
// CHECK-LABEL: func.func @wide_blocks
// CHECK:         ktdf.private : memref<1x4096xf16, "L1">
// CHECK-NOT:     ktdf.stage "load_1"
// OWN-LABEL: func.func @wide_blocks
// OWN-COUNT-4: ktdf.private : memref<1x1024xf16, "SPM">
// OWN-NOT:     memref<1x4096xf16
// OWN:         ktdf.stage "load_3"
// ALL-LABEL: func.func @wide_blocks
// ALL:         ktdf.private : memref<1x4096xf16, "SPM">
// ALL-NOT:     ktdf.stage "load_1"
// SPYRE-LABEL: func.func @wide_blocks
// SPYRE:         ktdf.private : memref<1x4096xf16, "LX">
// SPYRE-NOT:     ktdf.stage "load_1"
func.func @wide_blocks(%x_ptr: index, %y_ptr: index) attributes {grid = [16, 1]} {
  %pid = ktdp.get_compute_tile_id : index
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  %c64 = arith.constant 64 : index
  %c1024 = arith.constant 1024 : index
  %c4096 = arith.constant 4096 : index
  %zeros = arith.constant dense<0.0> : tensor<1x1024xf16>
  %X = ktdp.construct_memory_view %x_ptr, sizes: [64, 4096], strides: [4096, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<64x4096xf16>
  %Y = ktdp.construct_memory_view %y_ptr, sizes: [64, 1024], strides: [1024, 1] {coordinate_set = #y_set, memory_space = #ktdp.memory_space<global>} : memref<64x1024xf16>
  scf.for %row = %pid to %c64 step %c16 : index {
    %acc = scf.for %off = %c0 to %c4096 step %c1024 iter_args(%a = %zeros) -> tensor<1x1024xf16> {
      %tx = ktdp.construct_access_tile %X[%row, %off] {access_tile_set = #blk, access_tile_order = #id2} : memref<64x4096xf16> -> !ktdp.access_tile<1x1024xindex>
      %x = ktdp.load %tx : <1x1024xindex> -> tensor<1x1024xf16>
      %a2 = arith.addf %a, %x : tensor<1x1024xf16>
      scf.yield %a2 : tensor<1x1024xf16>
    }
    %ty = ktdp.construct_access_tile %Y[%row, 0] {access_tile_set = #blk, access_tile_order = #id2} : memref<64x1024xf16> -> !ktdp.access_tile<1x1024xindex>
    ktdp.store %acc, %ty : tensor<1x1024xf16>, <1x1024xindex>
  }
  return
}
