// RUN: ktflow-opt %s --ktdf-compile=O0 | FileCheck %s

// A scatter whose store unit (sample_device's MNISU) does not read device
// memory, with its indices staged in L1 (ktdf-route-transfers): the load
// unit moves the tile's 8 slot ids (32 bytes at Slot + 4 * 8t) into the
// staged buffer and hands it over (full channel); the store unit waits for
// it, reads each row's index from the buffer at 4 * (r0 + row - r0) bytes
// in (the box's anchor r0 subtracted), bounded by the cache's 64 rows,
// moves the 128-byte row to Cache + 128 * index (rows that land next to
// each other as one DMA), and hands the buffer back (free channel). The
// scatter only stores what it loads, so the store unit takes the rows
// from the buffer the load unit filled: no load, compute or store unit of
// a subcore runs.
// CHECK-LABEL: dfir.unit "core[0]/MNILU_Block/MNILU"
// CHECK: %[[SLOT:.*]] = dfir.address @arg1
// CHECK: %[[SLOTAT:.*]] = arith.addi %[[SLOT]], %{{.*}} : index
// CHECK: %[[STAGED:.*]] = dfir.address @[[BUF:p0_buf[0-9]+_c0_l0]]
// CHECK: %[[AT:.*]] = arith.addi %[[STAGED]], %{{.*}} : index
// CHECK: dfir.dma %c32{{.*}} bytes from "DDR"[%[[SLOTAT]]] to "core[0]/L1"[%[[AT]]]
// CHECK-NEXT: dfir.sync_send @[[FULL:p0_full[0-9]+_c0_l0]]
// CHECK-LABEL: dfir.unit "core[0]/MNISU_Block/MNISU"
// CHECK: dfir.sync_recv @[[FULL]]
// CHECK: %[[R0:.*]] = arith.muli %{{.*}}, %c8 : index
// CHECK: %[[BUFAT:.*]] = dfir.address @[[BUF]]
// CHECK: %[[ROW:.*]] = arith.addi %[[R0]], %{{.*}} : index
// CHECK-NEXT: %{{.*}} = arith.subi %[[ROW]], %[[R0]] : index
// CHECK: %[[IBYTES:.*]] = arith.muli %{{.*}}, %c4{{.*}} : index
// CHECK-NEXT: %[[IAT:.*]] = arith.addi %{{.*}}, %[[IBYTES]] : index
// CHECK: dfir.read_index "core[0]/L1"[%[[IAT]]] : i32 below %c64
// CHECK: dfir.dma %{{.*}} bytes from "core[0]/L1"[%{{.*}}] to "DDR"[%{{.*}}]
// CHECK-NOT: dfir.read_index "DDR"
// CHECK: dfir.sync_send @p0_free{{.*}}
// CHECK-NOT: subcore
// CHECK-LABEL: dfir.unit "core[1]/MNILU_Block/MNILU"
// CHECK-NOT: subcore

#x_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 31 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#slot_set = affine_set<(d0) : (d0 >= 0, -d0 + 31 >= 0)>
#cache_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#block = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
ktdf_arch.target @sample_device from "../../../examples/devices/sample_device.mlir"
    memory_map #ktdf_arch.map<"global" = "DDR", "ct_local" = "L1">
  func.func @indirect_scatter(%x: index, %slot: index, %cache: index) attributes {grid = [4]} {
    %id = ktdp.get_compute_tile_id : index
    %c8 = arith.constant 8 : index
    %r0 = arith.muli %id, %c8 : index
    %X = ktdp.construct_memory_view %x, sizes: [32, 64], strides: [64, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<32x64xf16>
    %Slot = ktdp.construct_memory_view %slot, sizes: [32], strides: [1] {coordinate_set = #slot_set, memory_space = #ktdp.memory_space<global>} : memref<32xi32>
    %Cache = ktdp.construct_memory_view %cache, sizes: [64, 64], strides: [64, 1] {coordinate_set = #cache_set, memory_space = #ktdp.memory_space<global>} : memref<64x64xf16>
    %tx = ktdp.construct_access_tile %X[%r0, 0] {access_tile_set = #block, access_tile_order = #id2} : memref<32x64xf16> -> !ktdp.access_tile<8x64xindex>
    %rows = ktdp.load %tx : <8x64xindex> -> tensor<8x64xf16>
    %tcache = ktdp.construct_indirect_access_tile intermediate_variables(%i, %j) %Cache[ind(%Slot[%r0 + %i]), (%j)] {variables_space_set = #block, variables_space_order = #id2} : memref<64x64xf16>, memref<32xi32> -> !ktdp.access_tile<8x64xindex>
    ktdp.store %rows, %tcache : tensor<8x64xf16>, <8x64xindex>
    return
  }
