//===- Lowering.h - Shared state of the ScheduleIR lowering -----*- C++ -*-===//
//
// This file declares the pieces of --ktdf-to-dfir: KernelLowering (the
// grid over cores and lanes in KTDFToDFIR.cpp, tensors and runtime symbols
// in KernelTensors.cpp, buffers, FIFOs and sync channels in
// PipelineResources.cpp), ProgramBuilder (one unit instance's program: the
// loops and address arithmetic its stages need, transfers,
// synchronisation) and the compute-stage lowering (linalg on chunks to
// dfir vector ops).
//
//===----------------------------------------------------------------------===//

#ifndef KTFLOW_LIB_CONVERSION_KTDFTODFIR_LOWERING_H
#define KTFLOW_LIB_CONVERSION_KTDFTODFIR_LOWERING_H

#include "ktflow/Dialect/DFIR/IR/DFIR.h"
#include "ktflow/Dialect/KTDF/IR/KTDF.h"
#include "ktflow/Dialect/KTDF/Transforms/IndirectTiles.h"
#include "ktflow/Dialect/KTDP/IR/KTDP.h"
#include "ktflow/Scheduler/ScheduleTarget.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"
#include "llvm/ADT/MapVector.h"

#include <map>
#include <string>

namespace mlir::linalg {
class GenericOp;
} // namespace mlir::linalg

namespace mlir::ktdf::lowering {

/// One instance of the distributed grid: a lane of a core and its tiles.
struct LaneInstance {
  int64_t core = 0;
  unsigned lane = 0;
  /// Linear ids [start, start + count) of the grid points it runs.
  int64_t start = 0, count = 0;
};

/// A sync channel between two stages of a pipeline, per lane instance.
struct Channel {
  StageOp from, to;
  /// 0 for a channel that hands a buffer forward (one token per execution).
  /// For the channel that hands it back, the copies of the buffer: the
  /// receiver (the writer of the buffer) waits only from its N-th execution
  /// on, and takes the last min(N, executions) tokens when it is done.
  int64_t copies = 0;
  std::string base;
  /// A hand-over of a buffer a pipeline exports to a stage of a later
  /// pipeline: the reader waits when its program passes the exporting
  /// pipeline and hands the buffer back at the end of the block that holds
  /// it.
  bool exported = false;
  /// A loop-carried view handed from its writer to the stage that reads it
  /// on the next execution: a transfer stage waits just before its first
  /// transfer from a carried view, after the transfers that need no wait.
  bool carry = false;
  /// A buffer marked `ktdf.kept` (ktdf-tile-streams) that a later stage
  /// (the drain) writes and an earlier one (the feed) reads in the same
  /// execution: the writer hands it over right after the loop that writes
  /// it, the reader waits just before the loop that reads it.
  Value kept;
  /// A region channel from a pipeline inside loops to a stage after them:
  /// `sendLoops` (outermost first) run the sender, and a receiver that
  /// serves one lane may take all their tokens just before `receiveBefore`
  /// (the op holding the later stage) instead of once per execution, so
  /// it runs the loops' other stages ahead of the sender.
  SmallVector<scf::ForOp, 0> sendLoops;
  Operation *receiveBefore = nullptr;
};

/// What the lowering knows of one pipeline.
struct PipelineInfo {
  PipelineOp op;
  unsigned index = 0;
  int64_t copies = 1;
  /// Per private buffer: its dfir symbol base name and bytes of one copy.
  llvm::DenseMap<Value, std::pair<std::string, int64_t>> buffers;
  SmallVector<Channel, 0> channels;
  /// Channels from a stage of this pipeline to a stage of a later one that
  /// touches the same scratchpad view: the sender signals after its stage,
  /// the receiver waits when its program passes this pipeline.
  SmallVector<Channel, 0> regionChannels;
};

class KernelLowering {
public:
  KernelLowering(const ktflow::sched::ScheduleTarget &target,
                 func::FuncOp func)
      : target(target), func(func) {}

  LogicalResult run(OpBuilder &moduleBuilder);

  // Queried by ProgramBuilder.
  const ktflow::sched::ScheduleTarget &target;
  func::FuncOp func;
  ParallelOp parallel;
  SmallVector<LaneInstance> instances;
  SmallVector<PipelineInfo> pipelines;
  llvm::DenseMap<Value, std::string> tensorSymbols;  // func arg -> symbol
  /// Literal start address (elements) -> symbol, for views at literal
  /// addresses: each becomes a tensor of its own.
  std::map<int64_t, std::string> literalSymbols;
  /// The tensor type of each tensor symbol (ktflow/Analysis/TensorExtent.h)
  /// and, per dynamic dimension, the runtime argument giving it.
  llvm::StringMap<std::pair<RankedTensorType, SmallVector<int64_t>>>
      tensorTypes;
  /// The symbol of the tensor a view starts (a kernel argument or a literal
  /// address), or "".
  std::string tensorOf(Value viewOffset) const;
  /// Per device memory kind: bytes of the kernel's own scratchpad views at
  /// the start of each lane's region (`ktdf.local`).
  llvm::StringMap<int64_t> localBytes;
  /// The buffer symbol standing for the kernel's scratchpad views of memory
  /// `kind` in lane instance `li`.
  static std::string localOf(StringRef kind, const LaneInstance &li);
  llvm::DenseMap<Value, std::string> runtimeSymbols; // func arg -> symbol
  std::string globalMemory;

  /// The unit instance that runs `stage` for lane instance `li` (on the
  /// lane `kLaneOffsetAttr` counts on from li's, if the stage has it).
  std::string unitOf(StageOp stage, const LaneInstance &li) const;
  /// `li` on the lane `offset` lanes on of the same core (its symbols and
  /// units; its points stay li's).
  static LaneInstance onLane(const LaneInstance &li, int64_t offset);
  /// Whether two stages run on the same unit of a lane instance.
  static bool onSameUnit(StageOp a, StageOp b);
  /// The description of the unit that runs `stage` (in every lane), if any.
  const ktdf_arch::UnitSpec *unitSpecOf(StageOp stage) const;
  /// The memory instance of buffer kind `kind` for lane instance `li`.
  std::string memoryOf(StringRef kind, const LaneInstance &li) const;
  /// Symbol names, made unique per lane instance.
  static std::string perLane(StringRef base, const LaneInstance &li);
  /// The FIFO symbol carrying `slot` for lane instance `li`.
  std::string fifoOf(Value slot, const LaneInstance &li) const;
  const PipelineInfo &infoOf(PipelineOp op) const;
  /// Exported buffers (results of pipelines) -> the exporting pipeline's
  /// private buffer, which has a single copy.
  llvm::DenseMap<Value, Value> exported;
  /// The tiles of lane instance `li`'s group in an all-reduce, in the
  /// ring's order (their cores' ringRankOfCore), and li's position among
  /// them.
  struct RingPlace {
    SmallVector<const LaneInstance *> members;
    unsigned index = 0;
  };
  FailureOr<RingPlace> ringOf(AllReduceOp op, const LaneInstance &li) const;
  /// Where `core` comes on a ring through the cores: the core itself on a
  /// ring, its place on a cycle of one-hop steps through a mesh.
  int64_t ringRankOfCore(int64_t core) const;
  /// The lane instance that runs linear tile `tile` alone, if any.
  const LaneInstance *laneOfTile(int64_t tile) const;
  /// Bytes of one entry of the FIFO carrying `slot` in lane instance `li`.
  int64_t fifoEntryOf(Value slot, const LaneInstance &li) const;
  /// The dfir symbol base and bytes of one copy of a buffer that a stage
  /// of `info`'s pipeline names (its own or one exported to it).
  std::pair<std::string, int64_t> bufferOf(const PipelineInfo &info,
                                           Value buffer) const;

private:
  // The kernel's tensors (KernelTensors.cpp).
  LogicalResult collectArguments();
  /// One tensor per literal address of a view outside the scratchpad.
  LogicalResult collectLiteralTensors();
  /// The type of the tensor at kernel argument `arg` or at literal address
  /// `literal`: as --ktdf-record-tensor-extents recorded it, else from the
  /// views at that address now.
  LogicalResult collectTensorType(StringRef symbol, BlockArgument arg,
                                  std::optional<int64_t> literal);
  /// dfir.runtime_arg and dfir.tensor for every symbol collected.
  void declareTensors(OpBuilder &b);
  /// Calls `fn(view, read)` for each view a tile transfer reads or writes
  /// (a gather's or scatter's base view and the index views it reads).
  void
  forEachViewMoved(function_ref<void(ktdp::ConstructMemoryViewOp, bool)> fn);

  LogicalResult planInstances();

  // The pipelines' resources (PipelineResources.cpp).
  LogicalResult collectPipelines();
  /// A pipeline's buffers and the channels between its own stages.
  FailureOr<PipelineInfo> collectPipeline(PipelineOp op, unsigned index);
  /// Other pipelines only read an exported buffer into a slot or buffer.
  LogicalResult checkExportedReads();
  /// Channels from the stages writing exported buffers to their readers.
  void collectExportChannels();
  /// Channels between stages of different pipelines that touch the same
  /// scratchpad view.
  void collectRegionChannels();
  /// The bytes of the kernel's own scratchpad views (`ktdf.local`).
  LogicalResult collectLocalBytes();
  /// Where lane instance `li`'s region of memory `kind` starts when lanes
  /// share it (`ktdf.scratchpad` sizes the regions), else 0.
  int64_t laneBaseOf(StringRef kind, const LaneInstance &li) const;
  /// Buffers, FIFOs and sync channels of every lane instance.
  void declareResources(OpBuilder &b);
  void declarePipelineResources(OpBuilder &b, const PipelineInfo &info,
                                const LaneInstance &li);
  /// The sync channels of an all-reduce pipeline's ring for `li`: pieces
  /// sent to the next tile's load unit, pieces combined back to the send
  /// unit, and pieces gathered to the next tile's send unit
  /// (AllReduceLowering.cpp).
  void declareRingSyncs(OpBuilder &b, const PipelineInfo &info,
                        const LaneInstance &li);
  /// The sync channels of a tile copy for `li` as a consumer: its copy
  /// landed (source's send unit to its own) and, when its view was written
  /// locally first, it is ready for it (back) (TileCopyLowering.cpp).
  void declareCopySyncs(OpBuilder &b, const PipelineInfo &info,
                        const LaneInstance &li);

  /// The instance of device node `node` (named as in the first lane) that
  /// serves lane instance `li`.
  std::string nodeInstance(StringRef node, const LaneInstance &li) const;
  LogicalResult buildPrograms(OpBuilder &b);

  /// (unit a, unit b) of a lane instance -> FIFO symbol and entry bytes.
  std::map<std::pair<std::string, std::string>, std::pair<std::string, int64_t>>
      fifos;
};

/// A tile <-> buffer transfer with its ends resolved, and the coordinates
/// of the tile it moves (DmaLowering.cpp).
struct TileDma;
struct DmaWindow;

/// Where an indirect transfer reads the indices of one index view: the
/// view in device memory, or the box of it staged in a buffer.
struct IndexSource {
  std::string memory;
  /// Byte address of coordinate `origin` (all 0 when empty).
  Value base;
  /// The coordinates the first element holds (the staged box's anchor).
  SmallVector<Value, 8> origin;
  /// Elements between consecutive coordinates along each dimension.
  SmallVector<int64_t> strides;
};

/// Builds the program of one unit instance.
class ProgramBuilder {
public:
  ProgramBuilder(KernelLowering &kernel, std::string unit)
      : kernel(kernel), unit(std::move(unit)) {}

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
  /// receiving transfer stage, just before its first transfer of a
  /// scratchpad view, rather than when its program passes the sender: the
  /// two pipelines are in the same block, so each execution of the sender
  /// is followed by one of the receiver.
  bool waitsInStage(const Channel &ch, const LaneInstance &li);
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
  /// counts folded at each point; none when one does not fold.
  std::optional<int64_t> executionsOf(const LaneInstance &li) const;
  /// Emits `block` for all `lanes` op by op; a loop several of them run
  /// becomes one loop whose iteration t runs iteration t of each lane.
  LogicalResult emitLanesTogether(Block &block,
                                  MutableArrayRef<LaneWalk> lanes);
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
  /// `loop` with the loads of each iteration issued before the stores of
  /// the previous one.
  LogicalResult emitSkewedLoop(scf::ForOp loop, PipelineOp pipeline,
                               IRMapping &map, SmallVector<Value> &executions,
                               const LaneInstance &li);
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
  /// `loop` with `ahead`'s `part` issued one iteration ahead (the first
  /// before the loop), then `rest` of each iteration; marked dfir.skewed.
  LogicalResult
  emitLoadAheadLoop(scf::ForOp loop, PipelineOp ahead, StagePart part,
                    IRMapping &map, SmallVector<Value> &executions,
                    const LaneInstance &li,
                    function_ref<LogicalResult(Value iv, ValueRange args,
                                               SmallVector<Value> &after)>
                        rest);
  /// `stage`'s part of the ring all-reduce `op` for `li`
  /// (AllReduceLowering.cpp).
  LogicalResult emitAllReduce(StageOp stage, AllReduceOp op,
                              const LaneInstance &li);
  /// `li`'s sends and receipt of the tile copy `op` (TileCopyLowering.cpp).
  LogicalResult emitTileCopy(TileCopyOp op, const LaneInstance &li);
  /// Runs `body` only when `condition` holds (a loop of 0 or 1 trips).
  void emitIf(Value condition, function_ref<void()> body);
  /// A chunk loop that only drains one slot into consecutive chunks of a
  /// buffer or scratchpad view (`for c { slot -> buf[r, c] }`) becomes one
  /// store of all its entries, which waits for its last byte once instead
  /// of once per chunk. Fails to match (returns false) otherwise.
  FailureOr<bool> emitStoreRun(scf::ForOp loop, IRMapping &map,
                               const LaneInstance &li, Value copy);

  LogicalResult emitTransfer(DataTransferOp op, IRMapping &map,
                             const LaneInstance &li, Value copyOffset);
  /// A tile <-> buffer transfer as DMAs: one for a scalar, else one per
  /// 2-d plane of the tile, moving only the coordinates its view holds.
  LogicalResult emitDma(DataTransferOp op, IRMapping &map,
                        const LaneInstance &li, Value copyOffset);
  /// An indirect tile <-> buffer transfer (a gather or a scatter) as
  /// index-gated DMAs, one per run (IndirectDma.cpp).
  LogicalResult emitIndirectDma(DataTransferOp op, IRMapping &map,
                                const LaneInstance &li, Value copyOffset);
  /// Where `op` reads the indices staged in `buffer`: the box the staging
  /// access tile anchors, in this copy of the buffer.
  FailureOr<IndexSource> stagedIndexSource(DataTransferOp op, Value buffer,
                                           IRMapping &map,
                                           const LaneInstance &li, Value copy);
  /// The element offset in the base view of one point of an indirect
  /// transfer over `domain` (captured values, then variables) and its
  /// run's start coordinate; reads each index from its source unless
  /// `last` (per index view: the address and value read at the previous
  /// point) has it, and appends the address and value to `next`.
  std::pair<Value, Value>
  emitIndirectPoint(Location loc, const IndirectTilePlan &plan,
                    ValueRange domain, ArrayRef<IndexSource> indexSources,
                    ValueRange last, SmallVector<Value> &next);
  /// One run of an indirect transfer between `memAt` and `bufAt`, whose
  /// innermost base coordinate starts at `start`: clamped to the view
  /// (zeroing the buffer's row first on a load) where it may leave it.
  void emitIndirectRun(Location loc, const IndirectTilePlan &plan, bool load,
                       StringRef memName, Value memAt, StringRef bufName,
                       Value bufAt, Value start);
  /// The byte address of the first element of `view`'s tensor it holds.
  FailureOr<Value> viewStart(Location loc, ktdp::ConstructMemoryViewOp view,
                             IRMapping &map);
  /// The ends of a tile <-> buffer transfer, in program values.
  FailureOr<TileDma> resolveTileDma(DataTransferOp op, IRMapping &map,
                                    const LaneInstance &li, Value copyOffset);
  /// One DMA between tensor and buffer in the transfer's direction; with
  /// `nRows`, that many rows `memStride` bytes apart in the tensor and
  /// `bufStride` bytes apart in the buffer.
  void emitDirectedDma(Location loc, const TileDma &dma, Value size,
                       Value memAt, Value bufAt, Value nRows, int64_t memStride,
                       int64_t bufStride);
  /// The coordinates of the tile the transfer moves along the dimensions
  /// where it may leave its view (and the rows of every 2-d tile).
  FailureOr<DmaWindow> clampToView(DataTransferOp op, const TileDma &dma,
                                   IRMapping &map);
  /// Before a load: zeroes the coordinates of the buffer outside `window`
  /// along the dimensions where the tile may leave its view, where the
  /// reference interpreter loads 0.
  void emitMaskFills(Location loc, const TileDma &dma, const DmaWindow &window);
  /// A 2-d tile masked only past its last valid row: `validRows` full rows.
  void emitMaskedRowsDma(Location loc, const TileDma &dma, Value validRows);
  /// A tile that stays inside its view: a 2-d DMA per point of the
  /// dimensions above its last two.
  void emitOuterLoopDma(Location loc, const TileDma &dma);
  /// A tile with a permuted order, inside its view: strided DMAs into the
  /// buffer's (permuted) layout, one per point of the dimensions that are
  /// neither the rows nor the elements of a row.
  void emitPermutedDma(Location loc, const TileDma &dma);
  /// A tile masked along any dimension, at either end: the valid part of
  /// each 2-d plane inside the view.
  void emitMaskedDma(Location loc, const TileDma &dma, const DmaWindow &window);
  /// Calls `emitRows` with the tensor and buffer addresses of each point of
  /// a tile's dimensions above its last two (row-major; once for a tile of
  /// rank 2 or less), skipping points whose coordinate along a dimension d
  /// is not below `end[d]` or is below `begin[d]` (when given).
  void forEachOuterPoint(Location loc, const TileDma &dma,
                         ArrayRef<Value> begin, ArrayRef<Value> end,
                         function_ref<void(Value, Value)> emitRows);
  /// A chunk between a FIFO slot and an access tile the load or store unit
  /// reaches directly (a scratchpad view, or device memory).
  LogicalResult emitTileChunk(DataTransferOp op, IRMapping &map,
                              const LaneInstance &li);
  /// Byte address and memory instance of element `indices` (relative to
  /// the tile's anchor) of an access tile.
  FailureOr<std::pair<Value, std::string>>
  tileAddress(Value tile, ValueRange indices, IRMapping &map,
              const LaneInstance &li);
  /// The element offset, in its view of `strides`, of element `indices`
  /// (relative to `anchor`, the tile's origin; fewer indices than
  /// dimensions mean 0) of an access tile, computed by ops at `loc`.
  FailureOr<Value> tileElementOffset(Location loc,
                                     ktdp::ConstructAccessTileOp tile,
                                     ArrayRef<Value> anchor,
                                     ArrayRef<int64_t> strides,
                                     ValueRange indices, IRMapping &map);
  /// The number of coordinates `view` holds along dimension `d`, as a
  /// program value: its size, or fewer where its coordinate_set bounds the
  /// dimension tighter.
  FailureOr<Value> viewExtent(Location loc, ktdp::ConstructMemoryViewOp view,
                              unsigned d, IRMapping &map);
  /// The program value for `v`, cloning the index arithmetic it needs.
  FailureOr<Value> materialize(Value v, IRMapping &map);
  Value constant(int64_t v);
  bool runsIn(Operation *op, const LaneInstance &li);
  /// The copy of `buffer` a transfer of `li` uses: `copy`, its own
  /// pipeline's, unless `buffer` is another pipeline's export, whose copy
  /// is that of the exporter's latest execution.
  Value copyOf(Value buffer, Value copy, const LaneInstance &li);

  KernelLowering &kernel;
  std::string unit;
  llvm::MapVector<const LaneInstance *, SmallVector<StageOp>> work;
  /// Per exported buffer (a pipeline result) and lane instance, the copy
  /// its exporter's latest execution filled, set where the program passes
  /// the exporter: the stages reading it come later in the same block or
  /// inside it, so the value dominates them.
  llvm::DenseMap<std::pair<Value, const LaneInstance *>, Value> exportedCopy;
  OpBuilder *builder = nullptr;
};

/// The all-reduce a stage of an all-reduce pipeline holds, if it is one.
AllReduceOp getAllReduce(StageOp stage);
/// The tile copy a stage of a tile-copy pipeline holds, if it is one.
TileCopyOp getTileCopy(StageOp stage);
/// The linear tile id (first grid dimension fastest) of point `point` of
/// a parallel over `extents` (first dimension slowest).
int64_t tileOfPoint(int64_t point, ArrayRef<int64_t> extents);
/// The byte address of scratchpad view `view` of lane instance `li`, and
/// the memory instance holding it.
std::pair<Value, std::string> scratchpadViewBase(OpBuilder &b, Location loc,
                                                 KernelLowering &kernel,
                                                 Value view,
                                                 const LaneInstance &li);
/// The symbol of a ring sync channel of pipeline `index` for `li`.
std::string ringSync(unsigned index, StringRef what, const LaneInstance &li);

/// Bytes of one element of a buffer, slot or view.
int64_t elementBytes(Type type);

/// The coordinates of `tile`'s origin in its view: its base map applied to
/// its indices, each brought into the program by `materialize`. Fails after
/// reporting when the map cannot be expanded.
FailureOr<SmallVector<Value, 8>>
expandAnchor(OpBuilder &b, Location loc, ktdp::ConstructAccessTileOp tile,
             function_ref<FailureOr<Value>(Value)> materialize);

/// A chunk reduction `acc + f32(a) * f32(b)` of 16-bit chunks `a` and `b`
/// (inputs `lhs` and `rhs` of the generic) into an f32 row value, which
/// the compute unit computes as a dot product (DotProducts.cpp).
struct DotReduction {
  unsigned lhs = 0, rhs = 0;
};
/// The dot product `op` is, when `unit` multiplies and accumulates its
/// operands faster than it maps, reduces and folds them.
std::optional<DotReduction> matchDotReduction(linalg::GenericOp op,
                                              const ktdf_arch::UnitSpec *unit);

/// Lowers the body of a compute stage into the current insertion point:
/// FIFO reads and writes through `fifoOf`, linalg.generic on chunk and row
/// tensors to dfir.map / dfir.reduce / dfir.broadcast / dfir.splat (or a
/// dfir.matmul for the dot products `unit`, the stage's compute unit,
/// computes faster); float launch scalars (keys of `runtimeSymbols`) to
/// dfir.splat_arg.
LogicalResult
lowerComputeStage(OpBuilder &b, StageOp stage, IRMapping &map,
                  function_ref<std::string(Value)> fifoOf,
                  const llvm::DenseMap<Value, std::string> &runtimeSymbols,
                  const ktdf_arch::UnitSpec *unit);

} // namespace mlir::ktdf::lowering

#endif // KTFLOW_LIB_CONVERSION_KTDFTODFIR_LOWERING_H
