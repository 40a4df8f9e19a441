//===- SpecialViews.h - Views beyond one tensor argument ----------*- C++
//-*-===//
//
// This file declares the parts of the view lowering (TileFunction.cpp) for
// views that are not a plain view at a tensor argument: views of the
// tiles' scratchpads, and views at computed addresses, which extend their
// tensor when they run (GrownViews.h).
//
//===----------------------------------------------------------------------===//

#ifndef KTFLOW_LIB_CPUJIT_SPECIALVIEWS_H
#define KTFLOW_LIB_CPUJIT_SPECIALVIEWS_H

#include "AccessLowering.h"

#include "ktflow/Analysis/TensorExtent.h"
#include "ktflow/Dialect/KTDP/IR/KTDP.h"

#include "mlir/IR/Builders.h"

#include <optional>

namespace ktflow::jit {

/// The tiles' scratchpads: one buffer, tile t's scratchpad at elements
/// [t * capacity, (t + 1) * capacity).
struct Scratchpads {
  int buffer = -1;
  mlir::Value bufferValue;
  /// Elements per tile (the interpreter's default capacity in bytes over
  /// the element size).
  int64_t capacity = 0;
  int64_t numTiles = 0;
  /// The executing tile's linear id, and the status buffer.
  mlir::Value tileId, status;
};

/// The constant lower bound of each dimension of a view's coordinate_set
/// (its constraints `d - c >= 0` or `d - c == 0` without symbols), or
/// failure when some dimension's lower bound depends on the symbols.
mlir::FailureOr<llvm::SmallVector<int64_t>>
constantLowerBounds(mlir::IntegerSet set);

/// Lowers a view of a scratchpad into `views`. Building it is an error
/// where the interpreter's is (recorded in the status buffer).
mlir::LogicalResult lowerScratchpadView(
    mlir::ktdp::ConstructMemoryViewOp view, const Scratchpads &scratchpads,
    llvm::DenseMap<mlir::Value, ViewLowering> &views, std::string &why);

/// Emits, at `b`, the report of a view at a computed address
/// (kViewFunctionName in TileFunction.h).
mlir::LogicalResult reportComputedView(mlir::OpBuilder &b, mlir::Location loc,
                                       const ViewLowering &view,
                                       std::string &why);

/// The footprint of a view every tile builds at `argument` plus a
/// constant, when it is known before the run.
std::optional<ViewFootprint>
entryFootprint(mlir::ktdp::ConstructMemoryViewOp view, mlir::Block *entry,
               mlir::Value argument);

} // namespace ktflow::jit

#endif // KTFLOW_LIB_CPUJIT_SPECIALVIEWS_H
