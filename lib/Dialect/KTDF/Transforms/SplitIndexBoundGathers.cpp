//===- SplitIndexBoundGathers.cpp - Gathers bound by index reads ----------===//
//
// This file implements --ktdf-split-index-bound-gathers (SplitGathers.h):
// a gather of any size that reads an index for every element, or whose
// runs share indices that its DMA engine waits on longer than on its
// bytes, is cut as ktdf-stream-wide-rows cuts one over the scratchpad
// (splitCopy): its DMA engine waits an index round trip per read, and
// the chunks, one per idle lane, share the reads out over the device's
// DMA engines.
//
//===----------------------------------------------------------------------===//

#include "IndexStaging.h"
#include "SplitGathers.h"

#include "ktflow/Dialect/KTDF/Transforms/IndirectTiles.h"
#include "ktflow/Dialect/KTDF/Transforms/Passes.h"

#include "ktflow/Dialect/KTDP/IR/KTDP.h"
#include "ktflow/Dialect/KTDP/Utils/LaunchGrid.h"
#include "ktflow/Scheduler/ScheduleTargetPass.h"
#include "ktflow/Support/ElementBytes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"

namespace mlir::ktdf {
#define GEN_PASS_DEF_KTDFSPLITINDEXBOUNDGATHERS
#include "ktflow/Dialect/KTDF/Transforms/Passes.h.inc"
} // namespace mlir::ktdf

using namespace mlir;
using namespace mlir::ktdf;

/// The fewest elements of a chunk of a gather that reads an index per
/// element. Each element costs its DMA engine the index reads' round trips
/// (~150 cycles each on spyre_like), so a chunk is bound by those rather
/// than by its transfers, and even 16 elements (~4,800 cycles there)
/// dwarf the chunk's store.
constexpr int64_t kIndexedChunkElements = 16;

/// Whether `tile` reads an index for every element: its innermost
/// variable feeds a subscript read through an index view.
static bool readsIndexPerElement(ktdp::ConstructIndirectAccessTileOp tile) {
  return readsIndexAt(tile, tile.getCapturedVariables().size() +
                                tile.getVariablesSpaceSet().getNumDims() - 1);
}

/// The fewest elements of a chunk of `load`, a gather of the body bound by
/// its index reads, or none when it is not: one that reads an index per
/// element, or (`shared`) whose runs share their indices (a row or page
/// gather: `ind(%PT[%b, (%t floordiv 16)])`) and whose DMA engine waits
/// longer on those reads than on its bytes (indexReadsBind). A chunk holds
/// whole runs: cutting one would only read its index again.
static std::optional<int64_t>
indexBoundChunk(ktdp::LoadOp load, const ktflow::sched::ScheduleTarget &target,
                std::optional<IndirectTilePlan> &shared) {
  auto tile =
      load.getAccessTile().getDefiningOp<ktdp::ConstructIndirectAccessTileOp>();
  if (!tile || cast<RankedTensorType>(load.getType()).getNumElements() <=
                   kIndexedChunkElements)
    return std::nullopt;
  if (readsIndexPerElement(tile))
    return kIndexedChunkElements;
  std::string why;
  FailureOr<IndirectTilePlan> plan = planIndirectTile(tile, why);
  if (failed(plan) || !indexReadsBind(target, *plan, loadedBytes(load)))
    return std::nullopt;
  shared = *plan;
  return std::max(kIndexedChunkElements, plan->runLength);
}

/// The bytes of the chunks to cut a row or page gather (`plan`) into, at
/// least `leastBytes` each, at most `lanes` of them: those whose index
/// reads weigh least on the busiest of the point's `engines` loading DMA
/// engines, and of equals the most chunks (two lanes sharing an engine
/// overlap one chunk's reads with the other's transfers). Chunk c runs on
/// copy c mod K of ktdf-spread-iterations (K = min(lanes, chunks)), copy j
/// on engine j mod `engines` (ktdf-distribute's core p mod cores). The
/// whole tile's bytes when no cut weighs less.
static int64_t pageChunkBytes(const IndirectTilePlan &plan,
                              int64_t elementBytes, int64_t leastBytes,
                              int64_t lanes, int64_t engines) {
  ArrayRef<int64_t> extents = plan.extents;
  int64_t whole = elementBytes;
  for (int64_t e : extents)
    whole *= e;
  int64_t bestBytes = whole, bestChunks = 1;
  std::optional<int64_t> bestReads =
      countIndexReads(plan, SmallVector<int64_t>(extents.size(), 0), extents);
  if (!bestReads)
    return whole;
  int64_t inner = elementBytes;
  for (size_t dim = extents.size(); dim-- > 0; inner *= extents[dim]) {
    int64_t outer = 1;
    for (size_t v = 0; v < dim; ++v)
      outer *= extents[v];
    for (int64_t step = 1; step < extents[dim]; ++step) {
      int64_t chunks = outer * (extents[dim] / step);
      if (extents[dim] % step || step * inner < leastBytes || chunks > lanes)
        continue;
      SmallVector<int64_t> chunk(extents);
      for (size_t v = 0; v <= dim; ++v)
        chunk[v] = v < dim ? 1 : step;
      int64_t copies = std::min(lanes, chunks);
      SmallVector<int64_t> load(std::min(engines, copies), 0);
      for (int64_t c = 0; c < chunks; ++c) {
        SmallVector<int64_t> from(extents.size(), 0);
        int64_t rest = c;
        for (size_t v = dim + 1; v-- > 0;) {
          int64_t trips = extents[v] / chunk[v];
          from[v] = rest % trips * chunk[v];
          rest /= trips;
        }
        std::optional<int64_t> reads = countIndexReads(plan, from, chunk);
        if (!reads)
          return whole;
        load[c % copies % load.size()] += *reads;
      }
      int64_t worst = *llvm::max_element(load);
      if (worst < *bestReads || (worst == *bestReads && chunks > bestChunks)) {
        bestReads = worst;
        bestBytes = step * inner;
        bestChunks = chunks;
      }
    }
  }
  return bestBytes;
}

bool ktdf::splitIndexBoundGathers(func::FuncOp func, int64_t lanes,
                                  int64_t engines,
                                  const ktflow::sched::ScheduleTarget &target) {
  struct Cut {
    GatherCopy copy;
    int64_t least;
    std::optional<IndirectTilePlan> shared;
  };
  SmallVector<Cut, 2> cuts;
  // Only gathers of the body itself: ktdf-spread-iterations spreads the
  // loops of the body, not loops nested in another.
  for (auto load : func.getBody().getOps<ktdp::LoadOp>()) {
    std::optional<IndirectTilePlan> shared;
    std::optional<int64_t> least = indexBoundChunk(load, target, shared);
    // A gather that is not a copy moves whole, as before.
    std::string why;
    if (FailureOr<GatherCopy> copy = matchGatherCopy(load, why);
        least && succeeded(copy))
      cuts.push_back({*copy, *least, shared});
  }
  // ktdf-spread-iterations spreads the chunk loops only when the body does
  // no other work that the copies would repeat; on one lane the chunks
  // only add their stores' latencies.
  llvm::SmallPtrSet<Operation *, 4> copyStores;
  for (Cut &cut : cuts)
    copyStores.insert(cut.copy.store);
  if (func.walk([&](ktdp::StoreOp store) {
            return copyStores.contains(store) ? WalkResult::advance()
                                              : WalkResult::interrupt();
          })
          .wasInterrupted())
    return false;
  bool split = false;
  for (Cut &cut : cuts) {
    // About one chunk per lane: more only add their stores' latencies.
    auto type = cast<RankedTensorType>(cut.copy.load.getType());
    int64_t esize = ktflow::bytesPerElement(type.getElementType());
    int64_t elements = std::max<int64_t>(
        cut.least, llvm::divideCeil(type.getNumElements(), lanes));
    int64_t bytes = cut.shared
                        ? pageChunkBytes(*cut.shared, esize, elements * esize,
                                         lanes, engines)
                        : elements * esize;
    // Chunks over the cap would be cut smaller, past one a lane: such a
    // gather is left to ktdf-stream-wide-rows when it overflows the
    // scratchpad (paged_kv_gather_full's 16 MB).
    if (bytes >= loadedBytes(cut.copy.load) ||
        (cut.shared && bytes > kMaxChunkBytes))
      continue;
    splitCopy(cut.copy, bytes);
    split = true;
  }
  return split;
}

/// The lanes of a core whose loads one DMA engine moves (spyre_like's and
/// sample_device's two).
static int64_t lanesPerLoadEngine(const ktflow::sched::ScheduleTarget &target) {
  ArrayRef<ktflow::sched::Lane> lanes = target.getLanes();
  if (lanes.empty() || lanes.front().inbound.hops.empty())
    return 1;
  ktflow::sched::NodeId engine = lanes.front().inbound.hops.front().unit;
  return llvm::count_if(lanes, [&](const ktflow::sched::Lane &lane) {
    return !lane.inbound.hops.empty() &&
           lane.inbound.hops.front().unit == engine;
  });
}

namespace {
struct SplitIndexBoundGathersPass
    : public ktflow::sched::WithScheduleTarget<
          ktdf::impl::KTDFSplitIndexBoundGathersBase<
              SplitIndexBoundGathersPass>> {
  using Base::Base;
  void runOnOperation() final {
    const ktflow::sched::ScheduleTarget *target = requireScheduleTarget();
    if (!target)
      return;
    int64_t instances = target->getNumLaneInstances(/*useLanes=*/true);
    int64_t sharing = lanesPerLoadEngine(*target);
    for (auto func : getOperation().getOps<func::FuncOp>()) {
      FailureOr<std::optional<SmallVector<int64_t>>> grid =
          ktdp::getLaunchGrid(func);
      if (func.isExternal() || failed(grid))
        continue;
      // The lanes ktdf-spread-iterations gives each grid point.
      int64_t points = *grid ? ktdp::getNumTiles(**grid) : 1;
      int64_t lanes = instances / points;
      if (lanes > 1)
        splitIndexBoundGathers(
            func, lanes, std::max<int64_t>(1, instances / sharing / points),
            *target);
    }
  }
};
} // namespace
