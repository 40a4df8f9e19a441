// RUN: ktflow-opt %s --ktdf-forward-scratchpad-parts --ktdf-resolve-distributed-views -split-input-file -verify-diagnostics
// RUN: ktflow-opt %s --ktdf-check-supported -split-input-file -verify-diagnostics

// Loads through a distributed view of scratchpad parts that
// ktdf-forward-scratchpad-parts cannot prove (view-loads.mlir's cases on a
// grid of 2: tile t stores A's rows 4t.. into its own part, rows 4t..4t + 3
// of D, then loads through D). Each is refused at the load, with the reason.

// The load's box, rows 2..5, straddles both parts: each piece is a copy (of
// tile 0's store, which tile 0 holds, and of tile 1's), joined only where
// the value is stored whole into device memory (view-loads.mlir
// @straddles, also after element-wise ops); here it is reduced along
// its rows, and nothing in the scheduler joins two tensors into one.
#mat = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 15 >= 0)>
#part0 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 15 >= 0)>
#part1 = affine_set<(d0, d1) : (d0 - 4 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 15 >= 0)>
#rows4 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 15 >= 0)>
#row = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 15 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @straddles(%a: index, %b: index) attributes {grid = [2]} {
  %id = ktdp.get_compute_tile_id : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %row0 = arith.muli %id, %c4 : index
  %sp = arith.constant 512 : index
  %A = ktdp.construct_memory_view %a, sizes: [16, 16], strides: [16, 1] {coordinate_set = #mat, memory_space = #ktdp.memory_space<global>} : memref<16x16xf16>
  %B = ktdp.construct_memory_view %b, sizes: [16, 16], strides: [16, 1] {coordinate_set = #mat, memory_space = #ktdp.memory_space<global>} : memref<16x16xf16>
  %P0 = ktdp.construct_memory_view %sp, sizes: [4, 16], strides: [16, 1] {coordinate_set = #part0, memory_space = #ktdp.memory_space<ct_local, ct_id = 0>} : memref<4x16xf16>
  %P1 = ktdp.construct_memory_view %sp, sizes: [4, 16], strides: [16, 1] {coordinate_set = #part1, memory_space = #ktdp.memory_space<ct_local, ct_id = 1>} : memref<4x16xf16>
  %D = ktdp.construct_distributed_memory_view(%P0, %P1 : memref<4x16xf16>, memref<4x16xf16>) : memref<8x16xf16>
  %ta = ktdp.construct_access_tile %A[%row0, 0] {access_tile_set = #rows4, access_tile_order = #id2} : memref<16x16xf16> -> !ktdp.access_tile<4x16xindex>
  %td = ktdp.construct_access_tile %D[%row0, 0] {access_tile_set = #rows4, access_tile_order = #id2} : memref<8x16xf16> -> !ktdp.access_tile<4x16xindex>
  %tb = ktdp.construct_access_tile %B[%row0, 0] {access_tile_set = #rows4, access_tile_order = #id2} : memref<16x16xf16> -> !ktdp.access_tile<4x16xindex>
  %block = ktdp.load %ta : <4x16xindex> -> tensor<4x16xf16>
  ktdp.store %block, %td : tensor<4x16xf16>, <4x16xindex>
  %t2 = ktdp.construct_access_tile %D[%c2, 0] {access_tile_set = #rows4, access_tile_order = #id2} : memref<8x16xf16> -> !ktdp.access_tile<4x16xindex>
  // expected-error @+1 {{on tile 0 its tile straddles tile 0's part and tile 1's part; each piece is copied on its own, and the scheduler joins the pieces only in stores of the whole tile to device memory, after element-wise ops (it has no op joining tensors), not in 'linalg.reduce'}}
  %v = ktdp.load %t2 : <4x16xindex> -> tensor<4x16xf16>
  %e = tensor.empty() : tensor<16xf16>
  %w = linalg.reduce { arith.addf } ins(%v : tensor<4x16xf16>) outs(%e : tensor<16xf16>) dimensions = [0]
  %tw = ktdp.construct_access_tile %B[0, 0] {access_tile_set = #row, access_tile_order = #id2} : memref<16x16xf16> -> !ktdp.access_tile<1x16xindex>
  %w2 = tensor.expand_shape %w [[0, 1]] output_shape [1, 16] : tensor<16xf16> into tensor<1x16xf16>
  ktdp.store %w2, %tw : tensor<1x16xf16>, <1x16xindex>
  return
}

// -----

// The load comes before the tile's own store (it reads what the scratchpad
// held before).
#mat = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 15 >= 0)>
#part0 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 15 >= 0)>
#part1 = affine_set<(d0, d1) : (d0 - 4 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 15 >= 0)>
#rows4 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 15 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @before_store(%a: index, %b: index) attributes {grid = [2]} {
  %id = ktdp.get_compute_tile_id : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %row0 = arith.muli %id, %c4 : index
  %sp = arith.constant 512 : index
  %A = ktdp.construct_memory_view %a, sizes: [16, 16], strides: [16, 1] {coordinate_set = #mat, memory_space = #ktdp.memory_space<global>} : memref<16x16xf16>
  %B = ktdp.construct_memory_view %b, sizes: [16, 16], strides: [16, 1] {coordinate_set = #mat, memory_space = #ktdp.memory_space<global>} : memref<16x16xf16>
  %P0 = ktdp.construct_memory_view %sp, sizes: [4, 16], strides: [16, 1] {coordinate_set = #part0, memory_space = #ktdp.memory_space<ct_local, ct_id = 0>} : memref<4x16xf16>
  %P1 = ktdp.construct_memory_view %sp, sizes: [4, 16], strides: [16, 1] {coordinate_set = #part1, memory_space = #ktdp.memory_space<ct_local, ct_id = 1>} : memref<4x16xf16>
  %D = ktdp.construct_distributed_memory_view(%P0, %P1 : memref<4x16xf16>, memref<4x16xf16>) : memref<8x16xf16>
  %ta = ktdp.construct_access_tile %A[%row0, 0] {access_tile_set = #rows4, access_tile_order = #id2} : memref<16x16xf16> -> !ktdp.access_tile<4x16xindex>
  %td = ktdp.construct_access_tile %D[%row0, 0] {access_tile_set = #rows4, access_tile_order = #id2} : memref<8x16xf16> -> !ktdp.access_tile<4x16xindex>
  %tb = ktdp.construct_access_tile %B[%row0, 0] {access_tile_set = #rows4, access_tile_order = #id2} : memref<16x16xf16> -> !ktdp.access_tile<4x16xindex>
  %block = ktdp.load %ta : <4x16xindex> -> tensor<4x16xf16>
  // expected-error @+1 {{it reads what its own tile stores after it in program order}}
  %v = ktdp.load %td : <4x16xindex> -> tensor<4x16xf16>
  ktdp.store %block, %td : tensor<4x16xf16>, <4x16xindex>
  ktdp.store %v, %tb : tensor<4x16xf16>, <4x16xindex>
  return
}

// -----

// The load is in a loop.
#mat = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 15 >= 0)>
#part0 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 15 >= 0)>
#part1 = affine_set<(d0, d1) : (d0 - 4 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 15 >= 0)>
#rows4 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 15 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @in_loop(%a: index, %b: index) attributes {grid = [2]} {
  %id = ktdp.get_compute_tile_id : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %row0 = arith.muli %id, %c4 : index
  %sp = arith.constant 512 : index
  %A = ktdp.construct_memory_view %a, sizes: [16, 16], strides: [16, 1] {coordinate_set = #mat, memory_space = #ktdp.memory_space<global>} : memref<16x16xf16>
  %B = ktdp.construct_memory_view %b, sizes: [16, 16], strides: [16, 1] {coordinate_set = #mat, memory_space = #ktdp.memory_space<global>} : memref<16x16xf16>
  %P0 = ktdp.construct_memory_view %sp, sizes: [4, 16], strides: [16, 1] {coordinate_set = #part0, memory_space = #ktdp.memory_space<ct_local, ct_id = 0>} : memref<4x16xf16>
  %P1 = ktdp.construct_memory_view %sp, sizes: [4, 16], strides: [16, 1] {coordinate_set = #part1, memory_space = #ktdp.memory_space<ct_local, ct_id = 1>} : memref<4x16xf16>
  %D = ktdp.construct_distributed_memory_view(%P0, %P1 : memref<4x16xf16>, memref<4x16xf16>) : memref<8x16xf16>
  %ta = ktdp.construct_access_tile %A[%row0, 0] {access_tile_set = #rows4, access_tile_order = #id2} : memref<16x16xf16> -> !ktdp.access_tile<4x16xindex>
  %td = ktdp.construct_access_tile %D[%row0, 0] {access_tile_set = #rows4, access_tile_order = #id2} : memref<8x16xf16> -> !ktdp.access_tile<4x16xindex>
  %tb = ktdp.construct_access_tile %B[%row0, 0] {access_tile_set = #rows4, access_tile_order = #id2} : memref<16x16xf16> -> !ktdp.access_tile<4x16xindex>
  %block = ktdp.load %ta : <4x16xindex> -> tensor<4x16xf16>
  ktdp.store %block, %td : tensor<4x16xf16>, <4x16xindex>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %c2 step %c1 {
    // expected-error @+1 {{it is in a loop or a branch}}
    %v = ktdp.load %td : <4x16xindex> -> tensor<4x16xf16>
    ktdp.store %v, %tb : tensor<4x16xf16>, <4x16xindex>
  }
  return
}

// -----

// A scratchpad write (elsewhere in the scratchpad) between the tile's own
// store and its load of it: a reload is proved only with nothing between.
#mat = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 15 >= 0)>
#part0 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 15 >= 0)>
#part1 = affine_set<(d0, d1) : (d0 - 4 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 15 >= 0)>
#rows4 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 15 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @write_between(%a: index, %b: index) attributes {grid = [2]} {
  %id = ktdp.get_compute_tile_id : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %row0 = arith.muli %id, %c4 : index
  %sp = arith.constant 512 : index
  %A = ktdp.construct_memory_view %a, sizes: [16, 16], strides: [16, 1] {coordinate_set = #mat, memory_space = #ktdp.memory_space<global>} : memref<16x16xf16>
  %B = ktdp.construct_memory_view %b, sizes: [16, 16], strides: [16, 1] {coordinate_set = #mat, memory_space = #ktdp.memory_space<global>} : memref<16x16xf16>
  %P0 = ktdp.construct_memory_view %sp, sizes: [4, 16], strides: [16, 1] {coordinate_set = #part0, memory_space = #ktdp.memory_space<ct_local, ct_id = 0>} : memref<4x16xf16>
  %P1 = ktdp.construct_memory_view %sp, sizes: [4, 16], strides: [16, 1] {coordinate_set = #part1, memory_space = #ktdp.memory_space<ct_local, ct_id = 1>} : memref<4x16xf16>
  %D = ktdp.construct_distributed_memory_view(%P0, %P1 : memref<4x16xf16>, memref<4x16xf16>) : memref<8x16xf16>
  %ta = ktdp.construct_access_tile %A[%row0, 0] {access_tile_set = #rows4, access_tile_order = #id2} : memref<16x16xf16> -> !ktdp.access_tile<4x16xindex>
  %td = ktdp.construct_access_tile %D[%row0, 0] {access_tile_set = #rows4, access_tile_order = #id2} : memref<8x16xf16> -> !ktdp.access_tile<4x16xindex>
  %tb = ktdp.construct_access_tile %B[%row0, 0] {access_tile_set = #rows4, access_tile_order = #id2} : memref<16x16xf16> -> !ktdp.access_tile<4x16xindex>
  %block = ktdp.load %ta : <4x16xindex> -> tensor<4x16xf16>
  ktdp.store %block, %td : tensor<4x16xf16>, <4x16xindex>
  %other = arith.constant 2048 : index
  %S = ktdp.construct_memory_view %other, sizes: [4, 16], strides: [16, 1] {coordinate_set = #rows4, memory_space = #ktdp.memory_space<ct_local>} : memref<4x16xf16>
  %ts = ktdp.construct_access_tile %S[0, 0] {access_tile_set = #rows4, access_tile_order = #id2} : memref<4x16xf16> -> !ktdp.access_tile<4x16xindex>
  ktdp.store %block, %ts : tensor<4x16xf16>, <4x16xindex>
  // expected-error @+1 {{another write of a scratchpad lies between it and the store through the distributed view}}
  %v = ktdp.load %td : <4x16xindex> -> tensor<4x16xf16>
  ktdp.store %v, %tb : tensor<4x16xf16>, <4x16xindex>
  return
}
