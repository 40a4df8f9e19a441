//===- MaskedCoordinates.cpp - Masked coordinates reach no stored element -===//
//
// This file implements the check that makes masking exact. An access tile
// in device memory may reach past the coordinates its view holds along any
// dimension: the reference interpreter then loads 0 there and skips them
// when storing, while the scheduler's DMA transfers neither read nor write
// them (a load leaves them undefined in its buffer). The two agree on every
// output only when no stored element depends on an undefined coordinate:
// along each dimension the load may mask, every value computed from it
// keeps that dimension's coordinates apart (no reduction across them; a
// coordinate's value broadcast only over dimensions of extent 1), and it is
// stored through a tile with the same coordinates along it (same anchor
// and extent) in a view that holds no more of them than the load's.
// Reshapes that only remove or add dimensions of extent 1 move the masked
// dimension (or make a one-element value of it a scalar). Anything else is
// reported.
//
//===----------------------------------------------------------------------===//

#include "ShapeIdioms.h"

#include "ktflow/Dialect/KTDF/Transforms/TileBounds.h"

#include "ktflow/Dialect/KTDP/Utils/IntegerSetAnalysis.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/LinalgInterfaces.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
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

/// A dimension of a load's tile that may be masked, with the words that
/// name its coordinates in messages.
struct MaskedDim {
  ktdp::ConstructAccessTileOp tile;
  unsigned dim;
  int64_t extent;
  std::string noun;
};
} // namespace

/// How a message names the coordinates of dimension `d` of a tile of
/// `rank` dimensions.
static std::string coordinateNoun(unsigned d, size_t rank) {
  if (rank == 1)
    return "elements";
  if (d == 0 && rank == 2)
    return "rows";
  if (d + 1 == rank)
    return "columns";
  return "coordinates along dimension " + std::to_string(d);
}

/// The bounds of the number of coordinates a view holds along `d`: it
/// holds as many as the least of them (its size and the coordinate_set's
/// upper bounds of that dimension, plus one).
static SmallVector<AffineExpr> extentBounds(ktdp::ConstructMemoryViewOp view,
                                            unsigned d,
                                            SymbolicIndices &indices) {
  SmallVector<AffineExpr> bounds;
  OpFoldResult size = view.getMixedSizes()[d];
  if (auto attr = dyn_cast<Attribute>(size))
    bounds.push_back(getAffineConstantExpr(cast<IntegerAttr>(attr).getInt(),
                                           view.getContext()));
  else
    bounds.push_back(indices.of(cast<Value>(size)));
  auto upper = ktdp::getUpperBoundMap(view.getCoordinateSet(), d);
  if (failed(upper) || upper->getNumSymbols() > view.getSizes().size())
    return bounds;
  SmallVector<AffineExpr> symbols;
  for (Value s : view.getSizes().take_front(upper->getNumSymbols()))
    symbols.push_back(indices.of(s));
  for (AffineExpr bound : upper->getResults())
    bounds.push_back(bound.replaceSymbols(symbols) + 1);
  return bounds;
}

/// Why `store`, writing the value's dimension `d`, may write a coordinate
/// that the load masks along `masked`, if it may.
static std::optional<std::string>
storeMaskedLikeLoad(const MaskedDim &masked, ktdp::ConstructAccessTileOp store,
                    unsigned d) {
  auto storeView = store ? ktdp::getAccessTileView(store) : nullptr;
  auto storeBox = store ? ktdp::getBoundingBox(store.getAccessTileSet(), {})
                        : FailureOr<ktdp::IntegerBox>(failure());
  if (!storeView || failed(storeBox) || d >= storeBox->lower.size() ||
      !store.getAccessTileOrder().isIdentity())
    return "it is stored through a tile whose " + masked.noun +
           " are not those of the load";
  SymbolicIndices indices(store.getContext());
  auto origin = [&](ktdp::ConstructAccessTileOp tile, unsigned r) {
    return indices.apply(tile.getBaseMap(), r, tile.getIndices());
  };
  if (storeBox->getExtents()[d] != masked.extent ||
      indices.difference(origin(store, d), origin(masked.tile, masked.dim)) !=
          0)
    return "it is stored through a tile whose " + masked.noun +
           " are not those of the load";
  // The store's view must hold no more of them than the load's: each bound
  // of the load's is at least some bound of the store's.
  ktdp::ConstructAccessTileOp loadTile = masked.tile;
  SmallVector<AffineExpr> loadBounds =
      extentBounds(ktdp::getAccessTileView(loadTile), masked.dim, indices);
  SmallVector<AffineExpr> storeBounds = extentBounds(storeView, d, indices);
  for (AffineExpr loadBound : loadBounds)
    if (llvm::none_of(storeBounds, [&](AffineExpr storeBound) {
          auto diff = indices.difference(storeBound, loadBound);
          return diff && *diff <= 0;
        }))
      return "it is stored through a view that may hold " + masked.noun +
             " the load's view does not";
  return std::nullopt;
}

/// A dimension of `type` of extent 1 over which a value of one masked
/// coordinate may be broadcast, if there is one.
static std::optional<unsigned> unitDimension(Type type) {
  auto shaped = dyn_cast<ShapedType>(type);
  if (!shaped || !shaped.hasStaticShape())
    return std::nullopt;
  for (auto [d, extent] : llvm::enumerate(shaped.getShape()))
    if (extent == 1)
      return d;
  return std::nullopt;
}

/// Whether `v` has one value in every iteration of `loop`: defined outside
/// it, or computed inside by side-effect-free ops from such values.
static bool invariantIn(Value v, scf::ForOp loop, int depth = 0) {
  if (loop.isDefinedOutsideOfLoop(v))
    return true;
  Operation *def = v.getDefiningOp();
  if (!def || depth > 32 || !isMemoryEffectFree(def) ||
      def->getNumRegions() != 0)
    return false;
  return llvm::all_of(def->getOperands(), [&](Value operand) {
    return invariantIn(operand, loop, depth + 1);
  });
}

/// Whether the masked dimension's coordinates are the same in every
/// iteration of `loop`: the tile's anchor along it does not change there.
static bool maskedDimInvariantIn(const MaskedDim &masked, scf::ForOp loop) {
  ktdp::ConstructAccessTileOp tile = masked.tile;
  AffineExpr anchor = tile.getBaseMap().getResult(masked.dim);
  ValueRange indices = tile.getIndices();
  for (unsigned i = 0; i < indices.size(); ++i)
    if (anchor.isFunctionOfDim(i) && !invariantIn(indices[i], loop))
      return false;
  return true;
}

/// The position of a scalar (a value of one coordinate of the masked
/// dimension, e.g. a row's reduction extracted from a one-row tile).
constexpr int kScalar = -1;

/// Why a value computed from `load` may carry a masked coordinate into a
/// stored element (the first reason found, and the op), if it may.
static std::optional<std::pair<std::string, Operation *>>
findLeak(ktdp::LoadOp load, const MaskedDim &masked) {
  const std::string &noun = masked.noun;
  // Values computed from the load, with the dimension that follows the
  // masked one (or kScalar).
  SmallVector<std::pair<Value, int>> worklist{
      {load.getResult(), static_cast<int>(masked.dim)}};
  llvm::DenseSet<std::pair<Value, int>> seen;
  while (!worklist.empty()) {
    auto [value, dim] = worklist.pop_back_val();
    if (!seen.insert({value, dim}).second)
      continue;
    for (OpOperand &use : value.getUses()) {
      Operation *user = use.getOwner();
      std::string name = "'" + user->getName().getStringRef().str() + "'";
      auto leak = [&](std::string why)
          -> std::optional<std::pair<std::string, Operation *>> {
        return std::make_pair(std::move(why), user);
      };
      // A value of one coordinate spreads over a dimension of extent 1.
      auto broadcast = [&](Value result) -> bool {
        std::optional<unsigned> unit = unitDimension(result.getType());
        if (!unit)
          return false;
        worklist.push_back({result, static_cast<int>(*unit)});
        return true;
      };
      if (auto store = dyn_cast<ktdp::StoreOp>(user)) {
        auto stored =
            store.getAccessTile().getDefiningOp<ktdp::ConstructAccessTileOp>();
        if (dim == kScalar)
          return leak("it is stored through a tile whose " + noun +
                      " are not those of the load");
        if (auto why = storeMaskedLikeLoad(masked, stored, dim))
          return leak(*why);
        continue;
      }
      // A loop-carried value: its coordinates stay where they are from one
      // iteration to the next, so they stay apart only when the iterations'
      // tiles hold the same coordinates (the anchor does not change).
      if (auto yield = dyn_cast<scf::YieldOp>(user)) {
        auto loop = dyn_cast<scf::ForOp>(yield->getParentOp());
        if (!loop)
          return leak(name + " may combine its " + noun);
        if (!maskedDimInvariantIn(masked, loop))
          return leak(name + " carries its " + noun +
                      " into later iterations, whose tiles hold other " + noun);
        unsigned i = use.getOperandNumber();
        worklist.push_back({loop.getRegionIterArg(i), dim});
        worklist.push_back({loop->getResult(i), dim});
        continue;
      }
      if (auto loop = dyn_cast<scf::ForOp>(user)) {
        // An initial value of what the loop carries.
        BlockArgument carried = loop.getTiedLoopRegionIterArg(&use);
        if (!carried)
          return leak(name + " may combine its " + noun);
        worklist.push_back({carried, dim});
        worklist.push_back({loop.getTiedLoopResult(&use), dim});
        continue;
      }
      if (auto extract = dyn_cast<tensor::ExtractOp>(user)) {
        if (use.get() != extract.getTensor())
          return leak(name + " may combine its " + noun);
        auto type = cast<ShapedType>(extract.getTensor().getType());
        if (dim == kScalar && type.getRank() == 0) {
          worklist.push_back({extract.getResult(), kScalar});
          continue;
        }
        if (dim == kScalar || type.getShape()[dim] != 1)
          return leak(name + " picks one of several " + noun);
        worklist.push_back({extract.getResult(), kScalar});
        continue;
      }
      if (isa<tensor::CollapseShapeOp, tensor::ExpandShapeOp>(user)) {
        if (!ktdf::isUnitReshape(user))
          return leak(name + " may combine its " + noun);
        Value result = user->getResult(0);
        bool scalarResult = cast<ShapedType>(result.getType()).getRank() == 0;
        if (dim == kScalar) {
          // One value: still one as a rank-0 tensor, else spread over unit
          // dimensions.
          if (scalarResult)
            worklist.push_back({result, kScalar});
          else if (!broadcast(result))
            return leak(name + " spreads one of its " + noun + " over others");
          continue;
        }
        int64_t moved = ktdf::unitReshapeDimensionMap(user)[dim];
        if (moved >= 0) {
          worklist.push_back({result, static_cast<int>(moved)});
        } else if (scalarResult) {
          worklist.push_back({result, kScalar});
        } else {
          return leak(name + " merges its " + noun + " with others");
        }
        continue;
      }
      if (isa<tensor::SplatOp>(user)) {
        if (!broadcast(user->getResult(0)))
          return leak(name + " spreads one of its " + noun + " over others");
        continue;
      }
      if (auto linalg = dyn_cast<linalg::LinalgOp>(user)) {
        if (dim == kScalar || !isa<ShapedType>(use.get().getType())) {
          // A scalar operand is read at every point of the op.
          for (Value result : user->getResults())
            if (!broadcast(result))
              return leak(name + " spreads one of its " + noun +
                          " over others");
          continue;
        }
        AffineMap map = linalg.getMatchingIndexingMap(&use);
        auto loop = dyn_cast<AffineDimExpr>(map.getResult(dim));
        if (!loop)
          return leak(name + " mixes its " + noun);
        unsigned k = loop.getPosition();
        if (linalg.getIteratorTypesArray()[k] != utils::IteratorType::parallel)
          return leak(name + " reduces across its " + noun);
        for (OpResult result : user->getResults()) {
          AffineMap out = linalg.getIndexingMapMatchingResult(result);
          auto position = llvm::find(out.getResults(), loop);
          if (position == out.getResults().end())
            return leak(name + " drops its " + noun);
          worklist.push_back(
              {result, static_cast<int>(position - out.getResults().begin())});
        }
        continue;
      }
      if (user->hasTrait<OpTrait::Elementwise>()) {
        for (Value result : user->getResults())
          worklist.push_back({result, dim});
        continue;
      }
      return leak(name + " may combine its " + noun);
    }
  }
  return std::nullopt;
}

bool mlir::ktdf::checkMaskedCoordinateUses(func::FuncOp func) {
  bool failed = false;
  func.walk([&](ktdp::LoadOp load) {
    auto tile =
        load.getAccessTile().getDefiningOp<ktdp::ConstructAccessTileOp>();
    auto box = tile ? ktdp::getBoundingBox(tile.getAccessTileSet(), {})
                    : FailureOr<ktdp::IntegerBox>(failure());
    if (!tile || mlir::failed(box))
      return;
    size_t rank = box->lower.size();
    for (unsigned d = 0; d < rank; ++d) {
      if (!mayLeaveView(tile, d))
        continue;
      MaskedDim masked{tile, d, box->getExtents()[d], coordinateNoun(d, rank)};
      auto leak = findLeak(load, masked);
      if (!leak)
        continue;
      InFlightDiagnostic diag =
          load.emitError()
          << masked.noun
          << " of this load may lie outside its view's coordinate_set; the "
             "scheduler masks them by not loading them, so they must not "
             "reach a stored element, but "
          << leak->first;
      diag.attachNote(leak->second->getLoc()) << "here";
      failed = true;
      return;
    }
  });
  return failed;
}
