//===- CheckLegality.cpp - Cross-op legality rules of KTIR ----------------===//
//
// This file implements --ktir-check-legality: the rules of KTIR that span
// several operations (the launch grid, access-tile extents, element types
// through views, inter-tile communication, the role of each kernel
// argument as an address or a size, and the shapes a tensor.expand_shape
// states against its result type). Each rule is a helper; the
// pass reports every violation before failing.
//
//===----------------------------------------------------------------------===//

#include "ktflow/Dialect/KTDP/Transforms/Passes.h"

#include "InterTileLegality.h"
#include "ktflow/Analysis/DerivedValues.h"
#include "ktflow/Dialect/KTDP/Utils/IntegerSetAnalysis.h"
#include "ktflow/Dialect/KTDP/Utils/LaunchGrid.h"

#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/IndexingUtils.h"
#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/STLExtras.h"

namespace mlir::ktdp {
#define GEN_PASS_DEF_KTIRCHECKLEGALITY
#include "ktflow/Dialect/KTDP/Transforms/Passes.h.inc"
} // namespace mlir::ktdp

using namespace mlir;
using namespace mlir::ktdp;

namespace {

//===----------------------------------------------------------------------===//
// Grid
//===----------------------------------------------------------------------===//

/// Reports every malformed `grid` and records the well-formed ones, so that
/// the other rules neither re-report nor use a malformed grid.
LogicalResult checkGridAttributes(ModuleOp module, GridMap &grids) {
  bool ok = true;
  module->walk([&](Operation *op) {
    Attribute attr = op->getAttr(kGridAttrName);
    if (!attr)
      return;
    FailureOr<SmallVector<int64_t>> grid =
        parseGridAttr(attr, [&] { return op->emitError(); });
    if (failed(grid)) {
      ok = false;
      return;
    }
    grids[op] = std::move(*grid);
  });
  return success(ok);
}

LogicalResult checkComputeTileIds(ModuleOp module, const GridMap &grids) {
  bool ok = true;
  module->walk([&](GetComputeTileIdOp op) {
    Operation *owner = getGridOwner(op);
    auto it = grids.find(owner);
    // Fewer ids than dimensions give the leading coordinates (x first).
    if (it == grids.end() || op.getIds().size() <= it->second.size())
      return;
    ArrayRef<int64_t> grid = it->second;
    ok = false;
    std::string extents;
    llvm::raw_string_ostream os(extents);
    llvm::interleaveComma(grid, os);
    op.emitOpError("returns ")
            .append(op.getIds().size(), " tile id(s) but the kernel grid [",
                    extents, "] has rank ", grid.size())
            .attachNote(owner->getLoc())
        << "grid declared here";
  });
  return success(ok);
}

//===----------------------------------------------------------------------===//
// Access-tile extents
//===----------------------------------------------------------------------===//

/// Checks that a tile over a box-shaped `set` has the box's extents, in the
/// order given by `order`. Dimensions that depend on symbols are free.
LogicalResult checkTileExtents(Operation *op, StringRef setName, IntegerSet set,
                               AffineMap order, AccessTileType tileType) {
  if (!isBoxShaped(set))
    return success();
  SmallVector<unsigned> permutation;
  for (AffineExpr result : order.getResults()) {
    auto dim = llvm::dyn_cast<AffineDimExpr>(result);
    if (!dim)
      return op->emitOpError("order map ")
             << AffineMapAttr::get(order)
             << " must be a permutation of the set dimensions";
    permutation.push_back(dim.getPosition());
  }
  if (!isPermutationVector(llvm::to_vector_of<int64_t>(permutation)))
    return op->emitOpError("order map ")
           << AffineMapAttr::get(order) << " is not a permutation of the set dimensions";
  SmallVector<std::optional<int64_t>> extents = getSymbolFreeExtents(set);
  for (auto [k, setDim] : llvm::enumerate(permutation)) {
    int64_t tileExtent = tileType.getShape()[k];
    std::optional<int64_t> setExtent = extents[setDim];
    if (!setExtent || ShapedType::isDynamic(tileExtent) ||
        tileExtent == *setExtent)
      continue;
    return op->emitOpError("access tile dimension ")
           << k << " has extent " << tileExtent << " but " << setName
           << " dimension d" << setDim << " spans " << *setExtent
           << " points";
  }
  return success();
}

LogicalResult checkAccessTileExtents(ModuleOp module) {
  bool ok = true;
  module->walk([&](Operation *op) {
    if (auto tile = llvm::dyn_cast<ConstructAccessTileOp>(op))
      ok &= succeeded(checkTileExtents(tile, "access_tile_set",
                                       tile.getAccessTileSet(),
                                       tile.getAccessTileOrder(),
                                       tile.getResult().getType()));
    else if (auto tile = llvm::dyn_cast<ConstructIndirectAccessTileOp>(op))
      ok &= succeeded(checkTileExtents(tile, "variables_space_set",
                                       tile.getVariablesSpaceSet(),
                                       tile.getVariablesSpaceOrder(),
                                       tile.getResult().getType()));
  });
  return success(ok);
}

//===----------------------------------------------------------------------===//
// Element types through views
//===----------------------------------------------------------------------===//

/// The view an access tile was built on, when it is visible in the IR.
Value getViewOf(Value accessTile) {
  Operation *def = accessTile.getDefiningOp();
  if (auto tile = llvm::dyn_cast_or_null<ConstructAccessTileOp>(def))
    return tile.getBase();
  if (auto tile = llvm::dyn_cast_or_null<ConstructIndirectAccessTileOp>(def))
    return tile.getBase();
  return {};
}

LogicalResult checkElementType(Operation *op, StringRef what, Type dataType,
                               Value accessTile) {
  Value view = getViewOf(accessTile);
  if (!view)
    return success();
  Type viewElement = llvm::cast<ShapedType>(view.getType()).getElementType();
  Type dataElement = llvm::cast<ShapedType>(dataType).getElementType();
  if (viewElement == dataElement)
    return success();
  op->emitOpError()
          .append(what, " ", dataElement, " elements through a view of ",
                  viewElement, " elements")
          .attachNote(view.getLoc())
      << "view defined here";
  return failure();
}

LogicalResult checkLoadStoreTypes(ModuleOp module) {
  bool ok = true;
  module->walk([&](Operation *op) {
    if (auto load = llvm::dyn_cast<LoadOp>(op))
      ok &= succeeded(checkElementType(op, "loads", load.getResult().getType(),
                                       load.getAccessTile()));
    else if (auto store = llvm::dyn_cast<StoreOp>(op))
      ok &= succeeded(checkElementType(op, "stores",
                                       store.getDataTile().getType(),
                                       store.getAccessTile()));
  });
  return success(ok);
}

//===----------------------------------------------------------------------===//
// Reshapes
//===----------------------------------------------------------------------===//

/// A tensor.expand_shape whose static `output_shape` disagrees with its
/// result type passes the op's verifier, but its two shapes say different
/// things: the compiler goes by the result type, the reference interpreter
/// refuses the op when it runs. A kernel whose sizes were rewritten (a sed
/// on its shapes that missed the `output_shape` list) is reported here, at
/// the op, by `ktflow check` and before the compiler acts on either shape.
LogicalResult checkExpandShapes(ModuleOp module) {
  bool ok = true;
  module->walk([&](tensor::ExpandShapeOp op) {
    ArrayRef<int64_t> stated = op.getStaticOutputShape();
    ArrayRef<int64_t> result = op.getResultType().getShape();
    for (auto [d, size] : llvm::enumerate(stated)) {
      if (ShapedType::isDynamic(size) || ShapedType::isDynamic(result[d]) ||
          size == result[d])
        continue;
      op.emitOpError("output_shape gives dimension ")
          << d << " size " << size << ", its result type " << op.getResultType()
          << " gives it " << result[d];
      ok = false;
      return;
    }
  });
  return success(ok);
}

} // namespace

namespace {
struct KTIRCheckLegalityPass
    : public mlir::ktdp::impl::KTIRCheckLegalityBase<KTIRCheckLegalityPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    // Run every rule so that one invocation reports every problem.
    GridMap grids;
    bool ok = succeeded(checkGridAttributes(module, grids));
    ok &= succeeded(checkComputeTileIds(module, grids));
    ok &= succeeded(checkAccessTileExtents(module));
    ok &= succeeded(checkLoadStoreTypes(module));
    ok &= succeeded(checkExpandShapes(module));
    ok &= succeeded(checkInterTileCommunication(module, grids));
    // An argument is a tensor's start address or a size, never both.
    for (auto fn : module.getOps<func::FuncOp>())
      if (!fn.isExternal())
        ok &= succeeded(ktflow::verifyAddressRoles(fn));
    if (!ok)
      signalPassFailure();
  }
};
} // namespace
