// RUN: ktflow-opt %s -split-input-file --arch %examples/devices/mesh_device.mlir --ktdf-import-target --ktdf-forward-scratchpad-parts | FileCheck %s --check-prefix=MESH
// RUN: ktflow-opt %s -split-input-file --arch %examples/devices/spyre_like.mlir --ktdf-import-target --ktdf-forward-scratchpad-parts | FileCheck %s --check-prefix=SPYRE
// RUN: ktflow-opt %s -split-input-file --ktdf-forward-scratchpad-parts | FileCheck %s --check-prefix=SPYRE

// A read of what another tile stored into a scratchpad part, when the
// stored tensor is a box of device memory nothing writes (PartCopies.cpp,
// reloadAcross). Tile t loads A's rows 4t..4t+3 and stores them through D
// into its own part; then every tile reads tile 0's part (D's rows 0..3)
// and stores it to its rows of B. Tile 1 reads what tile 0 stored.
// On mesh_device (one DMA engine loads and stores device memory) every
// tile reloads A's rows 0..3 itself, the box at the same constant anchor
// on both tiles: no copy, no store into the scratchpads. On spyre_like
// (DMA_IN loads, DMA_OUT stores), and without a target, tile 0's block is
// copied to tile 1.

// MESH-LABEL: func.func @read_tile0
// MESH-NOT: ct_local
// MESH-NOT: inter_tile
// MESH: %[[A:.*]] = ktdp.construct_memory_view %arg0
// MESH: %[[T:.*]] = ktdp.construct_access_tile %[[A]][0, 0] {{.*}} -> !ktdp.access_tile<4x16xindex>
// MESH-NEXT: %[[V:.*]] = ktdp.load %[[T]] : <4x16xindex> -> tensor<4x16xf16>
// MESH: ktdp.store %[[V]]
// MESH-NOT: inter_tile
// MESH-NOT: ktdp.store

// SPYRE-LABEL: func.func @read_tile0
// SPYRE: ktdp.inter_tile_produce
// SPYRE: ktdp.inter_tile_consume

#mat = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 15 >= 0)>
#part0 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 15 >= 0)>
#part1 = affine_set<(d0, d1) : (d0 - 4 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 15 >= 0)>
#rows4 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 15 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @read_tile0(%a: index, %b: index) attributes {grid = [2]} {
  %id = ktdp.get_compute_tile_id : index
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %row0 = arith.muli %id, %c4 : index
  %sp = arith.constant 512 : index
  %A = ktdp.construct_memory_view %a, sizes: [8, 16], strides: [16, 1] {coordinate_set = #mat, memory_space = #ktdp.memory_space<global>} : memref<8x16xf16>
  %B = ktdp.construct_memory_view %b, sizes: [8, 16], strides: [16, 1] {coordinate_set = #mat, memory_space = #ktdp.memory_space<global>} : memref<8x16xf16>
  %P0 = ktdp.construct_memory_view %sp, sizes: [4, 16], strides: [16, 1] {coordinate_set = #part0, memory_space = #ktdp.memory_space<ct_local, ct_id = 0>} : memref<4x16xf16>
  %P1 = ktdp.construct_memory_view %sp, sizes: [4, 16], strides: [16, 1] {coordinate_set = #part1, memory_space = #ktdp.memory_space<ct_local, ct_id = 1>} : memref<4x16xf16>
  %D = ktdp.construct_distributed_memory_view(%P0, %P1 : memref<4x16xf16>, memref<4x16xf16>) : memref<8x16xf16>
  %ta = ktdp.construct_access_tile %A[%row0, 0] {access_tile_set = #rows4, access_tile_order = #id2} : memref<8x16xf16> -> !ktdp.access_tile<4x16xindex>
  %td = ktdp.construct_access_tile %D[%row0, 0] {access_tile_set = #rows4, access_tile_order = #id2} : memref<8x16xf16> -> !ktdp.access_tile<4x16xindex>
  %block = ktdp.load %ta : <4x16xindex> -> tensor<4x16xf16>
  ktdp.store %block, %td : tensor<4x16xf16>, <4x16xindex>
  %t0 = ktdp.construct_access_tile %D[%c0, 0] {access_tile_set = #rows4, access_tile_order = #id2} : memref<8x16xf16> -> !ktdp.access_tile<4x16xindex>
  %tb = ktdp.construct_access_tile %B[%row0, 0] {access_tile_set = #rows4, access_tile_order = #id2} : memref<8x16xf16> -> !ktdp.access_tile<4x16xindex>
  %v = ktdp.load %t0 : <4x16xindex> -> tensor<4x16xf16>
  ktdp.store %v, %tb : tensor<4x16xf16>, <4x16xindex>
  return
}

// -----

// Each tile reads the other's part: the boxes the two tiles would reload
// (A's rows 4..7 on tile 0, 0..3 on tile 1) differ, so the blocks are
// copied on mesh_device too.

// MESH-LABEL: func.func @read_other
// MESH: ktdp.inter_tile_produce
// MESH: ktdp.inter_tile_consume
// SPYRE-LABEL: func.func @read_other
// SPYRE: ktdp.inter_tile_produce
// SPYRE: ktdp.inter_tile_consume

#mat = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 15 >= 0)>
#part0 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 15 >= 0)>
#part1 = affine_set<(d0, d1) : (d0 - 4 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 15 >= 0)>
#rows4 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 15 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @read_other(%a: index, %b: index) attributes {grid = [2]} {
  %id = ktdp.get_compute_tile_id : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %row0 = arith.muli %id, %c4 : index
  %next = arith.addi %id, %c1 : index
  %other = arith.remui %next, %c2 : index
  %orow0 = arith.muli %other, %c4 : index
  %sp = arith.constant 512 : index
  %A = ktdp.construct_memory_view %a, sizes: [8, 16], strides: [16, 1] {coordinate_set = #mat, memory_space = #ktdp.memory_space<global>} : memref<8x16xf16>
  %B = ktdp.construct_memory_view %b, sizes: [8, 16], strides: [16, 1] {coordinate_set = #mat, memory_space = #ktdp.memory_space<global>} : memref<8x16xf16>
  %P0 = ktdp.construct_memory_view %sp, sizes: [4, 16], strides: [16, 1] {coordinate_set = #part0, memory_space = #ktdp.memory_space<ct_local, ct_id = 0>} : memref<4x16xf16>
  %P1 = ktdp.construct_memory_view %sp, sizes: [4, 16], strides: [16, 1] {coordinate_set = #part1, memory_space = #ktdp.memory_space<ct_local, ct_id = 1>} : memref<4x16xf16>
  %D = ktdp.construct_distributed_memory_view(%P0, %P1 : memref<4x16xf16>, memref<4x16xf16>) : memref<8x16xf16>
  %ta = ktdp.construct_access_tile %A[%row0, 0] {access_tile_set = #rows4, access_tile_order = #id2} : memref<8x16xf16> -> !ktdp.access_tile<4x16xindex>
  %td = ktdp.construct_access_tile %D[%row0, 0] {access_tile_set = #rows4, access_tile_order = #id2} : memref<8x16xf16> -> !ktdp.access_tile<4x16xindex>
  %block = ktdp.load %ta : <4x16xindex> -> tensor<4x16xf16>
  ktdp.store %block, %td : tensor<4x16xf16>, <4x16xindex>
  %to = ktdp.construct_access_tile %D[%orow0, 0] {access_tile_set = #rows4, access_tile_order = #id2} : memref<8x16xf16> -> !ktdp.access_tile<4x16xindex>
  %tb = ktdp.construct_access_tile %B[%row0, 0] {access_tile_set = #rows4, access_tile_order = #id2} : memref<8x16xf16> -> !ktdp.access_tile<4x16xindex>
  %v = ktdp.load %to : <4x16xindex> -> tensor<4x16xf16>
  ktdp.store %v, %tb : tensor<4x16xf16>, <4x16xindex>
  return
}

// -----

// The first kernel with the read block doubled before it is stored: a
// reload would not be one DMA from device memory to device memory, so the
// block is copied on mesh_device too (Inputs/lx_broadcast_parts.mlir:
// 297 cycles with the copies, 394 reloading).

// MESH-LABEL: func.func @read_tile0_doubled
// MESH: ktdp.inter_tile_produce
// MESH: ktdp.inter_tile_consume
// SPYRE-LABEL: func.func @read_tile0_doubled
// SPYRE: ktdp.inter_tile_produce
// SPYRE: ktdp.inter_tile_consume

#mat = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 15 >= 0)>
#part0 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 15 >= 0)>
#part1 = affine_set<(d0, d1) : (d0 - 4 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 15 >= 0)>
#rows4 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 15 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @read_tile0_doubled(%a: index, %b: index) attributes {grid = [2]} {
  %id = ktdp.get_compute_tile_id : index
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %row0 = arith.muli %id, %c4 : index
  %sp = arith.constant 512 : index
  %A = ktdp.construct_memory_view %a, sizes: [8, 16], strides: [16, 1] {coordinate_set = #mat, memory_space = #ktdp.memory_space<global>} : memref<8x16xf16>
  %B = ktdp.construct_memory_view %b, sizes: [8, 16], strides: [16, 1] {coordinate_set = #mat, memory_space = #ktdp.memory_space<global>} : memref<8x16xf16>
  %P0 = ktdp.construct_memory_view %sp, sizes: [4, 16], strides: [16, 1] {coordinate_set = #part0, memory_space = #ktdp.memory_space<ct_local, ct_id = 0>} : memref<4x16xf16>
  %P1 = ktdp.construct_memory_view %sp, sizes: [4, 16], strides: [16, 1] {coordinate_set = #part1, memory_space = #ktdp.memory_space<ct_local, ct_id = 1>} : memref<4x16xf16>
  %D = ktdp.construct_distributed_memory_view(%P0, %P1 : memref<4x16xf16>, memref<4x16xf16>) : memref<8x16xf16>
  %ta = ktdp.construct_access_tile %A[%row0, 0] {access_tile_set = #rows4, access_tile_order = #id2} : memref<8x16xf16> -> !ktdp.access_tile<4x16xindex>
  %td = ktdp.construct_access_tile %D[%row0, 0] {access_tile_set = #rows4, access_tile_order = #id2} : memref<8x16xf16> -> !ktdp.access_tile<4x16xindex>
  %block = ktdp.load %ta : <4x16xindex> -> tensor<4x16xf16>
  ktdp.store %block, %td : tensor<4x16xf16>, <4x16xindex>
  %t0 = ktdp.construct_access_tile %D[%c0, 0] {access_tile_set = #rows4, access_tile_order = #id2} : memref<8x16xf16> -> !ktdp.access_tile<4x16xindex>
  %tb = ktdp.construct_access_tile %B[%row0, 0] {access_tile_set = #rows4, access_tile_order = #id2} : memref<8x16xf16> -> !ktdp.access_tile<4x16xindex>
  %v = ktdp.load %t0 : <4x16xindex> -> tensor<4x16xf16>
  %w = arith.addf %v, %v : tensor<4x16xf16>
  ktdp.store %w, %tb : tensor<4x16xf16>, <4x16xindex>
  return
}
