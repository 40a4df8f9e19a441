//===- LaunchGrid.cpp - The `grid` attribute of KTIR kernels --------------===//
//
// This file implements reading the launch grid in all published spellings.
//
//===----------------------------------------------------------------------===//

#include "ktflow/Dialect/KTDP/Utils/LaunchGrid.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::ktdp;

FailureOr<SmallVector<int64_t>>
mlir::ktdp::parseGridAttr(Attribute attr,
                          function_ref<InFlightDiagnostic()> emitError) {
  SmallVector<int64_t> grid;
  if (auto array = llvm::dyn_cast<ArrayAttr>(attr)) {
    for (Attribute element : array) {
      auto integer = llvm::dyn_cast<IntegerAttr>(element);
      if (!integer)
        return emitError() << "`grid` must be a list of integers, but has "
                           << element;
      grid.push_back(integer.getValue().getSExtValue());
    }
  } else if (auto dense = llvm::dyn_cast<DenseI64ArrayAttr>(attr)) {
    llvm::append_range(grid, dense.asArrayRef());
  } else if (auto dense = llvm::dyn_cast<DenseI32ArrayAttr>(attr)) {
    llvm::append_range(grid, dense.asArrayRef());
  } else if (auto dense = llvm::dyn_cast<DenseIntElementsAttr>(attr)) {
    for (const APInt &value : dense)
      grid.push_back(value.getSExtValue());
  } else {
    return emitError() << "`grid` must be a list of integers such as [32] or "
                          "[32, 1], but got "
                       << attr;
  }
  if (grid.empty())
    return emitError() << "`grid` must have at least one dimension";
  for (int64_t extent : grid)
    if (extent <= 0)
      return emitError() << "`grid` extents must be positive, but got "
                         << extent;
  // Callers multiply the extents (getNumTiles), so the product must fit.
  int64_t numTiles = 1;
  for (int64_t extent : grid)
    if (llvm::MulOverflow(numTiles, extent, numTiles))
      return emitError()
             << "`grid` has more compute tiles than fit in 64 bits";
  return grid;
}

Operation *mlir::ktdp::getGridOwner(Operation *op) {
  for (; op; op = op->getParentOp())
    if (op->hasAttr(kGridAttrName))
      return op;
  return nullptr;
}

FailureOr<std::optional<SmallVector<int64_t>>>
mlir::ktdp::getLaunchGrid(Operation *op) {
  Operation *owner = getGridOwner(op);
  if (!owner)
    return std::optional<SmallVector<int64_t>>();
  FailureOr<SmallVector<int64_t>> grid =
      parseGridAttr(owner->getAttr(kGridAttrName),
                    [&] { return owner->emitError(); });
  if (failed(grid))
    return failure();
  return std::optional<SmallVector<int64_t>>(std::move(*grid));
}

int64_t mlir::ktdp::getNumTiles(ArrayRef<int64_t> grid) {
  int64_t n = 1;
  for (int64_t extent : grid)
    n *= extent;
  return n;
}

SmallVector<int64_t> mlir::ktdp::delinearizeTileId(int64_t linearId,
                                                   ArrayRef<int64_t> grid) {
  SmallVector<int64_t> id;
  for (int64_t extent : grid) {
    id.push_back(linearId % extent);
    linearId /= extent;
  }
  return id;
}
