//===- CoarsenAnalysis.cpp - What --ktdf-coarsen may merge ---------------===//
//
// This file finds what --ktdf-coarsen can merge: the driver of a group of
// sibling pipelines (the loop, or the one wide grid dimension, whose
// consecutive iterations move their tiles) and, per pipeline, the tiles
// that move with it by exactly their height along the first dimension.
// Tiles that stay put are allowed only where they stay right for F times as
// many rows (scalars and per-column vectors).
//
//===----------------------------------------------------------------------===//

#include "Coarsening.h"
#include "IndexAnalysis.h"

#include "ktflow/Dialect/KTDF/Transforms/TileBounds.h"
#include "ktflow/Dialect/KTDP/Utils/IntegerSetAnalysis.h"

#include "mlir/IR/Matchers.h"

using namespace mlir;
using namespace mlir::ktdf;
using namespace mlir::ktdf::coarsen;

std::optional<Driver> coarsen::analyzeDriver(Operation *parent) {
  Driver d;
  d.parallel = dyn_cast<ParallelOp>(parent);
  d.loop = dyn_cast<scf::ForOp>(parent);
  if (ParallelOp parallel = d.parallel) {
    ArrayRef<int64_t> extents = parallel.getExtents();
    unsigned wide = 0;
    for (auto [i, e] : llvm::enumerate(extents))
      if (e > 1)
        ++wide, d.gridDim = i;
    if (wide != 1)
      return std::nullopt;
    d.iv = parallel.getBody().getArgument(d.gridDim);
    d.trips = extents[d.gridDim];
    int64_t instances = parallel.getNumInstances().value_or(1);
    d.perInstance = (parallel.getNumPoints() + instances - 1) / instances;
  } else if (scf::ForOp loop = d.loop) {
    APInt lb, ub, st;
    if (!matchPattern(loop.getLowerBound(), m_ConstantInt(&lb)) ||
        !matchPattern(loop.getStep(), m_ConstantInt(&st)) ||
        st.getSExtValue() <= 0)
      return std::nullopt;
    d.iv = loop.getInductionVar();
    d.step = st.getSExtValue();
    if (matchPattern(loop.getUpperBound(), m_ConstantInt(&ub))) {
      d.trips = (ub.getSExtValue() - lb.getSExtValue()) / d.step;
      if ((ub.getSExtValue() - lb.getSExtValue()) % d.step != 0)
        return std::nullopt;
    } else {
      // The most iterations the loop can run sizes the candidates.
      auto most = upperBoundOf(loop.getUpperBound());
      if (!most || d.step != 1)
        return std::nullopt;
      d.dynamic = true;
      d.trips = *most - lb.getSExtValue();
    }
    d.perInstance = d.trips;
  } else {
    return std::nullopt;
  }
  if (d.trips <= 1)
    return std::nullopt;
  return d;
}

/// The tiles the pipeline's DMA stages move.
static SmallVector<std::pair<DataTransferOp, ktdp::ConstructAccessTileOp>>
tilesOf(PipelineOp pipeline) {
  SmallVector<std::pair<DataTransferOp, ktdp::ConstructAccessTileOp>> tiles;
  pipeline.walk([&](DataTransferOp op) {
    for (Value end : {op.getSrc(), op.getDst()})
      if (auto tile = end.getDefiningOp<ktdp::ConstructAccessTileOp>())
        tiles.push_back({op, tile});
  });
  return tiles;
}

std::optional<SmallVector<ktdp::ConstructAccessTileOp>>
coarsen::findMovingTiles(PipelineOp pipeline, const Driver &d) {
  // A gather or scatter moves its variable space whole: it cannot grow
  // with the other tiles.
  WalkResult indirect = pipeline.walk([](DataTransferOp op) {
    for (Value end : {op.getSrc(), op.getDst()})
      if (end.getDefiningOp<ktdp::ConstructIndirectAccessTileOp>())
        return WalkResult::interrupt();
    return WalkResult::advance();
  });
  if (indirect.wasInterrupted())
    return std::nullopt;
  auto tiles = tilesOf(pipeline);
  SmallVector<ktdp::ConstructAccessTileOp> moving;
  std::optional<int64_t> height;
  for (auto [transfer, tile] : tiles) {
    if (tile.getBaseMap().getNumResults() == 0)
      continue; // A scalar: the same for every iteration.
    // A permuted tile's buffer rows are not the view's first dimension.
    if (!tile.getAccessTileOrder().isIdentity())
      return std::nullopt;
    auto box = ktdp::getBoundingBox(tile.getAccessTileSet(), {});
    if (failed(box))
      return std::nullopt;
    SmallVector<int64_t> extents = box->getExtents();
    bool dependent = false;
    for (unsigned r = 0; r < tile.getBaseMap().getNumResults(); ++r) {
      auto c = anchorCoefficient(tile, r, d.iv);
      if (!c)
        return std::nullopt;
      if (*c == 0)
        continue;
      if (r != 0 || *c * d.step != extents[0] || extents.size() < 2 ||
          (d.dynamic && extents.size() != 2))
        return std::nullopt;
      dependent = true;
    }
    if (!dependent || llvm::is_contained(moving, tile))
      continue;
    // The rows a partial merged iteration leaves are counted in one
    // height per pipeline.
    if (d.dynamic && height && *height != extents[0])
      return std::nullopt;
    height = extents[0];
    moving.push_back(tile);
  }
  if (moving.empty())
    return std::nullopt;
  for (auto [transfer, tile] : tiles)
    if (tile.getType().getRank() >= 2 && !llvm::is_contained(moving, tile))
      return std::nullopt;
  // A 1-d tile that stays put is either one value per column (broadcast
  // over the rows, still right for F times as many rows) or one value per
  // row (which would have to grow F times). Merge only when its length is
  // the row length and not the tiles' height as well.
  SmallVector<int64_t> movingExtents =
      ktdp::getBoundingBox(moving.front().getAccessTileSet(), {})->getExtents();
  for (auto [transfer, tile] : tiles) {
    if (tile.getType().getRank() != 1 || llvm::is_contained(moving, tile))
      continue;
    auto box = ktdp::getBoundingBox(tile.getAccessTileSet(), {});
    if (failed(box))
      return std::nullopt;
    int64_t length = box->getExtents().front();
    if (length > 1 &&
        (length != movingExtents.back() || length == movingExtents.front()))
      return std::nullopt;
  }
  return moving;
}
