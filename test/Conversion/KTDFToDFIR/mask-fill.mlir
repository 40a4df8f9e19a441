// RUN: ktflow-opt %s -split-input-file --ktdf-compile=O0 | FileCheck %s

// Before a load that may reach past its view, the DMA unit zeroes the part
// of the buffer the clamped DMA leaves out, where the reference interpreter
// reads 0: per masked dimension, the slab past the window's end (and, where
// the anchor may be negative, the slab before its start), each only when it
// has bytes. Stores get no fill.

// X holds 62 rows and 126 columns; 4x128 tiles at rows 4 id. Rows past the
// view: (4 - rows) full 256-byte rows from row `rows`; columns past it:
// (128 - cols) * 2 bytes from column `cols` of each of the 4 rows (stride
// 256). Then the DMA of the valid part.
// CHECK-LABEL: dfir.kernel @both
// CHECK-LABEL: dfir.unit "tile[0]/DMA"
// CHECK: %[[R0:.*]] = arith.muli %{{.*}}, %c4 : index
// CHECK: %[[LEFTR:.*]] = arith.subi %{{.*}}, %[[R0]] : index
// CHECK: %[[MINR:.*]] = arith.minsi %[[LEFTR]], %{{.*}} : index
// CHECK: %[[ROWS:.*]] = arith.maxsi %[[MINR]], %{{.*}} : index
// CHECK: %[[LEFTC:.*]] = arith.subi %{{.*}}, %{{.*}} : index
// CHECK: %[[MINC:.*]] = arith.minsi %[[LEFTC]], %{{.*}} : index
// CHECK: %[[COLS:.*]] = arith.maxsi %[[MINC]], %{{.*}} : index
// CHECK: %[[NR:.*]] = arith.subi %c4{{.*}}, %[[ROWS]] : index
// CHECK: %[[ANYR:.*]] = arith.cmpi sgt, %[[NR]], %{{.*}} : index
// CHECK: arith.select %[[ANYR]]
// CHECK: scf.for
// CHECK: %[[RAT:.*]] = arith.muli %[[ROWS]], %c256{{.*}} : index
// CHECK: %[[RADDR:.*]] = arith.addi %{{.*}}, %[[RAT]] : index
// CHECK: %[[RBYTES:.*]] = arith.muli %[[NR]], %c256{{.*}} : index
// CHECK: dfir.fill %[[RBYTES]] bytes to "tile[0]/SPM"[%[[RADDR]]]{{$}}
// CHECK: %[[NC:.*]] = arith.subi %c128{{.*}}, %[[COLS]] : index
// CHECK: %[[ANYC:.*]] = arith.cmpi sgt, %[[NC]], %{{.*}} : index
// CHECK: arith.select %[[ANYC]]
// CHECK: scf.for
// CHECK: %[[CAT:.*]] = arith.muli %[[COLS]], %c2{{.*}} : index
// CHECK: %[[CADDR:.*]] = arith.addi %{{.*}}, %[[CAT]] : index
// CHECK: %[[CBYTES:.*]] = arith.muli %[[NC]], %c2{{.*}} : index
// CHECK: dfir.fill %[[CBYTES]] bytes to "tile[0]/SPM"[%[[CADDR]]] rows %c4{{.*}} stride %c256
// CHECK: dfir.dma %{{.*}} bytes from "HBM"[%{{.*}}] to "tile[0]/SPM"[%{{.*}}] rows %[[ROWS]] strides
// CHECK-NOT: dfir.fill
// CHECK: dfir.dma %{{.*}} bytes from "tile[0]/SPM"[%{{.*}}] to "HBM"[%{{.*}}] rows
// CHECK-LABEL: dfir.unit "tile[0]/VPU"

ktdf_arch.target @mesh_device from "../../../examples/devices/mesh_device.mlir"
    memory_map #ktdf_arch.map<"global" = "HBM", "ct_local" = "SPM">

#x = affine_set<(d0, d1) : (d0 >= 0, -d0 + 61 >= 0, d1 >= 0, -d1 + 125 >= 0)>
#t = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @both(%x: index, %y: index) attributes {grid = [16]} {
  %id = ktdp.get_compute_tile_id : index
  %c4 = arith.constant 4 : index
  %r = arith.muli %id, %c4 : index
  %X = ktdp.construct_memory_view %x, sizes: [64, 128], strides: [128, 1] {coordinate_set = #x, memory_space = #ktdp.memory_space<global>} : memref<64x128xf16>
  %Y = ktdp.construct_memory_view %y, sizes: [64, 128], strides: [128, 1] {coordinate_set = #x, memory_space = #ktdp.memory_space<global>} : memref<64x128xf16>
  %tx = ktdp.construct_access_tile %X[%r, 0] {access_tile_set = #t, access_tile_order = #id2} : memref<64x128xf16> -> !ktdp.access_tile<4x128xindex>
  %ty = ktdp.construct_access_tile %Y[%r, 0] {access_tile_set = #t, access_tile_order = #id2} : memref<64x128xf16> -> !ktdp.access_tile<4x128xindex>
  %v = ktdp.load %tx : <4x128xindex> -> tensor<4x128xf16>
  %w = arith.addf %v, %v : tensor<4x128xf16>
  ktdp.store %w, %ty : tensor<4x128xf16>, <4x128xindex>
  return
}

// -----

// A 64-column window at a plain scalar %start, which may be negative: the
// columns past the view (from `end`, 64 - end of them) and those before it
// (the first `begin`) are zeroed; the row (the tile id, below 64) stays
// inside and gets no fill.
// CHECK-LABEL: dfir.kernel @window
// CHECK-LABEL: dfir.unit "tile[0]/DMA"
// CHECK: %[[START:.*]] = dfir.runtime_value @arg2
// CHECK: %[[LEFT:.*]] = arith.subi %c128{{.*}}, %[[START]] : index
// CHECK: %[[MIN:.*]] = arith.minsi %[[LEFT]], %[[C64:.*]] : index
// CHECK: %[[END:.*]] = arith.maxsi %[[MIN]], %{{.*}} : index
// CHECK: %[[NEG:.*]] = arith.subi %{{.*}}, %[[START]] : index
// CHECK: %[[POS:.*]] = arith.maxsi %[[NEG]], %{{.*}} : index
// CHECK: %[[BEGIN:.*]] = arith.minsi %[[POS]], %[[C64]] : index
// CHECK: %[[AFTER:.*]] = arith.subi %c64{{.*}}, %[[END]] : index
// CHECK: arith.cmpi sgt, %[[AFTER]]
// CHECK: %[[AAT:.*]] = arith.muli %[[END]], %c2{{.*}} : index
// CHECK: %[[AADDR:.*]] = arith.addi %{{.*}}, %[[AAT]] : index
// CHECK: %[[ABYTES:.*]] = arith.muli %[[AFTER]], %c2{{.*}} : index
// CHECK: dfir.fill %[[ABYTES]] bytes to "tile[0]/SPM"[%[[AADDR]]]{{$}}
// CHECK: arith.cmpi sgt, %[[BEGIN]]
// CHECK: %[[BBYTES:.*]] = arith.muli %[[BEGIN]], %c2{{.*}} : index
// CHECK: dfir.fill %[[BBYTES]] bytes to "tile[0]/SPM"[%{{.*}}]{{$}}
// CHECK: dfir.dma %{{.*}} bytes from "HBM"
// CHECK-NOT: dfir.fill
// CHECK-LABEL: dfir.unit "tile[0]/VPU"

ktdf_arch.target @mesh_device from "../../../examples/devices/mesh_device.mlir"
    memory_map #ktdf_arch.map<"global" = "HBM", "ct_local" = "SPM">

#all = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#win = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 63 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @window(%x: index, %y: index, %start: index) attributes {grid = [64]} {
  %r = ktdp.get_compute_tile_id : index
  %X = ktdp.construct_memory_view %x, sizes: [64, 128], strides: [128, 1] {coordinate_set = #all, memory_space = #ktdp.memory_space<global>} : memref<64x128xf16>
  %Y = ktdp.construct_memory_view %y, sizes: [64, 128], strides: [128, 1] {coordinate_set = #all, memory_space = #ktdp.memory_space<global>} : memref<64x128xf16>
  %tx = ktdp.construct_access_tile %X[%r, %start] {access_tile_set = #win, access_tile_order = #id2} : memref<64x128xf16> -> !ktdp.access_tile<1x64xindex>
  %ty = ktdp.construct_access_tile %Y[%r, 0] {access_tile_set = #win, access_tile_order = #id2} : memref<64x128xf16> -> !ktdp.access_tile<1x64xindex>
  %v = ktdp.load %tx : <1x64xindex> -> tensor<1x64xf16>
  ktdp.store %v, %ty : tensor<1x64xf16>, <1x64xindex>
  return
}

// -----

// Tiles that stay inside their views get no fill at all.
// CHECK-LABEL: dfir.kernel @inside
// CHECK-NOT: dfir.fill
// CHECK: dfir.dma
// CHECK-NOT: dfir.fill

ktdf_arch.target @mesh_device from "../../../examples/devices/mesh_device.mlir"
    memory_map #ktdf_arch.map<"global" = "HBM", "ct_local" = "SPM">

#all = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#t = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @inside(%x: index, %y: index) attributes {grid = [16]} {
  %id = ktdp.get_compute_tile_id : index
  %c4 = arith.constant 4 : index
  %r = arith.muli %id, %c4 : index
  %X = ktdp.construct_memory_view %x, sizes: [64, 128], strides: [128, 1] {coordinate_set = #all, memory_space = #ktdp.memory_space<global>} : memref<64x128xf16>
  %Y = ktdp.construct_memory_view %y, sizes: [64, 128], strides: [128, 1] {coordinate_set = #all, memory_space = #ktdp.memory_space<global>} : memref<64x128xf16>
  %tx = ktdp.construct_access_tile %X[%r, 0] {access_tile_set = #t, access_tile_order = #id2} : memref<64x128xf16> -> !ktdp.access_tile<4x128xindex>
  %ty = ktdp.construct_access_tile %Y[%r, 0] {access_tile_set = #t, access_tile_order = #id2} : memref<64x128xf16> -> !ktdp.access_tile<4x128xindex>
  %v = ktdp.load %tx : <4x128xindex> -> tensor<4x128xf16>
  %w = arith.addf %v, %v : tensor<4x128xf16>
  ktdp.store %w, %ty : tensor<4x128xf16>, <4x128xindex>
  return
}

// -----

// A tile of one part of a distributed view that
// ktdf-resolve-distributed-views accesses part by part (ktdf.part_piece):
// nothing computed from its masked coordinates is stored, so its load
// zeroes none of them; the DMA is the same clamped transfer.
// CHECK-LABEL: dfir.kernel @part_piece
// CHECK-LABEL: dfir.unit "tile[0]/DMA"
// CHECK-NOT: dfir.fill
// CHECK: dfir.dma %{{.*}} bytes from "HBM"[%{{.*}}] to "tile[0]/SPM"[%{{.*}}] rows
// CHECK-NOT: dfir.fill
// CHECK-LABEL: dfir.unit "tile[0]/VPU"

ktdf_arch.target @mesh_device from "../../../examples/devices/mesh_device.mlir"
    memory_map #ktdf_arch.map<"global" = "HBM", "ct_local" = "SPM">

#x = affine_set<(d0, d1) : (d0 >= 0, -d0 + 61 >= 0, d1 >= 0, -d1 + 125 >= 0)>
#t = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @part_piece(%x: index, %y: index) attributes {grid = [16]} {
  %id = ktdp.get_compute_tile_id : index
  %c4 = arith.constant 4 : index
  %r = arith.muli %id, %c4 : index
  %X = ktdp.construct_memory_view %x, sizes: [64, 128], strides: [128, 1] {coordinate_set = #x, memory_space = #ktdp.memory_space<global>} : memref<64x128xf16>
  %Y = ktdp.construct_memory_view %y, sizes: [64, 128], strides: [128, 1] {coordinate_set = #x, memory_space = #ktdp.memory_space<global>} : memref<64x128xf16>
  %tx = ktdp.construct_access_tile %X[%r, 0] {access_tile_set = #t, access_tile_order = #id2, ktdf.part_piece} : memref<64x128xf16> -> !ktdp.access_tile<4x128xindex>
  %ty = ktdp.construct_access_tile %Y[%r, 0] {access_tile_set = #t, access_tile_order = #id2, ktdf.part_piece} : memref<64x128xf16> -> !ktdp.access_tile<4x128xindex>
  %v = ktdp.load %tx : <4x128xindex> -> tensor<4x128xf16>
  %w = arith.addf %v, %v : tensor<4x128xf16>
  ktdp.store %w, %ty : tensor<4x128xf16>, <4x128xindex>
  return
}
