// RUN: ktflow-opt %s --ktdf-lower-inter-tile -split-input-file -verify-diagnostics

// The consumes the scheduler does not copy yet are refused at the op,
// with the reason (ktdf-check-supported reports the same in the pipeline).

// Only tile 0 consumes: the interpreter gives the other tiles zeros.
#all4 = affine_set<(i)[g] : (i >= 0, -i + 3 >= 0, g == 0)>
#tile0 = affine_set<(i)[g] : (i == 0, g == 0)>
#tile1 = affine_set<(i)[g] : (i == 1, g == 0)>
func.func @subset() attributes {grid = [4]} {
  %p = arith.constant dense<1.0> : tensor<1x64xf16>
  %f = ktdp.inter_tile_produce producer_tiles_per_group = #tile1
      : tensor<1x64xf16> -> !ktdp.tile_future<tensor<1x64xf16>, groups = affine_set<(g) : (g == 0)>> {
  ^bb0(%g: index):
    ktdp.yield_partial %p : tensor<1x64xf16>
  }
  // expected-error @+1 {{tile 1 consumes nothing; the scheduler lowers consumes whose consumers cover the grid only (the interpreter gives the other tiles zeros)}}
  %r = ktdp.inter_tile_consume(%f) consumer_tiles_per_group = #tile0
      : !ktdp.tile_future<tensor<1x64xf16>, groups = affine_set<(g) : (g == 0)>> -> tensor<1x64xf16>
  return
}

// -----

// Four producers and no dependency set to choose one.
#all4 = affine_set<(i)[g] : (i >= 0, -i + 3 >= 0, g == 0)>
func.func @several_producers() attributes {grid = [4]} {
  %p = arith.constant dense<1.0> : tensor<1x64xf16>
  %f = ktdp.inter_tile_produce producer_tiles_per_group = #all4
      : tensor<1x64xf16> -> !ktdp.tile_future<tensor<1x64xf16>, groups = affine_set<(g) : (g == 0)>> {
  ^bb0(%g: index):
    ktdp.yield_partial %p : tensor<1x64xf16>
  }
  // expected-error @+1 {{tile 0 depends on 4 producers of group 0; a consume delivers exactly one producer's value}}
  %r = ktdp.inter_tile_consume(%f) consumer_tiles_per_group = #all4
      : !ktdp.tile_future<tensor<1x64xf16>, groups = affine_set<(g) : (g == 0)>> -> tensor<1x64xf16>
  return
}

// -----

// The body uses the group id: it cannot run on every tile.
#all4 = affine_set<(i)[g] : (i >= 0, -i + 3 >= 0, g == 0)>
#tile0 = affine_set<(i)[g] : (i == 0, g == 0)>
#v = affine_set<(d0) : (d0 >= 0, -d0 + 63 >= 0)>
#id1 = affine_map<(d0) -> (d0)>
func.func @group_id(%w: index) attributes {grid = [4]} {
  %W = ktdp.construct_memory_view %w, sizes: [64], strides: [1] {coordinate_set = #v, memory_space = #ktdp.memory_space<global>} : memref<64xf16>
  // expected-error @+1 {{the scheduler computes a consumed partial on every tile, so its produce's body may not use the group id}}
  %f = ktdp.inter_tile_produce producer_tiles_per_group = #tile0
      : tensor<64xf16> -> !ktdp.tile_future<tensor<64xf16>, groups = affine_set<(g) : (g == 0)>> {
  ^bb0(%g: index):
    %t = ktdp.construct_access_tile %W[%g] {access_tile_set = #v, access_tile_order = #id1} : memref<64xf16> -> !ktdp.access_tile<64xindex>
    %x = ktdp.load %t : <64xindex> -> tensor<64xf16>
    ktdp.yield_partial %x : tensor<64xf16>
  }
  %r = ktdp.inter_tile_consume(%f) consumer_tiles_per_group = #all4
      : !ktdp.tile_future<tensor<64xf16>, groups = affine_set<(g) : (g == 0)>> -> tensor<64xf16>
  return
}

// -----

// The body reads a tensor the kernel writes.
#all4 = affine_set<(i)[g] : (i >= 0, -i + 3 >= 0, g == 0)>
#tile0 = affine_set<(i)[g] : (i == 0, g == 0)>
#v = affine_set<(d0) : (d0 >= 0, -d0 + 63 >= 0)>
#id1 = affine_map<(d0) -> (d0)>
func.func @reads_output(%w: index) attributes {grid = [4]} {
  %W = ktdp.construct_memory_view %w, sizes: [64], strides: [1] {coordinate_set = #v, memory_space = #ktdp.memory_space<global>} : memref<64xf16>
  %t = ktdp.construct_access_tile %W[0] {access_tile_set = #v, access_tile_order = #id1} : memref<64xf16> -> !ktdp.access_tile<64xindex>
  %f = ktdp.inter_tile_produce producer_tiles_per_group = #tile0
      : tensor<64xf16> -> !ktdp.tile_future<tensor<64xf16>, groups = affine_set<(g) : (g == 0)>> {
  ^bb0(%g: index):
    // expected-error @+1 {{the scheduler computes a consumed partial on every tile, and this op cannot be (it reads a tensor the kernel writes, or has effects)}}
    %x = ktdp.load %t : <64xindex> -> tensor<64xf16>
    ktdp.yield_partial %x : tensor<64xf16>
  }
  %r = ktdp.inter_tile_consume(%f) consumer_tiles_per_group = #all4
      : !ktdp.tile_future<tensor<64xf16>, groups = affine_set<(g) : (g == 0)>> -> tensor<64xf16>
  ktdp.store %r, %t : tensor<64xf16>, <64xindex>
  return
}

// -----

// Inside a loop that earlier passes did not unroll.
#all4 = affine_set<(i)[g] : (i >= 0, -i + 3 >= 0, g == 0)>
#tile0 = affine_set<(i)[g] : (i == 0, g == 0)>
func.func @in_loop(%n: index) attributes {grid = [4]} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %p = arith.constant dense<1.0> : tensor<1x64xf16>
  scf.for %i = %c0 to %n step %c1 {
    // expected-error @+1 {{an inter-tile consume inside a loop or a branch is not supported by the scheduler yet}}
    %f = ktdp.inter_tile_produce producer_tiles_per_group = #tile0
        : tensor<1x64xf16> -> !ktdp.tile_future<tensor<1x64xf16>, groups = affine_set<(g) : (g == 0)>> {
    ^bb0(%g: index):
      ktdp.yield_partial %p : tensor<1x64xf16>
    }
    %r = ktdp.inter_tile_consume(%f) consumer_tiles_per_group = #all4
        : !ktdp.tile_future<tensor<1x64xf16>, groups = affine_set<(g) : (g == 0)>> -> tensor<1x64xf16>
  }
  return
}
