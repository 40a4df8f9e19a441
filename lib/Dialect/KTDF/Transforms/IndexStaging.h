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

/// The indices one transfer of `plan` reads (IndirectDma.cpp) over the
/// box of its variables from `from` with `extents` (the whole space, or a
/// chunk of it): per point of the variables above the run, in order, each
/// index whose coordinates differ from the previous point's (a page's rows
/// read its id once). The captured values are taken as 0: a tile id only
/// shifts where a page starts. None when the subscripts have symbols or
/// the points are too many to walk.
std::optional<int64_t> countIndexReads(const IndirectTilePlan &plan,
                                       ArrayRef<int64_t> from,
                                       ArrayRef<int64_t> extents);

/// Whether the DMA engine that loads a lane's tiles, moving the tile of
/// `plan` (`bytes` of it) into the scratchpad, waits longer on the tile's
/// index reads, one device-memory round trip each, than the bytes take on
/// the route, and the indices are read there: not where
/// ktdf-route-transfers stages them in a scratchpad the engine reads
/// sooner (indexStagingPays).
bool indexReadsBind(const ktflow::sched::ScheduleTarget &target,
                    const IndirectTilePlan &plan, int64_t bytes);

} // namespace mlir::ktdf

#endif // KTFLOW_DIALECT_KTDF_TRANSFORMS_INDEXSTAGING_H
