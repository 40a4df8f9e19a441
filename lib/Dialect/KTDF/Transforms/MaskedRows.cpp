//===- MaskedRows.cpp - Masked rows never reach a stored element ----------===//
//
// This file implements the check that makes row masking exact. A 2-d tile
// may reach past its view's first dimension: the reference interpreter
// then loads 0 for the rows outside the view's coordinate_set and skips
// them when storing, while the scheduler's transfers neither read nor
// write them (the loaded rows are left undefined in the buffer). The two
// agree on every output only when no stored element depends on an
// undefined row: every value computed from the load keeps its rows apart
// (no reduction across them), and it is stored through a 2-d tile with the
// same rows (same first-dimension origin and height) in a view that holds
// no more of them than the load's. Anything else is reported.
//
//===----------------------------------------------------------------------===//

#include "TileBounds.h"

#include "ktflow/Dialect/KTDP/Utils/IntegerSetAnalysis.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/LinalgInterfaces.h"
#include "mlir/IR/Matchers.h"
#include "llvm/ADT/DenseSet.h"

using namespace mlir;

namespace {
/// Index values as affine expressions over a shared list of opaque values
/// (symbols), so expressions built from the same values compare.
class SymbolicIndices {
public:
  explicit SymbolicIndices(MLIRContext *ctx) : ctx(ctx) {}

  /// `v` through additions, subtractions and multiplications by constants.
  AffineExpr of(Value v, int depth = 0) {
    APInt k;
    if (matchPattern(v, m_ConstantInt(&k)))
      return getAffineConstantExpr(k.getSExtValue(), ctx);
    Operation *def = v.getDefiningOp();
    if (depth < 32 &&
        isa_and_present<arith::AddIOp, arith::SubIOp, arith::MulIOp>(def)) {
      AffineExpr a = of(def->getOperand(0), depth + 1);
      AffineExpr b = of(def->getOperand(1), depth + 1);
      if (isa<arith::AddIOp>(def))
        return a + b;
      if (isa<arith::SubIOp>(def))
        return a - b;
      if (isa<AffineConstantExpr>(a) || isa<AffineConstantExpr>(b))
        return a * b;
    }
    auto [it, inserted] = symbols.try_emplace(v, symbols.size());
    return getAffineSymbolExpr(it->second, ctx);
  }

  /// Result `r` of `map` applied to `operands` (as dims).
  AffineExpr apply(AffineMap map, unsigned r, ValueRange operands) {
    SmallVector<AffineExpr> dims;
    for (Value v : operands)
      dims.push_back(of(v));
    return map.getResult(r).replaceDims(dims);
  }

  /// The constant `a - b`, if the difference simplifies to one.
  std::optional<int64_t> difference(AffineExpr a, AffineExpr b) {
    AffineExpr d = simplifyAffineExpr(a - b, 0, symbols.size());
    if (auto c = dyn_cast<AffineConstantExpr>(d))
      return c.getValue();
    return std::nullopt;
  }

private:
  MLIRContext *ctx;
  llvm::DenseMap<Value, unsigned> symbols;
};
} // namespace

/// The bounds of the number of rows a view holds: it holds as many as the
/// least of them (its first size and the coordinate_set's upper bounds of
/// its first dimension, plus one).
static SmallVector<AffineExpr> rowBounds(ktdp::ConstructMemoryViewOp view,
                                         SymbolicIndices &indices) {
  SmallVector<AffineExpr> bounds;
  SmallVector<OpFoldResult> sizes = view.getMixedSizes();
  if (auto attr = dyn_cast<Attribute>(sizes.front()))
    bounds.push_back(getAffineConstantExpr(
        cast<IntegerAttr>(attr).getInt(), view.getContext()));
  else
    bounds.push_back(indices.of(cast<Value>(sizes.front())));
  auto upper = ktdp::getUpperBoundMap(view.getCoordinateSet(), 0);
  if (failed(upper) || upper->getNumSymbols() > view.getSizes().size())
    return bounds;
  SmallVector<AffineExpr> symbols;
  for (Value size : view.getSizes().take_front(upper->getNumSymbols()))
    symbols.push_back(indices.of(size));
  for (AffineExpr bound : upper->getResults())
    bounds.push_back(bound.replaceSymbols(symbols) + 1);
  return bounds;
}

/// Why `store` may write a row that `load` masks, if it may.
static std::optional<std::string>
storeMaskedLikeLoad(ktdp::ConstructAccessTileOp load,
                    ktdp::ConstructAccessTileOp store) {
  auto storeView = store ? ktdp::getAccessTileView(store) : nullptr;
  if (!storeView)
    return std::string("it is stored through a tile that is not 2-d");
  auto storeBox = ktdp::getBoundingBox(store.getAccessTileSet(), {});
  if (failed(storeBox) || storeBox->lower.size() != 2)
    return std::string("it is stored through a tile that is not 2-d");
  auto loadBox = ktdp::getBoundingBox(load.getAccessTileSet(), {});
  SymbolicIndices indices(load.getContext());
  auto origin = [&](ktdp::ConstructAccessTileOp tile) {
    return indices.apply(tile.getBaseMap(), 0, tile.getIndices());
  };
  if (failed(loadBox) ||
      loadBox->getExtents()[0] != storeBox->getExtents()[0] ||
      indices.difference(origin(store), origin(load)) != 0)
    return std::string("it is stored through a tile whose rows are not "
                       "those of the load");
  // The store's view must hold no more rows than the load's: each bound of
  // the load's is at least some bound of the store's.
  SmallVector<AffineExpr> loadRows = rowBounds(ktdp::getAccessTileView(load),
                                               indices);
  SmallVector<AffineExpr> storeRows = rowBounds(storeView, indices);
  for (AffineExpr loadBound : loadRows)
    if (llvm::none_of(storeRows, [&](AffineExpr storeBound) {
          auto d = indices.difference(storeBound, loadBound);
          return d && *d <= 0;
        }))
      return std::string("it is stored through a view that may hold rows "
                         "the load's view does not");
  return std::nullopt;
}

/// Why a value computed from `load` may carry a masked row into a stored
/// element (the first reason found, and the op), if it may.
static std::optional<std::pair<std::string, Operation *>>
findMaskedRowLeak(ktdp::LoadOp load, ktdp::ConstructAccessTileOp tile) {
  // Values computed from the load, with the dimension that follows its rows.
  SmallVector<std::pair<Value, unsigned>> worklist{{load.getResult(), 0}};
  llvm::DenseSet<std::pair<Value, unsigned>> seen;
  while (!worklist.empty()) {
    auto [value, rowDim] = worklist.pop_back_val();
    if (!seen.insert({value, rowDim}).second)
      continue;
    for (OpOperand &use : value.getUses()) {
      Operation *user = use.getOwner();
      auto leak = [&](std::string why)
          -> std::optional<std::pair<std::string, Operation *>> {
        return std::make_pair(std::move(why), user);
      };
      if (auto store = dyn_cast<ktdp::StoreOp>(user)) {
        auto stored = store.getAccessTile()
                          .getDefiningOp<ktdp::ConstructAccessTileOp>();
        if (rowDim != 0)
          return leak("it is stored with its rows along another dimension");
        if (auto why = storeMaskedLikeLoad(tile, stored))
          return leak(*why);
        continue;
      }
      if (auto linalg = dyn_cast<linalg::LinalgOp>(user)) {
        AffineMap map = linalg.getMatchingIndexingMap(&use);
        auto loop = dyn_cast<AffineDimExpr>(map.getResult(rowDim));
        if (!loop)
          return leak("'" + user->getName().getStringRef().str() +
                      "' mixes its rows");
        unsigned k = loop.getPosition();
        if (linalg.getIteratorTypesArray()[k] !=
            utils::IteratorType::parallel)
          return leak("'" + user->getName().getStringRef().str() +
                      "' reduces across its rows");
        for (OpResult result : user->getResults()) {
          AffineMap out = linalg.getIndexingMapMatchingResult(result);
          auto position = llvm::find(out.getResults(), loop);
          if (position == out.getResults().end())
            return leak("'" + user->getName().getStringRef().str() +
                        "' drops its rows");
          worklist.push_back(
              {result, unsigned(position - out.getResults().begin())});
        }
        continue;
      }
      if (user->hasTrait<OpTrait::Elementwise>()) {
        for (Value result : user->getResults())
          worklist.push_back({result, rowDim});
        continue;
      }
      return leak("'" + user->getName().getStringRef().str() +
                  "' may combine its rows");
    }
  }
  return std::nullopt;
}

bool mlir::ktdf::checkMaskedRowUses(func::FuncOp func) {
  bool failed = false;
  func.walk([&](ktdp::LoadOp load) {
    auto tile =
        load.getAccessTile().getDefiningOp<ktdp::ConstructAccessTileOp>();
    if (!tile || !mayMaskRows(tile))
      return;
    auto leak = findMaskedRowLeak(load, tile);
    if (!leak)
      return;
    InFlightDiagnostic diag =
        load.emitError()
        << "rows of this load may lie outside its view's coordinate_set; "
           "the scheduler masks them by not loading them, so they must not "
           "reach a stored element, but "
        << leak->first;
    diag.attachNote(leak->second->getLoc()) << "here";
    failed = true;
  });
  return failed;
}
