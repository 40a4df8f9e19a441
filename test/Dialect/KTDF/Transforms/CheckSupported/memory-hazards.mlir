// RUN: ktflow-opt %s --ktdf-check-supported -split-input-file -verify-diagnostics

// Loads of a tensor the kernel also writes where a store may touch the same
// elements: only loads of a tile that stores in the same block write, on a
// tile that changes with every loop and grid point, are accepted: an
// in-place update (load, then store), or a reload of what an earlier store
// wrote (the lowering orders the two groups; ktir-to-ktdf refuses one group
// doing both).

#mat = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#row = affine_set<(d0, d1) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @in_place(%x: index) attributes {grid = [4]} {
  %id = ktdp.get_compute_tile_id : index
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %first = arith.muli %id, %c16 : index
  %X = ktdp.construct_memory_view %x, sizes: [64, 64], strides: [64, 1] {coordinate_set = #mat, memory_space = #ktdp.memory_space<global>} : memref<64x64xf16>
  scf.for %i = %c0 to %c16 step %c1 {
    %t = ktdp.construct_access_tile %X[%first + %i, 0] {access_tile_set = #row, access_tile_order = #id} : memref<64x64xf16> -> !ktdp.access_tile<1x64xindex>
    %v = ktdp.load %t : <1x64xindex> -> tensor<1x64xf16>
    %w = arith.addf %v, %v : tensor<1x64xf16>
    ktdp.store %w, %t : tensor<1x64xf16>, <1x64xindex>
  }
  return
}

// -----

#mat = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#row = affine_set<(d0, d1) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#id = affine_map<(d0, d1) -> (d0, d1)>
// A reload of the tile a store of the block wrote: accepted here.
func.func @store_then_load(%x: index, %y: index) attributes {grid = [1]} {
  %X = ktdp.construct_memory_view %x, sizes: [64, 64], strides: [64, 1] {coordinate_set = #mat, memory_space = #ktdp.memory_space<global>} : memref<64x64xf16>
  %Y = ktdp.construct_memory_view %y, sizes: [64, 64], strides: [64, 1] {coordinate_set = #mat, memory_space = #ktdp.memory_space<global>} : memref<64x64xf16>
  %tx = ktdp.construct_access_tile %X[0, 0] {access_tile_set = #row, access_tile_order = #id} : memref<64x64xf16> -> !ktdp.access_tile<1x64xindex>
  %ty = ktdp.construct_access_tile %Y[0, 0] {access_tile_set = #row, access_tile_order = #id} : memref<64x64xf16> -> !ktdp.access_tile<1x64xindex>
  %v = ktdp.load %tx : <1x64xindex> -> tensor<1x64xf16>
  ktdp.store %v, %ty : tensor<1x64xf16>, <1x64xindex>
  %w = ktdp.load %ty : <1x64xindex> -> tensor<1x64xf16>
  %s = arith.addf %v, %w : tensor<1x64xf16>
  ktdp.store %s, %tx : tensor<1x64xf16>, <1x64xindex>
  return
}

// -----

// A recurrence: iteration i reads the row iteration i - 1 stored.
#mat = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#row = affine_set<(d0, d1) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @recurrence(%c: index) attributes {grid = [1]} {
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %C = ktdp.construct_memory_view %c, sizes: [64, 64], strides: [64, 1] {coordinate_set = #mat, memory_space = #ktdp.memory_space<global>} : memref<64x64xf16>
  scf.for %i = %c1 to %c64 step %c1 {
    %p = arith.subi %i, %c1 : index
    %tp = ktdp.construct_access_tile %C[%p, 0] {access_tile_set = #row, access_tile_order = #id} : memref<64x64xf16> -> !ktdp.access_tile<1x64xindex>
    %tc = ktdp.construct_access_tile %C[%i, 0] {access_tile_set = #row, access_tile_order = #id} : memref<64x64xf16> -> !ktdp.access_tile<1x64xindex>
    // expected-error @+1 {{loads of a tensor that the kernel also writes}}
    %v = ktdp.load %tp : <1x64xindex> -> tensor<1x64xf16>
    %w = arith.addf %v, %v : tensor<1x64xf16>
    ktdp.store %w, %tc : tensor<1x64xf16>, <1x64xindex>
  }
  return
}

// -----

// In place, but the same tile at every iteration (an accumulator in memory).
#mat = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#row = affine_set<(d0, d1) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @invariant_in_loop(%x: index) attributes {grid = [1]} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %X = ktdp.construct_memory_view %x, sizes: [64, 64], strides: [64, 1] {coordinate_set = #mat, memory_space = #ktdp.memory_space<global>} : memref<64x64xf16>
  scf.for %i = %c0 to %c8 step %c1 {
    %t = ktdp.construct_access_tile %X[0, 0] {access_tile_set = #row, access_tile_order = #id} : memref<64x64xf16> -> !ktdp.access_tile<1x64xindex>
    // expected-error @+1 {{loads of a tensor that the kernel also writes}}
    %v = ktdp.load %t : <1x64xindex> -> tensor<1x64xf16>
    %w = arith.addf %v, %v : tensor<1x64xf16>
    ktdp.store %w, %t : tensor<1x64xf16>, <1x64xindex>
  }
  return
}

// -----

// In place, but every grid point updates the same tile.
#mat = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#row = affine_set<(d0, d1) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @invariant_in_grid(%x: index) attributes {grid = [4]} {
  %X = ktdp.construct_memory_view %x, sizes: [64, 64], strides: [64, 1] {coordinate_set = #mat, memory_space = #ktdp.memory_space<global>} : memref<64x64xf16>
  %t = ktdp.construct_access_tile %X[0, 0] {access_tile_set = #row, access_tile_order = #id} : memref<64x64xf16> -> !ktdp.access_tile<1x64xindex>
  // expected-error @+1 {{loads of a tensor that the kernel also writes}}
  %v = ktdp.load %t : <1x64xindex> -> tensor<1x64xf16>
  %w = arith.addf %v, %v : tensor<1x64xf16>
  ktdp.store %w, %t : tensor<1x64xf16>, <1x64xindex>
  return
}

// -----

// In place under an [N, 1] grid with a single tile id (the real-world
// spelling): the id is the linear tile id, so every grid point updates its
// own row.
#mat = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#row = affine_set<(d0, d1) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @in_place_n_by_1(%x: index) attributes {grid = [64, 1]} {
  %tid = ktdp.get_compute_tile_id : index
  %X = ktdp.construct_memory_view %x, sizes: [64, 64], strides: [64, 1] {coordinate_set = #mat, memory_space = #ktdp.memory_space<global>} : memref<64x64xf16>
  %t = ktdp.construct_access_tile %X[%tid, 0] {access_tile_set = #row, access_tile_order = #id} : memref<64x64xf16> -> !ktdp.access_tile<1x64xindex>
  %v = ktdp.load %t : <1x64xindex> -> tensor<1x64xf16>
  %w = arith.addf %v, %v : tensor<1x64xf16>
  ktdp.store %w, %t : tensor<1x64xf16>, <1x64xindex>
  return
}

// -----

// One id under a [32, 2] grid is x only: grid points (x, 0) and (x, 1)
// update the same row.
#mat = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#row = affine_set<(d0, d1) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @in_place_fewer_ids(%x: index) attributes {grid = [32, 2]} {
  %tid = ktdp.get_compute_tile_id : index
  %X = ktdp.construct_memory_view %x, sizes: [64, 64], strides: [64, 1] {coordinate_set = #mat, memory_space = #ktdp.memory_space<global>} : memref<64x64xf16>
  %t = ktdp.construct_access_tile %X[%tid, 0] {access_tile_set = #row, access_tile_order = #id} : memref<64x64xf16> -> !ktdp.access_tile<1x64xindex>
  // expected-error @+1 {{loads of a tensor that the kernel also writes}}
  %v = ktdp.load %t : <1x64xindex> -> tensor<1x64xf16>
  %w = arith.addf %v, %v : tensor<1x64xf16>
  ktdp.store %w, %t : tensor<1x64xf16>, <1x64xindex>
  return
}

// -----

// Both ids asked for but only x used: the same collision.
#mat = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#row = affine_set<(d0, d1) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @in_place_unused_y(%x: index) attributes {grid = [32, 2]} {
  %px, %py = ktdp.get_compute_tile_id : index, index
  %X = ktdp.construct_memory_view %x, sizes: [64, 64], strides: [64, 1] {coordinate_set = #mat, memory_space = #ktdp.memory_space<global>} : memref<64x64xf16>
  %t = ktdp.construct_access_tile %X[%px, 0] {access_tile_set = #row, access_tile_order = #id} : memref<64x64xf16> -> !ktdp.access_tile<1x64xindex>
  // expected-error @+1 {{loads of a tensor that the kernel also writes}}
  %v = ktdp.load %t : <1x64xindex> -> tensor<1x64xf16>
  %w = arith.addf %v, %v : tensor<1x64xf16>
  ktdp.store %w, %t : tensor<1x64xf16>, <1x64xindex>
  return
}

// -----

// Both ids used: every grid point updates its own row.
#mat = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#row = affine_set<(d0, d1) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @in_place_both_ids(%x: index) attributes {grid = [32, 2]} {
  %px, %py = ktdp.get_compute_tile_id : index, index
  %c32 = arith.constant 32 : index
  %off = arith.muli %py, %c32 : index
  %r = arith.addi %px, %off : index
  %X = ktdp.construct_memory_view %x, sizes: [64, 64], strides: [64, 1] {coordinate_set = #mat, memory_space = #ktdp.memory_space<global>} : memref<64x64xf16>
  %t = ktdp.construct_access_tile %X[%r, 0] {access_tile_set = #row, access_tile_order = #id} : memref<64x64xf16> -> !ktdp.access_tile<1x64xindex>
  %v = ktdp.load %t : <1x64xindex> -> tensor<1x64xf16>
  %w = arith.addf %v, %v : tensor<1x64xf16>
  ktdp.store %w, %t : tensor<1x64xf16>, <1x64xindex>
  return
}

// -----

// A literal-address region written and read back through the same tile.
#mat = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#row = affine_set<(d0, d1) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @literal(%x: index) attributes {grid = [1]} {
  %a = arith.constant 4096 : index
  %X = ktdp.construct_memory_view %x, sizes: [64, 64], strides: [64, 1] {coordinate_set = #mat, memory_space = #ktdp.memory_space<global>} : memref<64x64xf16>
  %L = ktdp.construct_memory_view %a, sizes: [64, 64], strides: [64, 1] {coordinate_set = #mat, memory_space = #ktdp.memory_space<global>} : memref<64x64xf16>
  %tx = ktdp.construct_access_tile %X[0, 0] {access_tile_set = #row, access_tile_order = #id} : memref<64x64xf16> -> !ktdp.access_tile<1x64xindex>
  %tl = ktdp.construct_access_tile %L[0, 0] {access_tile_set = #row, access_tile_order = #id} : memref<64x64xf16> -> !ktdp.access_tile<1x64xindex>
  %v = ktdp.load %tx : <1x64xindex> -> tensor<1x64xf16>
  ktdp.store %v, %tl : tensor<1x64xf16>, <1x64xindex>
  %w = ktdp.load %tl : <1x64xindex> -> tensor<1x64xf16>
  ktdp.store %w, %tx : tensor<1x64xf16>, <1x64xindex>
  return
}

// -----

// Rows 0-31 are read, rows 32-63 of the same tensor written: no overlap.
#mat = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#row = affine_set<(d0, d1) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @disjoint(%x: index) attributes {grid = [1]} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  %X = ktdp.construct_memory_view %x, sizes: [64, 64], strides: [64, 1] {coordinate_set = #mat, memory_space = #ktdp.memory_space<global>} : memref<64x64xf16>
  scf.for %i = %c0 to %c32 step %c1 {
    %tin = ktdp.construct_access_tile %X[%i, 0] {access_tile_set = #row, access_tile_order = #id} : memref<64x64xf16> -> !ktdp.access_tile<1x64xindex>
    %tout = ktdp.construct_access_tile %X[%i + 32, 0] {access_tile_set = #row, access_tile_order = #id} : memref<64x64xf16> -> !ktdp.access_tile<1x64xindex>
    %v = ktdp.load %tin : <1x64xindex> -> tensor<1x64xf16>
    %w = arith.addf %v, %v : tensor<1x64xf16>
    ktdp.store %w, %tout : tensor<1x64xf16>, <1x64xindex>
  }
  return
}

// -----

// A scratchpad tile stored and read back in the same block.
#mat = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#row = affine_set<(d0, d1) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @scratchpad(%x: index) attributes {grid = [1]} {
  %c0 = arith.constant 0 : index
  %X = ktdp.construct_memory_view %x, sizes: [64, 64], strides: [64, 1] {coordinate_set = #mat, memory_space = #ktdp.memory_space<global>} : memref<64x64xf16>
  %L = ktdp.construct_memory_view %c0, sizes: [1, 64], strides: [64, 1] {coordinate_set = #row, memory_space = #ktdp.memory_space<ct_local, ct_id = 0>} : memref<1x64xf16, #ktdp.memory_space<ct_local, ct_id = 0>>
  %tx = ktdp.construct_access_tile %X[0, 0] {access_tile_set = #row, access_tile_order = #id} : memref<64x64xf16> -> !ktdp.access_tile<1x64xindex>
  %tl = ktdp.construct_access_tile %L[0, 0] {access_tile_set = #row, access_tile_order = #id} : memref<1x64xf16, #ktdp.memory_space<ct_local, ct_id = 0>> -> !ktdp.access_tile<1x64xindex>
  %v = ktdp.load %tx : <1x64xindex> -> tensor<1x64xf16>
  ktdp.store %v, %tl : tensor<1x64xf16>, <1x64xindex>
  // expected-error @+1 {{a load of a scratchpad (ct_local) tile that a store earlier in the same block may have written is not supported by the scheduler yet}}
  %w = ktdp.load %tl : <1x64xindex> -> tensor<1x64xf16>
  %s = arith.mulf %v, %w : tensor<1x64xf16>
  ktdp.store %s, %tx : tensor<1x64xf16>, <1x64xindex>
  return
}

// -----

// An accumulator kept in the scratchpad across loop iterations; the store
// before the loop (rmsnorm's pattern) alone is fine.
#mat = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#row = affine_set<(d0, d1) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @scratchpad_accumulator(%x: index, %y: index) attributes {grid = [1]} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %X = ktdp.construct_memory_view %x, sizes: [64, 64], strides: [64, 1] {coordinate_set = #mat, memory_space = #ktdp.memory_space<global>} : memref<64x64xf32>
  %Y = ktdp.construct_memory_view %y, sizes: [64, 64], strides: [64, 1] {coordinate_set = #mat, memory_space = #ktdp.memory_space<global>} : memref<64x64xf32>
  %L = ktdp.construct_memory_view %c0, sizes: [1, 64], strides: [64, 1] {coordinate_set = #row, memory_space = #ktdp.memory_space<ct_local, ct_id = 0>} : memref<1x64xf32, #ktdp.memory_space<ct_local, ct_id = 0>>
  %tl = ktdp.construct_access_tile %L[0, 0] {access_tile_set = #row, access_tile_order = #id} : memref<1x64xf32, #ktdp.memory_space<ct_local, ct_id = 0>> -> !ktdp.access_tile<1x64xindex>
  %t0 = ktdp.construct_access_tile %X[0, 0] {access_tile_set = #row, access_tile_order = #id} : memref<64x64xf32> -> !ktdp.access_tile<1x64xindex>
  %v0 = ktdp.load %t0 : <1x64xindex> -> tensor<1x64xf32>
  ktdp.store %v0, %tl : tensor<1x64xf32>, <1x64xindex>
  scf.for %i = %c1 to %c64 step %c1 {
    %tx = ktdp.construct_access_tile %X[%i, 0] {access_tile_set = #row, access_tile_order = #id} : memref<64x64xf32> -> !ktdp.access_tile<1x64xindex>
    %ty = ktdp.construct_access_tile %Y[%i, 0] {access_tile_set = #row, access_tile_order = #id} : memref<64x64xf32> -> !ktdp.access_tile<1x64xindex>
    %v = ktdp.load %tx : <1x64xindex> -> tensor<1x64xf32>
    // expected-error @+1 {{a load of a scratchpad (ct_local) tile that a store in the same loop may write is not supported by the scheduler yet}}
    %a = ktdp.load %tl : <1x64xindex> -> tensor<1x64xf32>
    %s = arith.addf %a, %v : tensor<1x64xf32>
    ktdp.store %s, %tl : tensor<1x64xf32>, <1x64xindex>
    ktdp.store %s, %ty : tensor<1x64xf32>, <1x64xindex>
  }
  return
}

// -----

// A reload of the row the next grid point stores: grid points are not
// ordered through memory.
#mat = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#row = affine_set<(d0, d1) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @reload_other_point(%x: index, %y: index) attributes {grid = [63, 1]} {
  %tid = ktdp.get_compute_tile_id : index
  %c1 = arith.constant 1 : index
  %next = arith.addi %tid, %c1 : index
  %X = ktdp.construct_memory_view %x, sizes: [64, 64], strides: [64, 1] {coordinate_set = #mat, memory_space = #ktdp.memory_space<global>} : memref<64x64xf16>
  %Y = ktdp.construct_memory_view %y, sizes: [64, 64], strides: [64, 1] {coordinate_set = #mat, memory_space = #ktdp.memory_space<global>} : memref<64x64xf16>
  %tx = ktdp.construct_access_tile %X[%tid, 0] {access_tile_set = #row, access_tile_order = #id} : memref<64x64xf16> -> !ktdp.access_tile<1x64xindex>
  %ty = ktdp.construct_access_tile %Y[%tid, 0] {access_tile_set = #row, access_tile_order = #id} : memref<64x64xf16> -> !ktdp.access_tile<1x64xindex>
  %tn = ktdp.construct_access_tile %Y[%next, 0] {access_tile_set = #row, access_tile_order = #id} : memref<64x64xf16> -> !ktdp.access_tile<1x64xindex>
  %v = ktdp.load %tx : <1x64xindex> -> tensor<1x64xf16>
  ktdp.store %v, %ty : tensor<1x64xf16>, <1x64xindex>
  // expected-error @+1 {{loads of a tensor that the kernel also writes are not supported by the scheduler yet}}
  %w = ktdp.load %tn : <1x64xindex> -> tensor<1x64xf16>
  ktdp.store %w, %tx : tensor<1x64xf16>, <1x64xindex>
  return
}

// -----

// A reload after the loop of the rows the loop stored: loop iterations
// are not ordered through memory with what follows them.
#mat = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#row = affine_set<(d0, d1) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#blk = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @reload_after_loop(%x: index, %y: index, %z: index) attributes {grid = [4, 1]} {
  %tid = ktdp.get_compute_tile_id : index
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %first = arith.muli %tid, %c16 : index
  %X = ktdp.construct_memory_view %x, sizes: [64, 64], strides: [64, 1] {coordinate_set = #mat, memory_space = #ktdp.memory_space<global>} : memref<64x64xf16>
  %Y = ktdp.construct_memory_view %y, sizes: [64, 64], strides: [64, 1] {coordinate_set = #mat, memory_space = #ktdp.memory_space<global>} : memref<64x64xf16>
  %Z = ktdp.construct_memory_view %z, sizes: [64, 64], strides: [64, 1] {coordinate_set = #mat, memory_space = #ktdp.memory_space<global>} : memref<64x64xf16>
  scf.for %i = %c0 to %c16 step %c1 {
    %r = arith.addi %first, %i : index
    %tx = ktdp.construct_access_tile %X[%r, 0] {access_tile_set = #row, access_tile_order = #id} : memref<64x64xf16> -> !ktdp.access_tile<1x64xindex>
    %ty = ktdp.construct_access_tile %Y[%r, 0] {access_tile_set = #row, access_tile_order = #id} : memref<64x64xf16> -> !ktdp.access_tile<1x64xindex>
    %v = ktdp.load %tx : <1x64xindex> -> tensor<1x64xf16>
    ktdp.store %v, %ty : tensor<1x64xf16>, <1x64xindex>
  }
  %tb = ktdp.construct_access_tile %Y[%first, 0] {access_tile_set = #blk, access_tile_order = #id} : memref<64x64xf16> -> !ktdp.access_tile<16x64xindex>
  %tz = ktdp.construct_access_tile %Z[%first, 0] {access_tile_set = #blk, access_tile_order = #id} : memref<64x64xf16> -> !ktdp.access_tile<16x64xindex>
  // expected-error @+1 {{loads of a tensor that the kernel also writes are not supported by the scheduler yet}}
  %b = ktdp.load %tb : <16x64xindex> -> tensor<16x64xf16>
  ktdp.store %b, %tz : tensor<16x64xf16>, <16x64xindex>
  return
}
