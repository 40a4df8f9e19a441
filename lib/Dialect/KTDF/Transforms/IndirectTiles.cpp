//===- IndirectTiles.cpp - Gathers and scatters the scheduler moves -------===//
//
// This file decides how an indirect access tile moves (IndirectTiles.h):
// its base and index views must be global memory views with static
// strides, its variable space a box from 0 (in any variable order), and every
// coordinate it computes without reading an index (the index views'
// subscripts, the base's direct subscripts) provably inside its view, from
// the variables' extents and the ranges of the captured values (tile ids,
// loop bounds, constants: TileBounds.h rangeOf). Only a run's start may
// depend on a value of unknown range (a runtime column offset): the
// lowering clamps each run to its view (not under a permuted order, whose
// runs move as strided DMAs). The index values themselves are
// checked at run time (`dfir.read_index`'s bound).
//
//===----------------------------------------------------------------------===//

#include "ktflow/Dialect/KTDF/Transforms/IndirectTiles.h"
#include "ktflow/Dialect/KTDF/Transforms/TileBounds.h"
#include "ktflow/Dialect/KTDP/IR/ScratchpadView.h"

#include "ktflow/Dialect/KTDP/Utils/IntegerSetAnalysis.h"

#include "llvm/Support/FormatVariadic.h"

using namespace mlir;
using namespace mlir::ktdf;

using Interval = std::pair<int64_t, int64_t>;

/// Inclusive bounds of `expr` over dimensions with bounds `dims` (none when
/// a dimension it uses has none or it is not linear with constant divisors).
static std::optional<Interval>
intervalOf(AffineExpr expr, ArrayRef<std::optional<Interval>> dims) {
  if (auto c = dyn_cast<AffineConstantExpr>(expr))
    return Interval{c.getValue(), c.getValue()};
  if (auto d = dyn_cast<AffineDimExpr>(expr))
    return d.getPosition() < dims.size() ? dims[d.getPosition()] : std::nullopt;
  auto bin = dyn_cast<AffineBinaryOpExpr>(expr);
  if (!bin)
    return std::nullopt;
  auto lhs = intervalOf(bin.getLHS(), dims);
  if (!lhs)
    return std::nullopt;
  if (expr.getKind() == AffineExprKind::Add) {
    auto rhs = intervalOf(bin.getRHS(), dims);
    if (!rhs)
      return std::nullopt;
    return Interval{lhs->first + rhs->first, lhs->second + rhs->second};
  }
  auto c = dyn_cast<AffineConstantExpr>(bin.getRHS());
  if (!c)
    return std::nullopt;
  int64_t k = c.getValue();
  switch (expr.getKind()) {
  case AffineExprKind::Mul:
    return k >= 0 ? Interval{lhs->first * k, lhs->second * k}
                  : Interval{lhs->second * k, lhs->first * k};
  case AffineExprKind::FloorDiv:
    if (k <= 0)
      return std::nullopt;
    return Interval{llvm::divideFloorSigned(lhs->first, k),
                    llvm::divideFloorSigned(lhs->second, k)};
  case AffineExprKind::CeilDiv:
    if (k <= 0)
      return std::nullopt;
    return Interval{llvm::divideCeilSigned(lhs->first, k),
                    llvm::divideCeilSigned(lhs->second, k)};
  case AffineExprKind::Mod:
    if (k <= 0)
      return std::nullopt;
    if (lhs->first >= 0 && lhs->second < k)
      return lhs;
    return Interval{0, k - 1};
  default:
    return std::nullopt;
  }
}

/// The global memory view `v` is, with static strides and extents.
static ktdp::ConstructMemoryViewOp globalView(Value v, std::string &why,
                                              StringRef what) {
  auto view = v.getDefiningOp<ktdp::ConstructMemoryViewOp>();
  if (!view) {
    why = (what + " is not a ktdp.construct_memory_view").str();
    return {};
  }
  if (ktdp::isScratchpadView(view)) {
    why = (what + " is in a scratchpad (ct_local)").str();
    return {};
  }
  for (int64_t s : view.getStaticStrides())
    if (ShapedType::isDynamic(s)) {
      why = (what + " has dynamic strides").str();
      return {};
    }
  for (unsigned d = 0; d < view.getStaticStrides().size(); ++d)
    if (!staticViewExtent(view, d)) {
      why =
          (what + " has no static extent along dimension " + std::to_string(d))
              .str();
      return {};
    }
  return view;
}

/// Why coordinate `expr` may leave [0, extent), or none.
static std::optional<std::string>
checkInside(AffineExpr expr, ArrayRef<std::optional<Interval>> dims,
            int64_t extent, StringRef what) {
  auto range = intervalOf(expr, dims);
  if (!range)
    return llvm::formatv("{0} has no known range (captured values must "
                         "follow from tile ids, loop bounds and constants)",
                         what)
        .str();
  if (range->first < 0 || range->second >= extent)
    return llvm::formatv("{0} may lie outside [0, {1}) (it ranges over "
                         "[{2}, {3}])",
                         what, extent, range->first, range->second)
        .str();
  return std::nullopt;
}

FailureOr<IndirectTilePlan>
mlir::ktdf::planIndirectTile(ktdp::ConstructIndirectAccessTileOp tile,
                             std::string &why) {
  IndirectTilePlan plan;
  plan.tile = tile;
  AffineMap order = tile.getVariablesSpaceOrder();
  if (!order.isPermutation()) {
    why = "an indirect access tile whose variables_space_order is not a "
          "permutation";
    return failure();
  }
  IntegerSet set = tile.getVariablesSpaceSet();
  auto box = ktdp::getBoundingBox(set, {});
  if (!tile.getSymbolOperands().empty() || failed(box) ||
      !ktdp::isBoxShaped(set) ||
      llvm::any_of(box->lower, [](int64_t l) { return l != 0; })) {
    why = "an indirect access tile whose variable space is not a box from 0";
    return failure();
  }
  plan.extents = box->getExtents();
  // Tile dimension k walks variable order(k); the buffer is row-major.
  plan.bufferStrides.assign(plan.extents.size(), 1);
  for (int64_t k = static_cast<int64_t>(order.getNumResults()) - 1, stride = 1;
       k >= 0; --k) {
    unsigned v = order.getDimPosition(k);
    plan.bufferStrides[v] = stride;
    stride *= plan.extents[v];
  }
  plan.base = globalView(tile.getBase(), why, "the tile's base");
  if (!plan.base)
    return failure();
  for (unsigned d = 0; d < plan.base.getStaticStrides().size(); ++d)
    plan.baseExtents.push_back(*staticViewExtent(plan.base, d));

  // Bounds of (captured values..., variables...), the subscripts' domain.
  SmallVector<std::optional<Interval>> dims;
  for (Value v : tile.getCapturedVariables())
    dims.push_back(rangeOf(v));
  for (int64_t e : plan.extents)
    dims.push_back(Interval{0, e - 1});
  unsigned last = dims.size() - 1, rank = plan.baseExtents.size();

  // The innermost variable walks a run when it only advances the
  // innermost, unit-stride, base coordinate one by one.
  auto maps = tile.getPerDimSubscriptMaps().getAsValueRange<AffineMapAttr>();
  auto kinds = tile.getPerDimSubscriptKinds().getAsValueRange<BoolAttr>();
  SmallVector<AffineMap> subscripts(maps.begin(), maps.end());
  SmallVector<bool> indirect(kinds.begin(), kinds.end());
  AffineExpr lastVar = getAffineDimExpr(last, tile.getContext());
  bool run = !plan.extents.empty() && !indirect[rank - 1] &&
             plan.base.getStaticStrides()[rank - 1] == 1;
  for (unsigned j = 0; j < rank && run; ++j)
    for (AffineExpr e : subscripts[j].getResults()) {
      if (j == rank - 1)
        run = e.isFunctionOfDim(last) &&
              !simplifyAffineExpr(e - lastVar, dims.size(), 0)
                   .isFunctionOfDim(last);
      else if (e.isFunctionOfDim(last))
        run = false;
    }
  plan.runLength = run ? plan.extents.back() : 1;
  // A run whose elements land apart in the buffer moves as a strided DMA,
  // which the clamp of a run leaving its view does not split.
  if (run)
    dims[last] = Interval{0, 0};

  unsigned nextIndex = 0;
  for (unsigned j = 0; j < rank; ++j) {
    std::string where = "dimension " + std::to_string(j);
    if (!indirect[j]) {
      AffineExpr e = subscripts[j].getResult(0);
      if (run && j == rank - 1) {
        auto start = intervalOf(e, dims);
        plan.runMayLeave = !start || start->first < 0 ||
                           start->second + plan.runLength > plan.baseExtents[j];
        if (plan.runMayLeave && !plan.identityOrder()) {
          why = "an indirect access tile with a permuted "
                "variables_space_order whose rows may leave the view";
          return failure();
        }
        continue;
      }
      if (auto bad = checkInside(e, dims, plan.baseExtents[j],
                                 "the direct subscript of " + where)) {
        why = *bad;
        return failure();
      }
      continue;
    }
    auto indexView = globalView(tile.getIndirectMemrefs()[nextIndex++], why,
                                "the index view of " + where);
    if (!indexView)
      return failure();
    auto type = dyn_cast<IntegerType>(
        cast<MemRefType>(indexView.getType()).getElementType());
    if (!type || !llvm::is_contained({8u, 16u, 32u, 64u}, type.getWidth())) {
      why = "the index view of " + where + " does not hold i8, i16, i32 or " +
            "i64 indices";
      return failure();
    }
    for (auto [k, e] : llvm::enumerate(subscripts[j].getResults()))
      if (auto bad = checkInside(e, dims, *staticViewExtent(indexView, k),
                                 "subscript " + std::to_string(k) +
                                     " of the index view of " + where)) {
        why = *bad;
        return failure();
      }
    plan.indexViews.push_back(indexView);
  }
  return plan;
}

/// The terms of `e` as a sum.
static void summands(AffineExpr e, SmallVectorImpl<AffineExpr> &terms) {
  if (e.getKind() == AffineExprKind::Add) {
    auto bin = cast<AffineBinaryOpExpr>(e);
    summands(bin.getLHS(), terms);
    summands(bin.getRHS(), terms);
    return;
  }
  terms.push_back(e);
}

bool mlir::ktdf::readsIndexAt(ktdp::ConstructIndirectAccessTileOp tile,
                              unsigned pos) {
  for (auto [mapAttr, kind] : llvm::zip_equal(tile.getPerDimSubscriptMaps(),
                                              tile.getPerDimSubscriptKinds()))
    if (cast<BoolAttr>(kind).getValue() &&
        llvm::any_of(cast<AffineMapAttr>(mapAttr).getValue().getResults(),
                     [&](AffineExpr e) { return e.isFunctionOfDim(pos); }))
      return true;
  return false;
}

StagedIndexBox mlir::ktdf::stagedIndexBox(const IndirectTilePlan &plan,
                                          unsigned k) {
  ktdp::ConstructIndirectAccessTileOp tile = plan.tile;
  MLIRContext *ctx = tile.getContext();
  unsigned captured = tile.getCapturedVariables().size();
  SmallVector<std::optional<Interval>> dims;
  for (Value v : tile.getCapturedVariables())
    dims.push_back(rangeOf(v));
  for (int64_t e : plan.extents)
    dims.push_back(Interval{0, e - 1});
  // The subscripts of the k-th indirect dimension.
  AffineMap subscripts;
  unsigned seen = 0;
  for (auto [mapAttr, kind] :
       llvm::zip(tile.getPerDimSubscriptMaps(), tile.getPerDimSubscriptKinds()))
    if (cast<BoolAttr>(kind).getValue() && seen++ == k)
      subscripts = cast<AffineMapAttr>(mapAttr).getValue();
  ktdp::ConstructMemoryViewOp view = plan.indexViews[k];
  StagedIndexBox box;
  SmallVector<AffineExpr> anchor;
  for (auto [r, e] : llvm::enumerate(subscripts.getResults())) {
    int64_t extent = *staticViewExtent(view, r);
    // e = (terms of the captured values) + (terms of the variables).
    SmallVector<AffineExpr> terms;
    summands(simplifyAffineExpr(e, dims.size(), 0), terms);
    AffineExpr fixed = getAffineConstantExpr(0, ctx);
    AffineExpr moving = getAffineConstantExpr(0, ctx);
    bool splits = true;
    for (AffineExpr t : terms) {
      bool usesCaptured = false, usesVariables = false;
      for (unsigned d = 0; d < dims.size(); ++d)
        if (t.isFunctionOfDim(d))
          (d < captured ? usesCaptured : usesVariables) = true;
      splits &= !(usesCaptured && usesVariables);
      if (usesCaptured)
        fixed = fixed + t;
      else
        moving = moving + t;
    }
    auto fixedRange = intervalOf(fixed, dims);
    auto movingRange = intervalOf(moving, dims);
    if (splits && fixedRange && movingRange &&
        fixedRange->first + movingRange->first >= 0 &&
        fixedRange->second + movingRange->second < extent) {
      anchor.push_back(fixed + movingRange->first);
      box.extents.push_back(movingRange->second - movingRange->first + 1);
      continue;
    }
    anchor.push_back(getAffineConstantExpr(0, ctx));
    box.extents.push_back(extent);
  }
  box.anchor = AffineMap::get(captured, 0, anchor, ctx);
  return box;
}

std::optional<std::string>
mlir::ktdf::whyNotIndirect(ktdp::ConstructIndirectAccessTileOp tile) {
  std::string why;
  if (succeeded(planIndirectTile(tile, why)))
    return std::nullopt;
  return "the scheduler cannot move this indirect access tile yet: " + why;
}
