//===- StoreOverlaps.cpp - Stores of executions that write one element ----===//
//
// This file implements the check of ktdf-check-supported on stores that
// different executions make to the same elements: grid points and loop
// iterations run concurrently on the device with nothing ordering their
// stores through device memory, so when two of them write one element with
// different values, what the memory keeps depends on timing, while the
// reference interpreter, which runs them in order, keeps the last. Where
// every grid point's loops have bounds that follow from tile ids and
// constants, the check enumerates every execution of every store of a view
// (up to a budget) and refuses the kernel when two footprints intersect
// inside the view, naming both writers. Where it cannot decide (bounds from
// runtime scalars), the simulator detects the race at run time
// (docs/simulator.md).
//
//===----------------------------------------------------------------------===//

#include "IndexAnalysis.h"
#include "MemoryHazards.h"

#include "ktflow/Dialect/KTDF/Transforms/TileBounds.h"
#include "ktflow/Dialect/KTDP/IR/KTDP.h"
#include "ktflow/Dialect/KTDP/IR/ScratchpadView.h"
#include "ktflow/Dialect/KTDP/Utils/IntegerSetAnalysis.h"
#include "ktflow/Dialect/KTDP/Utils/LaunchGrid.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Matchers.h"
#include "llvm/ADT/SmallPtrSet.h"

using namespace mlir;
using namespace mlir::ktdf;

namespace {
/// One execution of a store: a grid point and the values of the loops
/// around the store, outermost first.
struct Execution {
  SmallVector<int64_t, 3> grid;
  llvm::SmallDenseMap<Value, int64_t, 4> ivs;
};

/// The elements one execution of a store writes: a box of view coordinates.
struct Footprint {
  ktdp::StoreOp store;
  Execution at;
  SmallVector<int64_t, 4> lo, hi;
};

/// Grid points, loop iterations and executions beyond this many per view
/// are not enumerated (undecided).
constexpr size_t kMaxSteps = size_t(1) << 15;
} // namespace

/// The value of index or i1 `v` in execution `at`, when it follows from
/// tile ids, loop variables and constants.
static std::optional<int64_t> evaluate(Value v, const Execution &at) {
  return evaluateIndex(v, [&](Value leaf) -> std::optional<int64_t> {
    if (isa<BlockArgument>(leaf)) {
      auto it = at.ivs.find(leaf);
      return it == at.ivs.end() ? std::nullopt
                                : std::optional<int64_t>(it->second);
    }
    if (isa_and_nonnull<ktdp::GetComputeTileIdOp>(leaf.getDefiningOp())) {
      unsigned d = cast<OpResult>(leaf).getResultNumber();
      return d < at.grid.size() ? std::optional<int64_t>(at.grid[d])
                                : std::nullopt;
    }
    return std::nullopt;
  });
}

namespace {
/// Enumerates the executions of one store, each grid point's loops and
/// branches evaluated; fails when a bound or condition is undecided or the
/// budget runs out.
class Enumerator {
public:
  Enumerator(ktdp::StoreOp store, func::FuncOp func) : store(store) {
    for (Operation *p = store->getParentOp(); p && p != func;
         p = p->getParentOp())
      nest.insert(nest.begin(), p);
  }

  /// Every grid point, loop iteration and execution costs one unit of
  /// `budget`, so that a huge grid or a loop around a store that rarely
  /// runs ends the enumeration as early as many stores do.
  LogicalResult run(ArrayRef<int64_t> grid, size_t &budget,
                    function_ref<void(const Execution &)> visit) {
    Execution at;
    at.grid.assign(grid.size(), 0);
    if (llvm::any_of(grid, [](int64_t extent) { return extent <= 0; }))
      return failure();
    for (bool more = true; more;) {
      if (budget-- == 0 || failed(walk(0, at, budget, visit)))
        return failure();
      // The next grid point, the first coordinate fastest.
      more = false;
      for (size_t d = 0; d < grid.size() && !more; ++d) {
        more = ++at.grid[d] < grid[d];
        if (!more)
          at.grid[d] = 0;
      }
    }
    return success();
  }

private:
  LogicalResult walk(size_t level, Execution &at, size_t &budget,
                     function_ref<void(const Execution &)> visit) {
    if (level == nest.size()) {
      if (budget-- == 0)
        return failure();
      visit(at);
      return success();
    }
    Operation *op = nest[level];
    if (auto branch = dyn_cast<scf::IfOp>(op)) {
      std::optional<int64_t> taken = evaluate(branch.getCondition(), at);
      if (!taken)
        return failure();
      Region &region = *taken ? branch.getThenRegion() : branch.getElseRegion();
      if (!region.isAncestor(store->getParentRegion()))
        return success();
      return walk(level + 1, at, budget, visit);
    }
    auto loop = dyn_cast<scf::ForOp>(op);
    if (!loop)
      return failure();
    std::optional<int64_t> lb = evaluate(loop.getLowerBound(), at),
                           ub = evaluate(loop.getUpperBound(), at),
                           step = evaluate(loop.getStep(), at);
    if (!lb || !ub || !step || *step <= 0)
      return failure();
    Value iv = loop.getInductionVar();
    for (int64_t i = *lb; i < *ub;) {
      at.ivs[iv] = i;
      if (budget-- == 0 || failed(walk(level + 1, at, budget, visit)))
        return failure();
      if (__builtin_add_overflow(i, *step, &i))
        break;
    }
    at.ivs.erase(iv);
    return success();
  }

  ktdp::StoreOp store;
  SmallVector<Operation *> nest;
};
} // namespace

/// The tile ids and loop variables the value `store` writes is computed
/// from (through operands, loads included: a loaded tile changes with its
/// anchor).
static SmallVector<Value> inputsOf(ktdp::StoreOp store) {
  SmallVector<Value> inputs, work{store->getOperand(0)};
  llvm::SmallPtrSet<Value, 32> seen;
  while (!work.empty()) {
    Value x = work.pop_back_val();
    if (!seen.insert(x).second)
      continue;
    if (isa<BlockArgument>(x) || x.getDefiningOp<ktdp::GetComputeTileIdOp>())
      inputs.push_back(x);
    else if (Operation *def = x.getDefiningOp())
      llvm::append_range(work, def->getOperands());
  }
  return inputs;
}

/// Whether two overlapping footprints may leave different values: not when
/// the same value lands on the same elements and does not depend on what
/// differs between the two executions.
static bool mayDiffer(const Footprint &a, const Footprint &b,
                      ArrayRef<Value> inputs) {
  if (a.lo != b.lo || a.hi != b.hi ||
      a.store->getOperand(0) != b.store->getOperand(0))
    return true;
  return llvm::any_of(inputs, [&](Value v) {
    if (auto id = v.getDefiningOp<ktdp::GetComputeTileIdOp>()) {
      unsigned d = cast<OpResult>(v).getResultNumber();
      return d < a.at.grid.size() && a.at.grid[d] != b.at.grid[d];
    }
    // A loop variable changes with its iteration, a carried value with
    // every execution; a kernel argument is the same everywhere.
    if (a.at.ivs.count(v))
      return a.at.ivs.lookup(v) != b.at.ivs.lookup(v);
    return !isa<func::FuncOp>(cast<BlockArgument>(v).getOwner()->getParentOp());
  });
}

/// The footprint of `store` in execution `at`, clipped to the view's
/// `extents`; none when every element is masked.
static std::optional<Footprint> footprintOf(ktdp::StoreOp store,
                                            const Execution &at,
                                            const ktdp::IntegerBox &box,
                                            ArrayRef<int64_t> extents) {
  auto tile = store->getOperand(1).getDefiningOp<ktdp::ConstructAccessTileOp>();
  SmallVector<int64_t> indices;
  for (Value index : tile.getIndices()) {
    std::optional<int64_t> value = evaluate(index, at);
    if (!value)
      return std::nullopt;
    indices.push_back(*value);
  }
  Footprint f{store, at, {}, {}};
  for (auto [r, expr] : llvm::enumerate(tile.getBaseMap().getResults())) {
    std::optional<int64_t> anchor = ktdp::evaluateAffineExpr(expr, indices, {});
    if (!anchor)
      return std::nullopt;
    f.lo.push_back(std::max<int64_t>(*anchor + box.lower[r], 0));
    f.hi.push_back(std::min<int64_t>(*anchor + box.upper[r], extents[r] - 1));
    if (f.lo.back() > f.hi.back())
      return std::nullopt;
  }
  return f;
}

/// "grid point (3, 0), loop values (67, 0)".
static std::string describe(const Execution &at, ktdp::StoreOp store) {
  std::string text = "grid point (";
  llvm::raw_string_ostream os(text);
  llvm::interleaveComma(at.grid, os);
  os << ")";
  SmallVector<int64_t> loops;
  for (Operation *p = store->getParentOp(); p; p = p->getParentOp())
    if (auto loop = dyn_cast<scf::ForOp>(p))
      loops.insert(loops.begin(), at.ivs.lookup(loop.getInductionVar()));
  if (!loops.empty()) {
    os << (loops.size() == 1 ? ", loop value " : ", loop values (");
    llvm::interleaveComma(loops, os);
    if (loops.size() > 1)
      os << ")";
  }
  return text;
}

/// The footprints of every store through `view` in every execution, when
/// they are all decided within the budget.
static std::optional<std::vector<Footprint>>
footprintsOf(ktdp::ConstructMemoryViewOp view, ArrayRef<ktdp::StoreOp> stores,
             ArrayRef<int64_t> grid, func::FuncOp func) {
  SmallVector<int64_t> extents;
  for (unsigned d = 0; d < view.getStaticStrides().size(); ++d) {
    std::optional<int64_t> extent = staticViewExtent(view, d);
    if (!extent)
      return std::nullopt;
    extents.push_back(*extent);
  }
  std::vector<Footprint> footprints;
  size_t budget = kMaxSteps;
  for (ktdp::StoreOp store : stores) {
    auto tile =
        store->getOperand(1).getDefiningOp<ktdp::ConstructAccessTileOp>();
    if (!tile || tile.getBaseMap().getNumResults() != extents.size())
      return std::nullopt;
    FailureOr<ktdp::IntegerBox> box =
        ktdp::getBoundingBox(tile.getAccessTileSet(), {});
    if (failed(box) || box->lower.size() != extents.size())
      return std::nullopt;
    bool undecided = false;
    Enumerator walker(store, func);
    if (failed(walker.run(grid, budget,
                          [&](const Execution &at) {
                            if (undecided)
                              return;
                            // A store whose anchor is undecided leaves the
                            // whole view so.
                            auto tileIndicesKnown =
                                llvm::all_of(tile.getIndices(), [&](Value i) {
                                  return evaluate(i, at).has_value();
                                });
                            if (!tileIndicesKnown) {
                              undecided = true;
                              return;
                            }
                            if (auto f = footprintOf(store, at, *box, extents))
                              footprints.push_back(std::move(*f));
                          })) ||
        undecided)
      return std::nullopt;
  }
  return footprints;
}

/// The first two footprints that share an element and may leave different
/// values there, by a sweep along the dimension where they are most spread
/// out.
static std::optional<std::pair<const Footprint *, const Footprint *>>
findRace(std::vector<Footprint> &footprints) {
  if (footprints.empty())
    return std::nullopt;
  size_t sweep = 0, mostStarts = 0;
  for (size_t d = 0; d < footprints.front().lo.size(); ++d) {
    std::vector<int64_t> starts;
    for (const Footprint &f : footprints)
      starts.push_back(f.lo[d]);
    llvm::sort(starts);
    size_t distinct =
        std::unique(starts.begin(), starts.end()) - starts.begin();
    if (distinct > mostStarts)
      std::tie(sweep, mostStarts) = std::make_pair(d, distinct);
  }
  llvm::sort(footprints, [&](const Footprint &a, const Footprint &b) {
    return a.lo[sweep] < b.lo[sweep];
  });
  llvm::DenseMap<Operation *, SmallVector<Value>> inputs;
  for (const Footprint &f : footprints)
    if (!inputs.count(f.store))
      inputs[f.store] = inputsOf(f.store);
  std::vector<const Footprint *> active;
  for (const Footprint &f : footprints) {
    llvm::erase_if(
        active, [&](const Footprint *a) { return a->hi[sweep] < f.lo[sweep]; });
    bool repeated = false;
    for (const Footprint *a : active) {
      bool meet = true;
      for (size_t d = 0; d < f.lo.size() && meet; ++d)
        meet = a->lo[d] <= f.hi[d] && f.lo[d] <= a->hi[d];
      if (!meet)
        continue;
      if (mayDiffer(*a, f, inputs[f.store]))
        return std::make_pair(a, &f);
      repeated = true;
    }
    // A footprint that repeats an active one adds nothing to compare with.
    if (!repeated)
      active.push_back(&f);
  }
  return std::nullopt;
}

bool mlir::ktdf::checkOverlappingStores(func::FuncOp func) {
  auto grid = ktdp::getLaunchGrid(func);
  if (failed(grid))
    return false;
  SmallVector<int64_t> extents =
      *grid ? SmallVector<int64_t>(**grid) : SmallVector<int64_t>{1};
  llvm::MapVector<Operation *, SmallVector<ktdp::StoreOp>> byView;
  func.walk([&](ktdp::StoreOp store) {
    auto view = ktdp::getAccessTileView(store->getOperand(1));
    // A view at a computed address holds other elements in every
    // execution that computes another address: its coordinates are not the
    // tensor's (left undecided).
    if (!view || !view.getStrides().empty() || viewMayAlias(view) ||
        !(isa<BlockArgument>(view.getOffset()) ||
          matchPattern(view.getOffset(), m_Constant())))
      return;
    if (ktdp::isScratchpadView(view))
      return;
    byView[view].push_back(store);
  });
  bool failed = false;
  for (auto &[viewOp, stores] : byView) {
    auto view = cast<ktdp::ConstructMemoryViewOp>(viewOp);
    std::optional<std::vector<Footprint>> footprints =
        footprintsOf(view, stores, extents, func);
    if (!footprints)
      continue;
    auto race = findRace(*footprints);
    if (!race)
      continue;
    auto [a, b] = *race;
    SmallVector<int64_t> element;
    for (size_t d = 0; d < a->lo.size(); ++d)
      element.push_back(std::max(a->lo[d], b->lo[d]));
    std::string at;
    llvm::raw_string_ostream os(at);
    llvm::interleaveComma(element, os);
    bool sameIterations = llvm::all_of(a->at.ivs, [&](auto iv) {
      return b->at.ivs.lookup(iv.first) == iv.second;
    });
    StringRef writers =
        a->at.grid != b->at.grid ? "stores of different grid points"
        : !sameIterations        ? "stores of different loop iterations"
                                 : "two stores of one execution";
    ktdp::StoreOp later = b->store, earlier = a->store;
    InFlightDiagnostic error =
        later.emitError()
        << writers
        << " write the same elements, which the scheduler does not order "
           "(what the memory keeps would depend on timing): "
        << describe(a->at, a->store) << " and " << describe(b->at, b->store)
        << " both write element [" << at << "] of the view";
    if (a->store != b->store)
      error.attachNote(earlier.getLoc()) << "the other store";
    failed = true;
  }
  return failed;
}
