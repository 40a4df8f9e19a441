//===- LateStaging.cpp - Staged buffers waited for where they are read ----===//
//
// This file lets a unit take a staging pipeline's buffers where it first
// reads them rather than where its program passes the pipeline. A staging
// pipeline loads buffers (a weight row) that later pipelines read; its
// readers used to wait for all of them where their programs pass it, and
// an engine that loads both issued the staging loads first. When a reader
// moves other data before the staged buffers (the 256x4096 RMSNorm's feed
// sends row 0's four X blocks for the sum of squares; W only in the second
// pass), both orders cost a whole staging load before the first chunk: on
// mesh_device one DMA engine per tile loaded W's four blocks, then row 0's,
// and the compute unit waited for all eight.
//
// Now:
// - a reader whose transfer stage runs a pass over other data (a loop of
//   transfers) before its first transfer of a staged buffer takes the
//   staging token just before that transfer (inside loops of one trip, or
//   in the first iteration of a row loop of constant bounds that runs), in
//   the first execution of its pipeline after the staging pipeline's; a
//   program whose reader did not run takes it at the end of the block (a
//   token left over is an error). A per-instance staging pipeline runs
//   before the lane's first point: its reader takes the token in its first
//   execution, or the lane after its points (the layernorm's W and B
//   widened once per lane on sample_device: the feed sends a row's X before
//   them, the SFU starts on X while they land);
// - a reader also reads them late when an earlier pipeline of the loop
//   body holding its pipeline moves other data on its unit (the row span
//   an RMSNorm's sum of squares reads, before the normalisation reads W);
// - an engine that loads the staged buffers and, in the next loop of the
//   block, the first iteration's inputs ahead of the loop (a skewed or
//   span-ahead loop, SkewedLoops.cpp) issues those first loads before the
//   staging loads, when every reader of the staged buffers in that loop
//   reads them late (as above);
// - an engine that only loads, in that loop one load per pipeline of its
//   body that waits for nothing but the copies earlier executions hand
//   back, issues the staging loads at the end of the loop's first
//   iteration instead of before the loop, under the same condition:
//   spyre_like's DMA_IN engines loaded W for both lanes before their first
//   rows, and the first sum of squares (and ring) waited for both
//   (rmsnorm_256x4096_2x2: 5,034 -> 4,840 cycles).
//
//===----------------------------------------------------------------------===//

#include "ProgramBuilder.h"

using namespace mlir;
using namespace mlir::ktdf;
using namespace mlir::ktdf::lowering;

/// The results of `writer`'s pipeline whose buffers `writer` fills.
static llvm::SmallDenseSet<Value, 4> exportsFilledBy(StageOp writer,
                                                     KernelLowering &kernel) {
  llvm::SmallDenseSet<Value, 4> filled;
  writer.walk([&](DataTransferOp transfer) {
    for (Value result : writer->getParentOp()->getResults())
      if (kernel.exported.lookup(result) == transfer.getDst())
        filled.insert(result);
  });
  return filled;
}

bool mlir::ktdf::lowering::transfersAny(
    Operation *op, const llvm::SmallDenseSet<Value, 4> &buffers,
    bool orWrites) {
  return op
      ->walk([&](DataTransferOp transfer) {
        bool moves = buffers.contains(transfer.getSrc()) ||
                     (orWrites && buffers.contains(transfer.getDst())) ||
                     llvm::any_of(transfer.getStagedIndices(),
                                  [&](Value v) { return buffers.contains(v); });
        return moves ? WalkResult::interrupt() : WalkResult::advance();
      })
      .wasInterrupted();
}

/// Whether `op` is or holds a transfer reading one of `buffers`.
static bool readsAny(Operation *op,
                     const llvm::SmallDenseSet<Value, 4> &buffers) {
  return transfersAny(op, buffers, /*orWrites=*/false);
}

/// Whether, in the loop body holding `reader`'s pipeline (not the staging
/// pipeline's block), an earlier pipeline has a transfer stage on `unit`
/// that moves none of `staged`: in a loop's first iteration the reader's
/// unit moves that data first (a row's span for the sum of squares before
/// the normalisation reads W).
static bool earlierInLoopMoves(StageOp reader, StringRef unit,
                               const llvm::SmallDenseSet<Value, 4> &staged,
                               KernelLowering &kernel, const LaneInstance &li) {
  Operation *pipeline = reader->getParentOp();
  if (!isa<scf::ForOp>(pipeline->getParentOp()))
    return false;
  for (Operation *op = pipeline->getPrevNode(); op; op = op->getPrevNode()) {
    bool moves = false;
    op->walk([&](StageOp stage) {
      moves |=
          !stage.isCompute() && kernel.unitOf(stage, li) == unit &&
          stage.walk([](DataTransferOp) { return WalkResult::interrupt(); })
              .wasInterrupted() &&
          !readsAny(stage, staged);
    });
    if (moves)
      return true;
  }
  return false;
}

Operation *ProgramBuilder::lateExportRead(const Channel &ch,
                                          const LaneInstance &li) {
  if (!ch.exported || ch.copies != 0)
    return nullptr;
  StageOp reader = ch.to;
  if (reader.isCompute() || getAllReduce(reader) || getTileCopy(reader))
    return nullptr;
  llvm::SmallDenseSet<Value, 4> staged = exportsFilledBy(ch.from, kernel);
  bool movedBefore =
      earlierInLoopMoves(reader, kernel.unitOf(reader, li), staged, kernel, li);
  Block *block = &reader.getBody().front();
  while (block) {
    Block *inner = nullptr;
    for (Operation &op : *block) {
      if (!readsAny(&op, staged)) {
        // A pass over chunks of other data (a single transfer before the
        // staged one in the same chunk is not worth a later wait).
        auto pass = dyn_cast<scf::ForOp>(op);
        movedBefore |=
            pass && !runsOnce(pass) &&
            pass.walk([](DataTransferOp) { return WalkResult::interrupt(); })
                .wasInterrupted();
        continue;
      }
      // Inside a loop of one trip, or in the first iteration of a row loop
      // that surely runs (the wait is guarded by its first iteration;
      // firstIterationOf).
      auto loop = dyn_cast<scf::ForOp>(op);
      std::optional<APInt> trips =
          loop ? loop.getStaticTripCount() : std::nullopt;
      if (!loop ||
          (!runsOnce(loop) && (movedBefore || !trips || trips->isZero() ||
                               !getConstantIntValue(loop.getLowerBound()))))
        return movedBefore ? &op : nullptr;
      inner = loop.getBody();
      break;
    }
    block = inner;
  }
  return nullptr;
}

Value ProgramBuilder::firstIterationOf(Operation *at, StageOp stage,
                                       IRMapping &map, Value condition) {
  OpBuilder &b = *builder;
  for (auto loop = at->getParentOfType<scf::ForOp>();
       loop && stage->isAncestor(loop);
       loop = loop->getParentOfType<scf::ForOp>()) {
    if (runsOnce(loop))
      continue;
    // lateExportRead entered the loop only with constant bounds.
    Location loc = loop.getLoc();
    Value first = arith::CmpIOp::create(
        b, loc, arith::CmpIPredicate::eq, map.lookup(loop.getInductionVar()),
        constant(*getConstantIntValue(loop.getLowerBound())));
    condition = arith::AndIOp::create(b, loc, condition, first);
  }
  return condition;
}

void ProgramBuilder::deferExportWaits(PipelineOp staging, Block &block,
                                      ArrayRef<Value> executions,
                                      const LaneInstance &li,
                                      SmallVector<DeferredExport> &deferred) {
  if (work.size() != 1)
    return;
  for (const Channel &ch : kernel.infoOf(staging).channels) {
    if (kernel.unitOf(ch.to, li) != unit || !lateExportRead(ch, li))
      continue;
    auto reader = ch.to->getParentOfType<PipelineOp>();
    Operation *holder = block.findAncestorOpInBlock(*reader);
    if (reader.getPerInstance() || !holder || !staging->isBeforeInBlock(holder))
      continue;
    unsigned index = kernel.infoOf(reader).index;
    deferredExports[&ch] = executions[index];
    deferred.push_back({&ch, index});
  }
}

void ProgramBuilder::takeDeferredExports(ArrayRef<DeferredExport> deferred,
                                         ArrayRef<Value> executions,
                                         const LaneInstance &li) {
  OpBuilder &b = *builder;
  for (const DeferredExport &d : deferred) {
    Value before = deferredExports.lookup(d.channel);
    deferredExports.erase(d.channel);
    Location loc = d.channel->to->getLoc();
    // The reader did not run after the staging pipeline: it never waited.
    emitIf(arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                 executions[d.readerIndex], before),
           [&] {
             dfir::SyncRecvOp::create(
                 b, loc, KernelLowering::perLane(d.channel->base, li));
           });
  }
}

PipelineOp ProgramBuilder::aheadPipelineOf(scf::ForOp loop,
                                           const LaneInstance &li,
                                           StagePart &part) {
  part = StagePart::Loads;
  if (PipelineOp pipeline = skewablePipeline(loop, li))
    return pipeline;
  part = StagePart::All;
  return leadingSpanLoads(loop, li);
}

bool ProgramBuilder::onlyLoadsStaging(PipelineOp staging,
                                      const LaneInstance &li) {
  if (staging.getPerInstance() || staging->getNumResults() == 0)
    return false;
  const PipelineInfo &info = kernel.infoOf(staging);
  // Nothing another unit fills or writes to the scratchpad orders its
  // stages.
  for (StageOp stage : work[&li])
    if (stage->getParentOp() == staging &&
        (stage.isCompute() || getAllReduce(stage) || getTileCopy(stage) ||
         waitsForOtherUnit(stage, info, li)))
      return false;
  for (const PipelineInfo &other : kernel.pipelines)
    for (const Channel &ch : other.regionChannels)
      if (ch.from->getParentOp() == staging || ch.to->getParentOp() == staging)
        return false;
  return true;
}

/// The loop this unit runs next after `staging` in its block, if the next
/// op it runs is a loop.
static scf::ForOp loopAfter(PipelineOp staging,
                            function_ref<bool(Operation *)> runs) {
  Operation *next = staging->getNextNode();
  while (next && !runs(next))
    next = next->getNextNode();
  return dyn_cast_or_null<scf::ForOp>(next);
}

bool ProgramBuilder::readersReadLate(PipelineOp staging, scf::ForOp loop,
                                     const LaneInstance &li) {
  // A reader elsewhere, or one that starts with the staged buffers, would
  // wait longer for them.
  bool readers = false;
  for (const Channel &ch : kernel.infoOf(staging).channels) {
    if (!ch.exported || ch.copies != 0)
      continue;
    if (!loop->isAncestor(ch.to) || !lateExportRead(ch, li))
      return false;
    readers = true;
  }
  return readers;
}

scf::ForOp ProgramBuilder::loadsBeforeStaging(PipelineOp staging,
                                              const LaneInstance &li) {
  if (!onlyLoadsStaging(staging, li))
    return {};
  // The next op of the block this unit runs: a loop that loads its first
  // iteration ahead.
  scf::ForOp loop =
      loopAfter(staging, [&](Operation *op) { return runsIn(op, li); });
  if (!loop || receivesBefore(loop))
    return {};
  StagePart part;
  PipelineOp ahead = aheadPipelineOf(loop, li, part);
  if (!ahead)
    return {};
  llvm::SmallDenseSet<Value, 4> staged(staging->getResults().begin(),
                                       staging->getResults().end());
  const PipelineInfo &aheadInfo = kernel.infoOf(ahead);
  for (StageOp stage : work[&li])
    if (stage->getParentOp() == ahead &&
        (part == StagePart::All || !waitsForOtherUnit(stage, aheadInfo, li)) &&
        readsAny(stage, staged))
      return {};
  return readersReadLate(staging, loop, li) ? loop : scf::ForOp();
}

scf::ForOp ProgramBuilder::loadsAfterFirstTrip(PipelineOp staging,
                                               const LaneInstance &li) {
  if (!onlyLoadsStaging(staging, li) || receivesBefore(staging))
    return {};
  scf::ForOp loop =
      loopAfter(staging, [&](Operation *op) { return runsIn(op, li); });
  // A loop that surely runs, emitted as it is (emitOp's last case).
  std::optional<APInt> trips = loop ? loop.getStaticTripCount() : std::nullopt;
  if (!trips || trips->isZero() || receivesBefore(loop))
    return {};
  StagePart part;
  scf::ForOp nested;
  if (lanePipelineOf(loop, li) || aheadPipelineOf(loop, li, part) ||
      storesBehind(loop, li) || feedAheadNest(loop, nested, li) ||
      leadingFeed(loop, li))
    return {};
  // The unit only loads in the loop, once an iteration, each load waiting
  // at most for a copy an earlier execution handed back: its first
  // iteration waits for nothing a reader of the staged buffers does later.
  llvm::SmallDenseSet<Value, 4> staged(staging->getResults().begin(),
                                       staging->getResults().end());
  bool loads = false;
  for (StageOp stage : work[&li]) {
    if (!loop->isAncestor(stage))
      continue;
    auto pipeline = cast<PipelineOp>(stage->getParentOp());
    if (pipeline->getParentOp() != loop || stage.isCompute() ||
        getAllReduce(stage) || getTileCopy(stage) ||
        !stage.getDependsIn().empty() ||
        waitsForOtherUnit(stage, kernel.infoOf(pipeline), li) ||
        readsAny(stage, staged))
      return {};
    for (const PipelineInfo &other : kernel.pipelines)
      for (const Channel &ch : other.regionChannels)
        if (ch.to == stage)
          return {};
    loads = true;
  }
  return loads && readersReadLate(staging, loop, li) ? loop : scf::ForOp();
}

bool ProgramBuilder::deferStagingLoads(PipelineOp staging,
                                       ArrayRef<const LaneInstance *> lanes) {
  if (lanes.empty())
    return false;
  scf::ForOp loop;
  for (const LaneInstance *li : lanes) {
    scf::ForOp mine = loadsAfterFirstTrip(staging, *li);
    if (!mine || (loop && mine != loop))
      return false;
    loop = mine;
  }
  for (const LaneInstance *li : lanes)
    stagingAfterFirstTrip[{loop, li}] = staging;
  return true;
}

FailureOr<SmallVector<Value>> ProgramBuilder::emitStagingAfterFirstTrip(
    scf::ForOp loop, Value first, ArrayRef<LaneWalk> lanes, ValueRange in) {
  OpBuilder &b = *builder;
  size_t numPipelines = countersPerLane();
  SmallVector<Value> out;
  LogicalResult result = success();
  for (size_t k = 0; k < lanes.size(); ++k) {
    const LaneWalk &lane = lanes[k];
    ValueRange mine = in.slice(k * numPipelines, numPipelines);
    PipelineOp staging = stagingAfterFirstTrip.lookup({loop, lane.li});
    if (!staging) {
      out.append(mine.begin(), mine.end());
      continue;
    }
    stagingAfterFirstTrip.erase({loop, lane.li});
    Value guard = lane.active ? arith::AndIOp::create(b, loop.getLoc(), first,
                                                      lane.active)
                              : first;
    out.append(emitGuarded(guard, mine, [&](ValueRange args) {
      IRMapping map = lane.map;
      SmallVector<Value> executions(args);
      if (failed(emitOp(*staging, map, executions, *lane.li)))
        result = failure();
      return executions;
    }));
  }
  if (failed(result))
    return failure();
  return out;
}

LogicalResult ProgramBuilder::emitFirstAhead(scf::ForOp loop, PipelineOp ahead,
                                             StagePart part, IRMapping &map,
                                             ArrayRef<Value> executions,
                                             const LaneInstance &li) {
  OpBuilder &b = *builder;
  auto lb = materialize(loop.getLowerBound(), map),
       ub = materialize(loop.getUpperBound(), map);
  if (failed(lb) || failed(ub))
    return failure();
  LogicalResult result = success();
  emitIf(arith::CmpIOp::create(b, loop.getLoc(), arith::CmpIPredicate::slt, *lb,
                               *ub),
         [&] {
           IRMapping inner = map;
           inner.map(loop.getInductionVar(), *lb);
           result = emitPipeline(
               ahead, inner, executions[kernel.infoOf(ahead).index], li, part);
         });
  return result;
}
