//===- Distribute.cpp - The launch grid over identical instances ----------===//
//
// This file implements --ktdf-distribute: the kernel's `ktdf.parallel` is
// split over the cores of the device and, with `use-lanes`, over the
// identical compute lanes of each core (instance k runs on core k mod C,
// lane k div C, so the cores fill first). Points are split into contiguous
// blocks unless their work differs (loop trip counts that follow from the
// tile id, a causal attention's key blocks) and dealing them in snake
// order gives the busiest instance less of it.
//
//===----------------------------------------------------------------------===//

#include "IndexAnalysis.h"

#include "ktflow/Dialect/KTDF/Transforms/Passes.h"
#include "ktflow/Scheduler/ScheduleTarget.h"
#include "ktflow/Scheduler/ScheduleTargetPass.h"

#include "mlir/Dialect/SCF/IR/SCF.h"

namespace mlir::ktdf {
#define GEN_PASS_DEF_KTDFDISTRIBUTE
#include "ktflow/Dialect/KTDF/Transforms/Passes.h.inc"
} // namespace mlir::ktdf

using namespace mlir;
using namespace mlir::ktdf;

namespace {
/// Counts the pipeline executions of one grid point: the estimate of its
/// work. Loop bounds are evaluated from the point's coordinates, constants
/// and enclosing loop variables; a bound known only at run time, or more
/// than `budget` loop iterations to walk, leaves the work unknown.
class PointWork {
public:
  std::optional<int64_t> of(ParallelOp parallel, ArrayRef<int64_t> point) {
    values.clear();
    for (auto [arg, coordinate] :
         llvm::zip(parallel.getBody().getArguments(), point))
      values[arg] = coordinate;
    return ofBlock(parallel.getBody().front());
  }

  int64_t budget = int64_t(1) << 20;

private:
  std::optional<int64_t> ofBlock(Block &block) {
    int64_t total = 0;
    for (Operation &op : block) {
      if (auto pipeline = dyn_cast<PipelineOp>(op)) {
        // A per-instance pipeline runs once per lane, whatever its points.
        total += pipeline.getPerInstance() ? 0 : 1;
        continue;
      }
      auto loop = dyn_cast<scf::ForOp>(op);
      if (!loop) {
        bool holdsPipelines = false;
        op.walk([&](PipelineOp) { holdsPipelines = true; });
        if (holdsPipelines)
          return std::nullopt;
        continue;
      }
      std::optional<int64_t> work = ofLoop(loop);
      if (!work)
        return std::nullopt;
      total += *work;
    }
    return total;
  }

  std::optional<int64_t> ofLoop(scf::ForOp loop) {
    auto known = [&](Value v) -> std::optional<int64_t> {
      auto it = values.find(v);
      return it == values.end() ? std::nullopt
                                : std::optional<int64_t>(it->second);
    };
    std::optional<int64_t> lb = evaluateIndex(loop.getLowerBound(), known),
                           ub = evaluateIndex(loop.getUpperBound(), known),
                           step = evaluateIndex(loop.getStep(), known);
    if (!lb || !ub || !step || *step <= 0)
      return std::nullopt;
    int64_t total = 0;
    for (int64_t i = *lb; i < *ub; i += *step) {
      if (--budget < 0)
        return std::nullopt;
      values[loop.getInductionVar()] = i;
      std::optional<int64_t> work = ofBlock(*loop.getBody());
      if (!work)
        return std::nullopt;
      total += *work;
    }
    values.erase(loop.getInductionVar());
    return total;
  }

  llvm::DenseMap<Value, int64_t> values;
};

/// The work of the busiest of `n` instances: points split in contiguous
/// blocks, or dealt in snake order.
int64_t busiest(ArrayRef<int64_t> work, int64_t n, bool snake) {
  int64_t rounds = static_cast<int64_t>(work.size()) / n, most = 0;
  for (int64_t k = 0; k < n; ++k) {
    int64_t sum = 0;
    for (int64_t r = 0; r < rounds; ++r)
      sum += work[snake ? r * n + (r % 2 ? n - 1 - k : k) : k * rounds + r];
    most = std::max(most, sum);
  }
  return most;
}

/// Whether dealing the points of `parallel` over `n` instances in snake
/// order gives the busiest instance less work than contiguous blocks do.
bool dealsInSnakeOrder(ParallelOp parallel, int64_t n) {
  int64_t points = parallel.getNumPoints();
  if (points <= n || points % n != 0)
    return false;
  ArrayRef<int64_t> extents = parallel.getExtents();
  SmallVector<int64_t> work;
  PointWork estimate;
  for (int64_t t = 0; t < points; ++t) {
    SmallVector<int64_t> point(extents.size());
    int64_t rest = t;
    for (int64_t d = static_cast<int64_t>(extents.size()) - 1; d >= 0; --d) {
      point[d] = rest % extents[d];
      rest /= extents[d];
    }
    std::optional<int64_t> w = estimate.of(parallel, point);
    if (!w)
      return false;
    work.push_back(*w);
  }
  return busiest(work, n, /*snake=*/true) < busiest(work, n, /*snake=*/false);
}

struct DistributePass : public ktflow::sched::WithScheduleTarget<
                            ktdf::impl::KTDFDistributeBase<DistributePass>> {
  using Base::Base;
  void runOnOperation() override {
    const ktflow::sched::ScheduleTarget *target = requireScheduleTarget();
    if (!target)
      return;
    int64_t instances = target->getNumLaneInstances(useLanes);
    getOperation().walk([&](ParallelOp parallel) {
      int64_t n = std::min(instances, parallel.getNumPoints());
      parallel.setNumInstancesAttr(
          IntegerAttr::get(IntegerType::get(&getContext(), 64), n));
      parallel.setSnake(balance && dealsInSnakeOrder(parallel, n));
    });
  }
};
} // namespace
