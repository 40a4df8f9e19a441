//===- ScheduleAllReduce.cpp - All-reduces as ring pipelines --------------===//
//
// This file implements --ktdf-schedule-all-reduce: each `ktdf.all_reduce`
// left in a scheduled kernel becomes a pipeline of four stages on the first
// lane's units — `send` on the data mover that reads the lane's scratchpad
// (its remote DMAs cross the core interconnect), `feed`, `combine` and
// `drain` on the load, vector and store units that stream the scratchpad
// through the vector unit — each holding a copy of the all-reduce, which
// the lowering expands per tile into its part of the ring. The stages
// touch the kernel's scratchpad views, so the lowering orders them after
// the stages that wrote the partial and before those that read the result,
// with the channels of scratchpad views.
//
// A `ktdf.scatter` all-reduce (each tile keeps only its own chunk) is the
// ring's reduce-scatter alone, always one ring, in pieces down to 64 bytes
// (128 for a whole all-reduce).
//
// The ring (reduce-scatter, then all-gather) is the algorithm here for
// every topology: bench/allreduce.py measured it within 1.17x of its bound
// for 64 KiB on 32 spyre_like cores once each chunk moves as pieces with
// their own tokens. A tree (reduce to one tile in ceil(log2 P) steps of
// the whole partial, then a broadcast) sends fewer messages, which only
// pays for partials so small that the hop latency dominates; it is not
// scheduled (docs/scheduler.md).
//
// A `ktdf.tile_copy` (an inter_tile_consume) becomes a pipeline of one
// `send` stage on that data mover: each tile sends its view to the tiles
// that consume it and waits for its own copy.
//
//===----------------------------------------------------------------------===//

#include "ktflow/Dialect/KTDF/IR/ScatterAttr.h"
#include "ktflow/Dialect/KTDF/Transforms/Passes.h"
#include "ktflow/Dialect/KTDP/IR/KTDP.h"
#include "ktflow/Dialect/KTDP/Utils/LaunchGrid.h"
#include "ktflow/Scheduler/ScheduleTarget.h"
#include "ktflow/Scheduler/ScheduleTargetPass.h"
#include "ktflow/Support/ElementBytes.h"

#include "mlir/Dialect/SCF/IR/SCF.h"

namespace mlir::ktdf {
#define GEN_PASS_DEF_KTDFSCHEDULEALLREDUCE
#include "ktflow/Dialect/KTDF/Transforms/Passes.h.inc"
} // namespace mlir::ktdf

using namespace mlir;
using namespace mlir::ktdf;
using ktflow::sched::Hop;
using ktflow::sched::ScheduleTarget;

/// Pieces of at least this many bytes: a small ring's steps are chains of
/// hop, token and combine latencies, which smaller pieces overlap, while
/// each piece's token costs the send unit a wait (256 bytes before:
/// sharded_ffn's 256-byte f32 chunks now 2 pieces, mesh_device 1,180 ->
/// 1,162 cycles; colcenter_odd_1000's 668-byte chunks 5, 8,083 -> 7,690;
/// 64-byte pieces made the latter slower on sample_device, 17,643).
static constexpr int64_t kMinPieceBytes = 128;
/// A reduce-scatter's pieces go down to this many bytes (a 64-byte DMA
/// and FIFO granule): with no all-gather after it, its P - 1 steps are a
/// chain of hop, token and combine latencies, which smaller pieces overlap.
static constexpr int64_t kMinScatterPieceBytes = 64;
/// Two rings take halves whose chunks still make kMaxPieces pieces of
/// this many bytes (chooseRings: 4096 f16 over 4 tiles stay one ring,
/// over 2 tiles two).
static constexpr int64_t kTwoRingPieceBytes = 256;
/// At most this many pieces per chunk.
static constexpr int64_t kMaxPieces = 8;

/// Pieces of at least `minBytes` of a chunk, at most kMaxPieces.
static int64_t piecesOf(int64_t chunkElements, int64_t elementBytes,
                        int64_t minBytes) {
  int64_t pieces = chunkElements * elementBytes / minBytes;
  return std::clamp<int64_t>(
      pieces, 1, std::min(kMaxPieces, std::max<int64_t>(chunkElements, 1)));
}

int64_t mlir::ktdf::chooseRingPieces(int64_t chunkElements,
                                     int64_t elementBytes) {
  return piecesOf(chunkElements, elementBytes, kMinPieceBytes);
}

/// Two rings, one after the other over half the partial each, when a
/// core combines on one lane: a step's combine streams both operands
/// through the one load unit, twice the time the chunk takes to cross, so
/// the data mover idles half of the reduce-scatter and the all-gather
/// after it runs alone. With two rings the first ring's all-gather is sent
/// while the second ring is combined. Only for halves that still make
/// full pieces (kMaxPieces of kTwoRingPieceBytes per chunk) and divide evenly
/// (each ring's received slots then fit the received view).
static int64_t chooseRings(int64_t elements, int64_t members,
                           int64_t elementBytes) {
  if (members < 2 || elements % (2 * members) != 0)
    return 1;
  int64_t chunkBytes = elements / (2 * members) * elementBytes;
  return chunkBytes >= kMaxPieces * kTwoRingPieceBytes ? 2 : 1;
}

namespace {
/// The first lane's units that run an all-reduce.
struct RingUnits {
  ktflow::sched::NodeId send, feed, combine, drain;
  /// Elements of the partial in one FIFO entry.
  int64_t granule = 1;
};
} // namespace

/// The data mover of the first lane that reads the scratchpad `ct_local`
/// maps to: its remote DMAs cross the core interconnect.
static FailureOr<ktflow::sched::NodeId> findSender(const ScheduleTarget &target,
                                                   Operation *op) {
  const ktflow::sched::Lane &lane = target.getLanes().front();
  std::optional<ktflow::sched::NodeId> local = target.getLocalMemory();
  if (!local)
    return op->emitError("the device maps no scratchpad to ct_local; an "
                         "inter-tile exchange needs one per core");
  auto send = llvm::find_if(lane.outbound.hops, [&](const Hop &hop) {
    return hop.kind == Hop::Dma && hop.from == local;
  });
  if (send == lane.outbound.hops.end())
    return op->emitError("no data mover of the lane reads its scratchpad; "
                         "an inter-tile exchange sends with one");
  return send->unit;
}

static FailureOr<RingUnits> findUnits(const ScheduleTarget &target,
                                      AllReduceOp op) {
  const ktflow::sched::Lane &lane = target.getLanes().front();
  const auto &model = target.getModel();
  std::optional<ktflow::sched::NodeId> local = target.getLocalMemory();
  if (!local)
    return op.emitError("the device maps no scratchpad to ct_local; an "
                        "inter-tile exchange needs one per core");
  RingUnits units;
  units.combine = lane.compute;
  const Hop &feed = lane.inbound.hops.back();
  const Hop &drain = lane.outbound.hops.front();
  if (feed.kind != Hop::Feed || feed.from != local ||
      drain.kind != Hop::Drain || drain.to != local)
    return op.emitError("the lane's vector unit is not fed from and "
                        "drained into the scratchpad that holds the "
                        "partials; an inter-tile reduction needs it");
  units.feed = feed.unit;
  units.drain = drain.unit;
  FailureOr<ktflow::sched::NodeId> send = findSender(target, op);
  if (failed(send))
    return failure();
  units.send = *send;
  Type element = cast<MemRefType>(op.getPartial().getType()).getElementType();
  int64_t bytes = ktflow::bytesPerElement(element);
  int64_t granule = 0;
  for (auto dp : model.getIncoming(feed.unit))
    for (int64_t g : model.getDatapath(dp).spec.transferGranularity)
      granule = std::max(granule, g / bytes);
  if (granule == 0)
    granule = target.getSimdLanes(lane, element).value_or(1);
  units.granule = std::max<int64_t>(granule, 1);
  return units;
}

/// Whether `lane` streams the scratchpad `local` through its vector unit,
/// fed from it and drained into it: a lane that can combine pieces of the
/// partials `local` holds.
static bool combinesIn(const ktflow::sched::Lane &lane,
                       ktflow::sched::NodeId local) {
  const Hop &feed = lane.inbound.hops.back();
  const Hop &drain = lane.outbound.hops.front();
  return feed.kind == Hop::Feed && feed.from == local &&
         drain.kind == Hop::Drain && drain.to == local;
}

/// Lanes of a core that combine the pieces of a chunk in turn: the first,
/// and, when every grid point runs on a first lane (no more instances than
/// cores), the next lanes whose vector units stream the same scratchpad,
/// up to one per piece. Each step of a ring streams both operands of a
/// chunk through a load unit as fast as the link brings one: a second
/// lane halves that (bench/allreduce.py: 2.53x -> 1.17x the ring bound for
/// 64 KiB over 32 spyre_like cores, with pieces).
static int64_t chooseRingLanes(const ScheduleTarget &target,
                               ParallelOp parallel, int64_t pieces) {
  std::optional<ktflow::sched::NodeId> local = target.getLocalMemory();
  int64_t lanes = 1;
  int64_t instances = parallel.getNumInstances().value_or(1);
  if (!local || instances > target.getNumCores())
    return lanes;
  for (const ktflow::sched::Lane &lane :
       ArrayRef(target.getLanes()).drop_front()) {
    if (lanes >= pieces || !combinesIn(lane, *local))
      break;
    ++lanes;
  }
  return lanes;
}

/// The position of linear tile `tile` (the interpreter's numbering, first
/// grid dimension fastest) among the points of a `ktdf.parallel` over
/// `extents` (first dimension slowest).
int64_t mlir::ktdf::pointOfTile(int64_t tile, ArrayRef<int64_t> extents) {
  SmallVector<int64_t> coords = ktdp::delinearizeTileId(tile, extents);
  int64_t point = 0;
  for (auto [c, n] : llvm::zip(coords, extents))
    point = point * n + c;
  return point;
}

/// Every tile of a group on a core of its own, one tile per lane.
static LogicalResult checkPlacement(const ScheduleTarget &target,
                                    ParallelOp parallel, AllReduceOp op) {
  int64_t points = parallel.getNumPoints();
  int64_t instances = parallel.getNumInstances().value_or(1);
  int64_t block = (points + instances - 1) / instances;
  if (block > 1)
    return op.emitError("an inter-tile reduction needs one tile per lane: ")
           << points << " tiles on " << instances << " lanes give a lane "
           << block;
  int64_t cores = target.getNumCores();
  for (ArrayRef<int64_t> group : op.getMembers()) {
    std::map<int64_t, int64_t> tileOnCore;
    for (int64_t tile : group) {
      int64_t core = pointOfTile(tile, parallel.getExtents()) % cores;
      auto [it, inserted] = tileOnCore.insert({core, tile});
      if (!inserted)
        return op.emitError("tiles ")
               << it->second << " and " << tile << " of a group run on core "
               << core
               << "; the ring sends between the scratchpads of different "
                  "cores";
    }
  }
  return success();
}

/// Whether `op` lies in `parallel`'s body or in `scf.for` loops there: a
/// loop's trips run in the same order on every tile, so the i-th
/// execution of an all-reduce meets the i-th of its partners.
static bool inParallelOrLoops(Operation *op, ParallelOp parallel) {
  for (Operation *parent = op->getParentOp(); parent != parallel;
       parent = parent->getParentOp())
    if (!isa<scf::ForOp>(parent))
      return false;
  return true;
}

/// A tile copy: one `send` stage on the data mover, whose program sends
/// this tile's view to its consumers and waits for its own copy.
static LogicalResult schedule(const ScheduleTarget &target, TileCopyOp op) {
  auto parallel = op->getParentOfType<ParallelOp>();
  if (!parallel || op->getParentOp() != parallel)
    return op.emitError("expects the tile copy directly in a ktdf.parallel");
  ArrayRef<int64_t> sources = op.getSources();
  bool crosses = llvm::any_of(llvm::enumerate(sources), [](auto e) {
    return e.value() >= 0 && e.value() != static_cast<int64_t>(e.index());
  });
  if (crosses && target.getRoofline().getInterconnects().empty())
    return op.emitError("the device has no core interconnect to copy "
                        "between tiles over");
  FailureOr<ktflow::sched::NodeId> sender = findSender(target, op);
  if (failed(sender))
    return failure();
  int64_t points = parallel.getNumPoints();
  int64_t instances = parallel.getNumInstances().value_or(1);
  if (points > instances)
    return op.emitError("an inter-tile copy needs one tile per lane: ")
           << points << " tiles on " << instances << " lanes";
  int64_t cores = target.getNumCores();
  for (auto [c, p] : llvm::enumerate(sources)) {
    if (p < 0 || p == static_cast<int64_t>(c))
      continue;
    if (pointOfTile(p, parallel.getExtents()) % cores ==
        pointOfTile(c, parallel.getExtents()) % cores)
      return op.emitError("tiles ")
             << p << " and " << c << " run on one core; the copy sends "
             << "between the scratchpads of different cores";
  }
  OpBuilder b(op);
  Location loc = op.getLoc();
  auto pipeline = PipelineOp::create(b, loc, b.getI64IntegerAttr(1));
  b.createBlock(&pipeline.getBody());
  auto stage = StageOp::create(
      b, loc, TypeRange{}, b.getStringAttr("send"), ValueRange{},
      b.getArrayAttr({UnitRoleAttr::get(op.getContext(), UnitRole::dma_store)}),
      b.getStringAttr(target.getModel().getNode(*sender).name));
  b.createBlock(&stage.getBody());
  b.clone(*op);
  op.erase();
  return success();
}

static LogicalResult schedule(const ScheduleTarget &target, AllReduceOp op) {
  auto parallel = op->getParentOfType<ParallelOp>();
  if (!parallel || !inParallelOrLoops(op, parallel))
    return op.emitError("expects the all-reduce in a ktdf.parallel, "
                        "directly or in scf.for loops there");
  if (target.getRoofline().getInterconnects().empty())
    return op.emitError("the device has no core interconnect to reduce "
                        "across tiles over");
  FailureOr<RingUnits> units = findUnits(target, op);
  if (failed(units) || failed(checkPlacement(target, parallel, op)))
    return failure();
  int64_t members = 1;
  for (ArrayRef<int64_t> group : op.getMembers())
    members = std::max<int64_t>(members, group.size());
  auto type = cast<MemRefType>(op.getPartial().getType());
  int64_t chunk = (type.getNumElements() + members - 1) / members;
  int64_t bytes = ktflow::bytesPerElement(type.getElementType());

  const auto &model = target.getModel();
  MLIRContext *ctx = op.getContext();
  OpBuilder b(op);
  Location loc = op.getLoc();
  auto pipeline = PipelineOp::create(b, loc, b.getI64IntegerAttr(1));
  b.createBlock(&pipeline.getBody());
  auto name = [&](ktflow::sched::NodeId n) {
    return b.getStringAttr(model.getNode(n).name);
  };
  auto slot = [&](ktflow::sched::NodeId from, ktflow::sched::NodeId to) {
    auto slotType = FifoSlotType::get(ctx, name(from), name(to),
                                      {units->granule}, type.getElementType());
    PrivateOp::create(b, loc, slotType, IntegerAttr());
  };
  slot(units->feed, units->combine);
  slot(units->combine, units->drain);
  auto scheduled = cast<AllReduceOp>(b.clone(*op));
  int64_t pieces = isScattered(op)
                       ? piecesOf(chunk, bytes, kMinScatterPieceBytes)
                       : chooseRingPieces(chunk, bytes);
  int64_t lanes = chooseRingLanes(target, parallel, pieces);
  // A reduce-scatter's tiles keep whole chunks of one ring (ScatterAttr.h):
  // there is no all-gather for a second ring to overlap.
  int64_t rings = lanes == 1 && !isScattered(op)
                      ? chooseRings(type.getNumElements(), members, bytes)
                      : 1;
  if (rings > 1)
    pieces = chooseRingPieces(chunk / rings, bytes);
  scheduled.setPiecesAttr(b.getI64IntegerAttr(pieces));
  if (lanes > 1)
    scheduled.setLanesAttr(b.getI64IntegerAttr(lanes));
  if (rings > 1)
    scheduled.setRingsAttr(b.getI64IntegerAttr(rings));
  auto stage = [&](StringRef stageName, UnitRole role,
                   ktflow::sched::NodeId unit, int64_t lane) {
    auto created = StageOp::create(
        b, loc, TypeRange{}, b.getStringAttr(stageName), ValueRange{},
        b.getArrayAttr({UnitRoleAttr::get(ctx, role)}), name(unit));
    if (lane > 0)
      created->setAttr(kLaneOffsetAttr, b.getI64IntegerAttr(lane));
    OpBuilder::InsertionGuard guard(b);
    b.createBlock(&created.getBody());
    b.clone(*scheduled);
  };
  stage("send", UnitRole::dma_store, units->send, 0);
  // The other lanes' stages name the first lane's units and the lane
  // offset: the lowering places them on that lane of the core.
  for (int64_t lane = 0; lane < lanes; ++lane) {
    stage("feed", UnitRole::scratchpad_load, units->feed, lane);
    stage("combine", UnitRole::vector_compute, units->combine, lane);
    stage("drain", UnitRole::scratchpad_store, units->drain, lane);
  }
  scheduled.erase();
  op.erase();
  return success();
}

namespace {
struct ScheduleAllReducePass
    : public ktflow::sched::WithScheduleTarget<
          ktdf::impl::KTDFScheduleAllReduceBase<ScheduleAllReducePass>> {
  void runOnOperation() override {
    const ktflow::sched::ScheduleTarget *target = requireScheduleTarget();
    if (!target)
      return;
    SmallVector<AllReduceOp> ops;
    getOperation().walk([&](AllReduceOp op) {
      if (!op->getParentOfType<StageOp>())
        ops.push_back(op);
    });
    for (AllReduceOp op : ops)
      if (failed(schedule(*target, op)))
        return signalPassFailure();
    SmallVector<TileCopyOp> copies;
    getOperation().walk([&](TileCopyOp op) {
      if (!op->getParentOfType<StageOp>())
        copies.push_back(op);
    });
    for (TileCopyOp op : copies)
      if (failed(schedule(*target, op)))
        return signalPassFailure();
  }
};
} // namespace
