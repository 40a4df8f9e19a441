//===- InterTileLoops.cpp - Inter-tile reductions inside loops ------------===//
//
// This file implements the checks ktdf-lower-inter-tile makes of an
// inter-tile reduction inside `scf.for` loops, which stays there: each
// trip stores its partial into the same exchange view, all-reduces it and
// loads the result (docs/scheduler.md, ktdf-lower-inter-tile). Every tile
// of a group must take part in each execution, and each trip's views must
// not be overwritten before the previous trip's result is read.
//
//===----------------------------------------------------------------------===//

#include "InterTile.h"

#include "ktflow/Dialect/KTDP/IR/KTDP.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/DenseSet.h"

using namespace mlir;
using namespace mlir::ktdf;

/// Whether `v` is the same on every tile: computed without tile ids or
/// loads from constants, the kernel's arguments and the induction
/// variables of loops whose bounds are (`uniform` holds the loops found
/// so).
static bool isUniform(Value v, const DenseSet<Operation *> &uniform) {
  if (auto arg = dyn_cast<BlockArgument>(v)) {
    Operation *owner = arg.getOwner()->getParentOp();
    if (isa<func::FuncOp>(owner))
      return true;
    // A carried value may differ between tiles; the variable does not.
    auto loop = dyn_cast<scf::ForOp>(owner);
    return loop && uniform.contains(loop) && arg == loop.getInductionVar();
  }
  Operation *def = v.getDefiningOp();
  if (isa<ktdp::GetComputeTileIdOp>(def) || def->getNumRegions() != 0 ||
      !isMemoryEffectFree(def))
    return false;
  return llvm::all_of(def->getOperands(), [&](Value operand) {
    return isUniform(operand, uniform);
  });
}

/// Why the loops around `op` cannot hold an exchange, or nullopt: every
/// tile of a group must take part in each execution of it, so each loop
/// around it must run the same trips on every tile (bounds and step from
/// constants, arguments and such loops' variables); a branch has become a
/// loop of one or no trip (ktdf-lower-if), taken on every tile or on none
/// only when its condition is uniform.
std::optional<std::string> mlir::ktdf::whyNotInLoops(Operation *op,
                                                     func::FuncOp func) {
  SmallVector<scf::ForOp> loops;
  for (Operation *parent = op->getParentOp(); parent != func;
       parent = parent->getParentOp()) {
    auto loop = dyn_cast<scf::ForOp>(parent);
    if (!loop)
      return "an inter-tile reduction inside " +
             parent->getName().getStringRef().str() +
             " is not supported by the scheduler (only scf.for loops, and "
             "branches without results, which ktdf-lower-if makes loops)";
    loops.insert(loops.begin(), loop);
  }
  DenseSet<Operation *> uniform;
  for (scf::ForOp loop : loops) {
    if (!llvm::all_of(loop->getOperands().take_front(3),
                      [&](Value v) { return isUniform(v, uniform); }))
      return std::string(
          "an inter-tile reduction inside a loop or a branch whose trips "
          "may differ between tiles (bounds, step or condition computed "
          "from tile ids or loaded data) is not supported: every tile of a "
          "group takes part in each exchange");
    uniform.insert(loop);
  }
  return std::nullopt;
}

/// The value `v` is, through reshapes.
static Value throughReshapes(Value v) {
  while (isa_and_nonnull<tensor::CollapseShapeOp, tensor::ExpandShapeOp>(
      v.getDefiningOp()))
    v = v.getDefiningOp()->getOperand(0);
  return v;
}

/// Why the exchange views of a reduction in a loop could be overwritten
/// by the next trip before this trip's result is read, or nullopt. The
/// views are reused every trip, and no token hands them back: the next
/// partial is written by the lane's store unit after the compute unit
/// made it, and the compute unit, which runs the trips in order, made it
/// only after reading this trip's result (and after the pipelines that
/// read it drained through the same store unit). That holds when the
/// partial is computed and the result is computed on, not moved by a DMA.
std::optional<std::string>
mlir::ktdf::whyNotReusable(Value partial, ktdp::InterTileReduceOp reduce) {
  const char *why =
      "an inter-tile reduction inside a loop exchanges through the same "
      "scratchpad views every trip, ordered by the compute unit: its "
      "partial must be computed (not a loaded tensor) and its result "
      "computed on before it is stored";
  if (isa_and_nonnull<ktdp::LoadOp>(throughReshapes(partial).getDefiningOp()))
    return std::string(why);
  SmallVector<Value> work{reduce.getResult(0)};
  while (!work.empty())
    for (Operation *user : work.pop_back_val().getUsers()) {
      if (isa<ktdp::StoreOp>(user))
        return std::string(why);
      if (isa<tensor::CollapseShapeOp, tensor::ExpandShapeOp>(user))
        work.push_back(user->getResult(0));
    }
  return std::nullopt;
}
