//===- LaneWork.cpp - The pipeline executions of a lane's grid points ----===//
//
// This file counts the work of a lane instance: the pipeline executions of
// all its grid points, each loop's trip count folded at the point. A unit
// several lanes share serves the lanes with the most work first
// (LaneInterleaving.cpp).
//
//===----------------------------------------------------------------------===//

#include "ProgramBuilder.h"

#include "mlir/Interfaces/SideEffectInterfaces.h"

using namespace mlir;
using namespace mlir::ktdf;
using namespace mlir::ktdf::lowering;

/// The value of integer or index `v` when the values in `known` hold (a
/// grid point's coordinates): side-effect free arith ops folded, memoised in
/// `known`; none when `v` depends on anything else (a loop's induction
/// variable, a runtime argument).
static std::optional<int64_t> foldAt(Value v,
                                     llvm::DenseMap<Value, int64_t> &known) {
  if (auto it = known.find(v); it != known.end())
    return it->second;
  Operation *def = v.getDefiningOp();
  if (!def || !def->getDialect() ||
      def->getDialect()->getNamespace() != "arith" ||
      def->getNumResults() != 1 || def->getNumRegions() || !isPure(def) ||
      !v.getType().isIntOrIndex())
    return std::nullopt;
  SmallVector<Attribute> operands;
  for (Value operand : def->getOperands()) {
    std::optional<int64_t> c = foldAt(operand, known);
    if (!c || !operand.getType().isIntOrIndex())
      return std::nullopt;
    operands.push_back(IntegerAttr::get(operand.getType(), *c));
  }
  SmallVector<OpFoldResult> results;
  if (failed(def->fold(operands, results)) || results.size() != 1)
    return std::nullopt;
  std::optional<int64_t> value;
  if (auto attr = dyn_cast<Attribute>(results[0])) {
    if (auto integer = dyn_cast<IntegerAttr>(attr))
      value = integer.getValue().getSExtValue();
  } else {
    value = foldAt(cast<Value>(results[0]), known);
  }
  if (value)
    known[v] = *value;
  return value;
}

/// The pipeline executions of `block` at the point `known` describes; none
/// when a loop's bounds do not fold there.
static std::optional<int64_t>
executionsIn(Block &block, llvm::DenseMap<Value, int64_t> &known) {
  int64_t total = 0;
  for (Operation &op : block) {
    if (isa<PipelineOp>(op)) {
      ++total;
      continue;
    }
    auto loop = dyn_cast<scf::ForOp>(op);
    if (!loop)
      continue;
    std::optional<int64_t> lb = foldAt(loop.getLowerBound(), known),
                           ub = foldAt(loop.getUpperBound(), known),
                           step = foldAt(loop.getStep(), known);
    std::optional<int64_t> inner = executionsIn(*loop.getBody(), known);
    if (!lb || !ub || !step || *step <= 0 || !inner)
      return std::nullopt;
    total += std::max<int64_t>(0, (*ub - *lb + *step - 1) / *step) * *inner;
  }
  return total;
}

int64_t lowering::pointOfRound(ParallelOp parallel, const LaneInstance &li,
                               int64_t j) {
  // As ProgramBuilder::build's pointOf walks them.
  int64_t n = *parallel.getNumInstances();
  return parallel.getSnake()
             ? j * n + li.start + (j % 2) * (n - 1 - 2 * li.start)
             : li.start + j;
}

/// The coordinates of linear grid point `t` of `parallel`.
static llvm::DenseMap<Value, int64_t> coordinatesOf(ParallelOp parallel,
                                                    int64_t t) {
  Block &body = parallel.getBody().front();
  llvm::DenseMap<Value, int64_t> known;
  int64_t stride = parallel.getNumPoints();
  for (auto [d, extent] : llvm::enumerate(parallel.getExtents())) {
    stride /= extent;
    known[body.getArgument(d)] = t / stride % extent;
  }
  return known;
}

std::optional<int64_t> lowering::tripsAtPoint(ParallelOp parallel,
                                              scf::ForOp loop, int64_t t) {
  llvm::DenseMap<Value, int64_t> known = coordinatesOf(parallel, t);
  std::optional<int64_t> lb = foldAt(loop.getLowerBound(), known),
                         ub = foldAt(loop.getUpperBound(), known),
                         step = foldAt(loop.getStep(), known);
  if (!lb || !ub || !step || *step <= 0)
    return std::nullopt;
  return std::max<int64_t>(0, (*ub - *lb + *step - 1) / *step);
}

std::optional<int64_t>
ProgramBuilder::executionsOf(const LaneInstance &li) const {
  ParallelOp parallel = kernel.parallel;
  int64_t total = 0;
  for (int64_t j = 0; j < li.count; ++j) {
    llvm::DenseMap<Value, int64_t> known =
        coordinatesOf(parallel, pointOfRound(parallel, li, j));
    std::optional<int64_t> executions =
        executionsIn(parallel.getBody().front(), known);
    if (!executions)
      return std::nullopt;
    total += *executions;
  }
  return total;
}
