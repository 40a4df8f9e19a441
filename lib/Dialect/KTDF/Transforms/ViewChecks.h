//===- ViewChecks.h - Views and tiles the scheduler supports ----*- C++ -*-===//
//
// This file declares the checks of ktdf-check-supported on memory views and
// the access tiles built on them: the addresses, coordinate sets, sizes and
// strides the mapping group can turn into transfers, and the tiles it can
// move.
//
//===----------------------------------------------------------------------===//

#ifndef KTFLOW_LIB_DIALECT_KTDF_TRANSFORMS_VIEWCHECKS_H
#define KTFLOW_LIB_DIALECT_KTDF_TRANSFORMS_VIEWCHECKS_H

#include "ktflow/Analysis/TensorExtent.h"
#include "ktflow/Dialect/KTDP/IR/KTDP.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "llvm/ADT/DenseMap.h"

#include <optional>
#include <string>

namespace mlir::ktdf {

/// getScaledTensorShape of each kernel argument, computed once per argument:
/// it walks the kernel, and every view at the argument asks for it.
class ScaledShapes {
public:
  /// Null when no view of `arg` starts at a scaled displacement.
  const ktflow::ScaledTensorShape *of(func::FuncOp fn, BlockArgument arg) {
    auto [it, inserted] = shapes.try_emplace(arg);
    if (inserted)
      it->second = ktflow::getScaledTensorShape(fn, arg);
    return it->second ? &*it->second : nullptr;
  }

private:
  DenseMap<BlockArgument, std::optional<ktflow::ScaledTensorShape>> shapes;
};

/// Why the scheduler cannot handle `view` (its address, coordinate set,
/// sizes or strides), if it cannot; the scaled tensor shapes of its kernel
/// from `scaledShapes`.
std::optional<std::string> whyNotSupportedView(ktdp::ConstructMemoryViewOp view,
                                               ScaledShapes &scaledShapes);

/// Why the scheduler cannot handle the access tile `tile`, if it cannot.
std::optional<std::string>
whyNotSupportedTile(ktdp::ConstructAccessTileOp tile);

/// Whether `view` is a scratchpad view naming its tile (`ct_id`) on a grid
/// of several tiles: another tile's scratchpad for all but one of them.
bool isOtherTilesView(ktdp::ConstructMemoryViewOp view);

} // namespace mlir::ktdf

#endif // KTFLOW_LIB_DIALECT_KTDF_TRANSFORMS_VIEWCHECKS_H
