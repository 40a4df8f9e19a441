// RUN: ulimit -t 30 && ktflow-opt %s --ktir-check-legality -split-input-file -verify-diagnostics

// The limit is on CPU seconds, which a loaded machine does not stretch as
// it does wall time: the file takes 2.4 s of CPU in the release tree and
// 8.9 s under ASan+UBSan (19 and 85 s of wall time at a load average of
// 15, past the 60 s `timeout` this test had). The regressions it guards
// against ran for over a minute.

// Checking stays fast on sets too large to enumerate: the inter-tile rules
// warn that they were not checked, and the op verifier's disjointness check
// gives up, instead of running for minutes.

func.func @huge_grid(%x: tensor<4xf32>) -> tensor<4xf32> attributes {grid = [100000000]} {
  %f = ktdp.inter_tile_produce producer_tiles_per_group = affine_set<(i)[g] : (i >= 0)>
       -> <(tensor<4xf32>), groups = affine_set<(g) : (g == 0)>> {
  ^bb0(%g: index):
    ktdp.yield_partial %x : tensor<4xf32>
  }
  // expected-warning @+1 {{inter-tile rules not checked: the tile sets need more than 4194304 membership tests}}
  %r = ktdp.inter_tile_consume(%f) consumer_tiles_per_group = affine_set<(i)[g] : (i >= 0)>,
         producer_dependency_per_consumer = affine_set<(p)[c] : (p - c == 0)>
       : <(tensor<4xf32>), groups = affine_set<(g) : (g == 0)>> -> tensor<4xf32>
  return %r : tensor<4xf32>
}

// -----

// 100001 groups of 1000 tiles (10^8 points) took over a minute in the op
// verifier's disjointness check; the pass runs out of budget after a few
// thousand groups.
func.func @many_groups(%x: tensor<4xf32>) -> tensor<4xf32> {
  %f = ktdp.inter_tile_produce producer_tiles_per_group = affine_set<(i)[g] : (i - 1000 * g >= 0, -i + 1000 * g + 999 >= 0)>
       -> <(tensor<4xf32>), groups = affine_set<(g) : (g >= 0, -g + 100000 >= 0)>> {
  ^bb0(%g: index):
    ktdp.yield_partial %x : tensor<4xf32>
  }
  // expected-warning @+1 {{inter-tile rules not checked}}
  %r = ktdp.inter_tile_reduce(%f) consumer_tiles_per_group = affine_set<(i)[g] : (i - 1000 * g >= 0, -i + 1000 * g + 999 >= 0)>, identity(%x : tensor<4xf32>)
       : <(tensor<4xf32>), groups = affine_set<(g) : (g >= 0, -g + 100000 >= 0)>> -> tensor<4xf32> {
  ^bb0(%l: tensor<4xf32>, %rr: tensor<4xf32>):
    ktdp.yield_reduced %l : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}

// -----

// The same mistake in every one of 100001 groups is reported once.
func.func @one_report(%x: tensor<4xf32>) -> tensor<4xf32> {
  %f = ktdp.inter_tile_produce producer_tiles_per_group = affine_set<(i)[g] : (i - 2 * g >= 0, -i + 2 * g + 1 >= 0)>
       -> <(tensor<4xf32>), groups = affine_set<(g) : (g >= 0, -g + 100000 >= 0)>> {
  ^bb0(%g: index):
    ktdp.yield_partial %x : tensor<4xf32>
  }
  // expected-error @+1 {{'ktdp.inter_tile_consume' op group 0 has 2 producers; inter_tile_consume needs producer_dependency_per_consumer}}
  %r = ktdp.inter_tile_consume(%f) consumer_tiles_per_group = affine_set<(i)[g] : (i - 2 * g >= 0, -i + 2 * g + 1 >= 0)>
       : <(tensor<4xf32>), groups = affine_set<(g) : (g >= 0, -g + 100000 >= 0)>> -> tensor<4xf32>
  return %r : tensor<4xf32>
}
