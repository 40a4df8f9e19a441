//===- ShareLeftOperands.cpp - Computed left operands over idle lanes -----===//
//
// This file implements --ktdf-share-left-operands. A gated FFN walks its
// hidden dimension in one loop per grid point: each trip computes a gate
// G_j from loads (two up projections, SiLU, product) and accumulates
// G_j . W2_j into the output block the loop carries. With fewer grid points
// than instances, ktdf-split-output-blocks cannot cut the output block into
// column slices (each copy would compute every G_j again), and cutting the
// hidden loop into partial sums changes the numerics: the kernel rounds its
// accumulator once per trip. This pass makes it two phases instead:
//
//   1. copy c of each point computes G_j for trips c, c + S, ... and
//      stores it into its part of an exchange view (trip-major, so a trip's
//      gate is one contiguous block) zeroed before;
//   2. an all-reduce (`arith.addf`) over the point's S copies fills every
//      copy's view with all the gates (x + 0 is x: an all-gather);
//   3. the loop itself then loads G_j from the view, and every tensor
//      flowing into the stores is cut into S column slices as
//      ktdf-split-output-blocks cuts them (OutputSlices.h): copy c
//      accumulates its columns over all trips in the kernel's order.
//
// A point whose gate has fewer rows than the lane's matrix unit would pad
// every product to the unit's rows, however many copies share the gates:
// F consecutive points are merged into one of the unit's rows first
// (MergeGridPoints.h) where the merged points' copies keep as many
// instances busy, and each copy computes a gate in F parts of its columns
// (GateColumns.h), so that the larger exchange view and the parts' right
// operands fit the scratchpad the unmerged trips took.
//
// Each gate is computed once, by one copy, from the same operands as in
// the kernel; each output element is accumulated by one copy in the
// kernel's trip order: the results are bit-exact. When the loop's upper
// bound is known only at run time, the view holds the T trips whose right
// operand starts inside its view and one more: past them every load of
// the trip lies outside its view (reads zeros) and the loop variable
// feeds nothing but those loads, so every later trip computes trip T's
// gate, which they all read.
//
//===----------------------------------------------------------------------===//

#include "GateColumns.h"
#include "InterTile.h"
#include "MergeGridPoints.h"
#include "OutputSlices.h"
#include "ScratchpadViews.h"
#include "SharePlan.h"
#include "TileSlices.h"

#include "ktflow/Dialect/KTDF/IR/KTDF.h"
#include "ktflow/Dialect/KTDF/Transforms/Passes.h"
#include "ktflow/Dialect/KTDP/IR/KTDP.h"
#include "ktflow/Dialect/KTDP/Utils/IntegerSetAnalysis.h"
#include "ktflow/Dialect/KTDP/Utils/LaunchGrid.h"
#include "ktflow/Scheduler/ScheduleTarget.h"
#include "ktflow/Scheduler/ScheduleTargetPass.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/SetVector.h"

namespace mlir::ktdf {
#define GEN_PASS_DEF_KTDFSHARELEFTOPERANDS
#include "ktflow/Dialect/KTDF/Transforms/Passes.h.inc"
} // namespace mlir::ktdf

using namespace mlir;
using namespace mlir::ktdf;

/// The anchor row of trip `iv`'s gate in the trip-major exchange view
/// (with `clamp`, of the view's last trip for trips past it).
static Value gateRow(OpBuilder &b, Location loc, const SharePlan &plan,
                     Value iv, int64_t rows, bool clamp = false) {
  auto constant = [&](int64_t v) {
    return arith::ConstantIndexOp::create(b, loc, v);
  };
  Value trip = iv;
  if (plan.lb != 0)
    trip = arith::SubIOp::create(b, loc, trip, constant(plan.lb));
  if (plan.step != 1)
    trip = arith::DivUIOp::create(b, loc, trip, constant(plan.step));
  if (clamp)
    trip = arith::MinUIOp::create(b, loc, trip, constant(plan.trips - 1));
  return arith::MulIOp::create(b, loc, trip, constant(rows));
}

/// The `rows` x `cols` tile of `view` at row `row`.
static Value gateTile(OpBuilder &b, Location loc, Value view, Value row,
                      ArrayRef<int64_t> shape) {
  MLIRContext *ctx = b.getContext();
  AffineMap base = AffineMap::get(
      1, 0, {getAffineDimExpr(0, ctx), getAffineConstantExpr(0, ctx)}, ctx);
  return ktdp::ConstructAccessTileOp::create(
      b, loc, ktdp::AccessTileType::get(ctx, shape), view, ValueRange{row},
      ValueRange{}, AffineMapAttr::get(base),
      IntegerSetAttr::get(ktdp::getBoxSet(shape, ctx)),
      AffineMapAttr::get(AffineMap::getMultiDimIdentityMap(2, ctx)));
}

/// Phase 1 before the loop: this copy's gates (trips c, c + copies, ...
/// up to `upper`) stored into the exchange `view`, on tensors of their own
/// (a load also used by what is sliced later stays whole here).
static void computeGates(OpBuilder &b, SharePlan &plan, Value copy,
                         int64_t copies, Value upper, Value view) {
  Location loc = plan.loop.getLoc();
  auto constant = [&](int64_t v) {
    return arith::ConstantIndexOp::create(b, loc, v);
  };
  auto leftType = cast<RankedTensorType>(plan.product.getInputs()[0].getType());
  IRMapping outside;
  for (Operation *op : plan.outside)
    b.clone(*op, outside);
  Value first = arith::AddIOp::create(
      b, loc, constant(plan.lb),
      arith::MulIOp::create(b, loc, copy, constant(plan.step)));
  auto compute =
      scf::ForOp::create(b, loc, first, upper, constant(plan.step * copies));
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPoint(compute.getBody()->getTerminator());
  IRMapping map = outside;
  map.map(plan.loop.getInductionVar(), compute.getInductionVar());
  if (plan.parts == 1) {
    for (Operation *op : plan.slice)
      b.clone(*op, map);
    Value row = gateRow(b, loc, plan, compute.getInductionVar(),
                        leftType.getDimSize(0));
    ktdp::StoreOp::create(b, loc, map.lookup(plan.product.getInputs()[0]),
                          gateTile(b, loc, view, row, leftType.getShape()));
    return;
  }
  Value row =
      gateRow(b, loc, plan, compute.getInductionVar(), leftType.getDimSize(0));
  Value whole = gateTile(b, loc, view, row, leftType.getShape());
  // Part by part: the scratchpad holds a part of each right operand.
  int64_t width = leftType.getDimSize(1) / plan.parts;
  auto part = scf::ForOp::create(
      b, loc, constant(0), constant(leftType.getDimSize(1)), constant(width));
  b.setInsertionPoint(part.getBody()->getTerminator());
  Value gate = cloneGateColumns(b, plan.slice, plan.columns, map,
                                plan.product.getInputs()[0],
                                part.getInductionVar(), width);
  ktdp::StoreOp::create(
      b, loc, gate, buildColumnSlice(b, whole, part.getInductionVar(), width));
}

/// The all-reduce groups: the copies of each of `points` grid points, tile
/// ids p + points * c (the interpreter's numbering, first grid dimension
/// fastest).
static ArrayAttr exchangeGroups(OpBuilder &b, int64_t points, int64_t copies) {
  SmallVector<Attribute> groups;
  for (int64_t p = 0; p < points; ++p) {
    SmallVector<int64_t> members;
    for (int64_t c = 0; c < copies; ++c)
      members.push_back(p + points * c);
    groups.push_back(b.getDenseI64ArrayAttr(members));
  }
  return b.getArrayAttr(groups);
}

/// Rewrites `func` around `plan` for `copies` copies per grid point (see
/// the file comment); returns the copy's number.
static FailureOr<Value> share(func::FuncOp func, SharePlan &plan,
                              ArrayRef<int64_t> grid, int64_t copies) {
  scf::ForOp loop = plan.loop;
  Location loc = loop.getLoc();
  Value copy = addGridDimension(func, ktdp::getGridOwner(func), grid, copies);
  auto leftType = cast<RankedTensorType>(plan.product.getInputs()[0].getType());
  int64_t rows = leftType.getDimSize(0);
  auto viewType = RankedTensorType::get(
      {plan.trips * rows, leftType.getDimSize(1)}, leftType.getElementType());
  ScratchpadCursor cursor(func);
  Value gates =
      createScratchpadTile(func, cursor, viewType, loc, kExchangeViewAttrName);
  int64_t chunk = (viewType.getNumElements() + copies - 1) / copies;
  Value received = createScratchpadTile(
      func, cursor,
      RankedTensorType::get({(copies - 1) * chunk}, leftType.getElementType()),
      loc, kExchangeViewAttrName);
  Value view = ktdp::getAccessTileView(gates).getResult();

  OpBuilder b(loop);
  auto constant = [&](int64_t v) {
    return arith::ConstantIndexOp::create(b, loc, v);
  };
  Value upper = loop.getUpperBound();
  if (plan.clamped)
    upper = arith::MinSIOp::create(b, loc, upper,
                                   constant(plan.lb + plan.trips * plan.step));
  // The view starts zeroed: the all-reduce adds the copies' views.
  Value zeros = arith::ConstantOp::create(
      b, loc, viewType,
      SplatElementsAttr::get(viewType,
                             b.getZeroAttr(viewType.getElementType())));
  auto zeroStore = ktdp::StoreOp::create(b, loc, zeros, gates);
  computeGates(b, plan, copy, copies, upper, view);
  // Phase 2: the copies of each point exchange their gates.
  ArrayAttr groups = exchangeGroups(b, ktdp::getNumTiles(grid), copies);
  auto exchange =
      AllReduceOp::create(b, loc, view, ktdp::getAccessTileView(received),
                          b.getStringAttr("arith.addf"), groups, IntegerAttr(),
                          IntegerAttr(), IntegerAttr());
  // Phase 3: the loop reads each trip's gate from the view (the last one
  // for the trips past it).
  b.setInsertionPoint(plan.product);
  Value row = gateRow(b, loc, plan, loop.getInductionVar(), rows, plan.clamped);
  auto gate = ktdp::LoadOp::create(
      b, loc, leftType, gateTile(b, loc, view, row, leftType.getShape()));
  plan.product.getInputsMutable()[0].assign(gate);
  for (Operation *op : llvm::reverse(plan.slice))
    if (op->use_empty())
      op->erase();
  // What the loop's block computed before the exchange and uses after it
  // (the accumulator's initial value, a residual's load) is computed again
  // after it: a compute group lies on one side of an exchange.
  std::pair<Operation *, std::string> why;
  if (failed(recomputeAfter(zeroStore, exchange, func, why)))
    return failure();
  return copy;
}

namespace {
struct ShareLeftOperandsPass
    : public ktflow::sched::WithScheduleTarget<
          ktdf::impl::KTDFShareLeftOperandsBase<ShareLeftOperandsPass>> {
  using Base::Base;

  /// The copies per grid point for `func`, 1 when none.
  int64_t chooseCopies(const ktflow::sched::ScheduleTarget &target,
                       int64_t points, int64_t columns) const {
    // The all-reduce needs each copy of a point on a core of its own.
    int64_t idle = target.getNumLaneInstances(useLanes) / points;
    idle = std::min<int64_t>(idle, target.getNumCores());
    if (maxFactor > 0)
      idle = std::min<int64_t>(idle, maxFactor);
    int64_t copies = 1;
    while (copies * 2 <= idle && columns % (copies * 2) == 0 &&
           columns / (copies * 2) >= minColumns)
      copies *= 2;
    return copies;
  }

  /// Whether `func` (in a module of its own) shares its loop's left
  /// operands with `copies` copies, each gate computed in `parts` parts of
  /// its columns, and slices what flows into the stores.
  static LogicalResult apply(func::FuncOp func, int64_t copies, int64_t parts) {
    auto grid = ktdp::getLaunchGrid(func);
    if (failed(grid) || !*grid)
      return failure();
    for (auto loop : func.getBody().front().getOps<scf::ForOp>()) {
      FailureOr<SharePlan> plan = planSharing(loop);
      if (failed(plan))
        continue;
      if (parts > 1) {
        FailureOr<llvm::SetVector<Value>> columns =
            findGateColumns(plan->slice, plan->product.getInputs()[0]);
        if (failed(columns))
          return failure();
        plan->parts = parts;
        plan->columns = std::move(*columns);
      }
      FailureOr<Value> copy = share(func, *plan, **grid, copies);
      if (failed(copy))
        return failure();
      OutputSlicePlan slices;
      if (failed(slices.build(func)) || slices.getColumns() % copies != 0)
        return failure();
      sliceColumns(func, slices, *copy, copies);
      // What the exchange made dead before it (the accumulator's initial
      // value and loads computed again after it).
      Block &top = func.getBody().front();
      for (Operation &op : llvm::make_early_inc_range(llvm::reverse(top)))
        if (op.getNumResults() > 0 && op.use_empty() &&
            (isa<ktdp::LoadOp>(op) || isMemoryEffectFree(&op)))
          op.erase();
      return success();
    }
    return failure();
  }

  void runOnOperation() override {
    ModuleOp module = getOperation();
    if (!module.walk([](linalg::MatmulOp) { return WalkResult::interrupt(); })
             .wasInterrupted())
      return markAllAnalysesPreserved();
    const ktflow::sched::ScheduleTarget *target = requireScheduleTarget();
    if (!target)
      return;
    // The exchange needs an interconnect, a scratchpad per core and one
    // copy per lane.
    if (target->getRoofline().getInterconnects().empty() ||
        !target->getLocalMemory())
      return;
    for (auto func : llvm::to_vector(module.getOps<func::FuncOp>())) {
      FailureOr<std::optional<SmallVector<int64_t>>> grid =
          ktdp::getLaunchGrid(func);
      if (func.isExternal() || failed(grid) || !*grid ||
          func->walk([](Operation *op) {
                return isa<ktdp::InterTileProduceOp,
                           ktdp::ConstructIndirectAccessTileOp, scf::IfOp,
                           scf::WhileOp>(op)
                           ? WalkResult::interrupt()
                           : WalkResult::advance();
              })
              .wasInterrupted())
        continue;
      int64_t columns = 0, rows = 0, width = 0;
      for (auto loop : func.getBody().front().getOps<scf::ForOp>())
        if (FailureOr<SharePlan> plan = planSharing(loop); succeeded(plan)) {
          columns =
              cast<RankedTensorType>(loop.getResult(0).getType()).getDimSize(1);
          auto gate =
              cast<RankedTensorType>(plan->product.getInputs()[0].getType());
          rows = gate.getDimSize(0);
          width = gate.getDimSize(1);
        }
      if (!columns)
        continue;
      int64_t points = ktdp::getNumTiles(**grid);
      int64_t copies = chooseCopies(*target, points, columns);
      // Try on a copy of the module first: the rewrite is only kept when
      // the points merge and every tensor reaching a store can be sliced
      // afterwards.
      // Merging F points makes the exchanged gates F times as large: each
      // gate is then computed in F parts of its columns, so the right
      // operands a part loads (the largest loads of a trip) take 1/F of
      // the scratchpad they took.
      auto share = [&](int64_t merge, int64_t copies) {
        int64_t parts = width % merge == 0 ? merge : 1;
        OwningOpRef<ModuleOp> trial = module.clone();
        auto trialFunc = trial->lookupSymbol<func::FuncOp>(func.getSymName());
        auto attempt = [&](func::FuncOp f) {
          return (merge == 1 || succeeded(mergeGridPoints(f, **grid, merge))) &&
                 succeeded(apply(f, copies, parts));
        };
        return trialFunc && attempt(trialFunc) && attempt(func);
      };
      // Fewer rows a point than the matrix unit has leave the rest of it
      // idle on every product: merge points up to its rows where that
      // keeps as many instances busy.
      int64_t merge = mergePoints ? matrixRowsFactor(*target, rows) : 1;
      if (merge > 1 && points % merge == 0) {
        int64_t merged = chooseCopies(*target, points / merge, columns);
        if (merged > 1 && points / merge * merged >= points * copies &&
            share(merge, merged)) {
          // What compile() looks for when the scratchpad is over capacity.
          func->setAttr(
              kMergedPoints,
              IntegerAttr::get(IntegerType::get(&getContext(), 64), merge));
          continue;
        }
      }
      if (copies > 1)
        (void)share(1, copies);
    }
  }
};
} // namespace
