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
#include "TileSlices.h"

#include "ktflow/Dialect/KTDF/IR/KTDF.h"
#include "ktflow/Dialect/KTDF/Transforms/Passes.h"
#include "ktflow/Dialect/KTDF/Transforms/TileBounds.h"
#include "ktflow/Dialect/KTDP/IR/KTDP.h"
#include "ktflow/Dialect/KTDP/Utils/IntegerSetAnalysis.h"
#include "ktflow/Dialect/KTDP/Utils/LaunchGrid.h"
#include "ktflow/Scheduler/ScheduleTarget.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/SetVector.h"

namespace mlir::ktdf {
#define GEN_PASS_DEF_KTDFSHARELEFTOPERANDS
#include "ktflow/Dialect/KTDF/Transforms/Passes.h.inc"
} // namespace mlir::ktdf

using namespace mlir;
using namespace mlir::ktdf;

namespace {
/// One loop whose product's left operand the copies share.
struct SharePlan {
  scf::ForOp loop;
  linalg::MatmulOp product;
  int64_t lb = 0, step = 1;
  /// Trips whose gates the exchange view holds, from the loop's lower
  /// bound.
  int64_t trips = 0;
  /// The upper bound is known only at run time: the view's last trip
  /// stands for every later one.
  bool clamped = false;
  /// The body's ops that compute the left operand, in program order.
  SmallVector<Operation *> slice;
  /// The tensors defined before the loop that `slice` reads (loads,
  /// constants, empties), in program order.
  SmallVector<Operation *> outside;
  /// Parts of its columns each gate is computed in, and the tensors of
  /// `slice` that hold gate columns when more than one.
  int64_t parts = 1;
  llvm::SetVector<Value> columns;
};
} // namespace

/// The trips of `loop` (from its lower bound by its step) whose tile of
/// `load` may start inside its view: the tile is anchored at the loop
/// variable (plus a constant) along some dimension of static extent.
static std::optional<int64_t> tripsInside(ktdp::LoadOp load, scf::ForOp loop,
                                          const SharePlan &plan) {
  auto tile = load.getAccessTile().getDefiningOp<ktdp::ConstructAccessTileOp>();
  auto view = ktdp::getAccessTileView(load.getAccessTile());
  if (!tile || !view || !tile.getSymbolOperands().empty())
    return std::nullopt;
  std::optional<int64_t> best;
  for (auto [d, result] : llvm::enumerate(tile.getBaseMap().getResults())) {
    int64_t offset = 0;
    AffineExpr expr = result;
    if (auto sum = dyn_cast<AffineBinaryOpExpr>(expr);
        sum && sum.getKind() == AffineExprKind::Add)
      if (auto c = dyn_cast<AffineConstantExpr>(sum.getRHS())) {
        offset = c.getValue();
        expr = sum.getLHS();
      }
    auto dim = dyn_cast<AffineDimExpr>(expr);
    std::optional<int64_t> extent = staticViewExtent(view, d);
    if (!dim ||
        tile.getIndices()[dim.getPosition()] != loop.getInductionVar() ||
        !extent)
      continue;
    // Trip t starts at lb + t * step + offset: inside while below extent.
    int64_t room = *extent - offset - plan.lb;
    int64_t trips = room <= 0 ? 0 : (room + plan.step - 1) / plan.step;
    best = std::min(best.value_or(INT64_MAX), trips);
  }
  return best;
}

/// What `loop` asks of the rewrite, or failure when it does not have the
/// shape (see the file comment).
static FailureOr<SharePlan> analyze(scf::ForOp loop) {
  SharePlan plan;
  plan.loop = loop;
  APInt lb, step;
  if (loop.getNumRegionIterArgs() != 1 ||
      !matchPattern(loop.getLowerBound(), m_ConstantInt(&lb)) ||
      !matchPattern(loop.getStep(), m_ConstantInt(&step)) ||
      lb.getSExtValue() < 0 || step.getSExtValue() <= 0)
    return failure();
  plan.lb = lb.getSExtValue();
  plan.step = step.getSExtValue();
  Block *body = loop.getBody();
  Value acc = loop.getRegionIterArgs()[0];
  auto product = loop.getYieldedValues()[0].getDefiningOp<linalg::MatmulOp>();
  if (!product || product->getBlock() != body || product.hasUserDefinedMaps() ||
      product.getOutputs()[0] != acc || !acc.hasOneUse())
    return failure();
  plan.product = product;
  Value left = product.getInputs()[0];
  auto leftType = dyn_cast<RankedTensorType>(left.getType());
  Operation *leftDef = left.getDefiningOp();
  if (!leftType || leftType.getRank() != 2 || !leftType.hasStaticShape() ||
      !leftDef || leftDef->getBlock() != body ||
      isa<ktdp::LoadOp, arith::ExtFOp>(leftDef))
    return failure();
  auto right = product.getInputs()[1].getDefiningOp<ktdp::LoadOp>();
  if (!right || right->getBlock() != body)
    return failure();

  llvm::SetVector<Operation *> leftOps, rightOps, outside, rightOutside;
  if (failed(collectLoopSlice(left, body, leftOps, outside)) ||
      failed(collectLoopSlice(right, body, rightOps, rightOutside)))
    return failure();
  // Nothing else in the body: the gate's computation, the right operand's
  // load, the product.
  for (Operation &op : body->without_terminator())
    if (&op != product && !leftOps.contains(&op) && !rightOps.contains(&op))
      return failure();
  for (Operation *op : leftOps)
    if (!isa<ktdp::LoadOp>(op) && !isMemoryEffectFree(op))
      return failure();
  for (Operation *op : outside)
    if (op->getBlock() != loop->getBlock() ||
        !isa<ktdp::LoadOp, arith::ConstantOp, tensor::EmptyOp>(op))
      return failure();
  plan.slice.assign(leftOps.begin(), leftOps.end());
  llvm::sort(plan.slice,
             [](Operation *a, Operation *b) { return a->isBeforeInBlock(b); });
  plan.outside.assign(outside.begin(), outside.end());
  llvm::sort(plan.outside,
             [](Operation *a, Operation *b) { return a->isBeforeInBlock(b); });

  // The trips the exchange view holds: all of them for a constant bound,
  // else those whose right operand starts inside its view and one for all
  // later trips.
  APInt ub;
  if (matchPattern(loop.getUpperBound(), m_ConstantInt(&ub))) {
    plan.trips = (ub.getSExtValue() - plan.lb + plan.step - 1) / plan.step;
  } else {
    std::optional<int64_t> inside = tripsInside(right, loop, plan);
    if (!inside)
      return failure();
    plan.trips = *inside + 1;
    plan.clamped = true;
    // Past them, the gate's loads read zeros and the loop variable reaches
    // nothing else: every later trip computes the same gate.
    Value iv = loop.getInductionVar();
    for (Operation *user : iv.getUsers())
      if (leftOps.contains(body->findAncestorOpInBlock(*user)) &&
          !isa<ktdp::ConstructAccessTileOp>(user))
        return failure();
    for (Operation *op : leftOps)
      if (auto load = dyn_cast<ktdp::LoadOp>(op)) {
        auto tile =
            load.getAccessTile().getDefiningOp<ktdp::ConstructAccessTileOp>();
        if (!tile ||
            (llvm::is_contained(tile.getIndices(), iv) &&
             tripsInside(load, loop, plan).value_or(INT64_MAX) > *inside))
          return failure();
      }
  }
  if (plan.trips < 2)
    return failure();
  return plan;
}

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
    : public ktdf::impl::KTDFShareLeftOperandsBase<ShareLeftOperandsPass> {
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
      FailureOr<SharePlan> plan = analyze(loop);
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
    auto &target = getAnalysis<ktflow::sched::ScheduleTarget>();
    if (!target.isValid())
      return signalPassFailure();
    markAnalysesPreserved<ktflow::sched::ScheduleTarget>();
    // The exchange needs an interconnect, a scratchpad per core and one
    // copy per lane.
    if (target.getRoofline().getInterconnects().empty() ||
        !target.getLocalMemory())
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
        if (FailureOr<SharePlan> plan = analyze(loop); succeeded(plan)) {
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
      int64_t copies = chooseCopies(target, points, columns);
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
      int64_t merge = mergePoints ? matrixRowsFactor(target, rows) : 1;
      if (merge > 1 && points % merge == 0) {
        int64_t merged = chooseCopies(target, points / merge, columns);
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
