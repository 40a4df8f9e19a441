// RUN: ktflow-opt %s --ktdf-check-supported -split-input-file -verify-diagnostics

// Loads of another tile's scratchpad (a ct_local view with ct_id on a grid
// of several tiles) are accepted when ktdf-remote-scratchpad-loads makes
// them copies between cores, and refused at the load, with the reason,
// otherwise. Stores into another tile's scratchpad are refused.

#row = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 63 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @accepted(%x: index, %y: index) attributes {grid = [2]} {
  %pid = ktdp.get_compute_tile_id : index
  %c0 = arith.constant 0 : index
  %X = ktdp.construct_memory_view %x, sizes: [2, 64], strides: [64, 1] {memory_space = #ktdp.memory_space<global>} : memref<2x64xf16>
  %Y = ktdp.construct_memory_view %y, sizes: [2, 64], strides: [64, 1] {memory_space = #ktdp.memory_space<global>} : memref<2x64xf16>
  %tx = ktdp.construct_access_tile %X[%pid, 0] {access_tile_set = #row, access_tile_order = #id2} : memref<2x64xf16> -> !ktdp.access_tile<1x64xindex>
  %row = ktdp.load %tx : <1x64xindex> -> tensor<1x64xf16>
  %own = ktdp.construct_memory_view %c0, sizes: [1, 64], strides: [64, 1] {coordinate_set = #row, memory_space = #ktdp.memory_space<ct_local>} : memref<1x64xf16>
  %town = ktdp.construct_access_tile %own[0, 0] {access_tile_set = #row, access_tile_order = #id2} : memref<1x64xf16> -> !ktdp.access_tile<1x64xindex>
  ktdp.store %row, %town : tensor<1x64xf16>, <1x64xindex>
  %of1 = ktdp.construct_memory_view %c0, sizes: [1, 64], strides: [64, 1] {coordinate_set = #row, memory_space = #ktdp.memory_space<ct_local, ct_id = 1>} : memref<1x64xf16>
  %t1 = ktdp.construct_access_tile %of1[0, 0] {access_tile_set = #row, access_tile_order = #id2} : memref<1x64xf16> -> !ktdp.access_tile<1x64xindex>
  %a = ktdp.load %t1 : <1x64xindex> -> tensor<1x64xf16>
  %ty = ktdp.construct_access_tile %Y[%pid, 0] {access_tile_set = #row, access_tile_order = #id2} : memref<2x64xf16> -> !ktdp.access_tile<1x64xindex>
  ktdp.store %a, %ty : tensor<1x64xf16>, <1x64xindex>
  return
}

// -----

#row = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 63 >= 0)>
#half = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 31 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @other_tile(%x: index, %y: index) attributes {grid = [2]} {
  %c0 = arith.constant 0 : index
  %X = ktdp.construct_memory_view %x, sizes: [1, 64], strides: [64, 1] {memory_space = #ktdp.memory_space<global>} : memref<1x64xf16>
  %Y = ktdp.construct_memory_view %y, sizes: [1, 32], strides: [32, 1] {memory_space = #ktdp.memory_space<global>} : memref<1x32xf16>
  %tx = ktdp.construct_access_tile %X[0, 0] {access_tile_set = #row, access_tile_order = #id2} : memref<1x64xf16> -> !ktdp.access_tile<1x64xindex>
  %row = ktdp.load %tx : <1x64xindex> -> tensor<1x64xf16>
  %own = ktdp.construct_memory_view %c0, sizes: [1, 64], strides: [64, 1] {coordinate_set = #row, memory_space = #ktdp.memory_space<ct_local>} : memref<1x64xf16>
  %town = ktdp.construct_access_tile %own[0, 0] {access_tile_set = #row, access_tile_order = #id2} : memref<1x64xf16> -> !ktdp.access_tile<1x64xindex>
  ktdp.store %row, %town : tensor<1x64xf16>, <1x64xindex>
  %of1 = ktdp.construct_memory_view %c0, sizes: [1, 64], strides: [64, 1] {coordinate_set = #row, memory_space = #ktdp.memory_space<ct_local, ct_id = 1>} : memref<1x64xf16>
  %t1 = ktdp.construct_access_tile %of1[0, 0] {access_tile_set = #half, access_tile_order = #id2} : memref<1x64xf16> -> !ktdp.access_tile<1x32xindex>
  // expected-error @+1 {{another tile's scratchpad is copied between cores only when one store of the kernel, before the load in its body, writes the region the load reads into the tile's own scratchpad}}
  %a = ktdp.load %t1 : <1x32xindex> -> tensor<1x32xf16>
  %ty = ktdp.construct_access_tile %Y[0, 0] {access_tile_set = #half, access_tile_order = #id2} : memref<1x32xf16> -> !ktdp.access_tile<1x32xindex>
  ktdp.store %a, %ty : tensor<1x32xf16>, <1x32xindex>
  return
}

// -----

#row = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 63 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @in_loop(%y: index) attributes {grid = [2]} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %of1 = ktdp.construct_memory_view %c0, sizes: [1, 64], strides: [64, 1] {coordinate_set = #row, memory_space = #ktdp.memory_space<ct_local, ct_id = 1>} : memref<1x64xf16>
  %t1 = ktdp.construct_access_tile %of1[0, 0] {access_tile_set = #row, access_tile_order = #id2} : memref<1x64xf16> -> !ktdp.access_tile<1x64xindex>
  %Y = ktdp.construct_memory_view %y, sizes: [1, 64], strides: [64, 1] {memory_space = #ktdp.memory_space<global>} : memref<1x64xf16>
  %ty = ktdp.construct_access_tile %Y[0, 0] {access_tile_set = #row, access_tile_order = #id2} : memref<1x64xf16> -> !ktdp.access_tile<1x64xindex>
  scf.for %i = %c0 to %c2 step %c1 {
    // expected-error @+1 {{a load of another tile's scratchpad is copied between cores only in the kernel's body (not in a loop or a branch)}}
    %a = ktdp.load %t1 : <1x64xindex> -> tensor<1x64xf16>
    ktdp.store %a, %ty : tensor<1x64xf16>, <1x64xindex>
  }
  return
}

// -----

#row = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 63 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @remote_store(%x: index) attributes {grid = [2]} {
  %c0 = arith.constant 0 : index
  %X = ktdp.construct_memory_view %x, sizes: [1, 64], strides: [64, 1] {memory_space = #ktdp.memory_space<global>} : memref<1x64xf16>
  %tx = ktdp.construct_access_tile %X[0, 0] {access_tile_set = #row, access_tile_order = #id2} : memref<1x64xf16> -> !ktdp.access_tile<1x64xindex>
  %row = ktdp.load %tx : <1x64xindex> -> tensor<1x64xf16>
  %of0 = ktdp.construct_memory_view %c0, sizes: [1, 64], strides: [64, 1] {coordinate_set = #row, memory_space = #ktdp.memory_space<ct_local, ct_id = 0>} : memref<1x64xf16>
  %t0 = ktdp.construct_access_tile %of0[0, 0] {access_tile_set = #row, access_tile_order = #id2} : memref<1x64xf16> -> !ktdp.access_tile<1x64xindex>
  // expected-error @+1 {{stores into a scratchpad (ct_local) view naming a compute tile (ct_id) on a grid of several tiles (another tile's scratchpad) are not supported by the scheduler yet}}
  ktdp.store %row, %t0 : tensor<1x64xf16>, <1x64xindex>
  return
}
