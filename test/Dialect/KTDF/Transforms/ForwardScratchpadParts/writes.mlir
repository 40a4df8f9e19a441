// RUN: ktflow-opt %s --ktdf-forward-scratchpad-parts --ktdf-resolve-distributed-views -split-input-file -verify-diagnostics

// Writes that stop ktdf-forward-scratchpad-parts' proof, and a tile id the
// grid does not have, refused by ktdf-resolve-distributed-views at the op,
// with the reason (as in errors.mlir; ktdf-check-supported, run alone,
// reports these kernels' other problems first: the in-place update of A,
// the loads of tile 0's scratchpad that no plain store writes).

// The kernel writes A, which the slice would be reloaded from, in place.
#mat = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 15 >= 0)>
#part0 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 7 >= 0)>
#part1 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 - 8 >= 0, -d1 + 15 >= 0)>
#local = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 7 >= 0)>
#rows8 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 15 >= 0)>
#sq8 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 7 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @source_written(%a: index) attributes {grid = [2]} {
  %id = ktdp.get_compute_tile_id : index
  %c8 = arith.constant 8 : index
  %row0 = arith.muli %id, %c8 : index
  %sp = arith.constant 512 : index
  %A = ktdp.construct_memory_view %a, sizes: [16, 16], strides: [16, 1] {coordinate_set = #mat, memory_space = #ktdp.memory_space<global>} : memref<16x16xf16>
  %P0 = ktdp.construct_memory_view %sp, sizes: [16, 8], strides: [8, 1] {coordinate_set = #part0, memory_space = #ktdp.memory_space<ct_local, ct_id = 0>} : memref<16x8xf16>
  %P1 = ktdp.construct_memory_view %sp, sizes: [16, 8], strides: [8, 1] {coordinate_set = #part1, memory_space = #ktdp.memory_space<ct_local, ct_id = 1>} : memref<16x8xf16>
  %D = ktdp.construct_distributed_memory_view(%P0, %P1 : memref<16x8xf16>, memref<16x8xf16>) : memref<16x16xf16>
  %ta = ktdp.construct_access_tile %A[%row0, 0] {access_tile_set = #rows8, access_tile_order = #id2} : memref<16x16xf16> -> !ktdp.access_tile<8x16xindex>
  %td = ktdp.construct_access_tile %D[%row0, 0] {access_tile_set = #rows8, access_tile_order = #id2} : memref<16x16xf16> -> !ktdp.access_tile<8x16xindex>
  %rows = ktdp.load %ta : <8x16xindex> -> tensor<8x16xf16>
  ktdp.store %rows, %td : tensor<8x16xf16>, <8x16xindex>
  %L1 = ktdp.construct_memory_view %sp, sizes: [16, 8], strides: [8, 1] {coordinate_set = #local, memory_space = #ktdp.memory_space<ct_local, ct_id = 1>} : memref<16x8xf16>
  %tl1 = ktdp.construct_access_tile %L1[%row0, 0] {access_tile_set = #sq8, access_tile_order = #id2} : memref<16x8xf16> -> !ktdp.access_tile<8x8xindex>
  %ta0 = ktdp.construct_access_tile %A[%row0, 0] {access_tile_set = #sq8, access_tile_order = #id2} : memref<16x16xf16> -> !ktdp.access_tile<8x8xindex>
  // expected-error @+1 {{it reads part of the stored tensor, loaded from device memory that a store of the kernel may write}}
  %v1 = ktdp.load %tl1 : <8x8xindex> -> tensor<8x8xf16>
  ktdp.store %v1, %ta0 : tensor<8x8xf16>, <8x8xindex>
  return
}

// -----

// Each tile later writes its own scratchpad where its part lies; another
// tile may do so before this tile's read of that part.
#mat = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 15 >= 0)>
#part0 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 7 >= 0)>
#part1 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 - 8 >= 0, -d1 + 15 >= 0)>
#local = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 7 >= 0)>
#rows8 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 15 >= 0)>
#sq8 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 7 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @own_scratchpad_store(%a: index, %b: index) attributes {grid = [2]} {
  %id = ktdp.get_compute_tile_id : index
  %c8 = arith.constant 8 : index
  %row0 = arith.muli %id, %c8 : index
  %sp = arith.constant 512 : index
  %A = ktdp.construct_memory_view %a, sizes: [16, 16], strides: [16, 1] {coordinate_set = #mat, memory_space = #ktdp.memory_space<global>} : memref<16x16xf16>
  %B = ktdp.construct_memory_view %b, sizes: [16, 16], strides: [16, 1] {coordinate_set = #mat, memory_space = #ktdp.memory_space<global>} : memref<16x16xf16>
  %P0 = ktdp.construct_memory_view %sp, sizes: [16, 8], strides: [8, 1] {coordinate_set = #part0, memory_space = #ktdp.memory_space<ct_local, ct_id = 0>} : memref<16x8xf16>
  %P1 = ktdp.construct_memory_view %sp, sizes: [16, 8], strides: [8, 1] {coordinate_set = #part1, memory_space = #ktdp.memory_space<ct_local, ct_id = 1>} : memref<16x8xf16>
  %D = ktdp.construct_distributed_memory_view(%P0, %P1 : memref<16x8xf16>, memref<16x8xf16>) : memref<16x16xf16>
  %ta = ktdp.construct_access_tile %A[%row0, 0] {access_tile_set = #rows8, access_tile_order = #id2} : memref<16x16xf16> -> !ktdp.access_tile<8x16xindex>
  %td = ktdp.construct_access_tile %D[%row0, 0] {access_tile_set = #rows8, access_tile_order = #id2} : memref<16x16xf16> -> !ktdp.access_tile<8x16xindex>
  %rows = ktdp.load %ta : <8x16xindex> -> tensor<8x16xf16>
  ktdp.store %rows, %td : tensor<8x16xf16>, <8x16xindex>
  %L0 = ktdp.construct_memory_view %sp, sizes: [16, 8], strides: [8, 1] {coordinate_set = #local, memory_space = #ktdp.memory_space<ct_local, ct_id = 0>} : memref<16x8xf16>
  %tl0 = ktdp.construct_access_tile %L0[%row0, 0] {access_tile_set = #sq8, access_tile_order = #id2} : memref<16x8xf16> -> !ktdp.access_tile<8x8xindex>
  %tb0 = ktdp.construct_access_tile %B[%row0, 0] {access_tile_set = #sq8, access_tile_order = #id2} : memref<16x16xf16> -> !ktdp.access_tile<8x8xindex>
  %v0 = ktdp.load %tl0 : <8x8xindex> -> tensor<8x8xf16>
  ktdp.store %v0, %tb0 : tensor<8x8xf16>, <8x8xindex>
  %Own = ktdp.construct_memory_view %sp, sizes: [16, 8], strides: [8, 1] {coordinate_set = #local, memory_space = #ktdp.memory_space<ct_local>} : memref<16x8xf16>
  %to = ktdp.construct_access_tile %Own[0, 0] {access_tile_set = #sq8, access_tile_order = #id2} : memref<16x8xf16> -> !ktdp.access_tile<8x8xindex>
  // expected-error @+1 {{it may write the memory of a scratchpad part other than through the distributed view}}
  ktdp.store %v0, %to : tensor<8x8xf16>, <8x8xindex>
  return
}

// -----

// A second tile id on a grid of rank 1 (ktir-check-legality, later in the
// pipeline, refuses the kernel too) has no coordinate in a grid point: the
// anchor is unknown, not read past the point's coordinates.
#mat = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 15 >= 0)>
#part0 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 7 >= 0)>
#part1 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 - 8 >= 0, -d1 + 15 >= 0)>
#local = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 7 >= 0)>
#rows8 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 15 >= 0)>
#sq8 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 7 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @tile_id_beyond_grid(%a: index, %b: index) attributes {grid = [2]} {
  %x, %id = ktdp.get_compute_tile_id : index, index
  %c8 = arith.constant 8 : index
  %row0 = arith.muli %id, %c8 : index
  %sp = arith.constant 512 : index
  %A = ktdp.construct_memory_view %a, sizes: [16, 16], strides: [16, 1] {coordinate_set = #mat, memory_space = #ktdp.memory_space<global>} : memref<16x16xf16>
  %B = ktdp.construct_memory_view %b, sizes: [16, 16], strides: [16, 1] {coordinate_set = #mat, memory_space = #ktdp.memory_space<global>} : memref<16x16xf16>
  %P0 = ktdp.construct_memory_view %sp, sizes: [16, 8], strides: [8, 1] {coordinate_set = #part0, memory_space = #ktdp.memory_space<ct_local, ct_id = 0>} : memref<16x8xf16>
  %P1 = ktdp.construct_memory_view %sp, sizes: [16, 8], strides: [8, 1] {coordinate_set = #part1, memory_space = #ktdp.memory_space<ct_local, ct_id = 1>} : memref<16x8xf16>
  %D = ktdp.construct_distributed_memory_view(%P0, %P1 : memref<16x8xf16>, memref<16x8xf16>) : memref<16x16xf16>
  %ta = ktdp.construct_access_tile %A[%row0, 0] {access_tile_set = #rows8, access_tile_order = #id2} : memref<16x16xf16> -> !ktdp.access_tile<8x16xindex>
  // expected-error @+1 {{its anchor does not follow from the tile ids and constants}}
  %td = ktdp.construct_access_tile %D[%row0, 0] {access_tile_set = #rows8, access_tile_order = #id2} : memref<16x16xf16> -> !ktdp.access_tile<8x16xindex>
  %rows = ktdp.load %ta : <8x16xindex> -> tensor<8x16xf16>
  ktdp.store %rows, %td : tensor<8x16xf16>, <8x16xindex>
  %L0 = ktdp.construct_memory_view %sp, sizes: [16, 8], strides: [8, 1] {coordinate_set = #local, memory_space = #ktdp.memory_space<ct_local, ct_id = 0>} : memref<16x8xf16>
  %L1 = ktdp.construct_memory_view %sp, sizes: [16, 8], strides: [8, 1] {coordinate_set = #local, memory_space = #ktdp.memory_space<ct_local, ct_id = 1>} : memref<16x8xf16>
  %tl0 = ktdp.construct_access_tile %L0[%row0, 0] {access_tile_set = #sq8, access_tile_order = #id2} : memref<16x8xf16> -> !ktdp.access_tile<8x8xindex>
  %tl1 = ktdp.construct_access_tile %L1[%row0, 0] {access_tile_set = #sq8, access_tile_order = #id2} : memref<16x8xf16> -> !ktdp.access_tile<8x8xindex>
  %tb0 = ktdp.construct_access_tile %B[%row0, 0] {access_tile_set = #sq8, access_tile_order = #id2} : memref<16x16xf16> -> !ktdp.access_tile<8x8xindex>
  %tb1 = ktdp.construct_access_tile %B[%row0, 8] {access_tile_set = #sq8, access_tile_order = #id2} : memref<16x16xf16> -> !ktdp.access_tile<8x8xindex>
  %v0 = ktdp.load %tl0 : <8x8xindex> -> tensor<8x8xf16>
  %v1 = ktdp.load %tl1 : <8x8xindex> -> tensor<8x8xf16>
  ktdp.store %v0, %tb0 : tensor<8x8xf16>, <8x8xindex>
  ktdp.store %v1, %tb1 : tensor<8x8xf16>, <8x8xindex>
  return
}
