//===- Distribute.cpp - The launch grid over identical instances ----------===//
//
// This file implements --ktdf-distribute: the kernel's `ktdf.parallel` is
// split over the cores of the device and, with `use-lanes`, over the
// identical compute lanes of each core (instance k runs on core k mod C,
// lane k div C, so the cores fill first). Points are split into contiguous
// blocks unless their work differs (loop trip counts that follow from the
// tile id, a causal attention's key blocks) and dealing them in snake
// order gives the busiest instance less of it. Where the trip counts also
// follow from launch scalars (a grid-stride row loop up to a run-time row
// count), the points are dealt when snake order is no worse for any of a
// range of values of those scalars and better for one.
//
//===----------------------------------------------------------------------===//

#include "IndexAnalysis.h"

#include "ktflow/Dialect/KTDF/Transforms/Passes.h"
#include "ktflow/Scheduler/ScheduleTarget.h"
#include "ktflow/Scheduler/ScheduleTargetPass.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "llvm/Support/MathExtras.h"

namespace mlir::ktdf {
#define GEN_PASS_DEF_KTDFDISTRIBUTE
#include "ktflow/Dialect/KTDF/Transforms/Passes.h.inc"
} // namespace mlir::ktdf

using namespace mlir;
using namespace mlir::ktdf;

namespace {
/// Counts the pipeline executions of one grid point: the estimate of its
/// work. Loop bounds are evaluated from the point's coordinates, constants,
/// enclosing loop variables and, when sampled, the launch scalars; another
/// bound, or more than `budget` points and loop iterations to walk, leaves
/// the work unknown.
class PointWork {
public:
  /// `scalar`: the value every launch scalar of index or integer type takes
  /// (a sample of them), or none to leave them unknown.
  explicit PointWork(std::optional<int64_t> scalar = std::nullopt)
      : scalar(scalar) {}

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

  /// The value of a loop variable, tile coordinate or (sampled) launch
  /// scalar; also the unsigned minima and ceiling divisions evaluateIndex
  /// leaves alone, which bound the blocks of a run-time column count
  /// (RuntimeColumnBlocks.cpp), of operands not negative.
  std::optional<int64_t> known(Value v) {
    if (auto it = values.find(v); it != values.end())
      return it->second;
    auto leaf = [&](Value w) { return known(w); };
    if (auto arg = dyn_cast<BlockArgument>(v)) {
      bool launchScalar =
          isa<func::FuncOp>(arg.getOwner()->getParentOp()) &&
          (arg.getType().isIndex() || arg.getType().isSignlessInteger());
      return launchScalar ? scalar : std::nullopt;
    }
    Operation *def = v.getDefiningOp();
    if (!isa_and_nonnull<arith::MinUIOp, arith::CeilDivUIOp>(def))
      return std::nullopt;
    std::optional<int64_t> a = evaluateIndex(def->getOperand(0), leaf),
                           b = evaluateIndex(def->getOperand(1), leaf);
    if (!a || !b || *a < 0 || *b < 0)
      return std::nullopt;
    if (isa<arith::MinUIOp>(def))
      return std::min(*a, *b);
    return *b > 0 ? std::optional<int64_t>(llvm::divideCeil(*a, *b))
                  : std::nullopt;
  }

  std::optional<int64_t> ofLoop(scf::ForOp loop) {
    auto leaf = [&](Value v) { return known(v); };
    std::optional<int64_t> lb = evaluateIndex(loop.getLowerBound(), leaf),
                           ub = evaluateIndex(loop.getUpperBound(), leaf),
                           step = evaluateIndex(loop.getStep(), leaf);
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

  std::optional<int64_t> scalar;
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

/// The work of each point of `parallel` (linearised, first dimension
/// slowest), or none when one is unknown. Each point takes one step of the
/// walk budget too, so sampled walks of loop-free points stay bounded.
std::optional<SmallVector<int64_t>> pointWork(ParallelOp parallel,
                                              PointWork &estimate) {
  ArrayRef<int64_t> extents = parallel.getExtents();
  SmallVector<int64_t> work;
  for (int64_t t = 0, points = parallel.getNumPoints(); t < points; ++t) {
    if (--estimate.budget < 0)
      return std::nullopt;
    SmallVector<int64_t> point(extents.size());
    int64_t rest = t;
    for (int64_t d = static_cast<int64_t>(extents.size()) - 1; d >= 0; --d) {
      point[d] = rest % extents[d];
      rest /= extents[d];
    }
    std::optional<int64_t> w = estimate.of(parallel, point);
    if (!w)
      return std::nullopt;
    work.push_back(*w);
  }
  return work;
}

/// Whether dealing the points of `parallel` over `n` instances in snake
/// order gives the busiest instance less work than contiguous blocks do.
/// Work that follows from launch scalars is compared with every scalar
/// set to each of 1 ... 2 x points (a grid-stride loop over P points
/// meets every remainder of its bound modulo P), sharing one walk
/// budget: snake order must be no worse for any value and better for one.
bool dealsInSnakeOrder(ParallelOp parallel, int64_t n) {
  int64_t points = parallel.getNumPoints();
  if (points <= n || points % n != 0)
    return false;
  auto gain = [&](ArrayRef<int64_t> work) {
    return busiest(work, n, /*snake=*/false) - busiest(work, n, /*snake=*/true);
  };
  PointWork exact;
  if (std::optional<SmallVector<int64_t>> work = pointWork(parallel, exact))
    return gain(*work) > 0;
  int64_t budget = exact.budget, best = 0;
  for (int64_t scalar = 1; scalar <= 2 * points; ++scalar) {
    PointWork sampled(scalar);
    sampled.budget = budget;
    std::optional<SmallVector<int64_t>> work = pointWork(parallel, sampled);
    if (!work || gain(*work) < 0)
      return false;
    best = std::max(best, gain(*work));
    budget = sampled.budget;
  }
  return best > 0;
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
