// RUN: ktflow-opt %s --ktdf-resolve-distributed-views -split-input-file -verify-diagnostics
// RUN: ktflow-opt %s --ktdf-check-supported -split-input-file -verify-diagnostics

// What the scheduler does not resolve yet is refused at the view or the
// tile, with the reason; ktdf-check-supported, run alone, says the same
// (the parts, in global coordinates, are checked as the view).

// A tile that straddles the two column shards (anchor 64 in parts of 128)
// is loaded part by part, and its value is summed in f16: the pieces would
// be folded one after the other, each piece's partial rounded to f16,
// where the interpreter accumulates the whole row in f32 and rounds once.
#h0 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#h1 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 - 128 >= 0, -d1 + 255 >= 0)>
#blk = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 127 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @straddle_reduced(%x: index) attributes {grid = [1]} {
  %c2048 = arith.constant 2048 : index
  %x1 = arith.addi %x, %c2048 : index
  %X0 = ktdp.construct_memory_view %x, sizes: [16, 128], strides: [128, 1] {coordinate_set = #h0, memory_space = #ktdp.memory_space<global>} : memref<16x128xf16>
  %X1 = ktdp.construct_memory_view %x1, sizes: [16, 128], strides: [128, 1] {coordinate_set = #h1, memory_space = #ktdp.memory_space<global>} : memref<16x128xf16>
  %X = ktdp.construct_distributed_memory_view(%X0, %X1 : memref<16x128xf16>, memref<16x128xf16>) : memref<16x256xf16>
  %t = ktdp.construct_access_tile %X[0, 64] {access_tile_set = #blk, access_tile_order = #id2} : memref<16x256xf16> -> !ktdp.access_tile<1x128xindex>
  // expected-error @+1 {{piece by piece (the tile met with each part, folded one after the other): 'linalg.reduce' cannot fold the pieces: it sums 16-bit floats, which the interpreter accumulates in f32 and rounds once}}
  %v = ktdp.load %t : <1x128xindex> -> tensor<1x128xf16>
  %init = tensor.empty() : tensor<1xf16>
  %s = linalg.reduce { arith.addf } ins(%v : tensor<1x128xf16>) outs(%init : tensor<1xf16>) dimensions = [1]
  return
}

// -----

// Row halves reduced along the rows' other dimension: each piece's row sums
// are rows of the result, which the pieces would cut too.
#top = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#bottom = affine_set<(d0, d1) : (d0 - 8 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#blk = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @straddle_reduced_kept(%x0: index, %x1: index) attributes {grid = [1]} {
  %X0 = ktdp.construct_memory_view %x0, sizes: [8, 64], strides: [64, 1] {coordinate_set = #top, memory_space = #ktdp.memory_space<global>} : memref<8x64xf32>
  %X1 = ktdp.construct_memory_view %x1, sizes: [8, 64], strides: [64, 1] {coordinate_set = #bottom, memory_space = #ktdp.memory_space<global>} : memref<8x64xf32>
  %X = ktdp.construct_distributed_memory_view(%X0, %X1 : memref<8x64xf32>, memref<8x64xf32>) : memref<16x64xf32>
  %t = ktdp.construct_access_tile %X[0, 0] {access_tile_set = #blk, access_tile_order = #id2} : memref<16x64xf32> -> !ktdp.access_tile<16x64xindex>
  // expected-error @+1 {{'linalg.reduce' cannot fold the pieces: the parts cut dimension 0, which it keeps (its result would be cut too)}}
  %v = ktdp.load %t : <16x64xindex> -> tensor<16x64xf32>
  %init = tensor.empty() : tensor<16xf32>
  %s = linalg.reduce { arith.maximumf } ins(%v : tensor<16x64xf32>) outs(%init : tensor<16xf32>) dimensions = [1]
  return
}

// -----

// Column blocks at a loop's column: block 1 straddles the cut, blocks 0 and
// 2 do not, so the cut moves in the tile from one iteration to the next.
#h0 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 95 >= 0)>
#h1 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 - 96 >= 0, -d1 + 191 >= 0)>
#blk = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 63 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @straddle_reduced_moving_cut(%x0: index, %x1: index) attributes {grid = [1]} {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %c192 = arith.constant 192 : index
  %X0 = ktdp.construct_memory_view %x0, sizes: [16, 96], strides: [96, 1] {coordinate_set = #h0, memory_space = #ktdp.memory_space<global>} : memref<16x96xf32>
  %X1 = ktdp.construct_memory_view %x1, sizes: [16, 96], strides: [96, 1] {coordinate_set = #h1, memory_space = #ktdp.memory_space<global>} : memref<16x96xf32>
  %X = ktdp.construct_distributed_memory_view(%X0, %X1 : memref<16x96xf32>, memref<16x96xf32>) : memref<16x192xf32>
  scf.for %col = %c0 to %c192 step %c64 {
    %t = ktdp.construct_access_tile %X[0, %col] {access_tile_set = #blk, access_tile_order = #id2} : memref<16x192xf32> -> !ktdp.access_tile<1x64xindex>
    // expected-error @+1 {{'linalg.reduce' reduces a tile that cannot be cut into pieces: the parts cut dimension 1 of the tile, along which its anchor is not a constant}}
    %v = ktdp.load %t : <1x64xindex> -> tensor<1x64xf32>
    %init = tensor.empty() : tensor<1xf32>
    %s = linalg.reduce { arith.addf } ins(%v : tensor<1x64xf32>) outs(%init : tensor<1xf32>) dimensions = [1]
  }
  return
}

// -----

// A piece computed with a whole tile of another view: only empties, splats
// and splat constants are made at a piece's shape.
#h0 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 95 >= 0)>
#h1 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 - 96 >= 0, -d1 + 191 >= 0)>
#all = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 191 >= 0)>
#row = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 191 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @straddle_reduced_with_plain(%x0: index, %x1: index, %w: index) attributes {grid = [1]} {
  %X0 = ktdp.construct_memory_view %x0, sizes: [16, 96], strides: [96, 1] {coordinate_set = #h0, memory_space = #ktdp.memory_space<global>} : memref<16x96xf32>
  %X1 = ktdp.construct_memory_view %x1, sizes: [16, 96], strides: [96, 1] {coordinate_set = #h1, memory_space = #ktdp.memory_space<global>} : memref<16x96xf32>
  %X = ktdp.construct_distributed_memory_view(%X0, %X1 : memref<16x96xf32>, memref<16x96xf32>) : memref<16x192xf32>
  %W = ktdp.construct_memory_view %w, sizes: [16, 192], strides: [192, 1] {coordinate_set = #all, memory_space = #ktdp.memory_space<global>} : memref<16x192xf32>
  %t = ktdp.construct_access_tile %X[0, 0] {access_tile_set = #row, access_tile_order = #id2} : memref<16x192xf32> -> !ktdp.access_tile<1x192xindex>
  %tw = ktdp.construct_access_tile %W[0, 0] {access_tile_set = #row, access_tile_order = #id2} : memref<16x192xf32> -> !ktdp.access_tile<1x192xindex>
  // expected-error @+1 {{'arith.mulf' computes with a tensor that is neither a piece nor a tensor.empty, tensor.splat or splat constant a piece can make at its shape}}
  %v = ktdp.load %t : <1x192xindex> -> tensor<1x192xf32>
  %wv = ktdp.load %tw : <1x192xindex> -> tensor<1x192xf32>
  %p = arith.mulf %v, %wv : tensor<1x192xf32>
  %init = tensor.empty() : tensor<1xf32>
  %s = linalg.reduce { arith.addf } ins(%p : tensor<1x192xf32>) outs(%init : tensor<1xf32>) dimensions = [1]
  return
}

// -----

// A straddling value carried by a loop (a running row maximum over column
// blocks): the per-part copies would each carry their own.
#h0 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 95 >= 0)>
#h1 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 - 96 >= 0, -d1 + 191 >= 0)>
#blk = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 63 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @straddle_carried(%x0: index, %x1: index) attributes {grid = [1]} {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %c192 = arith.constant 192 : index
  %ninf = arith.constant dense<0xFF800000> : tensor<1x64xf32>
  %X0 = ktdp.construct_memory_view %x0, sizes: [16, 96], strides: [96, 1] {coordinate_set = #h0, memory_space = #ktdp.memory_space<global>} : memref<16x96xf32>
  %X1 = ktdp.construct_memory_view %x1, sizes: [16, 96], strides: [96, 1] {coordinate_set = #h1, memory_space = #ktdp.memory_space<global>} : memref<16x96xf32>
  %X = ktdp.construct_distributed_memory_view(%X0, %X1 : memref<16x96xf32>, memref<16x96xf32>) : memref<16x192xf32>
  %m = scf.for %col = %c0 to %c192 step %c64 iter_args(%acc = %ninf) -> (tensor<1x64xf32>) {
    %t = ktdp.construct_access_tile %X[0, %col] {access_tile_set = #blk, access_tile_order = #id2} : memref<16x192xf32> -> !ktdp.access_tile<1x64xindex>
    // expected-error @+1 {{'scf.yield' uses it and is not element-wise on the tile}}
    %v = ktdp.load %t : <1x64xindex> -> tensor<1x64xf32>
    %n = arith.maximumf %acc, %v : tensor<1x64xf32>
    scf.yield %n : tensor<1x64xf32>
  }
  return
}

// -----

// The straddling load's value is stored into a plain view at another
// anchor: each part's copy would go to a box of it that no view of the
// part's box describes at the tile's anchor.
#h0 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#h1 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 - 128 >= 0, -d1 + 255 >= 0)>
#all = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 255 >= 0)>
#blk = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 127 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @straddle_stored_elsewhere(%x: index, %y: index) attributes {grid = [1]} {
  %c2048 = arith.constant 2048 : index
  %x1 = arith.addi %x, %c2048 : index
  %X0 = ktdp.construct_memory_view %x, sizes: [16, 128], strides: [128, 1] {coordinate_set = #h0, memory_space = #ktdp.memory_space<global>} : memref<16x128xf16>
  %X1 = ktdp.construct_memory_view %x1, sizes: [16, 128], strides: [128, 1] {coordinate_set = #h1, memory_space = #ktdp.memory_space<global>} : memref<16x128xf16>
  %X = ktdp.construct_distributed_memory_view(%X0, %X1 : memref<16x128xf16>, memref<16x128xf16>) : memref<16x256xf16>
  %Y = ktdp.construct_memory_view %y, sizes: [16, 256], strides: [256, 1] {coordinate_set = #all, memory_space = #ktdp.memory_space<global>} : memref<16x256xf16>
  %t = ktdp.construct_access_tile %X[0, 64] {access_tile_set = #blk, access_tile_order = #id2} : memref<16x256xf16> -> !ktdp.access_tile<1x128xindex>
  // expected-error @+1 {{'ktdp.store' stores it into a tile of neither such a distributed view nor a plain view in device memory (an argument plus a constant, static, a box from the origin that the parts fill) at that anchor}}
  %v = ktdp.load %t : <1x128xindex> -> tensor<1x128xf16>
  %ty = ktdp.construct_access_tile %Y[0, 0] {access_tile_set = #blk, access_tile_order = #id2} : memref<16x256xf16> -> !ktdp.access_tile<1x128xindex>
  ktdp.store %v, %ty : tensor<1x128xf16>, <1x128xindex>
  return
}

// -----

// A plain view wider than the parts: the kernel stores 0 at the columns no
// part holds (the load reads 0 there), no part's copy would.
#h0 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#h1 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 - 128 >= 0, -d1 + 255 >= 0)>
#wide = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 383 >= 0)>
#blk = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 127 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @wider_than_parts(%x: index, %y: index) attributes {grid = [3]} {
  %id = ktdp.get_compute_tile_id : index
  %c2048 = arith.constant 2048 : index
  %c128 = arith.constant 128 : index
  %x1 = arith.addi %x, %c2048 : index
  %X0 = ktdp.construct_memory_view %x, sizes: [16, 128], strides: [128, 1] {coordinate_set = #h0, memory_space = #ktdp.memory_space<global>} : memref<16x128xf16>
  %X1 = ktdp.construct_memory_view %x1, sizes: [16, 128], strides: [128, 1] {coordinate_set = #h1, memory_space = #ktdp.memory_space<global>} : memref<16x128xf16>
  %X = ktdp.construct_distributed_memory_view(%X0, %X1 : memref<16x128xf16>, memref<16x128xf16>) : memref<16x256xf16>
  %Y = ktdp.construct_memory_view %y, sizes: [16, 384], strides: [384, 1] {coordinate_set = #wide, memory_space = #ktdp.memory_space<global>} : memref<16x384xf16>
  %col = arith.muli %id, %c128 : index
  %t = ktdp.construct_access_tile %X[0, %col + 64] {access_tile_set = #blk, access_tile_order = #id2} : memref<16x256xf16> -> !ktdp.access_tile<1x128xindex>
  // expected-error @+1 {{'ktdp.store' stores it into a tile of neither}}
  %v = ktdp.load %t : <1x128xindex> -> tensor<1x128xf16>
  %ty = ktdp.construct_access_tile %Y[0, %col + 64] {access_tile_set = #blk, access_tile_order = #id2} : memref<16x384xf16> -> !ktdp.access_tile<1x128xindex>
  ktdp.store %v, %ty : tensor<1x128xf16>, <1x128xindex>
  return
}

// -----

// Parts in the scratchpads of the tiles, each tile loading its own through
// the distributed view before anything stored there: what a part holds
// from before the kernel is copied from its tile when every tile reads the
// same box (resident-parts.mlir); here the tiles read different boxes.
#p0 = affine_set<(d0) : (d0 >= 0, -d0 + 63 >= 0)>
#p1 = affine_set<(d0) : (d0 - 64 >= 0, -d0 + 127 >= 0)>
#t = affine_set<(d0) : (d0 >= 0, -d0 + 63 >= 0)>
#id1 = affine_map<(d0) -> (d0)>
func.func @scratchpad_parts() attributes {grid = [2]} {
  %sp = arith.constant 4096 : index
  %id = ktdp.get_compute_tile_id : index
  %P0 = ktdp.construct_memory_view %sp, sizes: [64], strides: [1] {coordinate_set = #p0, memory_space = #ktdp.memory_space<ct_local, ct_id = 0>} : memref<64xf16>
  %P1 = ktdp.construct_memory_view %sp, sizes: [64], strides: [1] {coordinate_set = #p1, memory_space = #ktdp.memory_space<ct_local, ct_id = 1>} : memref<64xf16>
  %D = ktdp.construct_distributed_memory_view(%P0, %P1 : memref<64xf16>, memref<64xf16>) : memref<128xf16>
  %t = ktdp.construct_access_tile %D[%id * 64] {access_tile_set = #t, access_tile_order = #id1} : memref<128xf16> -> !ktdp.access_tile<64xindex>
  // expected-error @+1 {{a distributed view over scratchpad (ct_local) parts compiles only when every load of the parts provably reads what the loading tile stored itself, or what one earlier store wrote on another tile (copied between the cores): no store through the distributed view writes what tile 1 reads, and the tiles read different boxes (scratchpad contents from before the kernel are copied from the part's tile when every tile reads the same box)}}
  %v = ktdp.load %t : <64xindex> -> tensor<64xf16>
  return
}

// -----

// Parts at two pointers are no shards and are accessed part by part; a
// value loaded from D at one anchor and stored into E at another would mix
// the parts' coordinates.
#p0 = affine_set<(d0) : (d0 >= 0, -d0 + 63 >= 0)>
#p1 = affine_set<(d0) : (d0 - 64 >= 0, -d0 + 127 >= 0)>
#t = affine_set<(d0) : (d0 >= 0, -d0 + 63 >= 0)>
#id1 = affine_map<(d0) -> (d0)>
func.func @moved(%a: index, %a1: index, %b: index) attributes {grid = [2]} {
  %id = ktdp.get_compute_tile_id : index
  %c64 = arith.constant 64 : index
  %c100 = arith.constant 100 : index
  %b1 = arith.addi %b, %c100 : index
  %P0 = ktdp.construct_memory_view %a, sizes: [64], strides: [1] {coordinate_set = #p0, memory_space = #ktdp.memory_space<global>} : memref<64xf16>
  %P1 = ktdp.construct_memory_view %a1, sizes: [64], strides: [1] {coordinate_set = #p1, memory_space = #ktdp.memory_space<global>} : memref<64xf16>
  %D = ktdp.construct_distributed_memory_view(%P0, %P1 : memref<64xf16>, memref<64xf16>) : memref<128xf16>
  %Q0 = ktdp.construct_memory_view %b, sizes: [64], strides: [1] {coordinate_set = #p0, memory_space = #ktdp.memory_space<global>} : memref<64xf16>
  %Q1 = ktdp.construct_memory_view %b1, sizes: [64], strides: [1] {coordinate_set = #p1, memory_space = #ktdp.memory_space<global>} : memref<64xf16>
  %E = ktdp.construct_distributed_memory_view(%Q0, %Q1 : memref<64xf16>, memref<64xf16>) : memref<128xf16>
  %o = arith.muli %id, %c64 : index
  %t = ktdp.construct_access_tile %D[%o] {access_tile_set = #t, access_tile_order = #id1} : memref<128xf16> -> !ktdp.access_tile<64xindex>
  %v = ktdp.load %t : <64xindex> -> tensor<64xf16>
  %u = ktdp.construct_access_tile %E[%o + 32] {access_tile_set = #t, access_tile_order = #id1} : memref<128xf16> -> !ktdp.access_tile<64xindex>
  // expected-error @+1 {{distributed views at different anchors or of different shapes}}
  ktdp.store %v, %u : tensor<64xf16>, <64xindex>
  return
}

// -----

// A global part beside a scratchpad part: a store through the view may
// write only the scratchpad parts (its stores become copies between the
// cores and write no memory).
#g = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 7 >= 0)>
#l = affine_set<(d0, d1) : (d0 - 4 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 7 >= 0)>
#x = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 7 >= 0)>
#blk = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 7 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @mixed_store_into_device(%x: index, %y: index) attributes {grid = [1]} {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %X = ktdp.construct_memory_view %x, sizes: [8, 8], strides: [8, 1] {coordinate_set = #x, memory_space = #ktdp.memory_space<global>} : memref<8x8xf16>
  %G = ktdp.construct_memory_view %y, sizes: [4, 8], strides: [8, 1] {coordinate_set = #g, memory_space = #ktdp.memory_space<global>} : memref<4x8xf16>
  %L = ktdp.construct_memory_view %c0, sizes: [4, 8], strides: [8, 1] {coordinate_set = #l, memory_space = #ktdp.memory_space<ct_local, ct_id = 0>} : memref<4x8xf16>
  %D = ktdp.construct_distributed_memory_view(%G, %L : memref<4x8xf16>, memref<4x8xf16>) : memref<8x8xf16>
  %tx = ktdp.construct_access_tile %X[0, 0] {access_tile_set = #blk, access_tile_order = #id2} : memref<8x8xf16> -> !ktdp.access_tile<4x8xindex>
  %td = ktdp.construct_access_tile %D[%c2, 0] {access_tile_set = #blk, access_tile_order = #id2} : memref<8x8xf16> -> !ktdp.access_tile<4x8xindex>
  %b = ktdp.load %tx : <4x8xindex> -> tensor<4x8xf16>
  // expected-error @+1 {{a distributed view over scratchpad (ct_local) parts compiles only when every load of the parts provably reads what the loading tile stored itself, or what one earlier store wrote on another tile (copied between the cores): on tile 0 it stores into the distributed view's part in device memory (only its scratchpad parts are stored through)}}
  ktdp.store %b, %td : tensor<4x8xf16>, <4x8xindex>
  return
}

// -----

// The same parts: tile 0 stores rows 4..7 (the scratchpad part), then tile
// t loads rows 4t..4t + 3, in device memory on tile 0 and in the
// scratchpad on tile 1. One load reads the same part on every tile.
#g = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 7 >= 0)>
#l = affine_set<(d0, d1) : (d0 - 4 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 7 >= 0)>
#x = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 7 >= 0)>
#blk = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 7 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @mixed_parts_per_tile(%x: index, %y: index) attributes {grid = [2]} {
  %id = ktdp.get_compute_tile_id : index
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %r = arith.muli %id, %c4 : index
  %X = ktdp.construct_memory_view %x, sizes: [8, 8], strides: [8, 1] {coordinate_set = #x, memory_space = #ktdp.memory_space<global>} : memref<8x8xf16>
  %Y = ktdp.construct_memory_view %y, sizes: [8, 8], strides: [8, 1] {coordinate_set = #x, memory_space = #ktdp.memory_space<global>} : memref<8x8xf16>
  %G = ktdp.construct_memory_view %x, sizes: [4, 8], strides: [8, 1] {coordinate_set = #g, memory_space = #ktdp.memory_space<global>} : memref<4x8xf16>
  %L = ktdp.construct_memory_view %c0, sizes: [4, 8], strides: [8, 1] {coordinate_set = #l, memory_space = #ktdp.memory_space<ct_local, ct_id = 0>} : memref<4x8xf16>
  %D = ktdp.construct_distributed_memory_view(%G, %L : memref<4x8xf16>, memref<4x8xf16>) : memref<8x8xf16>
  %tx = ktdp.construct_access_tile %X[%c4, 0] {access_tile_set = #blk, access_tile_order = #id2} : memref<8x8xf16> -> !ktdp.access_tile<4x8xindex>
  %td = ktdp.construct_access_tile %D[%c4, 0] {access_tile_set = #blk, access_tile_order = #id2} : memref<8x8xf16> -> !ktdp.access_tile<4x8xindex>
  %b = ktdp.load %tx : <4x8xindex> -> tensor<4x8xf16>
  ktdp.store %b, %td : tensor<4x8xf16>, <4x8xindex>
  %tr = ktdp.construct_access_tile %D[%r, 0] {access_tile_set = #blk, access_tile_order = #id2} : memref<8x8xf16> -> !ktdp.access_tile<4x8xindex>
  // expected-error @+1 {{a distributed view over scratchpad (ct_local) parts compiles only when every load of the parts provably reads what the loading tile stored itself, or what one earlier store wrote on another tile (copied between the cores): on tile 0 it reads a part in device memory, on tile 1 another part: the parts a load (or each of its pieces) reads must be the same on every tile}}
  %v = ktdp.load %tr : <4x8xindex> -> tensor<4x8xf16>
  %ty = ktdp.construct_access_tile %Y[%r, 0] {access_tile_set = #blk, access_tile_order = #id2} : memref<8x8xf16> -> !ktdp.access_tile<4x8xindex>
  ktdp.store %v, %ty : tensor<4x8xf16>, <4x8xindex>
  return
}

// -----

// Row halves of two run-time heights: part 1's box moves with %m, part 0's
// with %n, so no one size places both.
#top = affine_set<(d0, d1)[s0] : (d0 >= 0, -d0 + s0 - 1 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#bottom = affine_set<(d0, d1)[s0] : (d0 - s0 >= 0, -d0 + 2 * s0 - 1 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#blk = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @dynamic_sizes_differ(%x0: index, %x1: index, %n: index, %m: index) attributes {grid = [1]} {
  %X0 = ktdp.construct_memory_view %x0, sizes: [%n, 64], strides: [64, 1] {coordinate_set = #top, memory_space = #ktdp.memory_space<global>} : memref<?x64xf16>
  %X1 = ktdp.construct_memory_view %x1, sizes: [%m, 64], strides: [64, 1] {coordinate_set = #bottom, memory_space = #ktdp.memory_space<global>} : memref<?x64xf16>
  // expected-error @+1 {{the scheduler supports distributed views whose parts are shards of one tensor only: a part has dynamic sizes or strides (nor can it be accessed part by part: parts have different run-time sizes)}}
  %X = ktdp.construct_distributed_memory_view(%X0, %X1 : memref<?x64xf16>, memref<?x64xf16>) : memref<?x64xf16>
  %tx = ktdp.construct_access_tile %X[0, 0] {access_tile_set = #blk, access_tile_order = #id2} : memref<?x64xf16> -> !ktdp.access_tile<64x64xindex>
  %x = ktdp.load %tx : <64x64xindex> -> tensor<64x64xf16>
  return
}

// -----

// Column halves of a run-time width n whose row stride is another
// run-time value: a part's rows may overlap (the field guide's `[64, ?]`
// merge, stride n, compiles: straddling.mlir).
#left = affine_set<(d0, d1)[s0] : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + s0 - 1 >= 0)>
#right = affine_set<(d0, d1)[s0] : (d0 >= 0, -d0 + 63 >= 0, d1 - s0 >= 0, -d1 + 2 * s0 - 1 >= 0)>
#blk = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @foreign_row_stride(%x0: index, %x1: index, %n: index, %s: index) attributes {grid = [1]} {
  %X0 = ktdp.construct_memory_view %x0, sizes: [64, %n], strides: [%s, 1] {coordinate_set = #left, memory_space = #ktdp.memory_space<global>} : memref<64x?xf16>
  %X1 = ktdp.construct_memory_view %x1, sizes: [64, %n], strides: [%s, 1] {coordinate_set = #right, memory_space = #ktdp.memory_space<global>} : memref<64x?xf16>
  // expected-error @+1 {{a part has dynamic sizes or strides (nor can it be accessed part by part: a part has dynamic strides that are not the sizes after them: a view with dynamic sizes or strides must be row-major, each stride the product of the sizes after it}}
  %X = ktdp.construct_distributed_memory_view(%X0, %X1 : memref<64x?xf16>, memref<64x?xf16>) : memref<64x?xf16>
  %tx = ktdp.construct_access_tile %X[0, 0] {access_tile_set = #blk, access_tile_order = #id2} : memref<64x?xf16> -> !ktdp.access_tile<64x64xindex>
  %x = ktdp.load %tx : <64x64xindex> -> tensor<64x64xf16>
  return
}
