//===- IndexStaging.h - Staging an indirect tile's indices -*- C++ -*-===//
//
// This file declares when ktdf-route-transfers stages the indices of an
// indirect access tile in the scratchpad its DMA unit moves it to or from,
// although the unit reads them in device memory too.
//
//===----------------------------------------------------------------------===//

#ifndef KTFLOW_DIALECT_KTDF_TRANSFORMS_INDEXSTAGING_H
#define KTFLOW_DIALECT_KTDF_TRANSFORMS_INDEXSTAGING_H

#include "ktflow/Dialect/KTDF/Transforms/IndirectTiles.h"
#include "ktflow/Scheduler/ScheduleTarget.h"

namespace mlir::ktdf {

/// Whether `unit`, which moves the tile of `plan` between device memory
/// and `scratch` and reads both, spends fewer cycles reading the tile's
/// indices when one DMA per index view first copies the view's box
/// (stagedIndexBox) from device memory into `scratch`. Each index read
/// waits the route's round trip: unstaged, device memory's; staged, the
/// scratchpad's, after the box's copy has landed. A transfer reads at most
/// one index per run and per box element; a box holding more indices than
/// the tile has elements stays where it is.
bool indexStagingPays(const ktflow::sched::ScheduleTarget &target,
                      const IndirectTilePlan &plan, ktflow::sched::NodeId unit,
                      ktflow::sched::NodeId scratch);

} // namespace mlir::ktdf

#endif // KTFLOW_DIALECT_KTDF_TRANSFORMS_INDEXSTAGING_H
