//===- SharedLoads.cpp - A loop's block loaded once for a core's lanes ----===//
//
// A causal attention loads, in each trip t of its key loop, key block t
// (K^T, then V) for its grid point: the block's offsets follow from the
// loop's induction variable and constants, not from the point. Where the
// two lanes of a core share the scratchpad and the DMA engine (spyre_like's
// corelets), the engine's program walks both lanes' key loops together
// (LaneInterleaving.cpp), so trip t loaded the same block twice, into each
// lane's own buffer: 39.2 MB moved for the kernel's 1 MB, each engine's 8
// slots busy with 18 K^T blocks of 128 strided DMAs (docs/scheduler.md).
//
// Now the second lane's copy of such a load stage's buffer is declared at
// the first lane's offsets (one buffer for both lanes, as SharedStaging.cpp
// does for a per-instance buffer), and in trip t the engine loads the block
// once when both lanes have trip t and use the same copy of the buffer
// (their executions of the pipeline agree modulo its copies): the first
// lane's load, then both lanes' "landed" tokens. A lane whose loop is
// longer (the causal halves see different numbers of key blocks) loads
// its own blocks after the other's last trip, and so does each lane when
// their copies disagree.
//
// Each copy of the one buffer then has readers in both lanes: before
// loading into copy c for lane X, the engine takes the tokens that free
// the last execution of each lane that used copy c (its own, N executions
// ago, and the other lane's latest with the same copy). Tokens are taken
// in order, so the engine counts, per lane, the tokens it has taken
// (`freed`, carried with the execution counters) and takes the missing
// ones; at the end, the rest.
//
// A pipeline of the grid's body (a loop unrolled before, as a paged
// attention's pages) runs once a point: its load is shared the same way
// when, in every round, the two lanes' points agree on the coordinates its
// offsets read. ktdf-split-point-rows puts the two halves of a point's rows
// on one core's two lanes; their K and V pages come from the point's
// sequence and head through a block table nothing writes (a gather is
// shared only then), and the engine gathers each page once for both.
//
//===----------------------------------------------------------------------===//

#include "ProgramBuilder.h"

#include "ktflow/Dialect/KTDF/Transforms/RowBlocks.h"

using namespace mlir;
using namespace mlir::ktdf;
using namespace mlir::ktdf::lowering;

/// Whether `v` has the same value in every lane instance at a given value
/// of `iv`: built by index arithmetic and views from `iv`, constants and
/// values defined outside `parallel` (the kernel's arguments).
static bool sameInEveryLane(Value v, Value iv, Operation *parallel) {
  if (v == iv)
    return true;
  Operation *def = v.getDefiningOp();
  if (!def)
    return !parallel->isAncestor(v.getParentBlock()->getParentOp());
  if (!parallel->isAncestor(def))
    return true;
  bool index = def->getDialect() &&
               def->getDialect()->getNamespace() == "arith" &&
               def->getNumRegions() == 0;
  if (!index &&
      !isa<ktdp::ConstructMemoryViewOp, ktdp::ConstructAccessTileOp>(def))
    return false;
  return llvm::all_of(def->getOperands(), [&](Value operand) {
    return sameInEveryLane(operand, iv, parallel);
  });
}

/// The grid dimensions whose coordinates `v` reads (through index
/// arithmetic, views and tiles) in `parallel`, or none when it reads
/// anything else defined in it.
static std::optional<llvm::SmallBitVector>
pointDimsOf(Value v, ParallelOp parallel,
            function_ref<bool(ktdp::ConstructIndirectAccessTileOp)> gather) {
  Block &body = parallel.getBody().front();
  llvm::SmallBitVector dims(body.getNumArguments());
  SmallVector<Value> work{v};
  DenseSet<Value> seen;
  while (!work.empty()) {
    Value x = work.pop_back_val();
    if (!seen.insert(x).second)
      continue;
    if (auto arg = dyn_cast<BlockArgument>(x)) {
      if (arg.getOwner() == &body) {
        dims.set(arg.getArgNumber());
        continue;
      }
      if (parallel->isAncestor(arg.getOwner()->getParentOp()))
        return std::nullopt;
      continue;
    }
    Operation *def = x.getDefiningOp();
    if (!parallel->isAncestor(def))
      continue;
    auto gatherTile = dyn_cast<ktdp::ConstructIndirectAccessTileOp>(def);
    bool index = def->getDialect() &&
                 def->getDialect()->getNamespace() == "arith" &&
                 def->getNumRegions() == 0;
    if (gatherTile ? !gather(gatherTile)
                   : !index && !isa<ktdp::ConstructMemoryViewOp,
                                    ktdp::ConstructAccessTileOp>(def))
      return std::nullopt;
    llvm::append_range(work, def->getOperands());
  }
  return dims;
}

bool KernelLowering::isSharableLoad(StageOp stage) const {
  auto [it, inserted] = sharableLoads.try_emplace(stage, false);
  if (!inserted)
    return it->second;
  auto pipeline = stage->getParentOfType<PipelineOp>();
  auto loop = dyn_cast_or_null<scf::ForOp>(pipeline->getParentOp());
  // A pipeline of the grid's body runs once a point: its load is shared
  // where the two lanes' points agree on the coordinates its offsets read
  // (loadsInPhase).
  bool perPoint = pipeline->getParentOp() == parallel;
  if (pipeline.getPerInstance() ||
      (!perPoint && (!loop || loop->getParentOp() != parallel)) ||
      stage.isCompute() || getAllReduce(stage) || getTileCopy(stage) ||
      stage->hasAttr(kRowBlocksAttrName))
    return false;
  // The loop's trips walk together, lane by lane: no inner loop, no
  // exchange.
  bool plain = true;
  if (loop)
    loop.getBody()->walk([&](Operation *op) {
      if (auto inner = dyn_cast<StageOp>(op))
        plain &= !getAllReduce(inner) && !getTileCopy(inner);
      else if (isa<scf::ForOp>(op) && op->getParentOfType<StageOp>() == nullptr)
        plain = false;
    });
  const PipelineInfo &info = infoOf(pipeline);
  if (!plain || info.workTiles)
    return false;
  // One load of a device memory tile into a buffer of the pipeline.
  DataTransferOp load;
  for (Operation &op : stage.getBody().front()) {
    if (isa<arith::ConstantOp>(op) || op.hasTrait<OpTrait::IsTerminator>())
      continue;
    auto transfer = dyn_cast<DataTransferOp>(op);
    if (!transfer || load)
      return false;
    load = transfer;
  }
  // A gather reads the same indices in both lanes when nothing writes
  // them (SharedIndexReads.cpp).
  auto gather = [&](ktdp::ConstructIndirectAccessTileOp tile) {
    auto base = tile.getBase().getDefiningOp<ktdp::ConstructMemoryViewOp>();
    auto space =
        base ? ktdp::normalizeMemorySpace(base.getMemorySpace()) : std::nullopt;
    return perPoint && space && space->kind != ktdp::MemoryKind::ct_local &&
           llvm::all_of(tile.getIndirectMemrefs(), [&](Value index) {
             auto view = index.getDefiningOp<ktdp::ConstructMemoryViewOp>();
             return view &&
                    const_cast<KernelLowering *>(this)->neverWritten(view);
           });
  };
  auto gathered =
      load ? load.getSrc().getDefiningOp<ktdp::ConstructIndirectAccessTileOp>()
           : nullptr;
  if (!load || !isa<ktdp::AccessTileType>(load.getSrc().getType()) ||
      (!ktdp::getAccessTileView(load.getSrc()) &&
       !(gathered && gather(gathered))) ||
      (!gathered && isScratchpadTile(load.getSrc())) ||
      !load.getStagedIndices().empty() ||
      !load.getDst().getDefiningOp<PrivateOp>() ||
      !isa<MemRefType>(load.getDst().getType()) ||
      load.getDst().getDefiningOp()->getParentOp() != pipeline)
    return false;
  // A plain hand-over each way.
  int64_t forward = 0, back = 0;
  for (const Channel &ch : info.channels) {
    if (ch.from != stage && ch.to != stage)
      continue;
    if (ch.exported || ch.carry || ch.kept || !ch.sendLoops.empty() ||
        ch.receiveBefore)
      return false;
    if (ch.from == stage && ch.copies == 0)
      ++forward;
    else if (ch.to == stage && ch.copies == std::max<int64_t>(info.copies, 1))
      ++back;
    else
      return false;
  }
  for (const PipelineInfo &other : pipelines)
    for (const Channel &ch : other.regionChannels)
      if (ch.from == stage || ch.to == stage)
        return false;
  it = sharableLoads.find(stage);
  if (forward != 1 || back != 1)
    return false;
  if (perPoint) {
    // The coordinates the load's offsets read, for loadsInPhase.
    ParallelOp grid = parallel;
    llvm::SmallBitVector dims(grid.getBody().front().getNumArguments());
    for (Value operand : load->getOperands()) {
      if (operand == load.getDst())
        continue;
      std::optional<llvm::SmallBitVector> read =
          pointDimsOf(operand, parallel, gather);
      if (!read)
        return false;
      dims |= *read;
    }
    pointDims[stage] = dims;
    return it->second = true;
  }
  // Trip t loads the same bytes in every lane.
  Value iv = loop.getInductionVar();
  it->second = sameInEveryLane(loop.getLowerBound(), {}, parallel) &&
               sameInEveryLane(loop.getStep(), {}, parallel) &&
               llvm::all_of(load->getOperands(), [&](Value operand) {
                 return operand == load.getDst() ||
                        sameInEveryLane(operand, iv, parallel);
               });
  return it->second;
}

SmallVector<const LaneInstance *, 2>
KernelLowering::sharedLoadLanes(StageOp stage, const LaneInstance &li) const {
  if (!isSharableLoad(stage))
    return {};
  SmallVector<const LaneInstance *, 2> lanes;
  for (const LaneInstance &other : instances)
    if (other.core == li.core && other.count > 0)
      lanes.push_back(&other);
  auto buffer = cast<MemRefType>(
      (*stage.getBody().front().getOps<DataTransferOp>().begin())
          .getDst()
          .getType());
  StringRef kind = getBufferMemoryKind(buffer);
  if (lanes.size() != 2 ||
      unitOf(stage, *lanes[0]) != unitOf(stage, *lanes[1]) ||
      memoryOf(kind, *lanes[0]) != memoryOf(kind, *lanes[1]))
    return {};
  auto [it, inserted] = inPhaseLoads.try_emplace({stage, li.core}, false);
  if (inserted)
    it->second = loadsInPhase(stage, *lanes[0], *lanes[1]);
  if (!it->second)
    return {};
  return lanes;
}

bool KernelLowering::loadsInPhase(StageOp stage, const LaneInstance &a,
                                  const LaneInstance &b) const {
  auto pipeline = stage->getParentOfType<PipelineOp>();
  auto loop = dyn_cast<scf::ForOp>(pipeline->getParentOp());
  int64_t copies = std::max<int64_t>(infoOf(pipeline).copies, 1);
  int64_t executionsA = 0, executionsB = 0, shared = 0;
  auto dims = pointDims.find(stage);
  for (int64_t j = 0; j < std::max(a.count, b.count); ++j) {
    std::optional<int64_t> tripsA = 0, tripsB = 0;
    int64_t pointA = pointOfRound(parallel, a, j),
            pointB = pointOfRound(parallel, b, j);
    if (j < a.count)
      tripsA = loop ? tripsAtPoint(parallel, loop, pointA) : 1;
    if (j < b.count)
      tripsB = loop ? tripsAtPoint(parallel, loop, pointB) : 1;
    if (!tripsA || !tripsB ||
        (*tripsA && *tripsB && executionsA % copies != executionsB % copies))
      return false;
    // A point's load: the same bytes at both points.
    if (!loop && *tripsA && *tripsB) {
      ParallelOp grid = parallel;
      int64_t stride = grid.getNumPoints();
      for (auto [d, extent] : llvm::enumerate(grid.getExtents())) {
        stride /= extent;
        if (dims->second.test(d) &&
            pointA / stride % extent != pointB / stride % extent)
          return false;
      }
    }
    shared += std::min(*tripsA, *tripsB);
    executionsA += *tripsA;
    executionsB += *tripsB;
  }
  return shared > 0;
}

void ProgramBuilder::collectSharedFrees() {
  for (auto &[li, stages] : work)
    for (const PipelineInfo &info : kernel.pipelines)
      for (const Channel &ch : info.channels)
        if (ch.copies > 0 && kernel.unitOf(ch.to, *li) == unit &&
            !kernel.sharedLoadLanes(ch.to, *li).empty() &&
            !llvm::is_contained(sharedFrees, &ch))
          sharedFrees.push_back(&ch);
}

Value &ProgramBuilder::freedOf(const Channel &ch,
                               MutableArrayRef<Value> counters) {
  auto at = llvm::find(sharedFrees, &ch) - sharedFrees.begin();
  return counters[kernel.pipelines.size() + at];
}

const ProgramBuilder::SharedTurn *
ProgramBuilder::sharedTurnOf(const Channel &ch, const LaneInstance &li) const {
  for (const SharedTurn &turn : sharedTurns)
    if (turn.free == &ch && turn.li == &li)
      return &turn;
  return nullptr;
}

LogicalResult ProgramBuilder::emitSharedLoadWaits(PipelineOp pipeline,
                                                  ArrayRef<LaneWalk *> runs) {
  OpBuilder &b = *builder;
  Location loc = pipeline.getLoc();
  const PipelineInfo &info = kernel.infoOf(pipeline);
  Value c0, c1;
  auto has = [&](LaneWalk *lane) {
    return lane->active
               ? lane->active
               : arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, c0, c0)
                     .getResult();
  };
  auto ifThen = [&](Value condition, Value v) -> Value {
    return arith::SelectOp::create(b, loc, condition, v, c0);
  };
  for (const Channel *ch : sharedFrees) {
    if (ch->to->getParentOp() != pipeline)
      continue;
    SmallVector<const LaneInstance *, 2> pair =
        kernel.sharedLoadLanes(ch->to, *runs.front()->li);
    if (runs.size() != 2 || !llvm::is_contained(pair, runs[0]->li) ||
        !llvm::is_contained(pair, runs[1]->li))
      return pipeline.emitError("unit '")
             << unit << "' loads a block for two lanes outside their walk";
    LaneWalk *x = runs[0], *y = runs[1];
    c0 = constant(0);
    c1 = constant(1);
    int64_t n = ch->copies;
    Value nv = constant(n), hasX = has(x), hasY = has(y);
    Value ex = x->executions[info.index], ey = y->executions[info.index];
    Value cx = arith::RemUIOp::create(b, loc, ex, nv),
          cy = arith::RemUIOp::create(b, loc, ey, nv);
    Value shared = arith::AndIOp::create(
        b, loc, arith::AndIOp::create(b, loc, hasX, hasY),
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, cx, cy));
    // The executions of a lane that counted `e` so far whose tokens free
    // copy `c`: up to its latest with that copy.
    auto freeing = [&](Value e, Value c) -> Value {
      Value back = arith::RemUIOp::create(
          b, loc,
          arith::SubIOp::create(
              b, loc, arith::AddIOp::create(b, loc, e, constant(n - 1)), c),
          nv);
      return arith::MaxSIOp::create(b, loc,
                                    arith::SubIOp::create(b, loc, e, back), c0);
    };
    // X's load needs its own execution N ago and Y's latest with copy cx;
    // Y's (unless shared) its own and X's latest with copy cy, X's load
    // of this trip counted.
    Value exAfter = arith::AddIOp::create(
        b, loc, ex, arith::SelectOp::create(b, loc, hasX, c1, c0));
    Value notShared = arith::CmpIOp::create(
        b, loc, arith::CmpIPredicate::eq,
        arith::SelectOp::create(b, loc, shared, c1, c0), c0);
    Value needX = arith::MaxSIOp::create(
        b, loc, ifThen(hasX, freeing(ex, cx)),
        ifThen(arith::AndIOp::create(b, loc, hasY, notShared),
               freeing(exAfter, cy)));
    Value needY = arith::MaxSIOp::create(b, loc, ifThen(hasY, freeing(ey, cy)),
                                         ifThen(hasX, freeing(ey, cx)));
    for (auto [lane, need] : {std::pair{x, needX}, std::pair{y, needY}}) {
      Value &freed = freedOf(*ch, lane->executions);
      Value missing = arith::MaxSIOp::create(
          b, loc, arith::SubIOp::create(b, loc, need, freed), c0);
      std::string sync = KernelLowering::perLane(ch->base, *lane->li);
      scf::ForOp::create(b, loc, c0, missing, c1, ValueRange{},
                         [&](OpBuilder &, Location, Value, ValueRange) {
                           dfir::SyncRecvOp::create(b, loc, sync);
                           scf::YieldOp::create(b, loc);
                         });
      freed = arith::AddIOp::create(b, loc, freed, missing);
    }
    sharedTurns.push_back({ch, x->li, Value()});
    sharedTurns.push_back({ch, y->li, notShared});
  }
  return success();
}
