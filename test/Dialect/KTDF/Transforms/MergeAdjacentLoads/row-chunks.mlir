// RUN: ktflow-opt %s -split-input-file --arch %examples/devices/sample_device.mlir --ktdf-mapping --ktdf-route-transfers --ktdf-tile-streams --ktdf-merge-adjacent-loads | FileCheck %s

// RoPE's two column halves of X (8x16 each, side by side in a 32-wide
// row) are fed to the compute unit in chunks of 64 elements, 4 whole rows
// of a half each. Merged, the halves are one 8x32 load into one 8x32
// buffer; each chunk is then a 4x16 column block of it (columns 0 and 16),
// its slot of that shape (the load unit moves it as 4 rows a buffer row
// apart) and the compute unit still takes it as a flat chunk of 64. The
// two output halves likewise: the compute unit writes each chunk as a flat
// 64 into a 4x16 slot, the drain writes it as a column block of one 8x32
// buffer, and one store stage moves the 8x32 tile of OUT.

#x_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 31 >= 0)>
#cs_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 15 >= 0)>
#half = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 15 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>

// CHECK-LABEL: func.func @rope_halves
// CHECK:         %[[T:.*]] = ktdp.construct_access_tile %{{.*}}[%{{.*}}, 0] {{.*}} -> !ktdp.access_tile<8x32xindex>
// CHECK:         ktdf.pipeline
// CHECK:           %[[BUF:.*]] = ktdf.private : memref<8x32xf16, "L1">
// CHECK-NEXT:      %[[SLOT0:.*]] = ktdf.private : !ktdf.fifo.slot<{{.*}}, 4x16xf16>
// CHECK-NEXT:      %[[SLOT1:.*]] = ktdf.private : !ktdf.fifo.slot<{{.*}}, 4x16xf16>
// CHECK:           %[[LOAD:.*]] = ktdf.stage "load_2"
// CHECK-NEXT:        ktdf.data_transfer %[[T]] to %[[BUF]] : !ktdp.access_tile<8x32xindex> to memref<8x32xf16, "L1">
// CHECK-NOT:       ktdf.stage "load_3"
// CHECK:           ktdf.stage "feed" depends_in({{.*}}%[[LOAD]]{{.*}}) depends_out(1)
// CHECK:             scf.for %[[R:.*]] = %{{.*}} to %{{.*}} step %c4
// CHECK-DAG:           ktdf.data_transfer %[[BUF]][%[[R]], %c0{{.*}}] to %[[SLOT0]] : memref<8x32xf16, "L1"> to !ktdf.fifo.slot<{{.*}}, 4x16xf16>
// CHECK-DAG:           ktdf.data_transfer %[[BUF]][%[[R]], %c16{{.*}}] to %[[SLOT1]] : memref<8x32xf16, "L1"> to !ktdf.fifo.slot<{{.*}}, 4x16xf16>
// CHECK:           ktdf.stage "compute"
// CHECK-DAG:         ktdf.read_from_fifo %[[SLOT0]] : !ktdf.fifo.slot<{{.*}}, 4x16xf16> -> tensor<64xf16>
// CHECK-DAG:         ktdf.read_from_fifo %[[SLOT1]] : !ktdf.fifo.slot<{{.*}}, 4x16xf16> -> tensor<64xf16>
// CHECK:             ktdf.write_to_fifo %{{.*}} to %[[OSLOT0:.*]] : tensor<64xf16> to !ktdf.fifo.slot<{{.*}}, 4x16xf16>
// CHECK-NEXT:        ktdf.write_to_fifo %{{.*}} to %[[OSLOT1:.*]] : tensor<64xf16> to !ktdf.fifo.slot<{{.*}}, 4x16xf16>
// CHECK:           %[[DRAIN:.*]] = ktdf.stage "drain"
// CHECK:             ktdf.data_transfer %[[OSLOT0]] to %[[OUT:.*]][%{{.*}}, %c0{{.*}}] : !ktdf.fifo.slot<{{.*}}, 4x16xf16> to memref<8x32xf16, "L1">
// CHECK:             ktdf.data_transfer %[[OSLOT1]] to %[[OUT]][%{{.*}}, %c16{{.*}}] : !ktdf.fifo.slot<{{.*}}, 4x16xf16> to memref<8x32xf16, "L1">
// CHECK:           ktdf.stage "store_0" depends_in(%[[DRAIN]]) depends_out(0)
// CHECK-NEXT:        ktdf.data_transfer %[[OUT]] to %{{.*}} : memref<8x32xf16, "L1"> to !ktdp.access_tile<8x32xindex>
// CHECK-NOT:       ktdf.stage "store_1"
func.func @rope_halves(%x_ptr: index, %cos_ptr: index, %sin_ptr: index, %out_ptr: index) attributes {grid = [8]} {
  %pid = ktdp.get_compute_tile_id : index
  %c8 = arith.constant 8 : index
  %row = arith.muli %pid, %c8 : index
  %X = ktdp.construct_memory_view %x_ptr, sizes: [64, 32], strides: [32, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<64x32xf16>
  %COS = ktdp.construct_memory_view %cos_ptr, sizes: [64, 16], strides: [16, 1] {coordinate_set = #cs_set, memory_space = #ktdp.memory_space<global>} : memref<64x16xf16>
  %SIN = ktdp.construct_memory_view %sin_ptr, sizes: [64, 16], strides: [16, 1] {coordinate_set = #cs_set, memory_space = #ktdp.memory_space<global>} : memref<64x16xf16>
  %OUT = ktdp.construct_memory_view %out_ptr, sizes: [64, 32], strides: [32, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<64x32xf16>
  %tc = ktdp.construct_access_tile %COS[%row, 0] {access_tile_set = #half, access_tile_order = #id2} : memref<64x16xf16> -> !ktdp.access_tile<8x16xindex>
  %ts = ktdp.construct_access_tile %SIN[%row, 0] {access_tile_set = #half, access_tile_order = #id2} : memref<64x16xf16> -> !ktdp.access_tile<8x16xindex>
  %t1 = ktdp.construct_access_tile %X[%row, 0] {access_tile_set = #half, access_tile_order = #id2} : memref<64x32xf16> -> !ktdp.access_tile<8x16xindex>
  %t2 = ktdp.construct_access_tile %X[%row, 16] {access_tile_set = #half, access_tile_order = #id2} : memref<64x32xf16> -> !ktdp.access_tile<8x16xindex>
  %cos = ktdp.load %tc : <8x16xindex> -> tensor<8x16xf16>
  %sin = ktdp.load %ts : <8x16xindex> -> tensor<8x16xf16>
  %x1 = ktdp.load %t1 : <8x16xindex> -> tensor<8x16xf16>
  %x2 = ktdp.load %t2 : <8x16xindex> -> tensor<8x16xf16>
  %x1c = arith.mulf %x1, %cos : tensor<8x16xf16>
  %x2s = arith.mulf %x2, %sin : tensor<8x16xf16>
  %o1 = arith.subf %x1c, %x2s : tensor<8x16xf16>
  %x2c = arith.mulf %x2, %cos : tensor<8x16xf16>
  %x1s = arith.mulf %x1, %sin : tensor<8x16xf16>
  %o2 = arith.addf %x2c, %x1s : tensor<8x16xf16>
  %u1 = ktdp.construct_access_tile %OUT[%row, 0] {access_tile_set = #half, access_tile_order = #id2} : memref<64x32xf16> -> !ktdp.access_tile<8x16xindex>
  %u2 = ktdp.construct_access_tile %OUT[%row, 16] {access_tile_set = #half, access_tile_order = #id2} : memref<64x32xf16> -> !ktdp.access_tile<8x16xindex>
  ktdp.store %o1, %u1 : tensor<8x16xf16>, <8x16xindex>
  ktdp.store %o2, %u2 : tensor<8x16xf16>, <8x16xindex>
  return
}

// -----

#x_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 47 >= 0)>
#half = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 15 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>

// Refused: halves with a gap between them (columns 0 and 32 of a 48-wide
// row), loaded and stored. Two loads, two stores, four 8x16 buffers, flat
// slots.
// CHECK-LABEL: func.func @halves_apart
// CHECK-COUNT-4: ktdf.private : memref<8x16xf16, "L1">
// CHECK-NOT:     memref<8x32xf16
// CHECK-NOT:     , {{[0-9]+}}x16xf16>
// CHECK:         ktdf.stage "load_1"
// CHECK:         ktdf.stage "store_1"
func.func @halves_apart(%x_ptr: index, %out_ptr: index) attributes {grid = [8]} {
  %pid = ktdp.get_compute_tile_id : index
  %c8 = arith.constant 8 : index
  %row = arith.muli %pid, %c8 : index
  %X = ktdp.construct_memory_view %x_ptr, sizes: [64, 48], strides: [48, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<64x48xf16>
  %OUT = ktdp.construct_memory_view %out_ptr, sizes: [64, 48], strides: [48, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<64x48xf16>
  %t1 = ktdp.construct_access_tile %X[%row, 0] {access_tile_set = #half, access_tile_order = #id2} : memref<64x48xf16> -> !ktdp.access_tile<8x16xindex>
  %t2 = ktdp.construct_access_tile %X[%row, 32] {access_tile_set = #half, access_tile_order = #id2} : memref<64x48xf16> -> !ktdp.access_tile<8x16xindex>
  %x1 = ktdp.load %t1 : <8x16xindex> -> tensor<8x16xf16>
  %x2 = ktdp.load %t2 : <8x16xindex> -> tensor<8x16xf16>
  %o1 = arith.subf %x1, %x2 : tensor<8x16xf16>
  %o2 = arith.addf %x1, %x2 : tensor<8x16xf16>
  %u1 = ktdp.construct_access_tile %OUT[%row, 0] {access_tile_set = #half, access_tile_order = #id2} : memref<64x48xf16> -> !ktdp.access_tile<8x16xindex>
  %u2 = ktdp.construct_access_tile %OUT[%row, 32] {access_tile_set = #half, access_tile_order = #id2} : memref<64x48xf16> -> !ktdp.access_tile<8x16xindex>
  ktdp.store %o1, %u1 : tensor<8x16xf16>, <8x16xindex>
  ktdp.store %o2, %u2 : tensor<8x16xf16>, <8x16xindex>
  return
}

// -----

#a_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 31 >= 0)>
#b_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 31 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#half = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 15 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>

// Refused: tiles of two views of one tensor with different row strides
// (32 and 64 elements), X[r, 0] of one and X[r, 16] of the other: their
// rows are not side by side in memory, whatever their anchors say.
// CHECK-LABEL: func.func @different_strides
// CHECK-COUNT-2: ktdf.private : memref<8x16xf16, "L1">
// CHECK-NOT:     memref<8x32xf16
// CHECK-NOT:     , {{[0-9]+}}x16xf16>
// CHECK:         ktdf.stage "load_1"
func.func @different_strides(%x_ptr: index, %out_ptr: index) attributes {grid = [4]} {
  %pid = ktdp.get_compute_tile_id : index
  %c8 = arith.constant 8 : index
  %row = arith.muli %pid, %c8 : index
  %A = ktdp.construct_memory_view %x_ptr, sizes: [64, 32], strides: [32, 1] {coordinate_set = #a_set, memory_space = #ktdp.memory_space<global>} : memref<64x32xf16>
  %B = ktdp.construct_memory_view %x_ptr, sizes: [32, 64], strides: [64, 1] {coordinate_set = #b_set, memory_space = #ktdp.memory_space<global>} : memref<32x64xf16>
  %OUT = ktdp.construct_memory_view %out_ptr, sizes: [64, 32], strides: [32, 1] {coordinate_set = #a_set, memory_space = #ktdp.memory_space<global>} : memref<64x32xf16>
  %t1 = ktdp.construct_access_tile %A[%row, 0] {access_tile_set = #half, access_tile_order = #id2} : memref<64x32xf16> -> !ktdp.access_tile<8x16xindex>
  %t2 = ktdp.construct_access_tile %B[%row, 16] {access_tile_set = #half, access_tile_order = #id2} : memref<32x64xf16> -> !ktdp.access_tile<8x16xindex>
  %x1 = ktdp.load %t1 : <8x16xindex> -> tensor<8x16xf16>
  %x2 = ktdp.load %t2 : <8x16xindex> -> tensor<8x16xf16>
  %o = arith.subf %x1, %x2 : tensor<8x16xf16>
  %u = ktdp.construct_access_tile %OUT[%row, 0] {access_tile_set = #half, access_tile_order = #id2} : memref<64x32xf16> -> !ktdp.access_tile<8x16xindex>
  ktdp.store %o, %u : tensor<8x16xf16>, <8x16xindex>
  return
}

// -----

#x_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 4095 >= 0)>
#blk = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 1023 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>

// A row of four 2 KiB blocks: its loads merge (one 8 KiB load), its stores
// do not: one 8 KiB store would wait for the drain of the row's last block
// where each block's store started as it was drained, and it moves more
// than sample_device's store route does in one latency (64 bytes a cycle
// x 107 cycles); nor is the row cut into a store of 3 blocks and one of 1.
// CHECK-LABEL: func.func @wide_store_blocks
// CHECK:         ktdf.private : memref<1x4096xf16, "L1">
// CHECK-NOT:     ktdf.stage "load_1"
// CHECK:         ktdf.stage "store_3"
// CHECK-NOT:     memref<1x{{2048|3072|4096}}xf16, "L1"> to !ktdp.access_tile
func.func @wide_store_blocks(%x_ptr: index, %y_ptr: index) attributes {grid = [64]} {
  %row = ktdp.get_compute_tile_id : index
  %X = ktdp.construct_memory_view %x_ptr, sizes: [64, 4096], strides: [4096, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<64x4096xf16>
  %Y = ktdp.construct_memory_view %y_ptr, sizes: [64, 4096], strides: [4096, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<64x4096xf16>
  %t0 = ktdp.construct_access_tile %X[%row, 0] {access_tile_set = #blk, access_tile_order = #id2} : memref<64x4096xf16> -> !ktdp.access_tile<1x1024xindex>
  %t1 = ktdp.construct_access_tile %X[%row, 1024] {access_tile_set = #blk, access_tile_order = #id2} : memref<64x4096xf16> -> !ktdp.access_tile<1x1024xindex>
  %t2 = ktdp.construct_access_tile %X[%row, 2048] {access_tile_set = #blk, access_tile_order = #id2} : memref<64x4096xf16> -> !ktdp.access_tile<1x1024xindex>
  %t3 = ktdp.construct_access_tile %X[%row, 3072] {access_tile_set = #blk, access_tile_order = #id2} : memref<64x4096xf16> -> !ktdp.access_tile<1x1024xindex>
  %x0 = ktdp.load %t0 : <1x1024xindex> -> tensor<1x1024xf16>
  %x1 = ktdp.load %t1 : <1x1024xindex> -> tensor<1x1024xf16>
  %x2 = ktdp.load %t2 : <1x1024xindex> -> tensor<1x1024xf16>
  %x3 = ktdp.load %t3 : <1x1024xindex> -> tensor<1x1024xf16>
  %y0 = arith.addf %x0, %x1 : tensor<1x1024xf16>
  %y1 = arith.addf %x1, %x2 : tensor<1x1024xf16>
  %y2 = arith.addf %x2, %x3 : tensor<1x1024xf16>
  %y3 = arith.addf %x3, %x0 : tensor<1x1024xf16>
  %u0 = ktdp.construct_access_tile %Y[%row, 0] {access_tile_set = #blk, access_tile_order = #id2} : memref<64x4096xf16> -> !ktdp.access_tile<1x1024xindex>
  %u1 = ktdp.construct_access_tile %Y[%row, 1024] {access_tile_set = #blk, access_tile_order = #id2} : memref<64x4096xf16> -> !ktdp.access_tile<1x1024xindex>
  %u2 = ktdp.construct_access_tile %Y[%row, 2048] {access_tile_set = #blk, access_tile_order = #id2} : memref<64x4096xf16> -> !ktdp.access_tile<1x1024xindex>
  %u3 = ktdp.construct_access_tile %Y[%row, 3072] {access_tile_set = #blk, access_tile_order = #id2} : memref<64x4096xf16> -> !ktdp.access_tile<1x1024xindex>
  ktdp.store %y0, %u0 : tensor<1x1024xf16>, <1x1024xindex>
  ktdp.store %y1, %u1 : tensor<1x1024xf16>, <1x1024xindex>
  ktdp.store %y2, %u2 : tensor<1x1024xf16>, <1x1024xindex>
  ktdp.store %y3, %u3 : tensor<1x1024xf16>, <1x1024xindex>
  return
}

// -----

#x_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 511 >= 0)>
#blk = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 127 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>

// Four 256-byte output blocks of a row (what rmsnorm_blocks stores): one
// 1 KiB store after the drain.
// CHECK-LABEL: func.func @narrow_store_blocks
// CHECK:         %[[OUT:.*]] = ktdf.private : memref<1x512xf16, "L1">
// CHECK:         ktdf.stage "drain"
// CHECK-COUNT-4:   ktdf.data_transfer %{{.*}} to %[[OUT]][
// CHECK:         ktdf.stage "store_0"
// CHECK-NEXT:      ktdf.data_transfer %[[OUT]] to %{{.*}} : memref<1x512xf16, "L1"> to !ktdp.access_tile<1x512xindex>
// CHECK-NOT:     ktdf.stage "store_1"
func.func @narrow_store_blocks(%x_ptr: index, %y_ptr: index) attributes {grid = [64]} {
  %row = ktdp.get_compute_tile_id : index
  %X = ktdp.construct_memory_view %x_ptr, sizes: [64, 512], strides: [512, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<64x512xf16>
  %Y = ktdp.construct_memory_view %y_ptr, sizes: [64, 512], strides: [512, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<64x512xf16>
  %t0 = ktdp.construct_access_tile %X[%row, 0] {access_tile_set = #blk, access_tile_order = #id2} : memref<64x512xf16> -> !ktdp.access_tile<1x128xindex>
  %x0 = ktdp.load %t0 : <1x128xindex> -> tensor<1x128xf16>
  %y0 = arith.addf %x0, %x0 : tensor<1x128xf16>
  %y1 = arith.mulf %x0, %x0 : tensor<1x128xf16>
  %y2 = arith.subf %x0, %y0 : tensor<1x128xf16>
  %y3 = arith.addf %y0, %y1 : tensor<1x128xf16>
  %u0 = ktdp.construct_access_tile %Y[%row, 0] {access_tile_set = #blk, access_tile_order = #id2} : memref<64x512xf16> -> !ktdp.access_tile<1x128xindex>
  %u1 = ktdp.construct_access_tile %Y[%row, 128] {access_tile_set = #blk, access_tile_order = #id2} : memref<64x512xf16> -> !ktdp.access_tile<1x128xindex>
  %u2 = ktdp.construct_access_tile %Y[%row, 256] {access_tile_set = #blk, access_tile_order = #id2} : memref<64x512xf16> -> !ktdp.access_tile<1x128xindex>
  %u3 = ktdp.construct_access_tile %Y[%row, 384] {access_tile_set = #blk, access_tile_order = #id2} : memref<64x512xf16> -> !ktdp.access_tile<1x128xindex>
  ktdp.store %y0, %u0 : tensor<1x128xf16>, <1x128xindex>
  ktdp.store %y1, %u1 : tensor<1x128xf16>, <1x128xindex>
  ktdp.store %y2, %u2 : tensor<1x128xf16>, <1x128xindex>
  ktdp.store %y3, %u3 : tensor<1x128xf16>, <1x128xindex>
  return
}
