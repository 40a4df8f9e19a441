// RUN: ktflow-opt %s --ktdf-lower-inter-tile -split-input-file -verify-diagnostics

// What the scheduler does not exchange yet is refused at the op, with the
// reason (ktdf-check-supported reports the same in the pipeline).

// A grid-stride loop: tiles run different trips, so they would not meet
// at each exchange.
#all4 = affine_set<(i)[g] : (i >= 0, -i + 3 >= 0, g == 0)>
func.func @tile_dependent_loop(%n: index) attributes {grid = [4]} {
  %pid = ktdp.get_compute_tile_id : index
  %c4 = arith.constant 4 : index
  %p = arith.constant dense<1.0> : tensor<1x64xf16>
  %zero = arith.constant dense<0.0> : tensor<1x64xf16>
  scf.for %i = %pid to %n step %c4 {
    // expected-error @+1 {{an inter-tile reduction inside a loop or a branch whose trips may differ between tiles (bounds, step or condition computed from tile ids or loaded data) is not supported: every tile of a group takes part in each exchange}}
    %f = ktdp.inter_tile_produce producer_tiles_per_group = #all4
        : tensor<1x64xf16> -> !ktdp.tile_future<tensor<1x64xf16>, groups = affine_set<(g) : (g == 0)>> {
    ^bb0(%g: index):
      ktdp.yield_partial %p : tensor<1x64xf16>
    }
    %r = ktdp.inter_tile_reduce(%f) consumer_tiles_per_group = #all4, identity(%zero : tensor<1x64xf16>)
        : !ktdp.tile_future<tensor<1x64xf16>, groups = affine_set<(g) : (g == 0)>> -> tensor<1x64xf16> {
    ^bb0(%a: tensor<1x64xf16>, %b: tensor<1x64xf16>):
      %s = arith.addf %a, %b : tensor<1x64xf16>
      ktdp.yield_reduced %s : tensor<1x64xf16>
    }
  }
  return
}

// -----

// A branch taken on some tiles only (ktdf-lower-if makes it a loop of
// select(%pid == 0, 1, 0) trips before this pass; here it is still a
// branch).
#all4 = affine_set<(i)[g] : (i >= 0, -i + 3 >= 0, g == 0)>
func.func @in_branch() attributes {grid = [4]} {
  %pid = ktdp.get_compute_tile_id : index
  %c0 = arith.constant 0 : index
  %first = arith.cmpi eq, %pid, %c0 : index
  %p = arith.constant dense<1.0> : tensor<1x64xf16>
  %zero = arith.constant dense<0.0> : tensor<1x64xf16>
  scf.if %first {
    // expected-error @+1 {{an inter-tile reduction inside scf.if is not supported by the scheduler (only scf.for loops, and branches without results, which ktdf-lower-if makes loops)}}
    %f = ktdp.inter_tile_produce producer_tiles_per_group = #all4
        : tensor<1x64xf16> -> !ktdp.tile_future<tensor<1x64xf16>, groups = affine_set<(g) : (g == 0)>> {
    ^bb0(%g: index):
      ktdp.yield_partial %p : tensor<1x64xf16>
    }
    %r = ktdp.inter_tile_reduce(%f) consumer_tiles_per_group = #all4, identity(%zero : tensor<1x64xf16>)
        : !ktdp.tile_future<tensor<1x64xf16>, groups = affine_set<(g) : (g == 0)>> -> tensor<1x64xf16> {
    ^bb0(%a: tensor<1x64xf16>, %b: tensor<1x64xf16>):
      %s = arith.addf %a, %b : tensor<1x64xf16>
      ktdp.yield_reduced %s : tensor<1x64xf16>
    }
  }
  return
}

// -----

// In a loop, the exchange views are reused every trip, ordered by the
// compute unit: a loaded partial (moved by a DMA, not the compute unit)
// is refused, and so is a result stored as it is.
#all4 = affine_set<(i)[g] : (i >= 0, -i + 3 >= 0, g == 0)>
#x_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 99 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#row = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 63 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @loaded_partial(%x_ptr: index, %n: index) attributes {grid = [4]} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant dense<0.0> : tensor<1x64xf16>
  %X = ktdp.construct_memory_view %x_ptr, sizes: [100, 64], strides: [64, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<100x64xf16>
  scf.for %i = %c0 to %n step %c1 {
    %tx = ktdp.construct_access_tile %X[%i, 0] {access_tile_set = #row, access_tile_order = #id2} : memref<100x64xf16> -> !ktdp.access_tile<1x64xindex>
    %x = ktdp.load %tx : <1x64xindex> -> tensor<1x64xf16>
    %f = ktdp.inter_tile_produce producer_tiles_per_group = #all4
        : tensor<1x64xf16> -> !ktdp.tile_future<tensor<1x64xf16>, groups = affine_set<(g) : (g == 0)>> {
    ^bb0(%g: index):
      ktdp.yield_partial %x : tensor<1x64xf16>
    }
    // expected-error @+1 {{an inter-tile reduction inside a loop exchanges through the same scratchpad views every trip, ordered by the compute unit: its partial must be computed (not a loaded tensor) and its result computed on before it is stored}}
    %r = ktdp.inter_tile_reduce(%f) consumer_tiles_per_group = #all4, identity(%zero : tensor<1x64xf16>)
        : !ktdp.tile_future<tensor<1x64xf16>, groups = affine_set<(g) : (g == 0)>> -> tensor<1x64xf16> {
    ^bb0(%a: tensor<1x64xf16>, %b: tensor<1x64xf16>):
      %s = arith.addf %a, %b : tensor<1x64xf16>
      ktdp.yield_reduced %s : tensor<1x64xf16>
    }
  }
  return
}

// -----

#all4 = affine_set<(i)[g] : (i >= 0, -i + 3 >= 0, g == 0)>
#x_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 99 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#row = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 63 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @stored_result(%y_ptr: index, %n: index) attributes {grid = [4]} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %p = arith.constant dense<1.0> : tensor<1x64xf16>
  %zero = arith.constant dense<0.0> : tensor<1x64xf16>
  %Y = ktdp.construct_memory_view %y_ptr, sizes: [100, 64], strides: [64, 1] {coordinate_set = #x_set, memory_space = #ktdp.memory_space<global>} : memref<100x64xf16>
  scf.for %i = %c0 to %n step %c1 {
    %q = arith.addf %p, %p : tensor<1x64xf16>
    %f = ktdp.inter_tile_produce producer_tiles_per_group = #all4
        : tensor<1x64xf16> -> !ktdp.tile_future<tensor<1x64xf16>, groups = affine_set<(g) : (g == 0)>> {
    ^bb0(%g: index):
      ktdp.yield_partial %q : tensor<1x64xf16>
    }
    // expected-error @+1 {{its partial must be computed (not a loaded tensor) and its result computed on before it is stored}}
    %r = ktdp.inter_tile_reduce(%f) consumer_tiles_per_group = #all4, identity(%zero : tensor<1x64xf16>)
        : !ktdp.tile_future<tensor<1x64xf16>, groups = affine_set<(g) : (g == 0)>> -> tensor<1x64xf16> {
    ^bb0(%a: tensor<1x64xf16>, %b: tensor<1x64xf16>):
      %s = arith.addf %a, %b : tensor<1x64xf16>
      ktdp.yield_reduced %s : tensor<1x64xf16>
    }
    %ty = ktdp.construct_access_tile %Y[%i, 0] {access_tile_set = #row, access_tile_order = #id2} : memref<100x64xf16> -> !ktdp.access_tile<1x64xindex>
    ktdp.store %r, %ty : tensor<1x64xf16>, <1x64xindex>
  }
  return
}

// -----

#all4 = affine_set<(i)[g] : (i >= 0, -i + 3 >= 0, g == 0)>
func.func @combiner() attributes {grid = [4]} {
  %p = arith.constant dense<1.0> : tensor<1x64xf16>
  %zero = arith.constant dense<0.0> : tensor<1x64xf16>
  %f = ktdp.inter_tile_produce producer_tiles_per_group = #all4
      : tensor<1x64xf16> -> !ktdp.tile_future<tensor<1x64xf16>, groups = affine_set<(g) : (g == 0)>> {
  ^bb0(%g: index):
    ktdp.yield_partial %p : tensor<1x64xf16>
  }
  // expected-error @+1 {{the scheduler combines partials with one element-wise arith.addf, mulf, maximumf, minimumf, maxnumf or minnumf (or linalg.add, mul, max, min) of the two arguments only}}
  %r = ktdp.inter_tile_reduce(%f) consumer_tiles_per_group = #all4, identity(%zero : tensor<1x64xf16>)
      : !ktdp.tile_future<tensor<1x64xf16>, groups = affine_set<(g) : (g == 0)>> -> tensor<1x64xf16> {
  ^bb0(%a: tensor<1x64xf16>, %b: tensor<1x64xf16>):
    %s = arith.subf %a, %b : tensor<1x64xf16>
    ktdp.yield_reduced %s : tensor<1x64xf16>
  }
  return
}

// -----

#all4 = affine_set<(i)[g] : (i >= 0, -i + 3 >= 0, g == 0)>
func.func @identity() attributes {grid = [4]} {
  %p = arith.constant dense<1.0> : tensor<1x64xf16>
  %one = arith.constant dense<1.0> : tensor<1x64xf16>
  %f = ktdp.inter_tile_produce producer_tiles_per_group = #all4
      : tensor<1x64xf16> -> !ktdp.tile_future<tensor<1x64xf16>, groups = affine_set<(g) : (g == 0)>> {
  ^bb0(%g: index):
    ktdp.yield_partial %p : tensor<1x64xf16>
  }
  // expected-error @+1 {{the identity of an inter-tile reduction must be a splat constant of the combiner's neutral element}}
  %r = ktdp.inter_tile_reduce(%f) consumer_tiles_per_group = #all4, identity(%one : tensor<1x64xf16>)
      : !ktdp.tile_future<tensor<1x64xf16>, groups = affine_set<(g) : (g == 0)>> -> tensor<1x64xf16> {
  ^bb0(%a: tensor<1x64xf16>, %b: tensor<1x64xf16>):
    %s = arith.addf %a, %b : tensor<1x64xf16>
    ktdp.yield_reduced %s : tensor<1x64xf16>
  }
  return
}

// -----

// Reduce-to-one: only tile 0 consumes.
#all4 = affine_set<(i)[g] : (i >= 0, -i + 3 >= 0, g == 0)>
#first = affine_set<(i)[g] : (i == 0, g == 0)>
func.func @reduce_to_one() attributes {grid = [4]} {
  %p = arith.constant dense<1.0> : tensor<1x64xf16>
  %zero = arith.constant dense<0.0> : tensor<1x64xf16>
  %f = ktdp.inter_tile_produce producer_tiles_per_group = #all4
      : tensor<1x64xf16> -> !ktdp.tile_future<tensor<1x64xf16>, groups = affine_set<(g) : (g == 0)>> {
  ^bb0(%g: index):
    ktdp.yield_partial %p : tensor<1x64xf16>
  }
  // expected-error @+1 {{group 0 has other consumers than producers; the scheduler lowers all-reduces only}}
  %r = ktdp.inter_tile_reduce(%f) consumer_tiles_per_group = #first, identity(%zero : tensor<1x64xf16>)
      : !ktdp.tile_future<tensor<1x64xf16>, groups = affine_set<(g) : (g == 0)>> -> tensor<1x64xf16> {
  ^bb0(%a: tensor<1x64xf16>, %b: tensor<1x64xf16>):
    %s = arith.addf %a, %b : tensor<1x64xf16>
    ktdp.yield_reduced %s : tensor<1x64xf16>
  }
  return
}

// -----

// Tiles 4 to 7 take part in no group.
#all4 = affine_set<(i)[g] : (i >= 0, -i + 3 >= 0, g == 0)>
func.func @uncovered() attributes {grid = [8]} {
  %p = arith.constant dense<1.0> : tensor<1x64xf16>
  %zero = arith.constant dense<0.0> : tensor<1x64xf16>
  %f = ktdp.inter_tile_produce producer_tiles_per_group = #all4
      : tensor<1x64xf16> -> !ktdp.tile_future<tensor<1x64xf16>, groups = affine_set<(g) : (g == 0)>> {
  ^bb0(%g: index):
    ktdp.yield_partial %p : tensor<1x64xf16>
  }
  // expected-error @+1 {{tile 4 is in no group; the scheduler lowers groups that cover the grid only}}
  %r = ktdp.inter_tile_reduce(%f) consumer_tiles_per_group = #all4, identity(%zero : tensor<1x64xf16>)
      : !ktdp.tile_future<tensor<1x64xf16>, groups = affine_set<(g) : (g == 0)>> -> tensor<1x64xf16> {
  ^bb0(%a: tensor<1x64xf16>, %b: tensor<1x64xf16>):
    %s = arith.addf %a, %b : tensor<1x64xf16>
    ktdp.yield_reduced %s : tensor<1x64xf16>
  }
  return
}

// -----

// A partial computed inside the produce's body.
#all4 = affine_set<(i)[g] : (i >= 0, -i + 3 >= 0, g == 0)>
func.func @computing_body() attributes {grid = [4]} {
  %p = arith.constant dense<1.0> : tensor<1x64xf16>
  %zero = arith.constant dense<0.0> : tensor<1x64xf16>
  // expected-error @+1 {{an inter_tile_produce whose body computes or yields several partials is not supported by the scheduler yet}}
  %f = ktdp.inter_tile_produce producer_tiles_per_group = #all4
      : tensor<1x64xf16> -> !ktdp.tile_future<tensor<1x64xf16>, groups = affine_set<(g) : (g == 0)>> {
  ^bb0(%g: index):
    %q = arith.addf %p, %p : tensor<1x64xf16>
    ktdp.yield_partial %q : tensor<1x64xf16>
  }
  %r = ktdp.inter_tile_reduce(%f) consumer_tiles_per_group = #all4, identity(%zero : tensor<1x64xf16>)
      : !ktdp.tile_future<tensor<1x64xf16>, groups = affine_set<(g) : (g == 0)>> -> tensor<1x64xf16> {
  ^bb0(%a: tensor<1x64xf16>, %b: tensor<1x64xf16>):
    %s = arith.addf %a, %b : tensor<1x64xf16>
    ktdp.yield_reduced %s : tensor<1x64xf16>
  }
  return
}
