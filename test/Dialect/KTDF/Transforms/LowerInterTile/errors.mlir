// RUN: ktflow-opt %s --ktdf-lower-inter-tile -split-input-file -verify-diagnostics

// What the scheduler does not exchange yet is refused at the op, with the
// reason (ktdf-check-supported reports the same in the pipeline).

#all4 = affine_set<(i)[g] : (i >= 0, -i + 3 >= 0, g == 0)>
func.func @in_loop(%n: index) attributes {grid = [4]} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %p = arith.constant dense<1.0> : tensor<1x64xf16>
  %zero = arith.constant dense<0.0> : tensor<1x64xf16>
  scf.for %i = %c0 to %n step %c1 {
    // expected-error @+1 {{an inter-tile reduction inside a loop or a branch is not supported by the scheduler yet}}
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
