//===- ProgramBuilder.h - The program of one unit instance ------*- C++ -*-===//
//
// This file declares ProgramBuilder, the part of --ktdf-to-dfir that builds
// the program of one unit instance: the walk of the kernel's blocks and
// loops its stages need, the orders it issues loop iterations in, and
// synchronisation (UnitProgram.cpp, PipelineExecution.cpp, SkewedLoops.cpp,
// StoresBehind.cpp, FeedAhead.cpp, LanePipelining.cpp,
// LaneInterleaving.cpp, the all-reduce lowering). The transfers it emits,
// with their index values and addresses, are TransferEmitter.h's; the
// kernel-wide state it reads is Lowering.h's.
//
//===----------------------------------------------------------------------===//

#ifndef KTFLOW_LIB_CONVERSION_KTDFTODFIR_PROGRAMBUILDER_H
#define KTFLOW_LIB_CONVERSION_KTDFTODFIR_PROGRAMBUILDER_H

#include "TransferEmitter.h"

#include "llvm/ADT/MapVector.h"

namespace mlir::ktdf::lowering {

/// Whether `loop` runs exactly once (a loop ktdf-coarsen merged whole): its
/// body is emitted once.
inline bool runsOnce(scf::ForOp loop) {
  std::optional<APInt> trips = loop.getStaticTripCount();
  return trips && *trips == 1;
}

/// Where a segment of a unit's program starts (IterationOrder.cpp): the
/// op emitted last before it (null: the block was empty), the pipeline
/// (0 or 1) and the top-level op of the stage it emits, if one.
struct SegmentMark {
  enum Kind { Prologue, Start, Item, End, Broken } kind;
  Block *block;
  Operation *after;
  int pipe;
  Operation *item;
  /// The position of the lane, among those a shared unit walks together,
  /// whose stage this is (0 for a unit of one lane).
  int lane = 0;
};

/// Builds the program of one unit instance.
class ProgramBuilder : public TransferEmitter {
public:
  ProgramBuilder(KernelLowering &kernel, std::string unit)
      : TransferEmitter(kernel, std::move(unit)) {}

  /// The lane instances in which this unit runs stages, and those stages.
  void addWork(const LaneInstance *li, StageOp stage) {
    work[li].push_back(stage);
  }
  LogicalResult build(OpBuilder &b);

private:
  /// Emits the parallel body for one grid point of `li`. `executions`
  /// counts, per pipeline, its executions in the lane so far; returns the
  /// counts after the block.
  FailureOr<SmallVector<Value>> emitBlock(Block &block, IRMapping map,
                                          ValueRange executions,
                                          const LaneInstance &li);
  /// Hands per-instance pipeline `pipeline`'s buffers over to `li`'s
  /// readers, which read an earlier lane's copy (SharedStaging.cpp).
  void emitSharedStagingSends(PipelineOp pipeline, const LaneInstance &li);
  /// Emits one operation of a block (a pipeline or a loop) for `li`.
  LogicalResult emitOp(Operation &op, IRMapping &map,
                       SmallVector<Value> &executions, const LaneInstance &li);
  /// Hands back, at the end of `block`, the buffers its pipelines export.
  void emitBlockEnd(Block &block, const LaneInstance &li);
  /// A copy of `loop` (no iter_args) with its bounds evaluated under
  /// `map`, whose body `body` emits with the induction variable mapped.
  LogicalResult emitLoopCopy(scf::ForOp loop, IRMapping &map,
                             function_ref<LogicalResult(IRMapping &)> body);
  /// Whether this unit takes the tokens of region channel `ch` after the
  /// sender's loops (Channel::receiveBefore) rather than once per
  /// execution: only a unit that serves one lane, whose program has one
  /// place before the later stage.
  bool receivesLater(const Channel &ch) const;
  /// Whether this unit takes the token of region channel `ch` in the
  /// receiving stage (a transfer stage just before its first transfer of a
  /// scratchpad view, an all-reduce or tile copy before it starts) rather
  /// than when its program passes the sender: the two pipelines are in the
  /// same block, so each execution of the sender is followed by one of the
  /// receiver.
  bool waitsInStage(const Channel &ch, const LaneInstance &li);
  /// One token of region channel `ch` in `li`'s program: sent by the
  /// sender (`send`) or taken by the receiver. Across lanes
  /// (Channel::acrossLanes), the sender signals the other lane's receiver
  /// as well and each receiver takes both lanes' tokens.
  void emitRegionToken(Location loc, const Channel &ch, const LaneInstance &li,
                       bool send);
  /// The receipts of the channels deferred to just before `op`.
  LogicalResult emitDeferredReceives(Operation &op, const IRMapping &map,
                                     const LaneInstance &li);
  /// One lane instance while a unit that serves several walks their grid
  /// points together (LaneInterleaving.cpp).
  struct LaneWalk {
    const LaneInstance *li;
    /// The lane's grid point coordinates and what is computed from them.
    IRMapping map;
    /// Whether the lane has a point in this round (null: always).
    Value active;
    SmallVector<Value> executions;
    /// The lane's pipeline executions over all its points (executionsOf),
    /// 0 for every lane when one's is unknown: lanes with more go first.
    int64_t work = 0;
  };
  /// The pipeline executions of all of `li`'s grid points, the loops' trip
  /// counts folded at each point; none when one does not fold
  /// (LaneWork.cpp).
  std::optional<int64_t> executionsOf(const LaneInstance &li) const;
  /// Emits `block` for all `lanes` op by op, but `skip`; a loop several of
  /// them run becomes one loop whose iteration t runs iteration t of each
  /// lane.
  LogicalResult emitLanesTogether(Block &block, MutableArrayRef<LaneWalk> lanes,
                                  Operation *skip = nullptr);
  // Blocks loaded once for the two lanes of a core (SharedLoads.cpp).
  /// The channels handing back a buffer this unit loads for two lanes.
  void collectSharedFrees();
  /// Per lane, the counters carried through loops: the executions of each
  /// pipeline, then the tokens taken of each channel of sharedFrees.
  size_t countersPerLane() const {
    return kernel.pipelines.size() + sharedFrees.size();
  }
  /// The tokens of `ch` taken so far, in a lane's `counters`.
  Value &freedOf(const Channel &ch, MutableArrayRef<Value> counters);
  /// A lane's execution of a pipeline whose buffer it shares: the waits
  /// are taken; it loads the block when `load` holds (null: always).
  struct SharedTurn {
    const Channel *free;
    const LaneInstance *li;
    Value load;
  };
  const SharedTurn *sharedTurnOf(const Channel &ch,
                                 const LaneInstance &li) const;
  /// Before `runs` (two lanes of a core) execute `pipeline`: the tokens
  /// each shared load needs, and the turns (sharedTurns) of both lanes.
  LogicalResult emitSharedLoadWaits(PipelineOp pipeline,
                                    ArrayRef<LaneWalk *> runs);
  SmallVector<const Channel *> sharedFrees;
  SmallVector<SharedTurn> sharedTurns;
  /// Whether `runs` can walk the loop body `body` together: no op of it
  /// issues a loop's first loads ahead for one of them.
  bool walksTogether(Block &body, ArrayRef<LaneWalk *> runs);
  /// Whether a unit other than this one that `runs` share waits in `loop`
  /// (has a stage in it, or passes its pipelines).
  bool othersWaitIn(scf::ForOp loop, ArrayRef<LaneWalk *> runs);
  /// A loop of a body this unit may serve lane after lane: at most `copies`
  /// trips of it (none: any number) cannot make a lane wait for the unit.
  struct TurnLoop {
    scf::ForOp loop;
    std::optional<int64_t> copies;
  };
  /// Whether this unit may serve each iteration of a loop of body `body`
  /// lane after lane (each lane's inner loops whole): it runs stages in
  /// `loops` (none deeper) that hand no buffer on to a lane (stores), and
  /// no other unit `runs` share waits in any loop of the body.
  bool turnLoops(Block &body, ArrayRef<LaneWalk *> runs,
                 SmallVector<TurnLoop> &loops);
  /// Whether, in the iteration of `outer` whose induction variable is
  /// `ivOf(k)` for lane k of `runs` (which has it when `hasOf(k)`), no lane
  /// runs more trips of `loops` than their copies: served lane after lane,
  /// no lane then waits for the unit.
  FailureOr<Value> tripsFit(scf::ForOp outer, ArrayRef<TurnLoop> loops,
                            ArrayRef<LaneWalk *> runs,
                            function_ref<Value(size_t)> hasOf,
                            function_ref<Value(size_t)> ivOf);
  /// ceil(max(ub - lb, 0) / step) of `loop` under `map`, given the
  /// constants 0 and 1.
  FailureOr<Value> tripsOf(scf::ForOp loop, IRMapping &map, Value c0, Value c1);
  /// A loop's trips (tripsOf), first iteration and step under `map`, for a
  /// unit that emits its trips in another order.
  struct TripWalk {
    Value trips, lb, step;
  };
  FailureOr<TripWalk> tripWalkOf(scf::ForOp loop, IRMapping &map, Value c0,
                                 Value c1);
  /// The induction variable of trip `t` of `walk`.
  Value ivAtTrip(const TripWalk &walk, Value t, Location loc);
  /// `body(in)` when `active` holds (always when null), else `in`.
  SmallVector<Value>
  emitGuarded(Value active, ValueRange in,
              function_ref<SmallVector<Value>(ValueRange)> body);
  /// Which of a unit's stages of a pipeline to emit: all, or (in a
  /// skewed loop) those before or from the first one that waits for a
  /// buffer another unit fills in the same execution.
  enum class StagePart { All, Loads, Stores };
  LogicalResult emitPipeline(PipelineOp pipeline, IRMapping &map,
                             Value execution, const LaneInstance &li,
                             StagePart part = StagePart::All);
  /// Whether `stage` waits for a buffer another unit fills in the same
  /// execution of its pipeline (a store after a drain).
  bool waitsForOtherUnit(StageOp stage, const PipelineInfo &info,
                         const LaneInstance &li);
  /// The one pipeline of `loop`'s body this unit runs, when the unit loads
  /// its inputs and stores its outputs and nothing but the pipeline's own
  /// buffer hand-overs orders them (SkewedLoops.cpp); else null.
  PipelineOp skewablePipeline(scf::ForOp loop, const LaneInstance &li);
  /// Whether this unit's stages of `only` load, then store after a buffer
  /// another unit fills, and nothing but the pipeline's own buffer
  /// hand-overs (two or more copies) orders them.
  bool loadsThenStores(PipelineOp only, const LaneInstance &li);
  /// Whether this unit's stages of `pipeline` are transfers, one or more
  /// that load and then one or more that store after a buffer another
  /// unit fills.
  bool transfersLoadThenStore(PipelineOp pipeline, const LaneInstance &li);
  /// The one pipeline a unit serving the single lane `li` runs at each of
  /// its two or more grid points, directly in the grid's body or in a loop
  /// of one trip (`once`), when loadsThenStores holds; else null. The
  /// unit's grid points are then skewed as a skewed loop's iterations.
  PipelineOp skewablePoints(const LaneInstance &li, scf::ForOp &once);
  /// When skewablePoints finds a pipeline, the unit's walk over its lane's
  /// grid points (`pointAt` maps a round to the point's coordinates) with
  /// the loads of each point issued before the stores of the previous one,
  /// marked dfir.skewed; `totals` gets the executions per pipeline after
  /// it. Else emits nothing and leaves `totals` empty.
  LogicalResult
  emitSkewedPoints(function_ref<IRMapping(const LaneInstance *, Value)> pointAt,
                   ValueRange zeros, SmallVector<Value> &totals);
  /// Whether this unit loads and then stores `pipeline`, which yields
  /// nothing, runs by iteration with no partner and whose stages here no
  /// region channel reaches (LoadsFirstRuns.cpp).
  bool loadsFirstMember(PipelineOp pipeline, const LaneInstance &li);
  /// Whether this unit's loads of `pipeline` may touch what its stores of
  /// a pipeline of `run` touch, one of them writing: loads first would
  /// move them ahead of those stores (LoadsFirstRuns.cpp).
  bool overtakesRunStores(PipelineOp pipeline, ArrayRef<PipelineOp> run,
                          const LaneInstance &li);
  /// The two or more consecutive pipelines from `from` of a unit serving
  /// the single lane `li` that are loadsFirstMember; else empty.
  SmallVector<PipelineOp> loadsFirstRun(Operation &from,
                                        const LaneInstance &li);
  /// The loads of every pipeline of `run`, then their stores; each
  /// pipeline's execution counted once.
  LogicalResult emitLoadsFirstRun(ArrayRef<PipelineOp> run, IRMapping &map,
                                  SmallVector<Value> &executions,
                                  const LaneInstance &li);
  /// The ops of `block` in the order this unit emits them: block order,
  /// but a pipeline this unit only loads goes before the all-reduces just
  /// before it whose rings this unit sends (LoadsFirstRuns.cpp).
  SmallVector<Operation *> unitOrder(Block &block, const LaneInstance &li);
  /// Whether this unit's stages of `pipeline` are all-reduce sends.
  bool sendsExchangeOnly(PipelineOp pipeline, const LaneInstance &li);
  /// Whether this unit's stages of `pipeline` only load, nothing but the
  /// pipeline's own buffers ordering them, so that they may go ahead of an
  /// exchange's remote DMAs.
  bool onlyLoadsAhead(PipelineOp pipeline, const LaneInstance &li);
  /// The two or more pipelines of the grid's body a unit serving the single
  /// lane `li` runs at each of its two or more points, when its stages of
  /// each load and then store, with two or more copies, and no channel
  /// between pipelines reaches it (SkewedPointPipelines.cpp); else empty.
  SmallVector<PipelineOp> skewablePointPipelines(const LaneInstance &li);
  /// emitSkewedPoints for the pipelines skewablePointPipelines found: the
  /// loads of every pipeline of each point before the stores of the
  /// previous point.
  LogicalResult emitSkewedPointPipelines(
      ArrayRef<PipelineOp> pipelines,
      function_ref<IRMapping(const LaneInstance *, Value)> pointAt,
      ValueRange zeros, SmallVector<Value> &totals);
  /// The one loop of the grid's body a unit serving the single lane `li`
  /// runs at each of its two or more points (up to 8), when the loop
  /// would be skewed (its one pipeline loads, then stores, on this unit:
  /// skewablePipeline) (SkewedPointLoops.cpp); else null.
  PipelineOp skewablePointLoop(const LaneInstance &li, scf::ForOp &loop);
  /// emitSkewedPoints for the loop skewablePointLoop found: the lane's
  /// executions of `pipeline` as one stream across its points, the loads
  /// of execution e + copies - 1 before the stores of e.
  LogicalResult emitSkewedPointLoops(
      scf::ForOp loop, PipelineOp pipeline,
      function_ref<IRMapping(const LaneInstance *, Value)> pointAt,
      ValueRange zeros, SmallVector<Value> &totals);
  /// The skewed walk over `li`'s points of `pipelines`: `emitAt(j,
  /// executions, part)` emits this unit's loads or stores at round j, the
  /// first point's loads before the loop, then per round the next point's
  /// loads (guarded) before this point's stores; the loop is marked
  /// dfir.skewed and `totals` gets the executions after it.
  void
  emitSkewedPointWalk(const LaneInstance &li, ArrayRef<PipelineOp> pipelines,
                      ValueRange zeros,
                      function_ref<void(Value, ValueRange, StagePart)> emitAt,
                      scf::ForOp once, SmallVector<Value> &totals);
  /// `loop` with the loads of each iteration issued before the stores of
  /// the previous one.
  LogicalResult emitSkewedLoop(scf::ForOp loop, PipelineOp pipeline,
                               IRMapping &map, SmallVector<Value> &executions,
                               const LaneInstance &li);
  /// The pipeline that closes `loop`'s body for this unit, when this unit's
  /// stages of it only store buffers other units fill in two or more
  /// copies, nothing but those hand-overs orders them, and the rest of the
  /// body holds an exchange this unit runs (StoresBehind.cpp); else null.
  PipelineOp storesBehind(scf::ForOp loop, const LaneInstance &li);
  /// The same pipeline for every lane of `runs`; else null.
  PipelineOp storesBehind(scf::ForOp loop, ArrayRef<LaneWalk *> runs);
  /// A loop of `trips` + 1 iterations whose iteration t runs `rest(t)` then
  /// `storesOf(t)` (each guarding itself), from `init`.
  scf::ForOp emitStoresBehind(
      Location loc, Value trips, ValueRange init,
      function_ref<SmallVector<Value>(Value t, ValueRange)> rest,
      function_ref<SmallVector<Value>(Value t, ValueRange)> storesOf);
  /// `loop` with the stores of `stores` of each iteration issued after the
  /// rest of the next one; with `span` (leadingSpanLoads), the span of each
  /// iteration issued before the rest of the previous one.
  LogicalResult emitStoresBehindLoop(scf::ForOp loop, PipelineOp stores,
                                     PipelineOp span, IRMapping &map,
                                     SmallVector<Value> &executions,
                                     const LaneInstance &li);
  /// The lane pipelining of `loop` when this unit runs its partial
  /// (LanePipelining.cpp); else null.
  const LanePipeline *lanePipelineOf(scf::ForOp loop, const LaneInstance &li);
  /// `loop` with the span and partial of trip t + 1 before the use of trip
  /// t, the partial of trip 0 before it.
  LogicalResult emitLanePipelinedLoop(scf::ForOp loop, const LanePipeline &lp,
                                      IRMapping &map,
                                      SmallVector<Value> &executions,
                                      const LaneInstance &li);
  /// The waits this unit takes when its program passes `info`'s pipeline:
  /// region channels from it, buffers it exports to this unit.
  void emitPassReceipts(const PipelineInfo &info, const LaneInstance &li);
  /// Each lane's first iteration, step and trips of a loop several lanes
  /// walk together, and the most trips of any.
  struct LaneTrips {
    SmallVector<Value> lbs, steps, trips;
    Value most;
  };
  /// emitStoresBehindLoop for `runs` walked together (`init` their
  /// executions, lane after lane); returns their executions after it.
  FailureOr<SmallVector<Value>> emitLanesStoresBehind(scf::ForOp loop,
                                                      PipelineOp stores,
                                                      ArrayRef<LaneWalk *> runs,
                                                      const LaneTrips &lanes,
                                                      ValueRange init);
  /// The pipeline (not per instance) that opens `loop`'s body for this
  /// unit, when the unit has more of the body to run after it; else null.
  PipelineOp leadingPipeline(scf::ForOp loop, const LaneInstance &li);
  /// Whether a region channel's receiver takes its tokens just before `op`.
  bool receivesBefore(Operation *op) const;
  /// The pipeline that opens `loop`'s body for this unit, when it only
  /// loads (a row span, two or more copies) a buffer other units read and
  /// the unit has more of the body to run (SkewedLoops.cpp); else null.
  PipelineOp leadingSpanLoads(scf::ForOp loop, const LaneInstance &li);
  /// `loop` with `span`'s loads of each iteration issued before the rest of
  /// the previous iteration's body.
  LogicalResult emitSpanAheadLoop(scf::ForOp loop, PipelineOp span,
                                  IRMapping &map,
                                  SmallVector<Value> &executions,
                                  const LaneInstance &li);
  /// `loop` with `ahead`'s `part` issued `distance` iterations ahead (the
  /// first `distance` before the loop), then `rest` of each iteration;
  /// marked dfir.skewed.
  LogicalResult
  emitLoadAheadLoop(scf::ForOp loop, PipelineOp ahead, StagePart part,
                    IRMapping &map, SmallVector<Value> &executions,
                    const LaneInstance &li,
                    function_ref<LogicalResult(Value iv, ValueRange args,
                                               SmallVector<Value> &after)>
                        rest,
                    int64_t distance = 1);
  /// The pipeline that opens `loop`'s body for this unit, when the unit
  /// serves one lane, has more of the body to run, and its one stage of the
  /// pipeline feeds, from loads, one compute stage that reads every entry
  /// before it writes, the loads and the compute on units that run nothing
  /// else in the loop (FeedAhead.cpp); else null.
  PipelineOp leadingFeed(scf::ForOp loop, const LaneInstance &li);
  /// leadingFeed of `inner`, when `outer`'s body runs only that loop on
  /// this unit, no region channel is received just before it, and it has
  /// constant bounds and at least one trip; else null.
  PipelineOp feedAheadNest(scf::ForOp outer, scf::ForOp &inner,
                           const LaneInstance &li);
  /// `loop` (inside `outer`, if not null) with `feed` of the next iteration
  /// of the nest issued before the rest of each iteration's body.
  LogicalResult emitFeedAhead(scf::ForOp outer, scf::ForOp loop,
                              PipelineOp feed, IRMapping &map,
                              SmallVector<Value> &executions,
                              const LaneInstance &li);
  /// The skewed or span-ahead pipeline of `loop` (SkewedLoops.cpp) and the
  /// `part` of it issued one iteration ahead; else null.
  PipelineOp aheadPipelineOf(scf::ForOp loop, const LaneInstance &li,
                             StagePart &part);
  /// Emits `ahead`'s `part` for `loop`'s first iteration, if it has one.
  LogicalResult emitFirstAhead(scf::ForOp loop, PipelineOp ahead,
                               StagePart part, IRMapping &map,
                               ArrayRef<Value> executions,
                               const LaneInstance &li);

  // Staged buffers waited for where they are read (LateStaging.cpp).
  /// A staged buffer's hand-over the reader takes in its stage, and the
  /// index of the reader's pipeline.
  struct DeferredExport {
    const Channel *channel;
    unsigned readerIndex;
  };
  /// For an export channel into a transfer stage that runs a pass over
  /// other data (a loop of transfers, or an earlier pipeline's transfers
  /// on its unit in the loop body holding it) before it first reads the
  /// staged buffers: the op of the stage (inside loops of one trip, or in
  /// the first iteration of a loop of constant bounds that runs) before
  /// which it waits for them; else null.
  Operation *lateExportRead(const Channel &ch, const LaneInstance &li);
  /// `condition` and, for each loop of more than one trip around `at` in
  /// `stage`, that its variable (through `map`) is at its lower bound.
  Value firstIterationOf(Operation *at, StageOp stage, IRMapping &map,
                         Value condition);
  /// For a channel between two transfer stages of one pipeline: the op of
  /// the reader (`isReader`) before which it waits for the buffers the
  /// writer fills, or of the writer after which it hands on the buffers
  /// the reader empties, when that op runs once per execution and other
  /// data moves before (after) it; else null (BlockHandOvers.cpp).
  Operation *handOverPoint(const Channel &ch, bool isReader);
  /// Where this unit passes `staging` in `block`: defers the waits for its
  /// buffers that a later op of the block reads late (lateExportRead),
  /// noting the reader's executions so far in deferredExports.
  void deferExportWaits(PipelineOp staging, Block &block,
                        ArrayRef<Value> executions, const LaneInstance &li,
                        SmallVector<DeferredExport> &deferred);
  /// At the end of the block: the waits of `deferred` whose reader did not
  /// run after the staging pipeline.
  void takeDeferredExports(ArrayRef<DeferredExport> deferred,
                           ArrayRef<Value> executions, const LaneInstance &li);
  /// The loop after `staging` whose first iteration's loads this unit
  /// issues before `staging`'s (every reader of the staged buffers in it
  /// reads them late); else null.
  scf::ForOp loadsBeforeStaging(PipelineOp staging, const LaneInstance &li);
  /// Whether this unit only loads `staging`'s buffers: none of its stages
  /// computes, exchanges or waits for another unit, no region channel
  /// orders the pipeline.
  bool onlyLoadsStaging(PipelineOp staging, const LaneInstance &li);
  /// Whether every reader of `staging`'s buffers is in `loop` and reads
  /// them late (lateExportRead).
  bool readersReadLate(PipelineOp staging, scf::ForOp loop,
                       const LaneInstance &li);
  /// The loop after `staging` at the end of whose first iteration this
  /// unit issues `staging`'s loads: the unit only loads there, once per
  /// iteration, nothing another unit does orders those loads, and every
  /// reader of the staged buffers reads them late in the loop; else null.
  scf::ForOp loadsAfterFirstTrip(PipelineOp staging, const LaneInstance &li);
  /// Whether `staging`'s loads go after the first iteration of one loop
  /// for all `lanes` (loadsAfterFirstTrip); if so, noted for that loop.
  bool deferStagingLoads(PipelineOp staging,
                         ArrayRef<const LaneInstance *> lanes);
  /// Emits the staging pipelines deferred to `loop`'s first iteration,
  /// guarded by `first` and each lane's `active`, for `lanes` (their
  /// executions in `in`, one slice each); returns the executions after.
  FailureOr<SmallVector<Value>>
  emitStagingAfterFirstTrip(scf::ForOp loop, Value first,
                            ArrayRef<LaneWalk> lanes, ValueRange in);

  // Tiles handed to the feed, or by the drain, in blocks of rows
  // (RowBlockHandOvers.cpp).
  /// The channel on which `stage`, marked ktdf.row_blocks, hands its tile
  /// to the feed (a store: the drain hands it the tile) block by block
  /// (setting `blocks`): a plain hand-over each way; else null, and the
  /// tile goes whole.
  const Channel *rowBlockChannel(const PipelineInfo &info, StageOp stage,
                                 int64_t &blocks);
  /// The load (or store) stages `group` (each with a rowBlockChannel of
  /// `blocks` blocks): their waits, then for each k block k of each tile
  /// moved and its token sent (a store: taken first), then their other
  /// hand-overs.
  LogicalResult
  emitRowBlockTransfers(ArrayRef<StageOp> group, int64_t blocks,
                        const PipelineInfo &info, IRMapping &map, Value copy,
                        const LaneInstance &li,
                        function_ref<void(const Channel &)> emitWait);
  /// The DMA of `rows` rows of a tile from row `first`, clamped to its
  /// `validRows`.
  void emitRowBlockDma(Location loc, const TileDma &dma, Value validRows,
                       Value first, int64_t rows);
  /// The feed's wait for (`send`: the drain's hand-over of) the blocks of
  /// `channel`'s tile, in `loop` (its rows) every `blockRows` rows.
  struct RowBlockHandOver {
    const Channel *channel;
    scf::ForOp loop;
    int64_t blockRows;
    bool send;
    bool emitted = false;
  };
  /// At the start (`sends`: the end) of an iteration of `loop`, the waits
  /// (sends) of `handOvers` in it.
  void emitRowBlockHandOvers(scf::ForOp loop, IRMapping &inner,
                             MutableArrayRef<RowBlockHandOver> handOvers,
                             bool sends, const LaneInstance &li);

  // Loads of a lane's consecutive executions as one transfer
  // (MergedLoads.cpp).
  /// The executions one transfer of `stage` loads in `li` (its
  /// ktdf.merged_executions, where the lowering proves the tiles
  /// contiguous), else 1.
  int64_t mergedExecutions(StageOp stage, const PipelineInfo &info,
                           const LaneInstance &li);
  /// Whether the tiles `transfer` loads in each group of `merge`
  /// consecutive points of `li` are consecutive whole-row tiles inside
  /// their view, each `copyBytes` long: their origins folded to constants.
  bool tilesContiguous(DataTransferOp transfer, int64_t merge,
                       int64_t copyBytes, const LaneInstance &li);
  /// Execution `execution` of merged load `stage`: the first of each group
  /// takes the group's free copies and loads its tiles as one transfer;
  /// every execution sends its token.
  LogicalResult emitMergedLoad(StageOp stage, int64_t merge,
                               const PipelineInfo &info, IRMapping &map,
                               Value execution, Value copy,
                               const LaneInstance &li);

  /// `stage`'s part of the ring all-reduce `op` for `li`
  /// (AllReduceLowering.cpp).
  LogicalResult emitAllReduce(StageOp stage, AllReduceOp op,
                              const LaneInstance &li);
  /// `li`'s sends and receipts of the tile copies of `stage`
  /// (TileCopyLowering.cpp).
  LogicalResult emitTileCopies(StageOp stage, const LaneInstance &li);
  /// `li`'s sends of `op`, the `k`th copy of pipeline `index`'s stage.
  LogicalResult emitCopySends(TileCopyOp op, size_t k, unsigned index,
                              const LaneInstance &li);
  /// A chunk loop that only drains one slot into consecutive chunks of a
  /// buffer or scratchpad view (`for c { slot -> buf[r, c] }`) becomes one
  /// store of all its entries, which waits for its last byte once instead
  /// of once per chunk; so does a row loop around it covering whole rows
  /// of a buffer (the rows are contiguous) unless `handsOver` holds for an
  /// op inside. Fails to match (returns false) otherwise.
  FailureOr<bool> emitStoreRun(scf::ForOp loop, IRMapping &map,
                               const LaneInstance &li, Value copy,
                               function_ref<bool(Operation *)> handsOver);

  LogicalResult emitTransfer(DataTransferOp op, IRMapping &map,
                             const LaneInstance &li, Value copyOffset);
  /// A chunk between a FIFO slot and an access tile the load or store unit
  /// reaches directly (a scratchpad view, or device memory).
  LogicalResult emitTileChunk(DataTransferOp op, IRMapping &map,
                              const LaneInstance &li);
  bool runsIn(Operation *op, const LaneInstance &li);

  llvm::MapVector<const LaneInstance *, SmallVector<StageOp>> work;
  /// Per deferred export channel, the reader pipeline's executions when
  /// the program passed the staging pipeline: the reader waits in that
  /// execution.
  llvm::DenseMap<const Channel *, Value> deferredExports;
  /// A loop whose first iteration's loads were issued before the staging
  /// pipeline ahead of it (loadsBeforeStaging).
  Operation *aheadIssued = nullptr;
  /// Per loop, the staging pipeline this unit loads at the end of its
  /// first iteration (loadsAfterFirstTrip).
  llvm::DenseMap<std::pair<Operation *, const LaneInstance *>, PipelineOp>
      stagingAfterFirstTrip;
  /// Whether the pipeline being emitted runs only its synchronisation in
  /// this lane instance (KernelLowering::runsWork): no transfer, no
  /// compute.
  bool syncOnly = false;
  /// While emitting a lane-pipelined loop: the loop's pipelining; whether
  /// the partial waits for the previous trip's use (back channels), and
  /// when the use hands them on (null: never).
  const LanePipeline *lanePipeline = nullptr;
  bool backWaits = false;
  Value backSendGuard;
  /// Whether the pipeline being emitted leaves its pass receipts to the
  /// caller (emitPassReceipts).
  bool deferPassReceipts = false;
  /// While emitting two pipelines whose stages this unit runs in
  /// iteration order (IterationOrder.cpp): where each segment of the
  /// program starts, and which pipeline of the two is being emitted.
  SmallVector<SegmentMark> *segmentMarks = nullptr;
  int segmentPipe = 0, segmentLane = 0;
  /// Marks a segment of `stage` starting here: the part of the stage
  /// before its first top-level op (`kind` Start), top-level op `item`
  /// (Item), or the hand-overs after its last (End).
  void markSegment(SegmentMark::Kind kind, Operation *item = nullptr);
  /// The pipeline after `pipeline` in its block whose stages on this unit
  /// run interleaved with its own, by iteration (IterationOrder.cpp).
  PipelineOp iterationPartner(PipelineOp pipeline);
  /// Emits pipelines `first` and `second` for `runs`, the lanes of a
  /// shared unit walked together, their stages merged by iteration across
  /// the lanes; false (nothing emitted) where that does not apply.
  FailureOr<bool> emitLanesByIteration(PipelineOp first, PipelineOp second,
                                       ArrayRef<LaneWalk *> runs);
  /// Reorders the ops emitted after `before` (null: from the block's
  /// start) for pipelines `first` and `second` by iteration.
  void orderByIteration(Block *block, Operation *before, PipelineOp first,
                        PipelineOp second, ArrayRef<SegmentMark> marks);
  /// Per (load stage, lane instance), mergedExecutions.
  llvm::DenseMap<std::pair<Operation *, const LaneInstance *>, int64_t>
      mergedLoads;
};

} // namespace mlir::ktdf::lowering

#endif // KTFLOW_LIB_CONVERSION_KTDFTODFIR_PROGRAMBUILDER_H
