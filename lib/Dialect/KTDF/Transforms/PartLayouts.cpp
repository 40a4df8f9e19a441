//===- PartLayouts.cpp - What accesses part by part may touch -----------===//
//
// This file implements the analyses of the part-by-part split of
// ktdf-resolve-distributed-views (StraddlingTiles.cpp): which distributed
// views have parts it can access one by one, which ops it may repeat per
// part, and which plain views may take a part's stores.
//
//===----------------------------------------------------------------------===//

#include "StraddlingTiles.h"

#include "ktflow/Analysis/LaunchArguments.h"
#include "ktflow/Analysis/TensorExtent.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/Matchers.h"

using namespace mlir;
using namespace mlir::ktdf;
using namespace mlir::ktdf::straddle;

/// The bound of dimension `d` of `set` as c + k * s0 (s0 its symbol, if
/// any) when it is one affine expression (upper bound, or lower with
/// `lower`).
static bool linearBound(IntegerSet set, unsigned d, bool lower, int64_t &c,
                        int64_t &k) {
  if (lower) {
    // The lower bound of d is minus the upper bound of -d.
    MLIRContext *ctx = set.getContext();
    SmallVector<AffineExpr> dims, symbols;
    for (unsigned e = 0; e < set.getNumDims(); ++e)
      dims.push_back(e == d ? -getAffineDimExpr(e, ctx)
                            : getAffineDimExpr(e, ctx));
    for (unsigned e = 0; e < set.getNumSymbols(); ++e)
      symbols.push_back(getAffineSymbolExpr(e, ctx));
    set = set.replaceDimsAndSymbols(dims, symbols, set.getNumDims(),
                                    set.getNumSymbols());
  }
  FailureOr<AffineMap> bounds = ktdp::getUpperBoundMap(set, d);
  if (failed(bounds) || bounds->getNumResults() != 1 ||
      !bounds->getResult(0).isPureAffine())
    return false;
  SmallVector<int64_t> at0(set.getNumSymbols(), 0), at1(set.getNumSymbols(), 1);
  std::optional<int64_t> v0 =
      ktdp::evaluateAffineExpr(bounds->getResult(0), {}, at0);
  std::optional<int64_t> v1 =
      ktdp::evaluateAffineExpr(bounds->getResult(0), {}, at1);
  if (!v0 || !v1)
    return false;
  c = lower ? -*v0 : *v0;
  k = lower ? *v0 - *v1 : *v1 - *v0;
  return true;
}

/// The box of `part` and how it moves with its one run-time size (the
/// slopes), or why not.
static LogicalResult partBox(ktdp::ConstructMemoryViewOp part,
                             ktdp::IntegerBox &box, ktdp::IntegerBox &slope,
                             std::string &why) {
  IntegerSet set = part.getCoordinateSet();
  unsigned rank = set.getNumDims();
  slope.lower.assign(rank, 0);
  slope.upper.assign(rank, 0);
  if (!ktdp::isBoxShaped(set)) {
    why = "a part's coordinate_set is not a box";
    return failure();
  }
  if (set.getNumSymbols() == 0) {
    FailureOr<ktdp::IntegerBox> bounding = ktdp::getBoundingBox(set, {});
    if (failed(bounding) || bounding->isEmpty()) {
      why = "a part's coordinate_set is not a bounded, non-empty box";
      return failure();
    }
    box = *bounding;
    return success();
  }
  box.lower.assign(rank, 0);
  box.upper.assign(rank, 0);
  for (unsigned d = 0; d < rank; ++d)
    if (!linearBound(set, d, /*lower=*/true, box.lower[d], slope.lower[d]) ||
        !linearBound(set, d, /*lower=*/false, box.upper[d], slope.upper[d])) {
      why = "a part's coordinate_set bounds a dimension by other than one "
            "affine expression of its run-time size";
      return failure();
    }
  return success();
}

FailureOr<GlobalParts>
mlir::ktdf::straddle::globalParts(ktdp::ConstructDistributedMemoryViewOp view,
                                  std::string &why) {
  GlobalParts result;
  for (Value input : view.getMemrefs()) {
    auto part = input.getDefiningOp<ktdp::ConstructMemoryViewOp>();
    if (!part) {
      why = "a part is not a ktdp.construct_memory_view";
      return failure();
    }
    auto space = ktdp::normalizeMemorySpace(part.getMemorySpace());
    if (!space || space->kind != ktdp::MemoryKind::global) {
      why = "a part is not in device (global) memory";
      return failure();
    }
    // A part's coordinate_set symbol is bound to its one dynamic size; a
    // run-time stride is a product of the sizes after it (`[64, %n]` rows
    // %n apart).
    if (part.getSizes().size() > 1 ||
        part.getSizes().size() != part.getCoordinateSet().getNumSymbols()) {
      why = "a part has dynamic sizes other than one its coordinate_set's "
            "one symbol is bound to";
      return failure();
    }
    if (!part.getStrides().empty())
      if (std::optional<std::string> notRowMajor =
              ktflow::whyNotWrittenRowMajor(part)) {
        why = "a part has dynamic strides that are not the sizes after "
              "them: " +
              *notRowMajor;
        return failure();
      }
    if (!part.getSizes().empty()) {
      if (result.size && result.size != part.getSizes().front()) {
        why = "parts have different run-time sizes";
        return failure();
      }
      result.size = part.getSizes().front();
    }
    ktdp::IntegerBox box, slope;
    if (failed(partBox(part, box, slope, why)))
      return failure();
    for (auto [other, otherSlope] : llvm::zip(result.boxes, result.slopes)) {
      // Disjoint when some dimension separates them at every size >= 1.
      auto before = [](int64_t upper, int64_t upperSlope, int64_t lower,
                       int64_t lowerSlope) {
        return upperSlope <= lowerSlope &&
               upper + upperSlope < lower + lowerSlope;
      };
      bool meet = true;
      for (size_t d = 0; d < box.lower.size(); ++d)
        meet &= !before(box.upper[d], slope.upper[d], other.lower[d],
                        otherSlope.lower[d]) &&
                !before(other.upper[d], otherSlope.upper[d], box.lower[d],
                        slope.lower[d]);
      if (meet) {
        // The interpreter serves a coordinate from the first part holding
        // it; the masks of overlapping parts would store it twice.
        why = "two parts may hold a common coordinate";
        return failure();
      }
    }
    result.parts.push_back(part);
    result.boxes.push_back(box);
    result.slopes.push_back(slope);
  }
  return result;
}

std::optional<std::string> mlir::ktdf::straddle::whyNotGlobalParts(
    ktdp::ConstructDistributedMemoryViewOp view) {
  std::string why;
  if (failed(globalParts(view, why)))
    return why;
  return std::nullopt;
}

bool mlir::ktdf::straddle::isElementwise(Operation *op,
                                         ArrayRef<int64_t> shape) {
  auto ofShape = [&](Type type) {
    auto tensor = dyn_cast<RankedTensorType>(type);
    return tensor && tensor.getShape() == shape;
  };
  if (op->getNumResults() == 0 || !llvm::all_of(op->getResultTypes(), ofShape))
    return false;
  if (op->getNumRegions() == 0 && op->hasTrait<OpTrait::Elementwise>())
    return llvm::all_of(op->getOperandTypes(), [&](Type type) {
      return !isa<ShapedType>(type) || ofShape(type);
    });
  auto linalgOp = dyn_cast<linalg::LinalgOp>(op);
  return linalgOp && linalgOp.hasPureTensorSemantics() &&
         linalgOp.getNumLoops() == linalgOp.getNumParallelLoops() &&
         llvm::all_of(linalgOp.getIndexingMapsArray(),
                      [](AffineMap map) { return map.isIdentity(); });
}

bool mlir::ktdf::straddle::sameAccess(ktdp::ConstructAccessTileOp a,
                                      ktdp::ConstructAccessTileOp b) {
  return a.getBaseMap() == b.getBaseMap() && a.getIndices() == b.getIndices() &&
         a.getAccessTileSet() == b.getAccessTileSet() &&
         a.getAccessTileOrder() == b.getAccessTileOrder();
}

bool mlir::ktdf::straddle::storableByBox(ktdp::ConstructAccessTileOp tile,
                                         ktdp::ConstructAccessTileOp like,
                                         const GlobalParts &layout) {
  auto view = tile.getBase().getDefiningOp<ktdp::ConstructMemoryViewOp>();
  if (!view || layout.size || !sameAccess(tile, like))
    return false;
  ArrayRef<ktdp::IntegerBox> parts = layout.boxes;
  auto space = ktdp::normalizeMemorySpace(view.getMemorySpace());
  std::optional<ktflow::ViewAddress> address =
      ktflow::getViewAddress(view.getOffset());
  if (!space || space->kind != ktdp::MemoryKind::global || !address ||
      (address->displacement &&
       !matchPattern(address->displacement, m_Constant())) ||
      !view.getSizes().empty() || !view.getStrides().empty() ||
      view.getCoordinateSet().getNumSymbols() != 0 ||
      !ktdp::isBoxShaped(view.getCoordinateSet()))
    return false;
  FailureOr<ktdp::IntegerBox> box =
      ktdp::getBoundingBox(view.getCoordinateSet(), {});
  if (failed(box) || llvm::any_of(box->lower, [](int64_t l) { return l; }))
    return false;
  // The parts, disjoint, fill their bounding box when their volumes add up
  // to its volume.
  ktdp::IntegerBox hull = parts.front();
  int64_t volume = 0;
  for (const ktdp::IntegerBox &part : parts) {
    int64_t partVolume = 1;
    for (size_t d = 0; d < hull.lower.size(); ++d) {
      hull.lower[d] = std::min(hull.lower[d], part.lower[d]);
      hull.upper[d] = std::max(hull.upper[d], part.upper[d]);
      partVolume *= part.upper[d] - part.lower[d] + 1;
    }
    volume += partVolume;
  }
  int64_t hullVolume = 1;
  for (size_t d = 0; d < hull.lower.size(); ++d) {
    hullVolume *= hull.upper[d] - hull.lower[d] + 1;
    if (hull.lower[d] > 0 || hull.upper[d] < box->upper[d])
      return false;
  }
  return volume == hullVolume;
}
