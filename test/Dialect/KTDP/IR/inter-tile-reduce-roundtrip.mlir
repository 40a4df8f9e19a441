// RUN: ktflow-opt %s | ktflow-opt | FileCheck %s
// RUN: ktflow-opt %s --verify-roundtrip | FileCheck %s

// inter_tile_reduce: an all-reduce, a reduce-to-one, eight groups, and an
// argmax over two partial roles with a `(p)[c, g]` dependency set. Results
// keep the rank of the partials.

#one_group = affine_set<(g) : (g == 0)>
#all4 = affine_set<(i)[g] : (i >= 0, -i + 3 >= 0)>

// CHECK-LABEL: func.func @all_reduce
func.func @all_reduce(%x: tensor<1x64xf32>) -> tensor<1x64xf32> attributes {grid = [4]} {
  %zero = arith.constant dense<0.0> : tensor<1x64xf32>
  %f = ktdp.inter_tile_produce producer_tiles_per_group = #all4
       -> <(tensor<1x64xf32>), groups = #one_group> {
  ^bb0(%gid: index):
    ktdp.yield_partial %x : tensor<1x64xf32>
  }
  // CHECK: %[[R:.+]] = ktdp.inter_tile_reduce(%{{.+}}) consumer_tiles_per_group = #{{.+}}, identity(%{{.+}} : tensor<1x64xf32>) : <(tensor<1x64xf32>), groups = #{{.+}}> -> tensor<1x64xf32> {
  // CHECK-NEXT: ^bb0(%[[L:.+]]: tensor<1x64xf32>, %[[RR:.+]]: tensor<1x64xf32>):
  // CHECK-NEXT: %[[S:.+]] = arith.addf %[[L]], %[[RR]] : tensor<1x64xf32>
  // CHECK-NEXT: ktdp.yield_reduced %[[S]] : tensor<1x64xf32>
  %r = ktdp.inter_tile_reduce(%f) consumer_tiles_per_group = #all4, identity(%zero : tensor<1x64xf32>)
       : <(tensor<1x64xf32>), groups = #one_group> -> tensor<1x64xf32> {
  ^bb0(%l: tensor<1x64xf32>, %rr: tensor<1x64xf32>):
    %s = arith.addf %l, %rr : tensor<1x64xf32>
    ktdp.yield_reduced %s : tensor<1x64xf32>
  }
  return %r : tensor<1x64xf32>
}

// CHECK-LABEL: func.func @reduce_to_one
func.func @reduce_to_one(%x: tensor<1x64xf16>) -> tensor<1x64xf16> attributes {grid = [4]} {
  %zero = arith.constant dense<0.0> : tensor<1x64xf16>
  %f = ktdp.inter_tile_produce producer_tiles_per_group = #all4
       -> !ktdp.tile_future<(tensor<1x64xf16>), groups = #one_group> {
  ^bb0(%gid: index):
    ktdp.yield_partial %x : tensor<1x64xf16>
  }
  // CHECK: ktdp.inter_tile_reduce(%{{.+}}) consumer_tiles_per_group = #[[TILE0:[^,]+]], identity(
  %r = ktdp.inter_tile_reduce(%f) consumer_tiles_per_group = affine_set<(i)[g] : (i == 0)>, identity(%zero : tensor<1x64xf16>)
       : !ktdp.tile_future<(tensor<1x64xf16>), groups = #one_group> -> tensor<1x64xf16> {
  ^bb0(%l: tensor<1x64xf16>, %rr: tensor<1x64xf16>):
    %e = tensor.empty() : tensor<1x64xf16>
    %s = linalg.add ins(%l, %rr : tensor<1x64xf16>, tensor<1x64xf16>) outs(%e : tensor<1x64xf16>) -> tensor<1x64xf16>
    ktdp.yield_reduced %s : tensor<1x64xf16>
  }
  return %r : tensor<1x64xf16>
}

// Eight groups of four tiles, each all-reducing within its group.
// CHECK-LABEL: func.func @eight_groups
func.func @eight_groups(%x: tensor<8xf32>) -> tensor<8xf32> attributes {grid = [32]} {
  %zero = arith.constant dense<0.0> : tensor<8xf32>
  // CHECK: ktdp.inter_tile_produce producer_tiles_per_group = #[[GROUP:.+]] -> <(tensor<8xf32>), groups = #{{.+}}>
  %f = ktdp.inter_tile_produce producer_tiles_per_group = affine_set<(i)[g] : (i - 4 * g >= 0, -i + 4 * g + 3 >= 0)>
       -> <(tensor<8xf32>), groups = affine_set<(g) : (g >= 0, -g + 7 >= 0)>> {
  ^bb0(%gid: index):
    ktdp.yield_partial %x : tensor<8xf32>
  }
  // CHECK: ktdp.inter_tile_reduce(%{{.+}}) consumer_tiles_per_group = #[[GROUP]], identity
  %r = ktdp.inter_tile_reduce(%f) consumer_tiles_per_group = affine_set<(i)[g] : (i - 4 * g >= 0, -i + 4 * g + 3 >= 0)>, identity(%zero : tensor<8xf32>)
       : <(tensor<8xf32>), groups = affine_set<(g) : (g >= 0, -g + 7 >= 0)>> -> tensor<8xf32> {
  ^bb0(%l: tensor<8xf32>, %rr: tensor<8xf32>):
    %s = arith.maximumf %l, %rr : tensor<8xf32>
    ktdp.yield_reduced %s : tensor<8xf32>
  }
  return %r : tensor<8xf32>
}

// Argmax over (value, index) pairs in two groups; consumer c of group g
// combines the producers of its own group: `(p)[c, g]`. The combiner takes
// the left and right value of each partial in turn.
// CHECK-LABEL: func.func @argmax
func.func @argmax(%v: tensor<1x1xf32>, %i: tensor<1x1xi32>) -> (tensor<1x1xf32>, tensor<1x1xi32>) attributes {grid = [4]} {
  %vmin = arith.constant dense<0xFF800000> : tensor<1x1xf32>
  %imin = arith.constant dense<0> : tensor<1x1xi32>
  %f = ktdp.inter_tile_produce producer_tiles_per_group = affine_set<(i)[g] : (i - 2 * g >= 0, -i + 2 * g + 1 >= 0)>
       -> <(tensor<1x1xf32>, tensor<1x1xi32>), groups = affine_set<(g) : (g >= 0, -g + 1 >= 0)>> {
  ^bb0(%gid: index):
    ktdp.yield_partial %v, %i : tensor<1x1xf32>, tensor<1x1xi32>
  }
  // CHECK: %{{.+}}:2 = ktdp.inter_tile_reduce(%{{.+}}) consumer_tiles_per_group = #{{.+}}, producer_dependency_per_consumer = #{{.+}}, identity(%{{.+}}, %{{.+}} : tensor<1x1xf32>, tensor<1x1xi32>) : <(tensor<1x1xf32>, tensor<1x1xi32>), groups = #{{.+}}> -> tensor<1x1xf32>, tensor<1x1xi32> {
  // CHECK-NEXT: ^bb0(%{{.+}}: tensor<1x1xf32>, %{{.+}}: tensor<1x1xf32>, %{{.+}}: tensor<1x1xi32>, %{{.+}}: tensor<1x1xi32>):
  // CHECK: ktdp.yield_reduced %{{.+}}, %{{.+}} : tensor<1x1xf32>, tensor<1x1xi32>
  %r:2 = ktdp.inter_tile_reduce(%f) consumer_tiles_per_group = affine_set<(i)[g] : (i - 2 * g >= 0, -i + 2 * g + 1 >= 0)>,
           producer_dependency_per_consumer = affine_set<(p)[c, g] : (p - 2 * g >= 0, -p + 2 * g + 1 >= 0)>,
           identity(%vmin, %imin : tensor<1x1xf32>, tensor<1x1xi32>)
       : <(tensor<1x1xf32>, tensor<1x1xi32>), groups = affine_set<(g) : (g >= 0, -g + 1 >= 0)>> -> tensor<1x1xf32>, tensor<1x1xi32> {
  ^bb0(%lv: tensor<1x1xf32>, %rv: tensor<1x1xf32>, %li: tensor<1x1xi32>, %ri: tensor<1x1xi32>):
    %gt = arith.cmpf ogt, %lv, %rv : tensor<1x1xf32>
    %mv = arith.select %gt, %lv, %rv : tensor<1x1xi1>, tensor<1x1xf32>
    %mi = arith.select %gt, %li, %ri : tensor<1x1xi1>, tensor<1x1xi32>
    ktdp.yield_reduced %mv, %mi : tensor<1x1xf32>, tensor<1x1xi32>
  }
  return %r#0, %r#1 : tensor<1x1xf32>, tensor<1x1xi32>
}
