//===- Lowering.h - Shared state of the ScheduleIR lowering -----*- C++ -*-===//
//
// This file declares the pieces of --ktdf-to-dfir: KernelLowering (the
// grid over cores and lanes in KTDFToDFIR.cpp, tensors and runtime symbols
// in KernelTensors.cpp, buffers, FIFOs and sync channels in
// PipelineResources.cpp), the helpers its parts share and the compute-stage
// lowering (linalg on chunks to dfir vector ops). ProgramBuilder, one unit
// instance's program, is in ProgramBuilder.h.
//
//===----------------------------------------------------------------------===//

#ifndef KTFLOW_LIB_CONVERSION_KTDFTODFIR_LOWERING_H
#define KTFLOW_LIB_CONVERSION_KTDFTODFIR_LOWERING_H

#include "ktflow/Dialect/DFIR/IR/DFIR.h"
#include "ktflow/Dialect/KTDF/IR/KTDF.h"
#include "ktflow/Dialect/KTDP/IR/KTDP.h"
#include "ktflow/Scheduler/ScheduleTarget.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallBitVector.h"

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
  /// pipeline (or, reading it late, just before its first read:
  /// LateStaging.cpp) and hands the buffer back at the end of the block
  /// that holds it.
  bool exported = false;
  /// A loop-carried view handed from its writer to the stage that reads it
  /// on the next execution: a transfer stage waits just before its first
  /// transfer from a carried view, after the transfers that need no wait.
  bool carry = false;
  /// A buffer marked `ktdf.kept` (ktdf-tile-streams) that a later stage
  /// (the drain) writes and an earlier one (the feed) reads in the same
  /// execution: the writer hands it over right after the loop that writes
  /// it, the reader waits just before the loop that reads it.
  Value kept = nullptr;
  /// A region channel from a pipeline inside loops to a stage after them:
  /// `sendLoops` (outermost first) run the sender, and a receiver that
  /// serves one lane may take all their tokens just before `receiveBefore`
  /// (the op holding the later stage) instead of once per execution, so
  /// it runs the loops' other stages ahead of the sender.
  SmallVector<scf::ForOp, 0> sendLoops = {};
  Operation *receiveBefore = nullptr;
  /// A region channel between two transfer stages of one block whose
  /// sender writes, and whose receiver reads, the same two or more
  /// scratchpad views in the same order, one transfer each (the handover
  /// views of an unrolled loop's products): one token per view, sent right
  /// after `viewWrites[k]` and taken right before `viewReads[k]`
  /// (RegionChannels.cpp).
  SmallVector<Operation *, 0> viewWrites = {}, viewReads = {};
  /// A region channel whose sender writes a scratchpad view both lanes of
  /// the core share (ktdf-split-product-columns): lane l's sender also
  /// signals lane 1 - l's receiver, on `acrossLanesOf` the receiver's lane.
  bool acrossLanes = false;
};

/// The sync channel from the other lane's sender of region channel `base`
/// to `li`'s receiver (Channel::acrossLanes).
inline std::string acrossLanesOf(StringRef base) { return ("x" + base).str(); }

/// The other lane of `li`'s two-lane core.
inline LaneInstance otherLaneOf(const LaneInstance &li) {
  LaneInstance other = li;
  other.lane = 1 - li.lane;
  return other;
}

/// A loop whose body is a row span, a partial, the exchange of the partial
/// and its use, each lane running the partial of trip t + 1 before the use
/// of trip t (LanePipelining.cpp).
struct LanePipeline {
  PipelineOp span, partial, exchange, use;
  /// Channels from a stage of `use` to a stage of `partial` that writes
  /// what it touched: the sender hands them on right after `sendAfter[k]`
  /// (in every trip but the last), the receiver waits before the partial
  /// of the next trip.
  SmallVector<Channel, 0> back;
  SmallVector<Operation *, 0> sendAfter;
};

/// The tokens a region channel carries per execution of its sender: one
/// per view (Channel::viewWrites), else one.
inline size_t tokensOf(const Channel &ch) {
  return ch.viewWrites.empty() ? 1 : ch.viewWrites.size();
}

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
  /// The tiles that need the pipeline's transfers and compute, when not
  /// every tile does (KernelLowering::collectCopyFills); the others run
  /// only its synchronisation.
  std::optional<llvm::SmallDenseSet<int64_t>> workTiles;
};

/// A `stored_locally` destination a fill still writes, and the copy keeping
/// it (ResidentCopies.cpp).
using KeptFill = std::pair<ktdp::ConstructMemoryViewOp, TileCopyOp>;
/// A fill left writing only kept destinations, to run after their copies.
using LaterFill = std::pair<PipelineOp, SmallVector<KeptFill, 1>>;

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
  /// Per view a tile copy moves, the tiles on which what is stored there
  /// before the copy is used (collectCopyFills).
  llvm::DenseMap<Value, llvm::SmallDenseSet<int64_t>> copyViewUsers;
  /// Per tile copy that sends a resident scratchpad part itself instead of
  /// the view its fill wrote, the part (ResidentCopies.cpp).
  llvm::DenseMap<Operation *, ktdp::ConstructMemoryViewOp> residentSources;
  /// Per `stored_locally` destination view no fill writes any more, the
  /// resident part of its layout the tiles that keep their own copy read in
  /// its place, and those tiles (ResidentCopies.cpp).
  llvm::DenseMap<Operation *, std::pair<ktdp::ConstructMemoryViewOp,
                                        llvm::SmallDenseSet<int64_t>>>
      keptInPlace;
  /// The tile copies that send a resident part whose own destination holds
  /// that same part on its sender: every tile's destination holds its
  /// sender's part (ResidentCopies.cpp; DuplicateStores.cpp). Each maps to
  /// the fill that still writes the destination from the part, or null
  /// when the sender reads the part in its place.
  llvm::DenseMap<Operation *, Operation *> partCopies;
  /// Per pipeline that stores what every tile stores alike, the one tile
  /// that runs its work, and the tile copies whose destinations such
  /// pipelines read (DuplicateStores.cpp).
  llvm::DenseMap<Operation *, int64_t> duplicateTiles;
  SmallVector<Operation *, 2> duplicateCopies;
  llvm::DenseMap<Value, std::string> tensorSymbols;  // func arg -> symbol
  /// Literal start address (elements) -> symbol, for views at literal
  /// addresses: each becomes a tensor of its own.
  std::map<int64_t, std::string> literalSymbols;
  /// The kernel's own scratchpad regions (`ct_local` views without a
  /// `ct_id`, at literal addresses) that tiles read and no transfer
  /// writes: by literal start address, the memory kind, the views there and
  /// the tensor type they declare. Each tile's copy is an input of the
  /// launch, `lx<K>@ADDR`.
  struct ScratchpadInput {
    std::string kind;
    SmallVector<ktdp::ConstructMemoryViewOp> views;
    RankedTensorType type;
  };
  std::map<int64_t, ScratchpadInput> scratchpadInputs;
  /// The tensor type of each tensor symbol (ktflow/Analysis/TensorExtent.h)
  /// and, per dynamic dimension, the runtime argument giving it and what
  /// that is multiplied by.
  struct DeclaredTensor {
    RankedTensorType type;
    SmallVector<int64_t> dims, scales;
  };
  llvm::StringMap<DeclaredTensor> tensorTypes;
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
  /// The loops whose lanes run the next trip's partial before this trip's
  /// use, by loop.
  llvm::DenseMap<Operation *, LanePipeline> lanePipelines;
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
  /// The earlier lane instance of `li`'s core whose buffers of per-instance
  /// pipeline `info` `li` reads instead of loading its own: the pipeline
  /// only loads device memory, on the unit and into the memory that lane's
  /// loads use (SharedStaging.cpp); null if none.
  const LaneInstance *stagingSourceOf(const PipelineInfo &info,
                                      const LaneInstance &li) const;
  /// Whether `stage` only loads, in each trip of a loop of the grid's body
  /// (no inner loop, no exchange), a device memory tile whose offsets are
  /// the same in every lane at that trip into a buffer of its pipeline,
  /// with a plain hand-over each way (SharedLoads.cpp); or, in a pipeline
  /// of the grid's body, a device memory tile or a gather through indices
  /// nothing writes, whose offsets read the point's coordinates only.
  bool isSharableLoad(StageOp stage) const;
  /// The two lane instances of `li`'s core, which load `stage`'s tiles
  /// into one buffer (the first's) on one unit, when isSharableLoad holds
  /// and they share that unit and memory; else none.
  SmallVector<const LaneInstance *, 2>
  sharedLoadLanes(StageOp stage, const LaneInstance &li) const;
  /// Whether no transfer of the kernel writes the tensor `view` is a view
  /// of (SharedIndexReads.cpp): the indices a gather reads from it are the
  /// same whenever they are read.
  bool neverWritten(ktdp::ConstructMemoryViewOp view);
  /// Whether lane instance `li` runs the transfers and compute of
  /// `info`'s pipeline (PipelineInfo::workTiles).
  bool runsWork(const PipelineInfo &info, const LaneInstance &li) const;
  /// Whether `li` leaves out `op`, a DMA of a pipeline that only fills
  /// tile copies' views, into a view its tile's copies do not use.
  bool skipsFill(DataTransferOp op, const PipelineInfo &info,
                 const LaneInstance &li) const;
  /// The view lane instance `li` reads for `view`: the resident part a
  /// kept copy's destination stands for on its tile (keptInPlace), else
  /// `view`.
  ktdp::ConstructMemoryViewOp viewOnTile(ktdp::ConstructMemoryViewOp view,
                                         const LaneInstance &li) const;
  /// Bytes of one entry of the FIFO carrying `slot` in lane instance `li`.
  int64_t fifoEntryOf(Value slot, const LaneInstance &li) const;
  /// The dfir symbol base and bytes of one copy of a buffer that a stage
  /// of `info`'s pipeline names (its own or one exported to it).
  std::pair<std::string, int64_t> bufferOf(const PipelineInfo &info,
                                           Value buffer) const;

private:
  /// isSharableLoad, by stage.
  mutable llvm::DenseMap<Operation *, bool> sharableLoads;
  /// The grid dimensions whose coordinates the offsets of a sharable load
  /// of a pipeline of the grid's body read, by stage.
  mutable llvm::DenseMap<Operation *, llvm::SmallBitVector> pointDims;
  /// Whether the two lanes of a core use the same copy of `stage`'s buffer
  /// whenever both run a trip of its loop (each round's trips folded at its
  /// grid points), and share a trip at all.
  bool loadsInPhase(StageOp stage, const LaneInstance &a,
                    const LaneInstance &b) const;
  /// loadsInPhase, by stage and core.
  mutable llvm::DenseMap<std::pair<Operation *, int64_t>, bool> inPhaseLoads;
  // The kernel's tensors (KernelTensors.cpp).
  LogicalResult collectArguments();
  /// One tensor per literal address of a view outside the scratchpad.
  LogicalResult collectLiteralTensors();
  /// The scratchpad regions whose contents come from before the kernel;
  /// refused where a tile does not run alone on lane 0 of its core.
  LogicalResult collectScratchpadInputs();
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
  /// Makes the tile copies of resident scratchpad parts send the parts
  /// themselves, and the tiles keeping their own copy read the part in
  /// place, leaving out the fills that only passed the part into the
  /// copies' views (ResidentCopies.cpp).
  void directResidentCopies();
  void directResidentCopy(PipelineOp pipeline,
                          SmallVectorImpl<LaterFill> &laterFills);
  /// Finds the pipelines that only fill the views tile copies send or
  /// keep, and the tiles that need them (TileCopyLowering.cpp).
  void collectCopyFills();
  /// Picks, for each pipeline that stores on every tile the same data to
  /// the same device memory, the one tile that runs its work, cutting a
  /// DMA of device rows into pieces for several tiles where that evens
  /// their bytes (DuplicateStores.cpp; before the pipelines are collected).
  void assignDuplicateStores();
  /// Makes those pipelines run their work on their tile only, and the tile
  /// copies only such stores read skip the tiles that no longer read them
  /// (DuplicateStores.cpp).
  void collectDuplicateStores();
  /// A pipeline's buffers and the channels between its own stages.
  FailureOr<PipelineInfo> collectPipeline(PipelineOp op, unsigned index);
  /// Other pipelines only read an exported buffer into a slot or buffer.
  LogicalResult checkExportedReads();
  /// Channels from the stages writing exported buffers to their readers.
  void collectExportChannels();
  /// Channels between stages of different pipelines that touch the same
  /// scratchpad view.
  void collectRegionChannels();
  /// The loops whose lanes can run each trip's partial one trip ahead, and
  /// the channels that keeps in order (LanePipelining.cpp).
  void collectLanePipelines();
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
  /// Lets each gather of `unit`'s program marked by markIndexReads start
  /// from the last index an earlier gather of its block read from the same
  /// never-written memory (SharedIndexReads.cpp).
  static void shareIndexReads(dfir::UnitOp unit);

  /// (unit a, unit b) of a lane instance -> FIFO symbol and entry bytes.
  std::map<std::pair<std::string, std::string>, std::pair<std::string, int64_t>>
      fifos;
};

/// Whether two stages touch the same memory, one of them writing
/// (RegionChannels.cpp).
bool stagesConflict(StageOp a, StageOp b);
/// stagesConflict, conservatively: two literal addresses in device memory
/// may overlap, and a transfer's end on an access tile of unknown memory
/// may touch any memory (RegionChannels.cpp).
bool stagesMayConflict(StageOp a, StageOp b);
/// Whether the transfers in `op` touch memory `stage` touches, one of
/// them writing (what a region channel from `stage` orders).
bool touchesWhatStageTouches(Operation *op, StageOp stage);
/// The all-reduce a stage of an all-reduce pipeline holds, if it is one.
AllReduceOp getAllReduce(StageOp stage);
/// The tile copy a stage of a tile-copy pipeline holds, if it is one (the
/// first, when it holds several).
TileCopyOp getTileCopy(StageOp stage);
/// Every tile copy a stage of a tile-copy pipeline holds, in order.
SmallVector<TileCopyOp> getTileCopies(StageOp stage);
/// The stage of `op` when it is a pipeline of tile copies alone (one stage
/// holding only tile copies), else null.
StageOp copyStageOf(Operation *op);
/// Merges each run of adjacent tile-copy pipelines on one unit whose views
/// do not conflict into the first one's stage, so that every tile sends
/// all of them before it waits for any (TileCopyLowering.cpp).
void mergeAdjacentCopies(func::FuncOp func);
/// Makes each pipeline that only passes a tile of device memory unchanged
/// into a view a tile copy sends, or out of a view it received, one DMA
/// between the tile and the view (ExchangeDma.cpp).
void directExchangeDmas(func::FuncOp func);
/// Makes each pipeline that only passes a tile of device memory unchanged
/// to another tile of device memory DMAs alone (PassThroughDma.cpp).
void directDevicePassThroughs(func::FuncOp func);
/// The view of which `tile` is the whole, from its origin in its order
/// (static sizes), or null.
ktdp::ConstructMemoryViewOp wholeViewOf(Value tile);
/// Whether `view` has static strides that lay its sizes out row-major and
/// dense.
bool isDenseRowMajor(ktdp::ConstructMemoryViewOp view);
/// The one data transfer of `stage`, or null.
DataTransferOp onlyTransfer(StageOp stage);
/// The constant bounds (lower, upper, step) of the loops around `op`
/// inside `stage`, outermost first, when `indices` (the transfer's on one
/// end) are their induction variables in order; else std::nullopt.
std::optional<SmallVector<int64_t>>
chunkLoops(DataTransferOp op, ValueRange indices, StageOp stage);
/// Whether compute stage `stage` only writes each chunk it reads,
/// unchanged.
bool passesChunksThrough(StageOp stage);
/// Leaves `pipeline` one stage like `dma` (its name, roles and unit)
/// moving `from` to each of `to`, in order.
void reduceToDma(PipelineOp pipeline, StageOp dma, Value from,
                 ArrayRef<Value> to);
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

/// The linear id of the grid point lane instance `li` runs in round `j`.
int64_t pointOfRound(ParallelOp parallel, const LaneInstance &li, int64_t j);
/// The trips of `loop` (in the grid's body, bounds computed from the grid
/// point) at linear grid point `t`; none when its bounds do not fold there
/// (LaneWork.cpp).
std::optional<int64_t> tripsAtPoint(ParallelOp parallel, scf::ForOp loop,
                                    int64_t t);

/// Whether `end` (of a transfer) is an access tile of a scratchpad
/// (ct_local) view.
bool isScratchpadTile(Value end);

/// Whether `op` is or holds a transfer reading one of `buffers` (as data or
/// as the indices of a gather or scatter) or, with `orWrites`, writing one.
bool transfersAny(Operation *op, const llvm::SmallDenseSet<Value, 4> &buffers,
                  bool orWrites);

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
