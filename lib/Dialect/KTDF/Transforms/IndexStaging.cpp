//===- IndexStaging.cpp - Where a DMA unit reads a gather's indices -------===//
//
// This file implements the cost rule by which ktdf-route-transfers stages
// an indirect tile's indices in the scratchpad of the DMA unit that moves
// the tile when that unit reads the scratchpad sooner than device memory
// (mesh_device's DMA engine: 2 cycles against 80), and the rule by which
// ktdf-split-index-bound-gathers finds a gather bound by its index reads
// where they cannot be staged (spyre_like, sample_device).
//
//===----------------------------------------------------------------------===//

#include "IndexStaging.h"

#include "ktflow/Support/ElementBytes.h"

using namespace mlir;
using namespace mlir::ktdf;
using ktflow::sched::NodeId;

bool mlir::ktdf::indexStagingPays(const ktflow::sched::ScheduleTarget &target,
                                  const IndirectTilePlan &plan, NodeId unit,
                                  NodeId scratch) {
  const ktflow::device::RoutingGraph &routing = target.getRouting();
  NodeId global = target.getGlobalMemory();
  auto fromGlobal = routing.findRoute(global, unit);
  auto fromScratch = routing.findRoute(scratch, unit);
  auto fill = routing.findRoute(global, scratch);
  if (!fromGlobal || !fromScratch || !fill ||
      fromScratch->latency >= fromGlobal->latency)
    return false;
  int64_t elements = 1;
  for (int64_t e : plan.extents)
    elements *= e;
  int64_t runs = elements / plan.runLength;
  double unstaged = 0, staged = 0;
  for (unsigned k = 0; k < plan.indexViews.size(); ++k) {
    int64_t boxElements = 1;
    for (int64_t e : stagedIndexBox(plan, k).extents)
      boxElements *= e;
    if (boxElements > elements)
      return false;
    int64_t reads = std::min(runs, boxElements);
    ktdp::ConstructMemoryViewOp view = plan.indexViews[k];
    int64_t bytes =
        boxElements * ktflow::bytesPerElement(view.getType().getElementType());
    unstaged += reads * static_cast<double>(fromGlobal->latency);
    staged += fill->getTransferCycles(bytes) +
              reads * static_cast<double>(fromScratch->latency);
  }
  return staged < unstaged;
}

/// The most points countIndexReads walks (a transfer of a few MB of rows).
constexpr int64_t kMaxWalkedPoints = 1 << 16;

std::optional<int64_t> mlir::ktdf::countIndexReads(const IndirectTilePlan &plan,
                                                   ArrayRef<int64_t> from,
                                                   ArrayRef<int64_t> extents) {
  ktdp::ConstructIndirectAccessTileOp tile = plan.tile;
  SmallVector<AffineMap> subscripts;
  for (auto [mapAttr, kind] : llvm::zip_equal(tile.getPerDimSubscriptMaps(),
                                              tile.getPerDimSubscriptKinds()))
    if (cast<BoolAttr>(kind).getValue())
      subscripts.push_back(cast<AffineMapAttr>(mapAttr).getValue());
  if (llvm::any_of(subscripts,
                   [](AffineMap m) { return m.getNumSymbols() != 0; }))
    return std::nullopt;
  size_t looped = extents.size() - (plan.runLength > 1 ? 1 : 0);
  int64_t points = 1;
  for (size_t v = 0; v < looped; ++v)
    points *= extents[v];
  if (points > kMaxWalkedPoints)
    return std::nullopt;
  unsigned captured = tile.getCapturedVariables().size();
  SmallVector<int64_t> domain(captured + extents.size(), 0);
  SmallVector<SmallVector<int64_t, 4>> last(subscripts.size());
  int64_t reads = 0;
  for (int64_t p = 0; p < points; ++p) {
    int64_t rest = p;
    for (size_t v = extents.size(); v-- > 0;) {
      int64_t step = v < looped ? rest % extents[v] : 0;
      domain[captured + v] = from[v] + step;
      if (v < looped)
        rest /= extents[v];
    }
    for (auto [k, map] : llvm::enumerate(subscripts)) {
      SmallVector<int64_t, 4> at = map.compose(domain);
      if (p == 0 || at != last[k])
        ++reads;
      last[k] = std::move(at);
    }
  }
  return reads;
}

bool mlir::ktdf::indexReadsBind(const ktflow::sched::ScheduleTarget &target,
                                const IndirectTilePlan &plan, int64_t bytes) {
  if (target.getLanes().empty())
    return false;
  const ktflow::sched::Hop &hop =
      target.getLanes().front().inbound.hops.front();
  NodeId global = target.getGlobalMemory();
  if (hop.kind != ktflow::sched::Hop::Dma || hop.from != global || !hop.to)
    return false;
  const ktflow::device::RoutingGraph &routing = target.getRouting();
  auto fromGlobal = routing.findRoute(global, hop.unit);
  auto fill = routing.findRoute(global, *hop.to);
  if (!fromGlobal || !fill ||
      (target.readsMemory(hop.unit, *hop.to) &&
       indexStagingPays(target, plan, hop.unit, *hop.to)))
    return false;
  SmallVector<int64_t> from(plan.extents.size(), 0);
  std::optional<int64_t> reads = countIndexReads(plan, from, plan.extents);
  return reads && *reads * static_cast<double>(fromGlobal->latency) >
                      bytes / fill->bandwidth;
}
