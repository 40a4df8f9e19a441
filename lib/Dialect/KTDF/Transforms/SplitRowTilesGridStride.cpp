//===- SplitRowTilesGridStride.cpp - Row slices of a grid-stride loop
//------===//
//
// ktdf-split-row-tiles for a loop whose trip count is known only at launch
// (a grid-stride block loop, `scf.for %b = %pid to ceildiv(2n, 64) step
// 2`): the loop keeps its trips and is wrapped in a loop of S row slices,
// each running every trip on its slice of the tiles, which
// ktdf-spread-iterations deals with the trips to the idle instances. A
// copy then runs S times as many trips of 1/S of the rows, each paying
// its transfers' latency: that pays while the point has fewer trips than
// copies (halves_add_dyn n = 80 on mesh_device 1,164 -> 498 cycles) and
// loses when it has many (n = 1000: 2,864 -> 3,632). Which holds depends
// on n, so the sliced loop and the whole loop are both kept, and the trip
// count picks one at run time by the cost model's estimate of each. The
// loop may hold a loop over each row block's column blocks (an m x n
// matrix of run-time sizes, scale_matrix_dyn), which each slice runs.
//
//===----------------------------------------------------------------------===//

#include "Coarsening.h"
#include "IndexAnalysis.h"
#include "MemoryHazards.h"
#include "RowSlicePlan.h"
#include "TileSlices.h"

#include "ktflow/Analysis/LaunchArguments.h"
#include "ktflow/Dialect/KTDF/Transforms/Passes.h"
#include "ktflow/Dialect/KTDP/IR/KTDP.h"
#include "ktflow/Scheduler/CostModel.h"
#include "ktflow/Support/ElementBytes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Matchers.h"
#include "llvm/ADT/EquivalenceClasses.h"

#include <cmath>

using namespace mlir;
using namespace mlir::ktdf;
using ktflow::sched::CoarsenQuery;
using ktflow::sched::Hop;
using ktflow::sched::ScheduleTarget;

LogicalResult RowSlicePlan::addInPlaceTile(ktdp::ConstructAccessTileOp tile) {
  // A tile the loop variable does not place is read whole (a weight), or
  // the plan fails at its load.
  if (!llvm::any_of(tile->getOperands(), [&](Value v) {
        return dependsOn(v, [&](Value of) { return of == iv; });
      }))
    return success();
  auto shape = cast<ktdp::AccessTileType>(tile.getType()).getShape();
  ktdp::ConstructMemoryViewOp view = ktdp::getAccessTileView(tile);
  auto space =
      view ? ktdp::normalizeMemorySpace(view.getMemorySpace()) : std::nullopt;
  // Blocks of rows only: a vector's blocks (vector_add_1048576's 1024
  // elements) are as many trips as rows, which the trips spread already.
  Operation *parent = tile->getParentOp();
  bool inColumnLoop = isa<scf::ForOp>(parent) && parent->getParentOp() == loop;
  if ((parent != loop && !inColumnLoop) || !isSliceableTile(tile) ||
      shape.size() != 2 || !space || space->kind != ktdp::MemoryKind::global)
    return failure();
  // The column loop's trips of one row block keep their rows: a slice then
  // holds the same rows of each, and runs them in their order.
  if (inColumnLoop) {
    std::optional<int64_t> down =
        anchorCoefficient(tile, 0, cast<scf::ForOp>(parent).getInductionVar());
    if (!down || *down != 0)
      return failure();
  }
  if (rows == 0)
    rows = shape.front();
  if (shape.front() != rows)
    return failure();
  tiles.insert(tile);
  return addTileData(tile, [&](Value v) { return add(v); });
}

/// The tensor argument a view of device memory starts in, if known.
static Value viewArgument(ktdp::ConstructMemoryViewOp view) {
  std::optional<ktflow::ViewAddress> address =
      view ? ktflow::getViewAddress(view.getOffset()) : std::nullopt;
  return address ? Value(address->argument) : Value();
}

/// Cut in place, the slices of one row run in another order than the
/// trips: each store must write other places on every trip (its tile moves
/// with the loop variable), and no trip may read a tensor the loop writes.
LogicalResult RowSlicePlan::checkInPlaceStores() {
  llvm::SmallDenseSet<Value> written;
  WalkResult stores = loop.getBody()->walk([&](ktdp::StoreOp store) {
    auto tile =
        store.getAccessTile().getDefiningOp<ktdp::ConstructAccessTileOp>();
    Value argument =
        tile ? viewArgument(ktdp::getAccessTileView(tile)) : Value();
    auto movesWith = [&](Value var) {
      return llvm::any_of(
          llvm::seq<unsigned>(0, tile.getBaseMap().getNumResults()),
          [&](unsigned r) {
            std::optional<int64_t> c = anchorCoefficient(tile, r, var);
            return c && *c != 0;
          });
    };
    // One in the column loop writes other places on each of its trips too.
    bool moves = tile && movesWith(iv) &&
                 (!columnLoop || !columnLoop->isAncestor(store) ||
                  movesWith(columnLoop.getInductionVar()));
    if (!argument || !moves)
      return WalkResult::interrupt();
    written.insert(argument);
    return WalkResult::advance();
  });
  if (stores.wasInterrupted())
    return failure();
  WalkResult loads = loop.getBody()->walk([&](ktdp::LoadOp load) {
    Value argument =
        viewArgument(ktdp::getAccessTileView(load.getAccessTile()));
    return argument && !written.contains(argument) ? WalkResult::advance()
                                                   : WalkResult::interrupt();
  });
  return failure(loads.wasInterrupted());
}

/// Wraps `loop` in `scf.for %s = 0 to slices`, whose trip `s` runs every
/// trip of `loop` on row slice `s` of its tiles (rows `s * R/slices`
/// onwards of each, the parts' markings kept): ktdf-spread-iterations
/// deals the slices, a constant trip count, to the idle instances.
static void sliceRowsInPlace(scf::ForOp loop, const RowSlicePlan &plan,
                             int64_t slices) {
  int64_t rows = plan.getRows() / slices;
  OpBuilder b(loop);
  Location loc = loop.getLoc();
  auto outer =
      scf::ForOp::create(b, loc, arith::ConstantIndexOp::create(b, loc, 0),
                         arith::ConstantIndexOp::create(b, loc, slices),
                         arith::ConstantIndexOp::create(b, loc, 1));
  loop->moveBefore(outer.getBody()->getTerminator());
  b.setInsertionPoint(loop);
  Value first =
      arith::MulIOp::create(b, loc, outer.getInductionVar(),
                            arith::ConstantIndexOp::create(b, loc, rows));
  sliceValues(loop, plan, rows,
              [&](OpBuilder &b, ktdp::ConstructAccessTileOp tile) {
                Value slice = buildDimSlice(b, tile, 0, first, rows);
                slice.getDefiningOp()->setDiscardableAttrs(
                    tile->getDiscardableAttrDictionary());
                return slice;
              });
}

namespace {
/// The estimated cycles of a lane running R trips of a loop, one after the
/// other: `first + (R - 1) * next`.
struct TripCycles {
  int64_t first = 0, next = 0;
};

/// What one pipeline of a trip loads and stores (bytes of each tile) and
/// computes (cycles on a lane), and how many such pipelines a trip runs.
struct TripWork {
  SmallVector<int64_t> loads, stores;
  double compute = 0;
  int64_t pipelines = 1, executions = 1;
};
} // namespace

/// What one trip of `loop` moves and computes with the plan's tiles and
/// tensors cut to `rows` rows (a tensor of other rows, a weight, counts
/// whole): each op on tensors is charged its elements over the lane's SIMD
/// lanes for its type. Ops joined by no tensor (the two parts of a block
/// that straddles a distributed view's cut) become pipelines of their
/// own, which a lane runs one after the other: the work is the largest
/// one's, the trip as many times it.
static TripWork tripWork(scf::ForOp loop, const RowSlicePlan &plan,
                         const ScheduleTarget &target, int64_t rows) {
  auto cut = [&](ShapedType type) {
    int64_t elements = type.getNumElements();
    return type.getRank() > 0 && type.getDimSize(0) == plan.getRows()
               ? elements / plan.getRows() * rows
               : elements;
  };
  // The body's ops on tensors, grouped by the tensors that join them.
  llvm::EquivalenceClasses<Operation *> groups;
  DenseMap<Operation *, TripWork> work;
  const ktflow::sched::Lane &lane = target.getLanes().front();
  loop.getBody()->walk([&](Operation *op) {
    for (Value operand : op->getOperands())
      if (isa<RankedTensorType>(operand.getType()) && operand.getDefiningOp() &&
          loop->isAncestor(operand.getDefiningOp()))
        groups.unionSets(op, operand.getDefiningOp());
    if (isa<ktdp::LoadOp>(op))
      groups.insert(op);
  });
  auto leader = [&](Operation *op) {
    return groups.contains(op) ? groups.getLeaderValue(op) : op;
  };
  for (ktdp::ConstructAccessTileOp tile : plan.getTiles()) {
    ktdp::ConstructMemoryViewOp view = ktdp::getAccessTileView(tile);
    auto type = cast<ktdp::AccessTileType>(tile.getType());
    auto tensor =
        RankedTensorType::get(type.getShape(), view.getType().getElementType());
    int64_t bytes =
        cut(tensor) * ktflow::bytesPerElement(tensor.getElementType());
    for (Operation *user : tile->getUsers()) {
      if (isa<ktdp::LoadOp>(user))
        work[leader(user)].loads.push_back(bytes);
      if (isa<ktdp::StoreOp>(user))
        work[leader(user)].stores.push_back(bytes);
    }
  }
  loop.getBody()->walk([&](Operation *op) {
    if (isa<ktdp::LoadOp, arith::ConstantOp>(op) || op->getNumResults() != 1)
      return;
    auto type = dyn_cast<RankedTensorType>(op->getResult(0).getType());
    if (!type || !type.hasStaticShape())
      return;
    std::optional<int64_t> simd =
        target.getSimdLanes(lane, type.getElementType());
    work[leader(op)].compute +=
        std::ceil(static_cast<double>(cut(type)) /
                  std::max<int64_t>(simd.value_or(1), 1));
  });
  // A block lies in one part of a distributed view but where it straddles
  // the cut: of the pipelines of its part pieces, one moves the block's
  // bytes, the others' DMAs are masked off.
  int64_t pieces = 0;
  for (ktdp::ConstructAccessTileOp tile : plan.getTiles())
    pieces += tile->hasAttr(kPartPieceAttrName);
  TripWork largest;
  auto bytes = [](const TripWork &w) {
    int64_t sum = 0;
    for (int64_t b : llvm::concat<const int64_t>(w.loads, w.stores))
      sum += b;
    return sum;
  };
  int64_t pipelines = 0;
  for (auto &[op, w] : work) {
    if (w.stores.empty())
      continue;
    ++pipelines;
    if (bytes(w) > bytes(largest))
      largest = w;
  }
  largest.pipelines = largest.executions = std::max<int64_t>(pipelines, 1);
  if (pieces != static_cast<int64_t>(plan.getTiles().size()))
    return largest;
  if (target.loadsAndStoresOnOneEngine()) {
    // Each pipeline's execution still waits, in the engine's order, for
    // its compute: as many executions, a part of the bytes each.
    for (int64_t &b : llvm::concat<int64_t>(largest.loads, largest.stores))
      b /= largest.pipelines;
    return largest;
  }
  // Separate engines issue one pipeline's transfers, the block's bytes, and
  // the compute unit runs every pipeline: one execution (as two of half
  // the bytes, twice the transfers each waited a slot round for its latency,
  // 236 cycles a trip of a slice on sample_device, 185 simulated).
  largest.compute *= largest.pipelines;
  largest.executions = 1;
  return largest;
}

/// The cost model's pipeline (as ktdf-coarsen describes one, before
/// ktdf-tile-streams has made it) of a lane running trips of `work`, with
/// `instances` lanes of the device busy.
static CoarsenQuery describeTrips(const ScheduleTarget &target,
                                  const TripWork &work, int64_t instances) {
  CoarsenQuery query;
  const ktflow::sched::Lane &lane = target.getLanes().front();
  double feedLatency = coarsen::fifoLatency(target, lane.inbound);
  double drainLatency = coarsen::fifoLatency(target, lane.outbound);
  query.latency = lane.inbound.route.latency - feedLatency;
  query.bandwidth = lane.inbound.route.bandwidth;
  query.handoverCycles = feedLatency + drainLatency;
  query.depthLatency = lane.inbound.route.latency;
  const ktflow::device::DeviceModel &model = target.getModel();
  const Hop &in = lane.inbound.hops.front();
  int64_t served = 1;
  if (in.kind == Hop::Dma) {
    served = target.getLanesPerInstance(in.unit);
    if (model.getNode(in.unit).unit)
      query.maxOutstanding = model.getNode(in.unit).unit->maxOutstanding;
  }
  query.dmaSharing = ktflow::sched::lanesSharingEngine(served, instances,
                                                       target.getNumCores());
  // Every engine loads its first trip at once, at its share of the memory.
  const auto &memory = model.getNode(lane.inbound.route.nodes.front()).memory;
  if (memory && memory->bandwidth && *memory->bandwidth > 0)
    query.memoryShare =
        *memory->bandwidth /
        static_cast<double>(llvm::divideCeil(instances, query.dmaSharing));
  query.sharedDma = target.loadsAndStoresOnOneEngine();
  // The lowering skews a loop whose body is one pipeline.
  query.skewed = query.sharedDma && served == 1 && work.pipelines == 1;
  query.loadBytes = work.loads;
  query.storeBytes = work.stores;
  query.computeCycles = work.compute;
  for (int64_t bytes : llvm::concat<const int64_t>(work.loads, work.stores))
    query.bytesPerCopy += bytes;
  return query;
}

/// Trips enough for a lane's pipeline to reach its steady state.
static constexpr int64_t kSteadyTrips = 64;

/// The estimate of one trip and of each one after it (its pipelines one
/// after the other).
static TripCycles estimateTrips(const ScheduleTarget &target,
                                const TripWork &work, int64_t instances) {
  CoarsenQuery query = describeTrips(target, work, instances);
  query.iterations = work.executions;
  double one = ktflow::sched::estimatePipelineCycles(query, 1);
  // Each trip after: what one more adds once many run (the steady state,
  // which the first trips' fill does not show).
  query.iterations = kSteadyTrips * work.executions;
  double many = ktflow::sched::estimatePipelineCycles(query, 1);
  query.iterations = (kSteadyTrips + 1) * work.executions;
  double more = ktflow::sched::estimatePipelineCycles(query, 1);
  return {static_cast<int64_t>(std::lround(one)),
          static_cast<int64_t>(std::lround(more - many))};
}

namespace {
/// How a loop's trips go round a point's copies: `perRound` copies take
/// one trip each a round; `busy` is the estimate of a trip with every copy
/// busy, `lone` with one trip a point in the round (on a copy of each
/// slice for the sliced loop).
struct Rounds {
  int64_t perRound;
  TripCycles busy, lone;
};
} // namespace

/// Makes `whole` (a copy of the loop `sliced` was, after it) and `sliced`
/// (the block loop inside the loop of slices) run at run time only where
/// their estimate is the smaller: with T trips of the point, the whole
/// loop's copies run ceil(T / copies) trips each, the sliced loop's
/// ceil(T / (copies / slices)) trips of a slice; each trip runs C trips of
/// `columns` (one with no such loop), the pipeline's steps, and where
/// `refills`, a pipeline of its own.
static void guardSlices(scf::ForOp sliced, scf::ForOp whole, scf::ForOp columns,
                        bool refills, Rounds slice, Rounds block) {
  scf::ForOp outer = sliced->getParentOfType<scf::ForOp>();
  OpBuilder b(outer);
  Location loc = sliced.getLoc();
  auto constant = [&](int64_t v) {
    return arith::ConstantIndexOp::create(b, loc, v);
  };
  Value lb = sliced.getLowerBound(), ub = sliced.getUpperBound();
  // A grid-stride loop from the tile id: every point decides by the most
  // trips a point has (tile 0's), so that none runs whole blocks while
  // another's slices share its DMA engines (row_halves_dyn n = 200 on
  // sample_device, 4 and 3 trips: 731 cycles whole, 763 mixed).
  Value from = lb.getDefiningOp<ktdp::GetComputeTileIdOp>() ? constant(0) : lb;
  auto tripsOf = [&](Value lo, Value hi, Value step) -> Value {
    return arith::CeilDivSIOp::create(
        b, loc, arith::SubIOp::create(b, loc, hi, lo), step);
  };
  Value trips = tripsOf(from, ub, sliced.getStep());
  // No column trip still pays a trip's first latency.
  Value perRow = columns
                     ? Value(arith::MaxSIOp::create(
                           b, loc,
                           tripsOf(columns.getLowerBound(),
                                   columns.getUpperBound(), columns.getStep()),
                           constant(1)))
                     : Value();
  // `count` trips of a pipeline, one after the other.
  auto pipeline = [&](Value count, TripCycles estimate) -> Value {
    return arith::AddIOp::create(
        b, loc, arith::MulIOp::create(b, loc, count, constant(estimate.next)),
        constant(estimate.first - estimate.next));
  };
  auto mul = [&](Value x, Value y) -> Value {
    return arith::MulIOp::create(b, loc, x, y);
  };
  auto cycles = [&](Rounds loop) -> Value {
    Value per = constant(loop.perRound);
    if (!perRow || !refills) {
      Value rounds = arith::CeilDivSIOp::create(b, loc, trips, per);
      return pipeline(perRow ? mul(rounds, perRow) : rounds, loop.busy);
    }
    // Full rounds, then the r = T mod perRound copies of the last, whose
    // share of the memory lies between the lone and the busy estimate.
    Value full = arith::DivSIOp::create(b, loc, trips, per);
    Value busy = pipeline(perRow, loop.busy);
    Value cost = mul(full, busy);
    if (loop.perRound < 2)
      return cost;
    Value rest = arith::SubIOp::create(b, loc, trips, mul(full, per));
    Value lone = pipeline(perRow, loop.lone);
    Value more = arith::DivSIOp::create(
        b, loc,
        mul(arith::SubIOp::create(b, loc, busy, lone),
            arith::SubIOp::create(b, loc, rest, constant(1))),
        constant(loop.perRound - 1));
    Value last = arith::SelectOp::create(
        b, loc,
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sgt, rest,
                              constant(0)),
        arith::AddIOp::create(b, loc, lone, more), constant(0));
    return arith::AddIOp::create(b, loc, cost, last);
  };
  Value pays = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt,
                                     cycles(slice), cycles(block));
  sliced.getUpperBoundMutable().assign(
      arith::SelectOp::create(b, loc, pays, ub, lb));
  whole.getUpperBoundMutable().assign(
      arith::SelectOp::create(b, loc, pays, lb, ub));
}

void mlir::ktdf::sliceGridStrideLoop(scf::ForOp loop, int64_t points,
                                     int64_t idle,
                                     const ScheduleTarget &target) {
  APInt step;
  if (idle < 2 || !matchPattern(loop.getStep(), m_ConstantInt(&step)) ||
      step.getSExtValue() <= 0)
    return;
  RowSlicePlan plan = RowSlicePlan::inPlace(loop);
  if (failed(plan.build()))
    return;
  // Slices of at least 16 rows: thinner ones lose more at large trip
  // counts than they win at small ones (halves_add_dyn on mesh_device,
  // n = 80 / 1000: 4 slices 498 / 3,632 cycles, 8 slices 585 / 4,981,
  // unsliced 1,164 / 2,864).
  int64_t rows = plan.getRows();
  int64_t slices = mostSlices(rows, std::min(idle, rows / 16));
  if (slices < 2)
    return;
  int64_t copies = idle / slices * slices;
  TripWork blockWork = tripWork(loop, plan, target, rows);
  TripWork sliceWork = tripWork(loop, plan, target, rows / slices);
  // A round of the sliced loop runs a trip on a copy of each slice.
  Rounds block{copies, estimateTrips(target, blockWork, points * copies),
               estimateTrips(target, blockWork, points)};
  Rounds slice{copies / slices,
               estimateTrips(target, sliceWork, points * copies),
               estimateTrips(target, sliceWork, points * slices)};
  OpBuilder b(loop);
  b.setInsertionPointAfter(loop);
  auto whole = cast<scf::ForOp>(b.clone(*loop));
  sliceRowsInPlace(loop, plan, slices);
  // Where one engine loads and stores, slices must save an eighth of the
  // whole loop's estimate: on mesh_device it put 9 and 10 trips (5 trips
  // of a slice against 2 blocks a copy) 2 to 10 % the slices' way where
  // they lose 4 to 15 % (halves_add_dyn, row_halves_dyn, n = 576). The
  // estimate runs every copy ceil(T / K) blocks, all 16 engines at their
  // share of the HBM, 1,200 cycles a block after the first; at T = 9 one
  // copy of 8 runs a second block, nearly alone: 683 simulated (1,674 at
  // T = 16, every copy). A trip of a slice is estimated 432, ~440
  // simulated. A loop holding a column loop is weighed round by round,
  // the last at the memory share of its copies, without the margin
  // (scale_matrix_dyn on a [3, 1] grid, m = 800, n = 200: 5 row blocks
  // of tile 0, 2,034 cycles sliced, 3,033 whole; estimated 2,450 and
  // 2,772, and the margin chose whole).
  int64_t margin =
      target.loadsAndStoresOnOneEngine() && !plan.getColumnLoop() ? 8 : 1;
  auto scaled = [](Rounds r, int64_t by) {
    auto times = [&](TripCycles c) {
      return TripCycles{c.first * by, c.next * by};
    };
    return Rounds{r.perRound, times(r.busy), times(r.lone)};
  };
  // The column loop is the pipeline the lowering skews where one engine
  // loads and stores: each trip of the block loop then fills it anew
  // (scale_matrix_dyn on mesh_device, m = 1000, n = 64: 4 trips of a slice
  // a copy, 1,182 cycles simulated, 4 x 330 estimated; 922 whole, 810).
  // Separate engines load a trip's first blocks while the last drain: the
  // column trips of every row block follow one another in one pipeline
  // (sample_device, m = 193, n = 129 on a [3, 1] grid: 2 trips of 3
  // slices a copy, 961 simulated against 1,121 whole; estimated 1,398 and
  // 1,430, or 1,644 refilling).
  guardSlices(loop, whole, plan.getColumnLoop(),
              target.loadsAndStoresOnOneEngine(), scaled(slice, margin),
              scaled(block, margin - margin / 8));
}
