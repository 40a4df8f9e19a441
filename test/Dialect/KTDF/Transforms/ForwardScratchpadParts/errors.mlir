// RUN: ktflow-opt %s --ktdf-forward-scratchpad-parts --ktdf-resolve-distributed-views -split-input-file -verify-diagnostics
// RUN: ktflow-opt %s --ktdf-check-supported -split-input-file -verify-diagnostics

// A distributed view over scratchpad parts that ktdf-forward-scratchpad-parts
// cannot prove is refused by ktdf-resolve-distributed-views at the access
// that stops the proof, with the reason; ktdf-check-supported, run alone,
// says the same. Each case is column_parts (forward-scratchpad-parts.mlir)
// with one change.

// The stores overlap: tile t stores rows [4t, 4t + 8), so tile 1's read of
// rows [4, 8) sees tile 0's store or its own, whichever lands last.
#mat = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 15 >= 0)>
#part0 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 7 >= 0)>
#part1 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 - 8 >= 0, -d1 + 15 >= 0)>
#local = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 7 >= 0)>
#rows8 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 15 >= 0)>
#blk4 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 7 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @overlapping_stores(%a: index, %b: index) attributes {grid = [2]} {
  %id = ktdp.get_compute_tile_id : index
  %c4 = arith.constant 4 : index
  %row0 = arith.muli %id, %c4 : index
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
  %tl0 = ktdp.construct_access_tile %L0[%row0, 0] {access_tile_set = #blk4, access_tile_order = #id2} : memref<16x8xf16> -> !ktdp.access_tile<4x8xindex>
  %tb0 = ktdp.construct_access_tile %B[%row0, 0] {access_tile_set = #blk4, access_tile_order = #id2} : memref<16x16xf16> -> !ktdp.access_tile<4x8xindex>
  // expected-error @+1 {{two stores through the distributed view (by tiles 0 and 1) write what tile 1 reads; which lands last follows the interpreter's tile order}}
  %v0 = ktdp.load %tl0 : <4x8xindex> -> tensor<4x8xf16>
  ktdp.store %v0, %tb0 : tensor<4x8xf16>, <4x8xindex>
  return
}

// -----

// The read comes before the store (it reads what the scratchpad held).
#mat = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 15 >= 0)>
#part0 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 7 >= 0)>
#part1 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 - 8 >= 0, -d1 + 15 >= 0)>
#local = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 7 >= 0)>
#rows8 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 15 >= 0)>
#sq8 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 7 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @read_before_store(%a: index, %b: index) attributes {grid = [2]} {
  %id = ktdp.get_compute_tile_id : index
  %c8 = arith.constant 8 : index
  %row0 = arith.muli %id, %c8 : index
  %sp = arith.constant 512 : index
  %A = ktdp.construct_memory_view %a, sizes: [16, 16], strides: [16, 1] {coordinate_set = #mat, memory_space = #ktdp.memory_space<global>} : memref<16x16xf16>
  %B = ktdp.construct_memory_view %b, sizes: [16, 16], strides: [16, 1] {coordinate_set = #mat, memory_space = #ktdp.memory_space<global>} : memref<16x16xf16>
  %P0 = ktdp.construct_memory_view %sp, sizes: [16, 8], strides: [8, 1] {coordinate_set = #part0, memory_space = #ktdp.memory_space<ct_local, ct_id = 0>} : memref<16x8xf16>
  %P1 = ktdp.construct_memory_view %sp, sizes: [16, 8], strides: [8, 1] {coordinate_set = #part1, memory_space = #ktdp.memory_space<ct_local, ct_id = 1>} : memref<16x8xf16>
  %D = ktdp.construct_distributed_memory_view(%P0, %P1 : memref<16x8xf16>, memref<16x8xf16>) : memref<16x16xf16>
  %L0 = ktdp.construct_memory_view %sp, sizes: [16, 8], strides: [8, 1] {coordinate_set = #local, memory_space = #ktdp.memory_space<ct_local, ct_id = 0>} : memref<16x8xf16>
  %tl0 = ktdp.construct_access_tile %L0[%row0, 0] {access_tile_set = #sq8, access_tile_order = #id2} : memref<16x8xf16> -> !ktdp.access_tile<8x8xindex>
  // expected-error @+1 {{no store through the distributed view precedes it}}
  %v0 = ktdp.load %tl0 : <8x8xindex> -> tensor<8x8xf16>
  %ta = ktdp.construct_access_tile %A[%row0, 0] {access_tile_set = #rows8, access_tile_order = #id2} : memref<16x16xf16> -> !ktdp.access_tile<8x16xindex>
  %td = ktdp.construct_access_tile %D[%row0, 0] {access_tile_set = #rows8, access_tile_order = #id2} : memref<16x16xf16> -> !ktdp.access_tile<8x16xindex>
  %rows = ktdp.load %ta : <8x16xindex> -> tensor<8x16xf16>
  ktdp.store %rows, %td : tensor<8x16xf16>, <8x16xindex>
  %tb0 = ktdp.construct_access_tile %B[%row0, 0] {access_tile_set = #sq8, access_tile_order = #id2} : memref<16x16xf16> -> !ktdp.access_tile<8x8xindex>
  ktdp.store %v0, %tb0 : tensor<8x8xf16>, <8x8xindex>
  return
}

// -----

// The stored tensor is computed (a sum), and the read takes a slice of it.
#mat = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 15 >= 0)>
#part0 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 7 >= 0)>
#part1 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 - 8 >= 0, -d1 + 15 >= 0)>
#local = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 7 >= 0)>
#rows8 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 15 >= 0)>
#sq8 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 7 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @computed_slice(%a: index, %b: index) attributes {grid = [2]} {
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
  %twice = arith.addf %rows, %rows : tensor<8x16xf16>
  ktdp.store %twice, %td : tensor<8x16xf16>, <8x16xindex>
  %L1 = ktdp.construct_memory_view %sp, sizes: [16, 8], strides: [8, 1] {coordinate_set = #local, memory_space = #ktdp.memory_space<ct_local, ct_id = 1>} : memref<16x8xf16>
  %tl1 = ktdp.construct_access_tile %L1[%row0, 0] {access_tile_set = #sq8, access_tile_order = #id2} : memref<16x8xf16> -> !ktdp.access_tile<8x8xindex>
  %tb1 = ktdp.construct_access_tile %B[%row0, 8] {access_tile_set = #sq8, access_tile_order = #id2} : memref<16x16xf16> -> !ktdp.access_tile<8x8xindex>
  // expected-error @+1 {{it reads part of the stored tensor, which is not a load of a box of device memory inside its view}}
  %v1 = ktdp.load %tl1 : <8x8xindex> -> tensor<8x8xf16>
  ktdp.store %v1, %tb1 : tensor<8x8xf16>, <8x8xindex>
  return
}

// -----

// The read is in a loop.
#mat = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 15 >= 0)>
#part0 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 7 >= 0)>
#part1 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 - 8 >= 0, -d1 + 15 >= 0)>
#local = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 7 >= 0)>
#rows8 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 15 >= 0)>
#row1 = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 7 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @read_in_loop(%a: index, %b: index) attributes {grid = [2]} {
  %id = ktdp.get_compute_tile_id : index
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
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
  scf.for %i = %c0 to %c8 step %c1 {
    %r = arith.addi %row0, %i : index
    %tl0 = ktdp.construct_access_tile %L0[%r, 0] {access_tile_set = #row1, access_tile_order = #id2} : memref<16x8xf16> -> !ktdp.access_tile<1x8xindex>
    %tb0 = ktdp.construct_access_tile %B[%r, 0] {access_tile_set = #row1, access_tile_order = #id2} : memref<16x16xf16> -> !ktdp.access_tile<1x8xindex>
    // expected-error @+1 {{it is in a loop or a branch}}
    %v0 = ktdp.load %tl0 : <1x8xindex> -> tensor<1x8xf16>
    ktdp.store %v0, %tb0 : tensor<1x8xf16>, <1x8xindex>
  }
  return
}

// -----

// The exchange of copies.mlir with the read before the store: a tile
// earlier in tile order than its writer would read the scratchpad before
// the writer stored, a later one after (the interpreter yields before each
// load, not before stores), which no compiled order reproduces.
#mat = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 15 >= 0)>
#part0 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 15 >= 0)>
#part1 = affine_set<(d0, d1) : (d0 - 4 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 15 >= 0)>
#part2 = affine_set<(d0, d1) : (d0 - 8 >= 0, -d0 + 11 >= 0, d1 >= 0, -d1 + 15 >= 0)>
#part3 = affine_set<(d0, d1) : (d0 - 12 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 15 >= 0)>
#rows4 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 15 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @store_after_read(%a: index, %b: index) attributes {grid = [4]} {
  %id = ktdp.get_compute_tile_id : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %row0 = arith.muli %id, %c4 : index
  %next = arith.addi %id, %c1 : index
  %neighbour = arith.remui %next, %c4 : index
  %nrow0 = arith.muli %neighbour, %c4 : index
  %sp = arith.constant 512 : index
  %A = ktdp.construct_memory_view %a, sizes: [16, 16], strides: [16, 1] {coordinate_set = #mat, memory_space = #ktdp.memory_space<global>} : memref<16x16xf16>
  %B = ktdp.construct_memory_view %b, sizes: [16, 16], strides: [16, 1] {coordinate_set = #mat, memory_space = #ktdp.memory_space<global>} : memref<16x16xf16>
  %P0 = ktdp.construct_memory_view %sp, sizes: [4, 16], strides: [16, 1] {coordinate_set = #part0, memory_space = #ktdp.memory_space<ct_local, ct_id = 0>} : memref<4x16xf16>
  %P1 = ktdp.construct_memory_view %sp, sizes: [4, 16], strides: [16, 1] {coordinate_set = #part1, memory_space = #ktdp.memory_space<ct_local, ct_id = 1>} : memref<4x16xf16>
  %P2 = ktdp.construct_memory_view %sp, sizes: [4, 16], strides: [16, 1] {coordinate_set = #part2, memory_space = #ktdp.memory_space<ct_local, ct_id = 2>} : memref<4x16xf16>
  %P3 = ktdp.construct_memory_view %sp, sizes: [4, 16], strides: [16, 1] {coordinate_set = #part3, memory_space = #ktdp.memory_space<ct_local, ct_id = 3>} : memref<4x16xf16>
  %D = ktdp.construct_distributed_memory_view(%P0, %P1, %P2, %P3 : memref<4x16xf16>, memref<4x16xf16>, memref<4x16xf16>, memref<4x16xf16>) : memref<16x16xf16>
  %ta = ktdp.construct_access_tile %A[%row0, 0] {access_tile_set = #rows4, access_tile_order = #id2} : memref<16x16xf16> -> !ktdp.access_tile<4x16xindex>
  %td = ktdp.construct_access_tile %D[%nrow0, 0] {access_tile_set = #rows4, access_tile_order = #id2} : memref<16x16xf16> -> !ktdp.access_tile<4x16xindex>
  %L = ktdp.construct_memory_view %sp, sizes: [4, 16], strides: [16, 1] {coordinate_set = #rows4, memory_space = #ktdp.memory_space<ct_local>} : memref<4x16xf16>
  %tl = ktdp.construct_access_tile %L[0, 0] {access_tile_set = #rows4, access_tile_order = #id2} : memref<4x16xf16> -> !ktdp.access_tile<4x16xindex>
  %tb = ktdp.construct_access_tile %B[%row0, 0] {access_tile_set = #rows4, access_tile_order = #id2} : memref<16x16xf16> -> !ktdp.access_tile<4x16xindex>
  %block = ktdp.load %ta : <4x16xindex> -> tensor<4x16xf16>
  // expected-error @+1 {{it reads what another tile stores after it in program order: whether it sees the store follows the interpreter's tile order, which a compiled kernel does not reproduce}}
  %received = ktdp.load %tl : <4x16xindex> -> tensor<4x16xf16>
  ktdp.store %block, %td : tensor<4x16xf16>, <4x16xindex>
  ktdp.store %received, %tb : tensor<4x16xf16>, <4x16xindex>
  return
}

// -----

// Tiles 0, 1, 2 write their neighbour's part around a ring of three and
// tile 3 its own: tile c reads from tile (2, 0, 1, 3)[c], which is not
// (a * c + b) mod 4 for any a, b (an inter-tile consume states its producer
// with an affine set).
#mat = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 15 >= 0)>
#part0 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 15 >= 0)>
#part1 = affine_set<(d0, d1) : (d0 - 4 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 15 >= 0)>
#part2 = affine_set<(d0, d1) : (d0 - 8 >= 0, -d0 + 11 >= 0, d1 >= 0, -d1 + 15 >= 0)>
#part3 = affine_set<(d0, d1) : (d0 - 12 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 15 >= 0)>
#rows4 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 15 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @sources_not_affine(%a: index, %b: index) attributes {grid = [4]} {
  %id = ktdp.get_compute_tile_id : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %row0 = arith.muli %id, %c4 : index
  %next = arith.addi %id, %c1 : index
  %ring = arith.remui %next, %c3 : index
  %last = arith.cmpi eq, %id, %c3 : index
  %neighbour = arith.select %last, %c3, %ring : index
  %nrow0 = arith.muli %neighbour, %c4 : index
  %sp = arith.constant 512 : index
  %A = ktdp.construct_memory_view %a, sizes: [16, 16], strides: [16, 1] {coordinate_set = #mat, memory_space = #ktdp.memory_space<global>} : memref<16x16xf16>
  %B = ktdp.construct_memory_view %b, sizes: [16, 16], strides: [16, 1] {coordinate_set = #mat, memory_space = #ktdp.memory_space<global>} : memref<16x16xf16>
  %P0 = ktdp.construct_memory_view %sp, sizes: [4, 16], strides: [16, 1] {coordinate_set = #part0, memory_space = #ktdp.memory_space<ct_local, ct_id = 0>} : memref<4x16xf16>
  %P1 = ktdp.construct_memory_view %sp, sizes: [4, 16], strides: [16, 1] {coordinate_set = #part1, memory_space = #ktdp.memory_space<ct_local, ct_id = 1>} : memref<4x16xf16>
  %P2 = ktdp.construct_memory_view %sp, sizes: [4, 16], strides: [16, 1] {coordinate_set = #part2, memory_space = #ktdp.memory_space<ct_local, ct_id = 2>} : memref<4x16xf16>
  %P3 = ktdp.construct_memory_view %sp, sizes: [4, 16], strides: [16, 1] {coordinate_set = #part3, memory_space = #ktdp.memory_space<ct_local, ct_id = 3>} : memref<4x16xf16>
  %D = ktdp.construct_distributed_memory_view(%P0, %P1, %P2, %P3 : memref<4x16xf16>, memref<4x16xf16>, memref<4x16xf16>, memref<4x16xf16>) : memref<16x16xf16>
  %ta = ktdp.construct_access_tile %A[%row0, 0] {access_tile_set = #rows4, access_tile_order = #id2} : memref<16x16xf16> -> !ktdp.access_tile<4x16xindex>
  %td = ktdp.construct_access_tile %D[%nrow0, 0] {access_tile_set = #rows4, access_tile_order = #id2} : memref<16x16xf16> -> !ktdp.access_tile<4x16xindex>
  %L = ktdp.construct_memory_view %sp, sizes: [4, 16], strides: [16, 1] {coordinate_set = #rows4, memory_space = #ktdp.memory_space<ct_local>} : memref<4x16xf16>
  %tl = ktdp.construct_access_tile %L[0, 0] {access_tile_set = #rows4, access_tile_order = #id2} : memref<4x16xf16> -> !ktdp.access_tile<4x16xindex>
  %tb = ktdp.construct_access_tile %B[%row0, 0] {access_tile_set = #rows4, access_tile_order = #id2} : memref<16x16xf16> -> !ktdp.access_tile<4x16xindex>
  %block = ktdp.load %ta : <4x16xindex> -> tensor<4x16xf16>
  ktdp.store %block, %td : tensor<4x16xf16>, <4x16xindex>
  // expected-error @+1 {{the tile each tile reads from is not (a * t + b) mod 4 of the reading tile t, which is what an inter-tile copy can express}}
  %received = ktdp.load %tl : <4x16xindex> -> tensor<4x16xf16>
  ktdp.store %received, %tb : tensor<4x16xf16>, <4x16xindex>
  return
}

// -----

// The exchange of copies.mlir where tile t stores only the left half of its
// block (4x8) into its neighbour's part, but every tile reads its whole
// part (4x16): the right half is what nobody stored.
#mat = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 15 >= 0)>
#part0 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 15 >= 0)>
#part1 = affine_set<(d0, d1) : (d0 - 4 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 15 >= 0)>
#part2 = affine_set<(d0, d1) : (d0 - 8 >= 0, -d0 + 11 >= 0, d1 >= 0, -d1 + 15 >= 0)>
#part3 = affine_set<(d0, d1) : (d0 - 12 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 15 >= 0)>
#rows4 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 15 >= 0)>
#half = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 7 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @reads_past_the_store(%a: index, %b: index) attributes {grid = [4]} {
  %id = ktdp.get_compute_tile_id : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %row0 = arith.muli %id, %c4 : index
  %next = arith.addi %id, %c1 : index
  %neighbour = arith.remui %next, %c4 : index
  %nrow0 = arith.muli %neighbour, %c4 : index
  %sp = arith.constant 512 : index
  %A = ktdp.construct_memory_view %a, sizes: [16, 16], strides: [16, 1] {coordinate_set = #mat, memory_space = #ktdp.memory_space<global>} : memref<16x16xf16>
  %B = ktdp.construct_memory_view %b, sizes: [16, 16], strides: [16, 1] {coordinate_set = #mat, memory_space = #ktdp.memory_space<global>} : memref<16x16xf16>
  %P0 = ktdp.construct_memory_view %sp, sizes: [4, 16], strides: [16, 1] {coordinate_set = #part0, memory_space = #ktdp.memory_space<ct_local, ct_id = 0>} : memref<4x16xf16>
  %P1 = ktdp.construct_memory_view %sp, sizes: [4, 16], strides: [16, 1] {coordinate_set = #part1, memory_space = #ktdp.memory_space<ct_local, ct_id = 1>} : memref<4x16xf16>
  %P2 = ktdp.construct_memory_view %sp, sizes: [4, 16], strides: [16, 1] {coordinate_set = #part2, memory_space = #ktdp.memory_space<ct_local, ct_id = 2>} : memref<4x16xf16>
  %P3 = ktdp.construct_memory_view %sp, sizes: [4, 16], strides: [16, 1] {coordinate_set = #part3, memory_space = #ktdp.memory_space<ct_local, ct_id = 3>} : memref<4x16xf16>
  %D = ktdp.construct_distributed_memory_view(%P0, %P1, %P2, %P3 : memref<4x16xf16>, memref<4x16xf16>, memref<4x16xf16>, memref<4x16xf16>) : memref<16x16xf16>
  %ta = ktdp.construct_access_tile %A[%row0, 0] {access_tile_set = #half, access_tile_order = #id2} : memref<16x16xf16> -> !ktdp.access_tile<4x8xindex>
  %td = ktdp.construct_access_tile %D[%nrow0, 0] {access_tile_set = #half, access_tile_order = #id2} : memref<16x16xf16> -> !ktdp.access_tile<4x8xindex>
  %L = ktdp.construct_memory_view %sp, sizes: [4, 16], strides: [16, 1] {coordinate_set = #rows4, memory_space = #ktdp.memory_space<ct_local>} : memref<4x16xf16>
  %tl = ktdp.construct_access_tile %L[0, 0] {access_tile_set = #rows4, access_tile_order = #id2} : memref<4x16xf16> -> !ktdp.access_tile<4x16xindex>
  %tb = ktdp.construct_access_tile %B[%row0, 0] {access_tile_set = #rows4, access_tile_order = #id2} : memref<16x16xf16> -> !ktdp.access_tile<4x16xindex>
  %block = ktdp.load %ta : <4x8xindex> -> tensor<4x8xf16>
  ktdp.store %block, %td : tensor<4x8xf16>, <4x8xindex>
  // expected-error @+1 {{tile 0 reads elements no store through the distributed view writes (past what tile 3 stored)}}
  %received = ktdp.load %tl : <4x16xindex> -> tensor<4x16xf16>
  ktdp.store %received, %tb : tensor<4x16xf16>, <4x16xindex>
  return
}

// -----

// The exchange of copies.mlir with a loop of loads whose trip count is an
// argument between the store and the read: tiles may make different
// numbers of loads before it, so the interpreter's lockstep no longer
// guarantees the writer stored first.
#mat = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 15 >= 0)>
#part0 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 15 >= 0)>
#part1 = affine_set<(d0, d1) : (d0 - 4 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 15 >= 0)>
#part2 = affine_set<(d0, d1) : (d0 - 8 >= 0, -d0 + 11 >= 0, d1 >= 0, -d1 + 15 >= 0)>
#part3 = affine_set<(d0, d1) : (d0 - 12 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 15 >= 0)>
#rows4 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 15 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @after_uneven_loads(%a: index, %b: index, %n: index) attributes {grid = [4]} {
  %id = ktdp.get_compute_tile_id : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %row0 = arith.muli %id, %c4 : index
  %next = arith.addi %id, %c1 : index
  %neighbour = arith.remui %next, %c4 : index
  %nrow0 = arith.muli %neighbour, %c4 : index
  %sp = arith.constant 512 : index
  %A = ktdp.construct_memory_view %a, sizes: [16, 16], strides: [16, 1] {coordinate_set = #mat, memory_space = #ktdp.memory_space<global>} : memref<16x16xf16>
  %B = ktdp.construct_memory_view %b, sizes: [16, 16], strides: [16, 1] {coordinate_set = #mat, memory_space = #ktdp.memory_space<global>} : memref<16x16xf16>
  %P0 = ktdp.construct_memory_view %sp, sizes: [4, 16], strides: [16, 1] {coordinate_set = #part0, memory_space = #ktdp.memory_space<ct_local, ct_id = 0>} : memref<4x16xf16>
  %P1 = ktdp.construct_memory_view %sp, sizes: [4, 16], strides: [16, 1] {coordinate_set = #part1, memory_space = #ktdp.memory_space<ct_local, ct_id = 1>} : memref<4x16xf16>
  %P2 = ktdp.construct_memory_view %sp, sizes: [4, 16], strides: [16, 1] {coordinate_set = #part2, memory_space = #ktdp.memory_space<ct_local, ct_id = 2>} : memref<4x16xf16>
  %P3 = ktdp.construct_memory_view %sp, sizes: [4, 16], strides: [16, 1] {coordinate_set = #part3, memory_space = #ktdp.memory_space<ct_local, ct_id = 3>} : memref<4x16xf16>
  %D = ktdp.construct_distributed_memory_view(%P0, %P1, %P2, %P3 : memref<4x16xf16>, memref<4x16xf16>, memref<4x16xf16>, memref<4x16xf16>) : memref<16x16xf16>
  %ta = ktdp.construct_access_tile %A[%row0, 0] {access_tile_set = #rows4, access_tile_order = #id2} : memref<16x16xf16> -> !ktdp.access_tile<4x16xindex>
  %td = ktdp.construct_access_tile %D[%nrow0, 0] {access_tile_set = #rows4, access_tile_order = #id2} : memref<16x16xf16> -> !ktdp.access_tile<4x16xindex>
  %L = ktdp.construct_memory_view %sp, sizes: [4, 16], strides: [16, 1] {coordinate_set = #rows4, memory_space = #ktdp.memory_space<ct_local>} : memref<4x16xf16>
  %tl = ktdp.construct_access_tile %L[0, 0] {access_tile_set = #rows4, access_tile_order = #id2} : memref<4x16xf16> -> !ktdp.access_tile<4x16xindex>
  %tb = ktdp.construct_access_tile %B[%row0, 0] {access_tile_set = #rows4, access_tile_order = #id2} : memref<16x16xf16> -> !ktdp.access_tile<4x16xindex>
  %block = ktdp.load %ta : <4x16xindex> -> tensor<4x16xf16>
  ktdp.store %block, %td : tensor<4x16xf16>, <4x16xindex>
  %c0 = arith.constant 0 : index
  scf.for %i = %c0 to %n step %c1 {
    %again = ktdp.load %ta : <4x16xindex> -> tensor<4x16xf16>
  }
  // expected-error @+1 {{it reads another tile's store after loads that not every tile makes equally often (in a branch, or a loop with bounds that are not constants), so the writer may not have stored yet}}
  %received = ktdp.load %tl : <4x16xindex> -> tensor<4x16xf16>
  ktdp.store %received, %tb : tensor<4x16xf16>, <4x16xindex>
  return
}

// -----

// The exchange of copies.mlir with a broadcast of tile 0's block before the
// read: a tile waiting in the exchange is held back, so the lockstep
// argument does not hold.
#mat = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 15 >= 0)>
#part0 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 15 >= 0)>
#part1 = affine_set<(d0, d1) : (d0 - 4 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 15 >= 0)>
#part2 = affine_set<(d0, d1) : (d0 - 8 >= 0, -d0 + 11 >= 0, d1 >= 0, -d1 + 15 >= 0)>
#part3 = affine_set<(d0, d1) : (d0 - 12 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 15 >= 0)>
#rows4 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 15 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @after_an_exchange(%a: index, %b: index) attributes {grid = [4]} {
  %id = ktdp.get_compute_tile_id : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %row0 = arith.muli %id, %c4 : index
  %next = arith.addi %id, %c1 : index
  %neighbour = arith.remui %next, %c4 : index
  %nrow0 = arith.muli %neighbour, %c4 : index
  %sp = arith.constant 512 : index
  %A = ktdp.construct_memory_view %a, sizes: [16, 16], strides: [16, 1] {coordinate_set = #mat, memory_space = #ktdp.memory_space<global>} : memref<16x16xf16>
  %B = ktdp.construct_memory_view %b, sizes: [16, 16], strides: [16, 1] {coordinate_set = #mat, memory_space = #ktdp.memory_space<global>} : memref<16x16xf16>
  %P0 = ktdp.construct_memory_view %sp, sizes: [4, 16], strides: [16, 1] {coordinate_set = #part0, memory_space = #ktdp.memory_space<ct_local, ct_id = 0>} : memref<4x16xf16>
  %P1 = ktdp.construct_memory_view %sp, sizes: [4, 16], strides: [16, 1] {coordinate_set = #part1, memory_space = #ktdp.memory_space<ct_local, ct_id = 1>} : memref<4x16xf16>
  %P2 = ktdp.construct_memory_view %sp, sizes: [4, 16], strides: [16, 1] {coordinate_set = #part2, memory_space = #ktdp.memory_space<ct_local, ct_id = 2>} : memref<4x16xf16>
  %P3 = ktdp.construct_memory_view %sp, sizes: [4, 16], strides: [16, 1] {coordinate_set = #part3, memory_space = #ktdp.memory_space<ct_local, ct_id = 3>} : memref<4x16xf16>
  %D = ktdp.construct_distributed_memory_view(%P0, %P1, %P2, %P3 : memref<4x16xf16>, memref<4x16xf16>, memref<4x16xf16>, memref<4x16xf16>) : memref<16x16xf16>
  %ta = ktdp.construct_access_tile %A[%row0, 0] {access_tile_set = #rows4, access_tile_order = #id2} : memref<16x16xf16> -> !ktdp.access_tile<4x16xindex>
  %td = ktdp.construct_access_tile %D[%nrow0, 0] {access_tile_set = #rows4, access_tile_order = #id2} : memref<16x16xf16> -> !ktdp.access_tile<4x16xindex>
  %L = ktdp.construct_memory_view %sp, sizes: [4, 16], strides: [16, 1] {coordinate_set = #rows4, memory_space = #ktdp.memory_space<ct_local>} : memref<4x16xf16>
  %tl = ktdp.construct_access_tile %L[0, 0] {access_tile_set = #rows4, access_tile_order = #id2} : memref<4x16xf16> -> !ktdp.access_tile<4x16xindex>
  %tb = ktdp.construct_access_tile %B[%row0, 0] {access_tile_set = #rows4, access_tile_order = #id2} : memref<16x16xf16> -> !ktdp.access_tile<4x16xindex>
  %block = ktdp.load %ta : <4x16xindex> -> tensor<4x16xf16>
  ktdp.store %block, %td : tensor<4x16xf16>, <4x16xindex>
  %f = ktdp.inter_tile_produce producer_tiles_per_group = affine_set<(d0)[s0] : (d0 >= 0, -d0 + 3 >= 0, s0 == 0)> -> <(tensor<4x16xf16>), groups = affine_set<(d0) : (d0 == 0)>> {
  ^bb0(%g: index):
    ktdp.yield_partial %block : tensor<4x16xf16>
  }
  %first = ktdp.inter_tile_consume(%f) consumer_tiles_per_group = affine_set<(d0)[s0] : (d0 >= 0, -d0 + 3 >= 0, s0 == 0)>, producer_dependency_per_consumer = affine_set<(d0)[s0] : (d0 == 0)> : <(tensor<4x16xf16>), groups = affine_set<(d0) : (d0 == 0)>> -> tensor<4x16xf16>
  // expected-error @+1 {{it reads another tile's store after an inter-tile exchange, where the writer may still wait}}
  %received = ktdp.load %tl : <4x16xindex> -> tensor<4x16xf16>
  %sum = arith.addf %received, %first : tensor<4x16xf16>
  ktdp.store %sum, %tb : tensor<4x16xf16>, <4x16xindex>
  return
}

// -----

// The exchange of copies.mlir on a grid of 8: tiles 4-7 read their own
// scratchpads, which hold no part of the view (the parts are tiles 0-3's).
#mat = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 15 >= 0)>
#part0 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 15 >= 0)>
#part1 = affine_set<(d0, d1) : (d0 - 4 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 15 >= 0)>
#part2 = affine_set<(d0, d1) : (d0 - 8 >= 0, -d0 + 11 >= 0, d1 >= 0, -d1 + 15 >= 0)>
#part3 = affine_set<(d0, d1) : (d0 - 12 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 15 >= 0)>
#rows4 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 15 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @tile_without_a_part(%a: index, %b: index) attributes {grid = [8]} {
  %id = ktdp.get_compute_tile_id : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %row0 = arith.muli %id, %c4 : index
  %next = arith.addi %id, %c1 : index
  %neighbour = arith.remui %next, %c4 : index
  %nrow0 = arith.muli %neighbour, %c4 : index
  %sp = arith.constant 512 : index
  %A = ktdp.construct_memory_view %a, sizes: [16, 16], strides: [16, 1] {coordinate_set = #mat, memory_space = #ktdp.memory_space<global>} : memref<16x16xf16>
  %B = ktdp.construct_memory_view %b, sizes: [16, 16], strides: [16, 1] {coordinate_set = #mat, memory_space = #ktdp.memory_space<global>} : memref<16x16xf16>
  %P0 = ktdp.construct_memory_view %sp, sizes: [4, 16], strides: [16, 1] {coordinate_set = #part0, memory_space = #ktdp.memory_space<ct_local, ct_id = 0>} : memref<4x16xf16>
  %P1 = ktdp.construct_memory_view %sp, sizes: [4, 16], strides: [16, 1] {coordinate_set = #part1, memory_space = #ktdp.memory_space<ct_local, ct_id = 1>} : memref<4x16xf16>
  %P2 = ktdp.construct_memory_view %sp, sizes: [4, 16], strides: [16, 1] {coordinate_set = #part2, memory_space = #ktdp.memory_space<ct_local, ct_id = 2>} : memref<4x16xf16>
  %P3 = ktdp.construct_memory_view %sp, sizes: [4, 16], strides: [16, 1] {coordinate_set = #part3, memory_space = #ktdp.memory_space<ct_local, ct_id = 3>} : memref<4x16xf16>
  %D = ktdp.construct_distributed_memory_view(%P0, %P1, %P2, %P3 : memref<4x16xf16>, memref<4x16xf16>, memref<4x16xf16>, memref<4x16xf16>) : memref<16x16xf16>
  %ta = ktdp.construct_access_tile %A[%row0, 0] {access_tile_set = #rows4, access_tile_order = #id2} : memref<16x16xf16> -> !ktdp.access_tile<4x16xindex>
  %td = ktdp.construct_access_tile %D[%nrow0, 0] {access_tile_set = #rows4, access_tile_order = #id2} : memref<16x16xf16> -> !ktdp.access_tile<4x16xindex>
  %block = ktdp.load %ta : <4x16xindex> -> tensor<4x16xf16>
  ktdp.store %block, %td : tensor<4x16xf16>, <4x16xindex>
  %L = ktdp.construct_memory_view %sp, sizes: [4, 16], strides: [16, 1] {coordinate_set = #rows4, memory_space = #ktdp.memory_space<ct_local>} : memref<4x16xf16>
  %tl = ktdp.construct_access_tile %L[0, 0] {access_tile_set = #rows4, access_tile_order = #id2} : memref<4x16xf16> -> !ktdp.access_tile<4x16xindex>
  %tb = ktdp.construct_access_tile %B[%row0, 0] {access_tile_set = #rows4, access_tile_order = #id2} : memref<16x16xf16> -> !ktdp.access_tile<4x16xindex>
  // expected-error @+1 {{on tile 4 it reads its own scratchpad, where no part of the distributed view lies laid out as its view (the same address, sizes, strides and element type)}}
  %received = ktdp.load %tl : <4x16xindex> -> tensor<4x16xf16>
  ktdp.store %received, %tb : tensor<4x16xf16>, <4x16xindex>
  return
}
