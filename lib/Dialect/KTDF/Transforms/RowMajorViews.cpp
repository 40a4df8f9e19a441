//===- RowMajorViews.cpp - Views laid out by decreasing stride ------------===//
//
// This file implements RowMajorViews.h and --ktdf-row-major-views: a view of
// device memory whose innermost dimension is not contiguous becomes the
// row-major view of its elements, each load through it a load of the
// reordered tile transposed back (`linalg.transpose`), each store a store
// of the transposed value. ktdf-generalize moves the transposes into the
// tiles' order (TransposeIdioms.h): strided DMAs of rows of one element,
// which the estimate charges as any strided DMA. A view with another user
// than access tiles in identity order over a box from the origin, loaded
// or stored, stays as it is, and ktdf-check-supported refuses it.
//
//===----------------------------------------------------------------------===//

#include "RowMajorViews.h"

#include "ktflow/Dialect/KTDF/Transforms/Passes.h"
#include "ktflow/Dialect/KTDP/Utils/IntegerSetAnalysis.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

namespace mlir::ktdf {
#define GEN_PASS_DEF_KTDFROWMAJORVIEWS
#include "ktflow/Dialect/KTDF/Transforms/Passes.h.inc"
} // namespace mlir::ktdf

using namespace mlir;
using namespace mlir::ktdf;

std::optional<SmallVector<int64_t>>
mlir::ktdf::rowMajorOrder(ktdp::ConstructMemoryViewOp view) {
  ArrayRef<int64_t> strides = view.getStaticStrides();
  if (llvm::any_of(strides, ShapedType::isDynamic))
    return std::nullopt;
  auto order = llvm::to_vector(llvm::seq<int64_t>(0, strides.size()));
  llvm::sort(order, [&](int64_t a, int64_t b) {
    return strides[a] != strides[b] ? strides[a] > strides[b] : a < b;
  });
  if (order.empty() || strides[order.back()] != 1)
    return std::nullopt;
  return order;
}

SmallVector<int64_t> mlir::ktdf::inOrder(ArrayRef<int64_t> values,
                                         ArrayRef<int64_t> order) {
  return llvm::map_to_vector(order, [&](int64_t d) { return values[d]; });
}

void mlir::ktdf::reorderView(ktdp::ConstructMemoryViewOp view,
                             ArrayRef<int64_t> order,
                             ArrayRef<int64_t> extents) {
  SmallVector<int64_t> sizes = inOrder(view.getStaticSizes(), order);
  view.setStaticSizes(sizes);
  view.setStaticStrides(inOrder(view.getStaticStrides(), order));
  view.getResult().setType(MemRefType::get(
      sizes, cast<MemRefType>(view.getType()).getElementType()));
  view.setCoordinateSet(
      ktdp::getBoxSet(inOrder(extents, order), view.getContext()));
}

void mlir::ktdf::reorderTile(ktdp::ConstructAccessTileOp tile,
                             ArrayRef<int64_t> order,
                             ArrayRef<int64_t> extents) {
  MLIRContext *ctx = tile.getContext();
  SmallVector<int64_t> shape = inOrder(extents, order);
  tile.setBaseMap(tile.getBaseMap().getSubMap(
      llvm::map_to_vector(order, [](int64_t d) { return unsigned(d); })));
  tile.setAccessTileSet(ktdp::getBoxSet(shape, ctx));
  tile.getResult().setType(ktdp::AccessTileType::get(ctx, shape));
}

SmallVector<int64_t> mlir::ktdf::inverseOrder(ArrayRef<int64_t> order) {
  SmallVector<int64_t> back(order.size());
  for (auto [position, d] : llvm::enumerate(order))
    back[d] = position;
  return back;
}

/// The extents of the box from the origin `set` holds, if it is one.
static std::optional<SmallVector<int64_t>> boxFromOrigin(IntegerSet set) {
  if (set.getNumSymbols() != 0 || !ktdp::isBoxShaped(set))
    return std::nullopt;
  auto box = ktdp::getBoundingBox(set, {});
  if (failed(box) || llvm::any_of(box->lower, [](int64_t l) { return l; }))
    return std::nullopt;
  return box->getExtents();
}

/// Whether every use of `view` is an access tile in identity order over a
/// box from the origin, only loaded or stored through.
static bool onlyPlainTiles(ktdp::ConstructMemoryViewOp view) {
  return llvm::all_of(view->getUsers(), [](Operation *user) {
    auto tile = dyn_cast<ktdp::ConstructAccessTileOp>(user);
    if (!tile || !tile.getSymbolOperands().empty() ||
        !tile.getAccessTileOrder().isIdentity() ||
        !boxFromOrigin(tile.getAccessTileSet()))
      return false;
    return llvm::all_of(tile->getUses(), [](OpOperand &use) {
      return isa<ktdp::LoadOp>(use.getOwner()) ||
             (isa<ktdp::StoreOp>(use.getOwner()) &&
              use.getOperandNumber() == 1);
    });
  });
}

Value mlir::ktdf::transposed(OpBuilder &b, Location loc, Value value,
                             ArrayRef<int64_t> permutation) {
  auto type = cast<RankedTensorType>(value.getType());
  Value init = tensor::EmptyOp::create(
      b, loc, inOrder(type.getShape(), permutation), type.getElementType());
  return linalg::TransposeOp::create(b, loc, value, init, permutation)
      ->getResult(0);
}

/// Rewrites the tiles of `view` and their loads and stores for the view
/// reordered by `order`, then the view.
static void reorderAccesses(ktdp::ConstructMemoryViewOp view,
                            ArrayRef<int64_t> order,
                            ArrayRef<int64_t> extents) {
  for (Operation *user : llvm::make_early_inc_range(view->getUsers())) {
    auto tile = cast<ktdp::ConstructAccessTileOp>(user);
    reorderTile(tile, order, *boxFromOrigin(tile.getAccessTileSet()));
    for (OpOperand &use : llvm::make_early_inc_range(tile->getUses())) {
      OpBuilder b(use.getOwner());
      Location loc = use.getOwner()->getLoc();
      if (auto load = dyn_cast<ktdp::LoadOp>(use.getOwner())) {
        auto type = cast<RankedTensorType>(load.getType());
        load.getResult().setType(RankedTensorType::get(
            inOrder(type.getShape(), order), type.getElementType()));
        b.setInsertionPointAfter(load);
        Value back = transposed(b, loc, load.getResult(), inverseOrder(order));
        load.getResult().replaceAllUsesExcept(back, back.getDefiningOp());
        continue;
      }
      auto store = cast<ktdp::StoreOp>(use.getOwner());
      Value value = transposed(b, loc, store->getOperand(0), order);
      store->setOperand(0, value);
    }
  }
  reorderView(view, order, extents);
}

namespace {
struct KTDFRowMajorViewsPass
    : public ktdf::impl::KTDFRowMajorViewsBase<KTDFRowMajorViewsPass> {
  void runOnOperation() override {
    getOperation().walk([](ktdp::ConstructMemoryViewOp view) {
      auto space = ktdp::normalizeMemorySpace(view.getMemorySpace());
      if (!space || space->kind == ktdp::MemoryKind::ct_local ||
          !view.getSizes().empty())
        return;
      std::optional<SmallVector<int64_t>> order = rowMajorOrder(view);
      std::optional<SmallVector<int64_t>> extents =
          boxFromOrigin(view.getCoordinateSet());
      if (!order || llvm::is_sorted(*order) || !extents ||
          !onlyPlainTiles(view))
        return;
      reorderAccesses(view, *order, *extents);
    });
  }
};
} // namespace
