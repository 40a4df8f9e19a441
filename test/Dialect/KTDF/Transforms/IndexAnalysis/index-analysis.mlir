// RUN: ktflow-opt %s -verify-diagnostics --ktdf-test-index-analysis

// The index analyses coarsening relies on
// (lib/Dialect/KTDF/Transforms/IndexAnalysis.h), reported by the test pass:
// per index op its coefficient in each induction variable around it
// (outermost first: the ktdf.parallel's %p and %q, then %i, then %j) and
// its upper bound; per access tile the coefficients of each dimension of
// its anchor. Expected by hand:
//
// Bounds: %M promises at most 64 (a granularity extract promises nothing);
// %half = %M / 8 <= 8, %few = min(%half, 4) <= 4, an unsigned minimum
// with %a of either sign is bounded by the other side, which is not
// negative (8), as is one with -1 (read unsigned the largest index: the
// minimum is %half, not -1), %half + 4 <= 12. Loop and
// grid variables have no bound, nor anything computed from them.
//
// Coefficients: %block = 8 %p, %row = 8 %p + %i, %twice = 2 %j,
// %skew = 8 %p + %i - 2 %j; %j * %j is not affine in %j (?), nor is
// %j * %j + %i, which is affine in %i. Tile %t's anchor is
// (%row + 2 %twice, %q) = (8 %p + %i + 4 %j, %q). Tile %u's first anchor
// dimension is %j * %j + %i; its second is the constant 0, which does not
// read the index that is not affine in %j. Casts keep coefficients
// (%back = %skew through i64); a symbol of the anchor's map is an operand
// like the others (%v's first dimension is %i + %block - %twice).

#rows = affine_set<(d0, d1)[s0] : (d0 >= 0, -d0 + s0 - 1 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#row = affine_set<(d0, d1) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @loops(%M_arg: !ktdp.runtime_arg<index, granularity=8, upperbound=64>, %a: index) {
  // expected-remark @+1 {{coefficients (), upper bound 64}}
  %M = ktdp.runtime_arg_extract value from %M_arg : !ktdp.runtime_arg<index, granularity=8, upperbound=64> -> index
  // expected-remark @+1 {{coefficients (), upper bound ?}}
  %g = ktdp.runtime_arg_extract granularity from %M_arg : !ktdp.runtime_arg<index, granularity=8, upperbound=64> -> index
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  // expected-remark @+1 {{coefficients (), upper bound 8}}
  %half = arith.divui %M, %c8 : index
  // expected-remark @+1 {{coefficients (), upper bound 4}}
  %few = arith.minsi %half, %c4 : index
  // expected-remark @+1 {{coefficients (), upper bound 8}}
  %either = arith.minui %a, %half : index
  %cm1 = arith.constant -1 : index
  // expected-remark @+1 {{coefficients (), upper bound 8}}
  %huge = arith.minui %cm1, %half : index
  // expected-remark @+1 {{coefficients (), upper bound 12}}
  %sum = arith.addi %half, %c4 : index
  %A = ktdp.construct_memory_view %a, sizes: [%M, 64], strides: [64, 1] {coordinate_set = #rows, memory_space = #ktdp.memory_space<global>} : memref<?x64xf16>
  ktdf.parallel (%p, %q) in [4, 2] {
    // expected-remark @+1 {{coefficients (8, 0), upper bound 24}}
    %block = arith.muli %p, %c8 : index
    scf.for %i = %c0 to %few step %c1 {
      // expected-remark @+1 {{coefficients (8, 0, 1), upper bound ?}}
      %row = arith.addi %block, %i : index
      scf.for %j = %c0 to %c4 step %c1 {
        // expected-remark @+1 {{coefficients (0, 0, 0, 2), upper bound ?}}
        %twice = arith.muli %c2, %j : index
        // expected-remark @+1 {{coefficients (8, 0, 1, -2), upper bound ?}}
        %skew = arith.subi %row, %twice : index
        // expected-remark @+1 {{coefficients (0, 0, 0, ?), upper bound ?}}
        %square = arith.muli %j, %j : index
        // expected-remark @+1 {{coefficients (0, 0, 1, ?), upper bound ?}}
        %mixed = arith.addi %square, %i : index
        // expected-remark @+1 {{anchor coefficients (8, 0, 1, 4) (0, 1, 0, 0)}}
        %t = ktdp.construct_access_tile %A[%row + %twice * 2, %q] {access_tile_set = #row, access_tile_order = #id} : memref<?x64xf16> -> !ktdp.access_tile<1x64xindex>
        // expected-remark @+1 {{anchor coefficients (0, 0, 1, ?) (0, 0, 0, 0)}}
        %u = ktdp.construct_access_tile %A[%mixed, 0] {access_tile_set = #row, access_tile_order = #id} : memref<?x64xf16> -> !ktdp.access_tile<1x64xindex>
        %wide = arith.index_cast %skew : index to i64
        // expected-remark @+1 {{coefficients (8, 0, 1, -2), upper bound ?}}
        %back = arith.index_cast %wide : i64 to index
        // expected-remark @+1 {{anchor coefficients (8, 0, 1, -2) (0, 1, 0, 0)}}
        %v = ktdp.construct_access_tile %A[%i + symbol(%block) - %twice, %q] {access_tile_set = #row, access_tile_order = #id} : memref<?x64xf16> -> !ktdp.access_tile<1x64xindex>
      }
    }
  }
  return
}
