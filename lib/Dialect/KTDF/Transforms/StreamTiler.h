//===- StreamTiler.h - Tiling one pipeline's streamed stages ----*- C++ -*-===//
//
// This file declares StreamTiler, the worker of --ktdf-tile-streams: for
// one routed pipeline it chooses the chunk width, plans the passes over each
// row (StreamPlan) and rebuilds the feed, compute and drain stages in
// chunks. TileStreams.cpp holds its decisions, StreamPasses.cpp what each
// pass over a row contains, StreamKeep.cpp which streamed values a later
// pass keeps and which column values the rows share, StreamTilerBuild.cpp the
// rewriting of the stages.
//
//===----------------------------------------------------------------------===//

#ifndef KTFLOW_LIB_DIALECT_KTDF_TRANSFORMS_STREAMTILER_H
#define KTFLOW_LIB_DIALECT_KTDF_TRANSFORMS_STREAMTILER_H

#include "StreamPlan.h"

#include "ktflow/Dialect/KTDFArch/IR/NodeSpec.h"
#include "ktflow/Scheduler/CostModel.h"
#include "ktflow/Scheduler/ScheduleTarget.h"

#include "mlir/IR/IRMapping.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SetVector.h"

namespace mlir::ktdf::detail {

/// A routed pipeline's feed, compute and drain stages.
struct PipelineStages {
  StageOp feed, compute, drain;
};

/// The stages of `pipeline`, or an error on it when one is missing (the
/// pipeline was not routed).
FailureOr<PipelineStages> findPipelineStages(PipelineOp pipeline);

/// Checks and annotates a compute stage that multiplies matrices, which
/// works on whole tiles instead of chunks (MatrixTiles.cpp).
LogicalResult tileMatrixStage(const ktflow::sched::ScheduleTarget &target,
                              PipelineOp pipeline);

/// The reads, reductions and writes of each pass.
struct PassContents {
  SmallVector<ReadFromFifoOp> reads;
  SmallVector<linalg::GenericOp> reductions;
  SmallVector<WriteToFifoOp> writes;
  llvm::SetVector<Operation *> streamOps;
  /// Streamed values this pass reads back instead of recomputing them
  /// (first, before `reads`), and those it keeps for a later pass (last,
  /// after `writes`).
  SmallVector<Value, 2> keptReads, keptWrites;
  /// False for a part of a pass whose other, independent parts follow
  /// (splitIndependentParts): the row values the pass makes known come
  /// after its last part.
  bool endsPass = true;
  /// One of several parts of a pass.
  bool isPart = false;
  /// Reads column values widened once per execution (hoistColumns).
  bool readsColumns = false;
};

/// A streamed value an earlier pass over the row computes and a later pass
/// reads back. Either the compute unit holds its chunks (`held`: the two
/// passes' chunk loops are unrolled and the later pass reads the earlier
/// one's chunk values), or it goes through a scratchpad buffer of the
/// pipeline: the drain writes it, the feed reads it in the same execution.
struct KeptValue {
  bool held = false;
  Value buffer;
  /// compute -> drain and feed -> compute.
  Value toDrain, fromFeed;
};

class StreamTiler {
public:
  StreamTiler(const ktflow::sched::ScheduleTarget &target, PipelineOp pipeline,
              int64_t fixedChunk, bool useCostModel, int64_t chunkScale = 0)
      : target(target), pipeline(pipeline), fixedChunk(fixedChunk),
        useCostModel(useCostModel), chunkScale(chunkScale),
        b(pipeline.getContext()) {}

  LogicalResult run() {
    FailureOr<PipelineStages> stages = findPipelineStages(pipeline);
    if (failed(stages))
      return failure();
    feed = stages->feed;
    compute = stages->compute;
    drain = stages->drain;
    // A chunk's generic iterates over the chunk, not the tile: the
    // coordinates a body reads would be the chunk's.
    WalkResult coordinates = compute.walk([](linalg::IndexOp index) {
      index.emitError("linalg.index is supported only in a compute group "
                      "that works on whole tiles (one with a matrix "
                      "product), not in one streamed in chunks yet");
      return WalkResult::interrupt();
    });
    if (coordinates.wasInterrupted())
      return failure();
    FailureOr<StreamPlan> built = StreamPlan::build(compute);
    if (failed(built))
      return failure();
    plan = std::move(*built);
    if (failed(findBuffers()) || failed(chooseWidth()))
      return failure();
    planPasses();
    if (failed(checkCarriedRewrites()))
      return failure();
    retypeSlots();
    if (useCostModel) {
      planKeeps();
      hoistColumns();
    }
    splitIndependentParts();
    // Feed and drain read the compute stage's FIFO ops, which building the
    // tiled compute stage erases: they go first.
    buildFeed();
    buildDrain();
    buildCompute();
    return success();
  }

private:
  //===--------------------------------------------------------------------===//
  // Decisions
  //===--------------------------------------------------------------------===//

  LogicalResult chooseWidth();

  /// Chunks spanning consecutive rows of a stage whose rows are narrower
  /// than the compute unit's widest issue (TileStreams.cpp).
  void joinRows(ktflow::sched::ChunkQuery query,
                const ktdf_arch::UnitSpec &unit);

  /// The buffer each read slot is fed from and each written slot drains to.
  LogicalResult findBuffers();

  void planPasses();

  /// Keeps, for each later pass, the streamed values it would recompute
  /// from an earlier pass's inputs: held in the compute unit where the row
  /// is a few chunks that fit its local memory, else in the scratchpad
  /// where the unit spends more on recomputing them than on sending them
  /// out (StreamKeep.cpp).
  void planKeeps();
  /// Moves the per-column values that depend on no row (a weight vector
  /// widened to f32) out of the row loop: the feed sends their chunks and
  /// the compute unit computes them once per execution, before the rows,
  /// and holds them where they fit its local memory (StreamKeep.cpp).
  void hoistColumns();
  /// Splits each pass whose reads feed computations that share nothing
  /// (the unrolled column blocks of a row) into one chunk loop per
  /// computation, in program order: the feed then moves one block after
  /// another, so the first can start before the others are loaded and the
  /// drain finishes one before the next (ktdf-to-dfir waits and hands over
  /// each buffer where it is first read and last written).
  void splitIndependentParts();

  /// Whether the compute unit may hold `bytes` more of kept chunks besides
  /// those it holds already (`heldBytes`).
  bool canHold(int64_t bytes) const;

  /// A loop-carried view (ktdf-carry-in-scratchpad) is rewritten in place,
  /// each chunk after it was read; fails when a later pass over the row
  /// reads it again, after an earlier pass rewrote it.
  LogicalResult checkCarriedRewrites();

  /// The loop-carried view a FIFO slot is fed from or drains to, if any.
  Operation *carriedViewOf(Value slot) const;

  void retypeSlots();

  void retype(Value slot, int64_t elements);

  //===--------------------------------------------------------------------===//
  // The compute stage
  //===--------------------------------------------------------------------===//

  Value index(int64_t v);

  /// Replaces `stage`'s body with a fresh block and positions `b` in it.
  Block *freshBody(StageOp stage);

  /// A chunk (rank 1, `width` elements) or row value (rank 0) of type T.
  Type chunkType(Value v);

  /// Reads the next chunk or row value of `read`'s slot in its place.
  void readChunk(ReadFromFifoOp read, IRMapping &map);

  /// The operand `v` of a generic as its chunk or row form; splat
  /// constants are rebuilt at the right shape.
  Value lookup(Value v, IRMapping &map);

  /// Emits `op` over one chunk (Stream, RowReduction) or one row (RowOp).
  SmallVector<Value> emitOp(linalg::GenericOp op, OpRole role, IRMapping &map,
                            ValueRange accumulators = {});

  /// Emits one chunk of `pass` folding into `accs`; returns the folded
  /// values. `held` maps each held value to its chunks of this row, which
  /// an unrolled pass reads or appends to (its `chunk`-th; a pass in a
  /// loop touches none).
  SmallVector<Value> emitChunk(const PassContents &pass, IRMapping chunkMap,
                               ValueRange accs, int64_t chunk,
                               llvm::DenseMap<Value, SmallVector<Value>> &held);

  /// Whether `pass` holds or reads held chunks: its chunk loop is unrolled.
  bool isUnrolled(const PassContents &pass) const;

  void emitRowOps(int availableAt, IRMapping &map);

  void buildCompute();

  /// Column reductions: each chunk of columns goes down the rows,
  ///   for c { per-column values; for r { row chunk, fold }; results }.
  void buildColumnMajorCompute(IRMapping &base, Block *old);

  /// The feed or drain of a column-major stage: per chunk of columns, the
  /// per-column transfers around the rows' transfers, in the compute's
  /// order.
  void buildColumnMajorTransfers(StageOp stage, bool isFeed);

  //===--------------------------------------------------------------------===//
  // Feed and drain
  //===--------------------------------------------------------------------===//

  /// Indices of the chunk at row `r`, column `c` of `buffer`.
  SmallVector<Value> chunkIndices(Value buffer, Value r, Value c);

  /// Indices of the chunk at column `c` of a per-column buffer, whose
  /// leading dimensions (a 1x128 row of a 2-d view) are units.
  SmallVector<Value> columnIndex(Value buffer, Value c);

  /// Indices of row `r` of a per-row buffer; the origin of a one-element
  /// (scalar) buffer, the same for every row.
  SmallVector<Value> rowIndex(Value buffer, Value r);

  /// Builds `prologue; for r { head(r); for each pass { for c {
  /// body(pass, r, c) } }; tail(r) }`.
  void
  buildRowLoops(StageOp stage, function_ref<void()> prologue,
                function_ref<void(Value)> head,
                function_ref<bool(const PassContents &)> hasWork,
                function_ref<void(const PassContents &, Value, Value)> body,
                function_ref<void(Value)> tail);

  void buildFeed();

  void buildDrain();

  const ktflow::sched::ScheduleTarget &target;
  PipelineOp pipeline;
  int64_t fixedChunk;
  bool useCostModel;
  /// The cost model's width times 2^chunkScale, where that is a width too.
  int64_t chunkScale;
  OpBuilder b;
  StageOp feed, compute, drain;
  StreamPlan plan;
  int64_t width = 1;
  /// Rows of the tile each row of the plan spans (joinRows).
  int64_t rowsPerChunk = 1;
  SmallVector<PassContents, 0> passes;
  /// Read slot -> the buffer feeding it; written slot -> the buffer it
  /// drains into.
  llvm::DenseMap<Value, Value> source;
  /// Kept streamed values, in the order they were chosen.
  llvm::MapVector<Value, KeptValue> kept;
  /// Bytes of a row of the held values.
  int64_t heldBytes = 0;
  /// Column reads and ops computed once per execution (hoistColumns), in
  /// program order, and the chunks of the values the passes read of them.
  SmallVector<ReadFromFifoOp> columnReads;
  SmallVector<Operation *> columnOps;
  llvm::DenseMap<Value, SmallVector<Value>> columnChunks;
};

} // namespace mlir::ktdf::detail

#endif // KTFLOW_LIB_DIALECT_KTDF_TRANSFORMS_STREAMTILER_H
