//===- WorkBudget.h - The interpreter's work budget in native code -*- C++
//-*-===//
//
// This file declares how the compiled tier bounds a kernel's work as the
// interpreter does (`--max-element-ops`): each block the kernel runs draws
// what the interpreter charges for it (TileExecutor::runBlock, runOp) from
// a budget in the status buffer, a loop's iterations all at once as it
// starts. A charge that does not fit records kErrorWorkBudget and stops
// the loop, and the interpreter reruns the kernel and reports it.
//
//===----------------------------------------------------------------------===//

#ifndef KTFLOW_LIB_CPUJIT_WORKBUDGET_H
#define KTFLOW_LIB_CPUJIT_WORKBUDGET_H

#include "mlir/Dialect/Func/IR/FuncOps.h"

#include <cstdint>
#include <vector>

namespace ktflow::jit {

/// What the kernel's blocks cost, measured on the kernel as written (before
/// its loads and stores become loops of their own).
struct KernelWork {
  struct Charge {
    mlir::Operation *op;
    /// scf.for: its body; scf.while: its condition block, then its body;
    /// scf.if: its then block, then its else block (0 without one).
    uint64_t first = 0, second = 0;
  };
  uint64_t entry = 0;
  std::vector<Charge> charges;
};

/// The interpreter's charge for one run of each of `fn`'s blocks: one for
/// entering the block, and for each op but the terminator one plus the
/// elements of its tensor results (of its tensor operands when it has no
/// results; a linalg op's iteration space instead). Shapes are static
/// where the tier runs a kernel; a dynamic one counts 0. `fn` is measured
/// as the tier has rewritten it so far (the fills it adds to `tensor.empty`,
/// its inter-tile loops, its view arithmetic count too), so the charge can
/// exceed the interpreter's by those ops: a run within that much of the
/// budget stops on the tier and finishes on the interpreter's rerun.
KernelWork measureKernelWork(mlir::func::FuncOp fn);

/// Makes `fn` draw `work` from status[kStatusWorkLeft] (TileFunction.h):
/// the tile and its entry block once per tile; a scf.for its trip count times
/// its body as it starts (its step must be positive: guardLoopStep); a
/// scf.while its condition block each time it evaluates it, and its body with
/// it when the condition holds; a scf.if the branch it takes.
void chargeKernelWork(mlir::func::FuncOp fn, const KernelWork &work,
                      mlir::Value status);

} // namespace ktflow::jit

#endif // KTFLOW_LIB_CPUJIT_WORKBUDGET_H
