//===- OrderGrid.cpp - Exchanging tiles on distinct cores -----------------===//
//
// This file implements --ktdf-order-grid. A `ktdf.parallel` numbers its
// points first dimension slowest, and ktdf-distribute runs point p on core
// p mod C; the kernel numbers its tiles first dimension fastest. On a
// [2, 4] grid with groups of four consecutive tiles on a 4-core device
// point = 4 px + py puts tiles 0 and 1 (px = 0, 1) on core 0, where the
// ring of an all-reduce cannot send between them. Ordering the parallel's
// dimensions the other way round makes every point its tile (each group
// on cores 0 to 3). The pass keeps the parallel's order unless an
// exchange's tiles share a core in it, and then takes the first order of
// the dimensions in which none do; the tiles the exchanges name are
// renumbered for that order. Where no order separates them, nothing
// changes and ktdf-schedule-all-reduce refuses the kernel, naming the
// kernel's tiles.
//
//===----------------------------------------------------------------------===//

#include "ktflow/Dialect/KTDF/Transforms/Passes.h"
#include "ktflow/Dialect/KTDP/IR/KTDP.h"
#include "ktflow/Dialect/KTDP/Utils/LaunchGrid.h"
#include "ktflow/Scheduler/ScheduleTarget.h"
#include "ktflow/Scheduler/ScheduleTargetPass.h"

#include "llvm/ADT/DenseSet.h"

#include <numeric>

namespace mlir::ktdf {
#define GEN_PASS_DEF_KTDFORDERGRID
#include "ktflow/Dialect/KTDF/Transforms/Passes.h.inc"
} // namespace mlir::ktdf

using namespace mlir;
using namespace mlir::ktdf;

namespace {
/// The parallel's dimensions in the order `order` (new dimension i is
/// dimension order[i] of the kernel's grid).
struct GridOrder {
  SmallVector<int64_t> grid, order;

  SmallVector<int64_t> extents() const {
    SmallVector<int64_t> extents;
    for (int64_t d : order)
      extents.push_back(grid[d]);
    return extents;
  }
  /// The id, first dimension fastest over the reordered grid, of the
  /// kernel's tile `tile`.
  int64_t renumbered(int64_t tile) const {
    SmallVector<int64_t> coords = ktdp::delinearizeTileId(tile, grid);
    int64_t id = 0;
    for (int64_t d : llvm::reverse(order))
      id = id * grid[d] + coords[d];
    return id;
  }
  /// The core that runs the kernel's tile `tile` when each point has a
  /// lane of its own.
  int64_t coreOf(int64_t tile, int64_t cores) const {
    return pointOfTile(renumbered(tile), extents()) % cores;
  }
};

/// Whether, in `order`, the tiles of every all-reduce group run on distinct
/// cores and every tile copy sends between cores, as
/// ktdf-schedule-all-reduce requires.
bool separates(ParallelOp parallel, const GridOrder &order, int64_t cores) {
  WalkResult walk = parallel.walk([&](Operation *op) {
    if (auto reduce = dyn_cast<AllReduceOp>(op))
      for (ArrayRef<int64_t> group : reduce.getMembers()) {
        llvm::SmallDenseSet<int64_t> used;
        for (int64_t tile : group)
          if (!used.insert(order.coreOf(tile, cores)).second)
            return WalkResult::interrupt();
      }
    if (auto copy = dyn_cast<TileCopyOp>(op)) {
      if (static_cast<int64_t>(copy.getSources().size()) !=
          parallel.getNumPoints())
        return WalkResult::interrupt();
      for (auto [c, p] : llvm::enumerate(copy.getSources()))
        if (p >= 0 && p != static_cast<int64_t>(c) &&
            order.coreOf(p, cores) == order.coreOf(c, cores))
          return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  return !walk.wasInterrupted();
}

/// Whether the body names tiles other than through its exchanges: a
/// scratchpad view of a given tile (`ct_id`) that is not an exchange view
/// (each tile's own, `ct_id = 0`), which the pass would have to renumber
/// too.
bool namesTilesInViews(ParallelOp parallel) {
  return parallel
      .walk([](ktdp::ConstructMemoryViewOp view) {
        auto space = ktdp::normalizeMemorySpace(view.getMemorySpace());
        return space && space->computeTileId && !isExchangeView(view)
                   ? WalkResult::interrupt()
                   : WalkResult::advance();
      })
      .wasInterrupted();
}

/// Reorders `parallel`'s dimensions and renumbers the tiles its exchanges
/// name.
void reorder(ParallelOp parallel, const GridOrder &order) {
  Builder b(parallel);
  parallel.setExtents(order.extents());
  Block &body = parallel.getBody().front();
  unsigned rank = order.order.size();
  for (int64_t d : order.order)
    body.getArgument(d).replaceAllUsesWith(
        body.addArgument(b.getIndexType(), parallel.getLoc()));
  body.eraseArguments(0, rank);
  parallel.walk([&](AllReduceOp op) {
    SmallVector<Attribute> groups;
    for (ArrayRef<int64_t> group : op.getMembers()) {
      SmallVector<int64_t> renumbered;
      for (int64_t tile : group)
        renumbered.push_back(order.renumbered(tile));
      groups.push_back(b.getDenseI64ArrayAttr(renumbered));
    }
    op.setGroupsAttr(b.getArrayAttr(groups));
  });
  parallel.walk([&](TileCopyOp op) {
    ArrayRef<int64_t> sources = op.getSources();
    SmallVector<int64_t> renumbered(sources.size(), -1);
    for (auto [c, p] : llvm::enumerate(sources))
      renumbered[order.renumbered(c)] = p < 0 ? p : order.renumbered(p);
    op.setSources(renumbered);
  });
}

struct OrderGridPass : public ktflow::sched::WithScheduleTarget<
                           ktdf::impl::KTDFOrderGridBase<OrderGridPass>> {
  void runOnOperation() override {
    const ktflow::sched::ScheduleTarget *target = requireScheduleTarget();
    if (!target)
      return;
    int64_t cores = target->getNumCores();
    getOperation().walk([&](ParallelOp parallel) {
      GridOrder order{SmallVector<int64_t>(parallel.getExtents()), {}};
      order.order.resize(order.grid.size());
      std::iota(order.order.begin(), order.order.end(), 0);
      if (separates(parallel, order, cores) || namesTilesInViews(parallel))
        return;
      while (std::next_permutation(order.order.begin(), order.order.end()))
        if (separates(parallel, order, cores))
          return reorder(parallel, order);
    });
  }
};
} // namespace
