//===- IndexStaging.cpp - Where a DMA unit reads a gather's indices -------===//
//
// This file implements the cost rule by which ktdf-route-transfers stages
// an indirect tile's indices in the scratchpad of the DMA unit that moves
// the tile when that unit reads the scratchpad sooner than device memory
// (mesh_device's DMA engine: 2 cycles against 80).
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
