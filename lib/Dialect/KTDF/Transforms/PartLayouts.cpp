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

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/Matchers.h"

using namespace mlir;
using namespace mlir::ktdf;
using namespace mlir::ktdf::straddle;

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
    if (!part.getSizes().empty() || !part.getStrides().empty() ||
        part.getCoordinateSet().getNumSymbols() != 0) {
      why = "a part has dynamic sizes or strides";
      return failure();
    }
    FailureOr<ktdp::IntegerBox> box = failure();
    if (ktdp::isBoxShaped(part.getCoordinateSet()))
      box = ktdp::getBoundingBox(part.getCoordinateSet(), {});
    if (failed(box) || box->isEmpty()) {
      why = "a part's coordinate_set is not a bounded, non-empty box";
      return failure();
    }
    for (const ktdp::IntegerBox &other : result.boxes) {
      bool meet = true;
      for (size_t d = 0; d < box->lower.size(); ++d)
        meet &=
            box->lower[d] <= other.upper[d] && other.lower[d] <= box->upper[d];
      if (meet) {
        // The interpreter serves a coordinate from the first part holding
        // it; the masks of overlapping parts would store it twice.
        why = "two parts hold a common coordinate";
        return failure();
      }
    }
    result.parts.push_back(part);
    result.boxes.push_back(*box);
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
                                         ArrayRef<ktdp::IntegerBox> parts) {
  auto view = tile.getBase().getDefiningOp<ktdp::ConstructMemoryViewOp>();
  if (!view || !sameAccess(tile, like))
    return false;
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
