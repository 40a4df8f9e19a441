// RUN: ktflow-opt %s --ktdf-resolve-distributed-views -split-input-file -verify-diagnostics
// RUN: ktflow-opt %s --ktdf-check-supported -split-input-file -verify-diagnostics

// What the scheduler does not resolve yet is refused at the view or the
// tile, with the reason; ktdf-check-supported, run alone, says the same
// (the parts, in global coordinates, are checked as the view).

// A tile that straddles the two column shards (anchor 64 in parts of 128).
#h0 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#h1 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 - 128 >= 0, -d1 + 255 >= 0)>
#blk = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 127 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @straddle(%x: index) attributes {grid = [1]} {
  %c2048 = arith.constant 2048 : index
  %x1 = arith.addi %x, %c2048 : index
  %X0 = ktdp.construct_memory_view %x, sizes: [16, 128], strides: [128, 1] {coordinate_set = #h0, memory_space = #ktdp.memory_space<global>} : memref<16x128xf16>
  %X1 = ktdp.construct_memory_view %x1, sizes: [16, 128], strides: [128, 1] {coordinate_set = #h1, memory_space = #ktdp.memory_space<global>} : memref<16x128xf16>
  %X = ktdp.construct_distributed_memory_view(%X0, %X1 : memref<16x128xf16>, memref<16x128xf16>) : memref<16x256xf16>
  // expected-error @+1 {{an access tile of a distributed view must lie in one part for the scheduler: along dimension 1 it may straddle two parts}}
  %t = ktdp.construct_access_tile %X[0, 64] {access_tile_set = #blk, access_tile_order = #id2} : memref<16x256xf16> -> !ktdp.access_tile<1x128xindex>
  %v = ktdp.load %t : <1x128xindex> -> tensor<1x128xf16>
  return
}

// -----

// Parts in the scratchpads of other tiles, loaded through the distributed
// view before anything stored there (ktdf-forward-scratchpad-parts,
// ForwardScratchpadParts/, handles loads of what stores through it wrote).
#p0 = affine_set<(d0) : (d0 >= 0, -d0 + 63 >= 0)>
#p1 = affine_set<(d0) : (d0 - 64 >= 0, -d0 + 127 >= 0)>
#t = affine_set<(d0) : (d0 >= 0, -d0 + 63 >= 0)>
#id1 = affine_map<(d0) -> (d0)>
func.func @scratchpad_parts() attributes {grid = [2]} {
  %sp = arith.constant 4096 : index
  %P0 = ktdp.construct_memory_view %sp, sizes: [64], strides: [1] {coordinate_set = #p0, memory_space = #ktdp.memory_space<ct_local, ct_id = 0>} : memref<64xf16>
  %P1 = ktdp.construct_memory_view %sp, sizes: [64], strides: [1] {coordinate_set = #p1, memory_space = #ktdp.memory_space<ct_local, ct_id = 1>} : memref<64xf16>
  %D = ktdp.construct_distributed_memory_view(%P0, %P1 : memref<64xf16>, memref<64xf16>) : memref<128xf16>
  %t = ktdp.construct_access_tile %D[0] {access_tile_set = #t, access_tile_order = #id1} : memref<128xf16> -> !ktdp.access_tile<64xindex>
  // expected-error @+1 {{a distributed view over scratchpad (ct_local) parts compiles only when every load of the parts provably reads what the loading tile stored itself, or what one earlier store wrote on another tile (copied between the cores): no store through the distributed view writes what tile 0 reads}}
  %v = ktdp.load %t : <64xindex> -> tensor<64xf16>
  return
}

// -----

// Shards at addresses that are not evenly spaced.
#p0 = affine_set<(d0) : (d0 >= 0, -d0 + 63 >= 0)>
#p1 = affine_set<(d0) : (d0 - 64 >= 0, -d0 + 127 >= 0)>
#p2 = affine_set<(d0) : (d0 - 128 >= 0, -d0 + 191 >= 0)>
#t = affine_set<(d0) : (d0 >= 0, -d0 + 63 >= 0)>
#id1 = affine_map<(d0) -> (d0)>
func.func @uneven(%a: index) attributes {grid = [3]} {
  %id = ktdp.get_compute_tile_id : index
  %c64 = arith.constant 64 : index
  %c100 = arith.constant 100 : index
  %a1 = arith.addi %a, %c64 : index
  %a2 = arith.addi %a, %c100 : index
  %P0 = ktdp.construct_memory_view %a, sizes: [64], strides: [1] {coordinate_set = #p0, memory_space = #ktdp.memory_space<global>} : memref<64xf16>
  %P1 = ktdp.construct_memory_view %a1, sizes: [64], strides: [1] {coordinate_set = #p1, memory_space = #ktdp.memory_space<global>} : memref<64xf16>
  %P2 = ktdp.construct_memory_view %a2, sizes: [64], strides: [1] {coordinate_set = #p2, memory_space = #ktdp.memory_space<global>} : memref<64xf16>
  // expected-error @+1 {{the parts do not start at evenly spaced addresses of one argument}}
  %D = ktdp.construct_distributed_memory_view(%P0, %P1, %P2 : memref<64xf16>, memref<64xf16>, memref<64xf16>) : memref<192xf16>
  %o = arith.muli %id, %c64 : index
  %t = ktdp.construct_access_tile %D[%o] {access_tile_set = #t, access_tile_order = #id1} : memref<192xf16> -> !ktdp.access_tile<64xindex>
  %v = ktdp.load %t : <64xindex> -> tensor<64xf16>
  return
}
