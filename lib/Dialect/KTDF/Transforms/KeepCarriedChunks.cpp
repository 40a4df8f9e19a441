//===- KeepCarriedChunks.cpp - Carried chunks stay in the compute unit ----===//
//
// This file implements --ktdf-keep-carried-chunks. A loop that
// ktdf-carry-in-scratchpad gave a scratchpad view (a layernorm's running
// sum over the blocks of a row, up to a run-time N) runs one pipeline per
// trip: its feed reads each chunk of the carried view and of the trip's
// block, the compute unit adds them, and its drain writes the chunk back.
// Every chunk thus leaves the compute unit and comes back once a trip. The
// pass moves the loop inside the pipeline's chunk loops: for each chunk,
// the feed reads the carried chunk once and then the trip's blocks one
// after another, the compute unit keeps the chunk in a register across the
// trips (an `scf.for` carrying it) and sends it once, and the drain writes
// it once. Each element still sees the same operations in the same order
// (trip 0's, then trip 1's, ...), each rounded to its type as before, so
// the results are bit-identical; only the scratchpad round trips between
// trips go. A chunk an earlier pipeline only fills with a constant (the
// sum's zeros) then starts from that constant in the compute unit, and the
// fill goes too (ConstantFills.cpp); a chunk the next pipeline only reads to
// fold into a row statistic is folded into it in the compute unit, and a
// carried scalar it only copies is written where it copied it
// (FoldKeptChunks.cpp). A carried scalar (a one-element view, Triton's
// `total += tl.sum(x)`) is read and written once per execution at a
// constant position in the stages' row loop: its chunk loop is that row
// loop, whose drain may hold the constant beside the write.
//
//===----------------------------------------------------------------------===//

#include "KeepCarriedChunks.h"

#include "ktflow/Dialect/KTDF/IR/KTDF.h"
#include "ktflow/Dialect/KTDF/Transforms/Passes.h"
#include "ktflow/Dialect/KTDP/IR/KTDP.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Transforms/RegionUtils.h"
#include "llvm/ADT/MapVector.h"

namespace mlir::ktdf {
#define GEN_PASS_DEF_KTDFKEEPCARRIEDCHUNKS
#include "ktflow/Dialect/KTDF/Transforms/Passes.h.inc"
} // namespace mlir::ktdf

using namespace mlir;
using namespace mlir::ktdf;
using namespace mlir::ktdf::carried;

/// The memory view of `v` when it is an access tile of a carried view.
Operation *mlir::ktdf::carried::carriedViewOf(Value v) {
  if (!isa<ktdp::AccessTileType>(v.getType()))
    return nullptr;
  Operation *view = ktdp::getAccessTileView(v);
  return isCarriedView(view) ? view : nullptr;
}

/// The loops from `stage`'s body down to `op`'s parent, outermost first;
/// none when `op` is not directly in a loop or a loop on the way carries
/// values.
std::optional<SmallVector<scf::ForOp>>
mlir::ktdf::carried::chunkNest(Operation *op, StageOp stage) {
  SmallVector<scf::ForOp> nest;
  for (Operation *p = op->getParentOp(); p != stage; p = p->getParentOp()) {
    auto loop = dyn_cast<scf::ForOp>(p);
    if (!loop || loop.getNumRegionIterArgs() != 0)
      return std::nullopt;
    nest.insert(nest.begin(), loop);
  }
  if (nest.empty())
    return std::nullopt;
  return nest;
}

std::optional<mlir::ktdf::carried::ConstantBounds>
mlir::ktdf::carried::constantBounds(scf::ForOp loop) {
  std::optional<int64_t> lower = getConstantIntValue(loop.getLowerBound()),
                         upper = getConstantIntValue(loop.getUpperBound()),
                         step = getConstantIntValue(loop.getStep());
  if (!lower || !upper || !step)
    return std::nullopt;
  return ConstantBounds{*lower, *upper, *step};
}

bool mlir::ktdf::carried::oneTrip(ArrayRef<scf::ForOp> nest) {
  return llvm::all_of(nest, [](scf::ForOp loop) {
    std::optional<ConstantBounds> b = constantBounds(loop);
    return b && b->step > 0 && b->upper > b->lower &&
           b->upper - b->lower <= b->step;
  });
}

void mlir::ktdf::carried::eraseUnusedPositions(ArrayRef<Value> positions) {
  for (Value position : positions)
    if (Operation *def = position.getDefiningOp();
        def && def->use_empty() && matchPattern(position, m_Constant()))
      def->erase();
}

bool mlir::ktdf::carried::holdsOneElement(Operation *view) {
  auto type = dyn_cast<MemRefType>(view->getResult(0).getType());
  return type && type.hasStaticShape() && type.getNumElements() == 1;
}

/// Whether two loop nests walk the same constant iteration space.
bool mlir::ktdf::carried::sameSpace(ArrayRef<scf::ForOp> a,
                                    ArrayRef<scf::ForOp> b) {
  if (a.size() != b.size())
    return false;
  for (auto [x, y] : llvm::zip(a, b)) {
    std::optional<ConstantBounds> cx = constantBounds(x),
                                  cy = constantBounds(y);
    if (!cx || !cy || *cx != *cy)
      return false;
  }
  return true;
}

/// Whether index `u` of the nest `a` names the same position as index `v`
/// of the nest `b` (the induction variables of the same level, or equal
/// constants).
bool mlir::ktdf::carried::samePosition(Value u, ArrayRef<scf::ForOp> a, Value v,
                                       ArrayRef<scf::ForOp> b) {
  for (size_t i = 0; i < a.size(); ++i) {
    Value x = scf::ForOp(a[i]).getInductionVar(),
          y = scf::ForOp(b[i]).getInductionVar();
    if (u == x || v == y)
      return u == x && v == y;
  }
  std::optional<int64_t> cu = getConstantIntValue(u),
                         cv = getConstantIntValue(v);
  return cu && cv && *cu == *cv;
}

/// Whether `op` defines a constant index (a position the transfers name).
static bool isConstantIndex(Operation *op) {
  return op->getNumResults() == 1 && op->getResult(0).getType().isIndex() &&
         matchPattern(op->getResult(0), m_Constant());
}

/// Whether an op of `stage` outside `allowed` (if any) uses `loop`'s
/// induction variable or a value its body computes.
static bool usesLoop(StageOp stage, scf::ForOp loop, Operation *allowed) {
  return stage
      ->walk<WalkOrder::PreOrder>([&](Operation *op) {
        if (op == allowed)
          return WalkResult::skip();
        for (Value v : op->getOperands())
          if (v.getParentRegion() == &loop.getRegion())
            return WalkResult::interrupt();
        return WalkResult::advance();
      })
      .wasInterrupted();
}

/// The interchange of `loop`, when its body is index arithmetic and one
/// pipeline of a feed, a compute and a drain stage that read and write
/// each carried view they touch chunk by chunk at the same positions.
static std::optional<Interchange> analyse(scf::ForOp loop) {
  if (loop.getNumRegionIterArgs() != 0)
    return std::nullopt;
  Interchange ic;
  ic.loop = loop;
  for (Operation &op : loop.getBody()->without_terminator()) {
    if (auto pipeline = dyn_cast<PipelineOp>(op)) {
      if (ic.pipeline || pipeline->getNumResults() != 0 ||
          pipeline.getPerInstance())
        return std::nullopt;
      ic.pipeline = pipeline;
      continue;
    }
    if (op.getNumRegions() != 0 || !isPure(&op) ||
        !llvm::all_of(op.getResultTypes(),
                      [](Type t) { return t.isIntOrIndex(); }))
      return std::nullopt;
  }
  if (!ic.pipeline)
    return std::nullopt;

  // The carried views the pipeline touches: each one read once by a feed
  // and written once by a drain (a view it only reads stays as it is).
  llvm::MapVector<Operation *, CarriedChunk> byView;
  WalkResult walk = ic.pipeline.walk([&](DataTransferOp t) {
    if (Operation *view = carriedViewOf(t.getSrc())) {
      CarriedChunk &c = byView[view];
      if (c.read || !isa<FifoSlotType>(t.getDst().getType()))
        return WalkResult::interrupt();
      c.read = t;
    }
    if (Operation *view = carriedViewOf(t.getDst())) {
      CarriedChunk &c = byView[view];
      if (c.write || !isa<FifoSlotType>(t.getSrc().getType()))
        return WalkResult::interrupt();
      c.write = t;
    }
    return WalkResult::advance();
  });
  if (walk.wasInterrupted())
    return std::nullopt;
  for (auto &[view, c] : byView) {
    if (!c.write)
      continue;
    if (!c.read || c.read.getSrc() != c.write.getDst())
      return std::nullopt;
    Value in = c.read.getDst(), out = c.write.getSrc();
    // Each slot has its two ends only: the transfer and the compute op.
    if (!in.hasNUses(2) || !out.hasNUses(2))
      return std::nullopt;
    for (Operation *user : in.getUsers())
      if (auto take = dyn_cast<ReadFromFifoOp>(user))
        c.take = take;
    for (Operation *user : out.getUsers())
      if (auto give = dyn_cast<WriteToFifoOp>(user))
        c.give = give;
    if (!c.take || !c.give || c.take->getBlock() != c.give->getBlock())
      return std::nullopt;
    ic.chunks.push_back(c);
  }
  if (ic.chunks.empty())
    return std::nullopt;

  // Three stages, the same ones for every carried view, whose chunk loops
  // walk the same space.
  CarriedChunk &first = ic.chunks.front();
  ic.feed = first.read->getParentOfType<StageOp>();
  ic.compute = first.take->getParentOfType<StageOp>();
  ic.drain = first.write->getParentOfType<StageOp>();
  if (llvm::range_size(ic.pipeline.getBody().front().getOps<StageOp>()) != 3 ||
      ic.feed == ic.compute || ic.compute == ic.drain || ic.feed == ic.drain ||
      !ic.compute.isCompute() || ic.feed.isCompute() || ic.drain.isCompute())
    return std::nullopt;
  auto feedNest = chunkNest(first.read, ic.feed);
  auto computeNest = chunkNest(first.take, ic.compute);
  auto drainNest = chunkNest(first.write, ic.drain);
  if (!feedNest || !computeNest || !drainNest ||
      !sameSpace(*feedNest, *computeNest) || !sameSpace(*feedNest, *drainNest))
    return std::nullopt;
  ic.feedChunks = feedNest->back();
  ic.computeChunks = computeNest->back();
  ic.drainChunks = drainNest->back();
  for (CarriedChunk &c : ic.chunks) {
    if (c.read->getParentOp() != ic.feedChunks ||
        c.take->getParentOp() != ic.computeChunks ||
        c.write->getParentOp() != ic.drainChunks)
      return std::nullopt;
    // Each chunk is written back where it was read.
    if (c.read.getSrcIndices().size() != c.write.getDstIndices().size())
      return std::nullopt;
    for (auto [r, w] :
         llvm::zip(c.read.getSrcIndices(), c.write.getDstIndices()))
      if (!samePosition(r, *feedNest, w, *drainNest))
        return std::nullopt;
  }

  // The feed reads the carried chunks in the order the compute unit takes
  // them (both move them ahead of the trip's reads), and the drain only
  // writes them: every other transfer or slot of the trip stays in the
  // loop the stages get.
  auto position = [](Operation *op) {
    return std::distance(op->getBlock()->begin(), Block::iterator(op));
  };
  for (auto [a, b] : llvm::zip(ic.chunks, llvm::drop_begin(ic.chunks)))
    if ((position(a.read) < position(b.read)) !=
        (position(a.take) < position(b.take)))
      return std::nullopt;
  // (A constant index beside them is a carried scalar's position.)
  if (llvm::count_if(ic.drainChunks.getBody()->without_terminator(),
                     [](Operation &op) { return !isConstantIndex(&op); }) !=
      static_cast<std::ptrdiff_t>(ic.chunks.size()))
    return std::nullopt;
  bool otherWrites = false;
  ic.drain.walk([&](DataTransferOp t) {
    otherWrites |= llvm::none_of(
        ic.chunks, [&](const CarriedChunk &c) { return c.write == t; });
  });
  ic.compute.walk([&](WriteToFifoOp w) {
    otherWrites |= llvm::none_of(
        ic.chunks, [&](const CarriedChunk &c) { return c.give == w; });
  });
  if (otherWrites)
    return std::nullopt;

  // What runs once a trip outside the chunk loops must not change across
  // trips; the compute and drain stages do not see the trip at all (the
  // feed's chunk loop gets the loop's index arithmetic again).
  if (usesLoop(ic.feed, loop, ic.feedChunks) ||
      usesLoop(ic.compute, loop, nullptr) || usesLoop(ic.drain, loop, nullptr))
    return std::nullopt;
  return ic;
}

/// Moves the ops of `chunks`' body but `kept` and its terminator into a
/// copy of `loop` (its bounds and step) at the end of the body, carrying
/// `inits` (the values it replaces inside by its block arguments) and
/// yielding `yields`; returns the copy.
static scf::ForOp wrapTrips(scf::ForOp chunks, scf::ForOp loop,
                            ArrayRef<Operation *> kept, ValueRange inits,
                            ValueRange yields) {
  Block *body = chunks.getBody();
  OpBuilder b(body->getTerminator());
  auto trips = scf::ForOp::create(
      b, loop.getLoc(), loop.getLowerBound(), loop.getUpperBound(),
      loop.getStep(), inits,
      [](OpBuilder &nested, Location loc, Value, ValueRange args) {
        scf::YieldOp::create(nested, loc, args);
      });
  trips.setUnsignedCmp(loop.getUnsignedCmp());
  Block *inner = trips.getBody();
  for (Operation &op : llvm::make_early_inc_range(*body)) {
    if (&op == trips || &op == body->getTerminator() ||
        llvm::is_contained(kept, &op))
      continue;
    op.moveBefore(inner->getTerminator());
  }
  for (auto [init, arg] : llvm::zip(inits, trips.getRegionIterArgs()))
    replaceAllUsesInRegionWith(init, arg, trips.getRegion());
  if (!yields.empty()) {
    SmallVector<Value> next;
    for (Value y : yields) {
      auto it = llvm::find(inits, y);
      next.push_back(it == inits.end()
                         ? y
                         : trips.getRegionIterArgs()[it - inits.begin()]);
    }
    inner->getTerminator()->setOperands(next);
  }
  return trips;
}

static void interchange(Interchange &ic) {
  scf::ForOp loop = ic.loop;

  // Feed: the carried chunks first, then the trip's reads, with the loop's
  // index arithmetic (a block's offset in the row span) computed again in
  // the trips' loop.
  SmallVector<Operation *> reads;
  for (CarriedChunk &c : ic.chunks)
    reads.push_back(c.read);
  llvm::sort(reads,
             [](Operation *a, Operation *b) { return a->isBeforeInBlock(b); });
  // The constant positions they name (a carried scalar's) stay ahead of
  // them.
  Block *feedBody = ic.feedChunks.getBody();
  SmallVector<Operation *> positions;
  for (Operation *read : reads)
    for (Value index : read->getOperands())
      if (Operation *def = index.getDefiningOp();
          def && def->getBlock() == feedBody && isConstantIndex(def) &&
          !llvm::is_contained(positions, def))
        positions.push_back(def);
  SmallVector<Operation *> feedKept(positions);
  llvm::append_range(feedKept, reads);
  for (Operation *op : llvm::reverse(feedKept))
    op->moveBefore(&feedBody->front());
  scf::ForOp feedTrips = wrapTrips(ic.feedChunks, loop, feedKept, {}, {});
  OpBuilder b = OpBuilder::atBlockBegin(feedTrips.getBody());
  IRMapping map;
  map.map(loop.getInductionVar(), feedTrips.getInductionVar());
  for (Operation &op : loop.getBody()->without_terminator())
    if (&op != ic.pipeline)
      b.clone(op, map);
  for (Operation &op : loop.getBody()->without_terminator())
    for (Value result : op.getResults())
      replaceAllUsesInRegionWith(result, map.lookupOrDefault(result),
                                 feedTrips.getRegion());
  replaceAllUsesInRegionWith(loop.getInductionVar(),
                             feedTrips.getInductionVar(),
                             feedTrips.getRegion());
  for (Operation &op : llvm::make_early_inc_range(
           llvm::reverse(feedTrips.getBody()->without_terminator())))
    if (isOpTriviallyDead(&op))
      op.erase();

  // Compute: take the carried chunks, carry them through the trips, give
  // them once.
  SmallVector<Operation *> kept;
  SmallVector<Value> inits, yields;
  for (CarriedChunk &c : ic.chunks) {
    kept.push_back(c.take);
    kept.push_back(c.give);
    inits.push_back(c.take.getResult());
    yields.push_back(c.give.getValue());
  }
  // Takes in the feed's order (checked), ahead of everything else.
  SmallVector<Operation *> takes;
  for (CarriedChunk &c : ic.chunks)
    takes.push_back(c.take);
  llvm::sort(takes, [&](Operation *x, Operation *y) {
    auto readOf = [&](Operation *t) {
      return llvm::find_if(ic.chunks,
                           [&](const CarriedChunk &c) { return c.take == t; })
          ->read.getOperation();
    };
    return readOf(x)->isBeforeInBlock(readOf(y));
  });
  for (Operation *take : llvm::reverse(takes))
    take->moveBefore(&ic.computeChunks.getBody()->front());
  scf::ForOp computeTrips =
      wrapTrips(ic.computeChunks, loop, kept, inits, yields);
  for (auto [c, result] : llvm::zip(ic.chunks, computeTrips.getResults())) {
    c.give->moveBefore(ic.computeChunks.getBody()->getTerminator());
    c.give.getValueMutable().assign(result);
  }

  // The drain writes each chunk once; the pipeline runs once in place of
  // the loop.
  ic.pipeline->moveBefore(loop);
  loop.erase();
}

namespace {
struct KeepCarriedChunksPass
    : public ktdf::impl::KTDFKeepCarriedChunksBase<KeepCarriedChunksPass> {
  void runOnOperation() override {
    SmallVector<Interchange> found;
    getOperation().walk([&](scf::ForOp loop) {
      if (auto ic = analyse(loop))
        found.push_back(*ic);
    });
    for (Interchange &ic : found) {
      interchange(ic);
      startFromConstants(ic);
      foldKeptChunkIntoRow(ic);
    }
  }
};
} // namespace
