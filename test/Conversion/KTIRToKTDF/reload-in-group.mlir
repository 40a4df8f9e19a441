// RUN: ktflow-opt %s --ktir-to-ktdf -split-input-file -verify-diagnostics

// One compute group stores Y's tile and loads it back (the sum also uses
// X's row): its pipeline would load before it stores. ktdf-forward-stores
// serves such a reload with the stored tensor when the tile provably lies
// inside its view; here it runs alone, so the reload reaches the grouping.

#mat = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#row = affine_set<(d0, d1) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @reload_in_group(%x: index, %y: index, %z: index) attributes {grid = [64, 1]} {
  %tid = ktdp.get_compute_tile_id : index
  %X = ktdp.construct_memory_view %x, sizes: [64, 64], strides: [64, 1] {coordinate_set = #mat, memory_space = #ktdp.memory_space<global>} : memref<64x64xf16>
  %Y = ktdp.construct_memory_view %y, sizes: [64, 64], strides: [64, 1] {coordinate_set = #mat, memory_space = #ktdp.memory_space<global>} : memref<64x64xf16>
  %Z = ktdp.construct_memory_view %z, sizes: [64, 64], strides: [64, 1] {coordinate_set = #mat, memory_space = #ktdp.memory_space<global>} : memref<64x64xf16>
  %tx = ktdp.construct_access_tile %X[%tid, 0] {access_tile_set = #row, access_tile_order = #id} : memref<64x64xf16> -> !ktdp.access_tile<1x64xindex>
  %ty = ktdp.construct_access_tile %Y[%tid, 0] {access_tile_set = #row, access_tile_order = #id} : memref<64x64xf16> -> !ktdp.access_tile<1x64xindex>
  %tz = ktdp.construct_access_tile %Z[%tid, 0] {access_tile_set = #row, access_tile_order = #id} : memref<64x64xf16> -> !ktdp.access_tile<1x64xindex>
  %v = ktdp.load %tx : <1x64xindex> -> tensor<1x64xf16>
  %d = arith.addf %v, %v : tensor<1x64xf16>
  // expected-note @+1 {{the store}}
  ktdp.store %d, %ty : tensor<1x64xf16>, <1x64xindex>
  // expected-error @+1 {{this load reads back a tensor that a store earlier in its own compute group writes}}
  %w = ktdp.load %ty : <1x64xindex> -> tensor<1x64xf16>
  %s = arith.addf %v, %w : tensor<1x64xf16>
  ktdp.store %s, %tz : tensor<1x64xf16>, <1x64xindex>
  return
}
