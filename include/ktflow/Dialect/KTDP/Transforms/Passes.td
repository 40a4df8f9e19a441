//===- Passes.td - ktdp passes -----------------------------*- tablegen -*-===//
//
// This file declares the passes that work on KTIR before mapping.
//
//===----------------------------------------------------------------------===//

#ifndef KTFLOW_DIALECT_KTDP_TRANSFORMS_PASSES_TD
#define KTFLOW_DIALECT_KTDP_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def KTIRCheckLegality : Pass<"ktir-check-legality", "::mlir::ModuleOp"> {
  let summary = "Check the cross-op rules of KTIR that op verifiers cannot see";
  let description = [{
    Runs on a module of KTIR kernels and reports, with the location of the
    offending op, every violation of:

    * `get_compute_tile_id` returns one index per dimension of the kernel's
      `grid` (and the grid is a list of positive integers);
    * an access tile over a box-shaped set has the box's extents, permuted
      by its order (dynamic extents are accepted where the set has symbols);
    * `load` results and `store` data have the element type of the view the
      access tile reads or writes;
    * inter-tile communication: a future has exactly one use, consumers of a
      group are a subset of its producers, every producer is covered by a
      consumer, reduce is all-reduce or reduce-to-one, and a consume with
      several producers per group names its dependencies;
    * a `tensor.expand_shape`'s static `output_shape` agrees with its result
      type (the op's verifier does not compare them; the compiler would go
      by the type, the reference interpreter refuses the op).

    The pass does not change the IR; it fails if any rule is violated.
  }];
  let dependentDialects = ["::mlir::ktdp::KTDPDialect"];
}

#endif // KTFLOW_DIALECT_KTDP_TRANSFORMS_PASSES_TD
