//===- FoldKeptChunks.cpp - Kept chunks folded into the row statistic ----===//
//
// Part of --ktdf-keep-carried-chunks. After the interchange, the compute
// unit still sends each kept chunk of a running sum once a row, the store
// unit writes it into the carried view, and the next pipeline reads it
// back only to fold it into the row's statistic (the layernorm's sum and
// sum of squares). When that pipeline does nothing else and nothing else
// reads the view, the compute stage folds each chunk into the statistic
// where the chunk ends, makes and sends the statistic as that pipeline did,
// and the drain writes it where that pipeline's did.
//
// Numerics: the fold is that pipeline's own reduction op, run on the kept
// chunks (chunk c covers elements [c, c + w) of the row, chunks ascending)
// instead of on its wider chunks of the same elements in the same order:
// the elements reach the accumulator in the interpreter's order, the
// accumulator starts from the same init and is made into the statistic by
// the same ops.
//
//===----------------------------------------------------------------------===//

#include "KeepCarriedChunks.h"

#include "ktflow/Dialect/KTDF/IR/KTDF.h"
#include "ktflow/Dialect/KTDP/IR/KTDP.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/Dominance.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Transforms/RegionUtils.h"

using namespace mlir;
using namespace mlir::ktdf;
using namespace mlir::ktdf::carried;

/// Whether `v` is defined in `stage` outside `scope` (a stage-level value
/// the ops of `scope` use).
static bool fromStage(Value v, StageOp stage, Operation *scope) {
  Operation *def = v.getDefiningOp();
  return def && stage->isAncestor(def) && !scope->isAncestor(def);
}

/// Whether the ops of `scope` (in `stage`) use no stage-level value but
/// constants.
static bool onlyConstantsFromStage(Operation *scope, StageOp stage) {
  return !scope
              ->walk([&](Operation *inner) {
                for (Value v : inner->getOperands())
                  if (fromStage(v, stage, scope) &&
                      !matchPattern(v, m_Constant()))
                    return WalkResult::interrupt();
                return WalkResult::advance();
              })
              .wasInterrupted();
}

/// Clones `op` (of another stage, `onlyConstantsFromStage`) at `b`, first
/// cloning the stage-level constants it uses.
static Operation *cloneWithConstants(Operation *op, StageOp stage,
                                     Operation *scope, OpBuilder &b,
                                     IRMapping &map) {
  op->walk([&](Operation *inner) {
    for (Value v : inner->getOperands())
      if (fromStage(v, stage, scope) && !map.contains(v))
        map.map(v, b.clone(*v.getDefiningOp())->getResult(0));
  });
  return b.clone(*op, map);
}

/// The ops between `earlier` and `later` (siblings) that the values
/// `later` uses from outside it need, in block order, when every other
/// such value is defined before `earlier` and these ops are side-effect
/// free, with operands of the same kind: the index arithmetic of a row's
/// position (ktdf-store-stats-after-loop's element of the statistics view)
/// computed between the pipelines, which can move before `earlier` so
/// that the ops of `later` can move into it. None otherwise.
static std::optional<SmallVector<Operation *>>
neededBetween(Operation *later, Operation *earlier) {
  llvm::SetVector<Value> used(later->operand_begin(), later->operand_end());
  for (Region &region : later->getRegions())
    getUsedValuesDefinedAbove(region, used);
  DominanceInfo dominance;
  llvm::SetVector<Operation *> needed;
  SmallVector<Value> work(used.begin(), used.end());
  while (!work.empty()) {
    Value v = work.pop_back_val();
    if (dominance.properlyDominates(v, earlier))
      continue;
    Operation *def = v.getDefiningOp();
    if (!def || def->getBlock() != earlier->getBlock() ||
        !earlier->isBeforeInBlock(def) || !def->isBeforeInBlock(later) ||
        def->getNumRegions() != 0 || !isMemoryEffectFree(def))
      return std::nullopt;
    if (needed.insert(def))
      llvm::append_range(work, def->getOperands());
  }
  SmallVector<Operation *> ordered(needed.begin(), needed.end());
  llvm::sort(ordered,
             [](Operation *a, Operation *b) { return a->isBeforeInBlock(b); });
  return ordered;
}

namespace {
/// The pipeline after an interchanged one that only folds its one carried
/// view into a row statistic: the feed reads the view chunk by chunk, the
/// compute stage folds each chunk into one value (`fold`, carried by
/// `chunks`) and sends what it makes of it once, the drain writes that.
struct RowFold {
  PipelineOp pipeline;
  StageOp compute, drain;
  scf::ForOp chunks;
  linalg::GenericOp fold;
  Operation *result; // the slot the statistic goes through
  scf::ForOp drainRow;
  /// What the pipeline needs from between the two (moved before ours).
  SmallVector<Operation *> needed;
};
} // namespace

namespace {
/// The pipeline after an interchanged one that is the only reader of its
/// one carried view, on the same compute and drain units: its read of the
/// view (all its feed does) and its three stages.
struct NextReader {
  PipelineOp pipeline;
  DataTransferOp read;
  StageOp feed, compute, drain;
};
} // namespace

static std::optional<NextReader> findNextReader(Interchange &ic) {
  if (ic.chunks.size() != 1)
    return std::nullopt;
  CarriedChunk &c = ic.chunks.front();
  Operation *view = carriedViewOf(c.write.getDst());
  // The view's transfers: the drain's write and one read, in the pipeline
  // after ours.
  SmallVector<DataTransferOp> touching;
  ic.pipeline->getParentOfType<func::FuncOp>().walk([&](DataTransferOp t) {
    if (carriedViewOf(t.getSrc()) == view || carriedViewOf(t.getDst()) == view)
      touching.push_back(t);
  });
  if (touching.size() != 2)
    return std::nullopt;
  NextReader next;
  next.read = touching[0] == c.write ? touching[1] : touching[0];
  if (carriedViewOf(next.read.getSrc()) != view ||
      !isa<FifoSlotType>(next.read.getDst().getType()))
    return std::nullopt;
  next.pipeline = next.read->getParentOfType<PipelineOp>();
  if (!next.pipeline || next.pipeline->getBlock() != ic.pipeline->getBlock() ||
      !ic.pipeline->isBeforeInBlock(next.pipeline) ||
      next.pipeline->getNumResults() != 0 || next.pipeline.getPerInstance() ||
      next.pipeline.getModulo() != ic.pipeline.getModulo())
    return std::nullopt;
  SmallVector<StageOp> stages(
      next.pipeline.getBody().front().getOps<StageOp>());
  next.feed = next.read->getParentOfType<StageOp>();
  if (stages.size() != 3 || stages[0] != next.feed || !stages[1].isCompute() ||
      stages[2].isCompute() ||
      stages[1].getUnitAttr() != ic.compute.getUnitAttr() ||
      stages[2].getUnitAttr() != ic.drain.getUnitAttr())
    return std::nullopt;
  next.compute = stages[1];
  next.drain = stages[2];
  // The feed does nothing but that read.
  int transfers = 0;
  next.feed.walk([&](DataTransferOp) { ++transfers; });
  if (transfers != 1)
    return std::nullopt;
  return next;
}

/// The reduction pipeline that reads `ic`'s one carried view next, when it
/// is the view's only reader, reads it in chunks a multiple of the kept
/// chunk walking the same positions in the same order, and folds each
/// chunk's elements in order into one accumulator.
static std::optional<RowFold> findRowFold(Interchange &ic) {
  std::optional<NextReader> next = findNextReader(ic);
  if (!next)
    return std::nullopt;
  CarriedChunk &c = ic.chunks.front();
  DataTransferOp read = next->read;
  StageOp feed = next->feed;
  RowFold rf;
  rf.pipeline = next->pipeline;
  rf.compute = next->compute;
  rf.drain = next->drain;

  // The feed's chunk nest walks ours but for a larger step of the chunk
  // loop, the same positions, in ascending order.
  auto feedNest = chunkNest(read, feed);
  auto ourNest = chunkNest(c.write, ic.drain);
  if (!feedNest || !ourNest || feedNest->size() != ourNest->size() ||
      !sameSpace(ArrayRef(*feedNest).drop_back(),
                 ArrayRef(*ourNest).drop_back()))
    return std::nullopt;
  scf::ForOp theirs = feedNest->back();
  std::optional<ConstantBounds> b0 = constantBounds(theirs),
                                b1 = constantBounds(ourNest->back());
  if (!b0 || !b1 || b0->lower != b1->lower || b0->upper != b1->upper ||
      b1->step <= 0 || b0->step % b1->step != 0)
    return std::nullopt;
  if (read.getSrcIndices().size() != c.write.getDstIndices().size())
    return std::nullopt;
  for (auto [r, w] : llvm::zip(read.getSrcIndices(), c.write.getDstIndices()))
    if (!samePosition(r, *feedNest, w, *ourNest))
      return std::nullopt;

  // The compute stage: one take of the chunk, at the same depth as ours,
  // folded by one reduction generic into the chunk loop's one carried value.
  Value slot = read.getDst();
  if (!slot.hasNUses(2))
    return std::nullopt;
  ReadFromFifoOp take;
  for (Operation *user : slot.getUsers())
    if (auto t = dyn_cast<ReadFromFifoOp>(user))
      take = t;
  if (!take || !rf.compute->isAncestor(take))
    return std::nullopt;
  auto computeNest = chunkNest(take->getParentOp(), rf.compute);
  rf.chunks = take->getParentOfType<scf::ForOp>();
  auto ourComputeNest = chunkNest(ic.computeChunks, ic.compute);
  if (!rf.chunks || rf.chunks.getNumRegionIterArgs() != 1 || !computeNest ||
      !ourComputeNest || !sameSpace(*computeNest, *ourComputeNest) ||
      !sameSpace(ArrayRef(*feedNest).drop_back(), *computeNest) ||
      !sameSpace({rf.chunks}, {theirs}))
    return std::nullopt;
  Block *body = rf.chunks.getBody();
  if (llvm::range_size(body->without_terminator()) != 2 ||
      &body->front() != take)
    return std::nullopt;
  rf.fold = dyn_cast<linalg::GenericOp>(take->getNextNode());
  if (!rf.fold || rf.fold.getNumDpsInputs() != 1 ||
      rf.fold.getNumDpsInits() != 1 || rf.fold->getNumResults() != 1 ||
      rf.fold.getDpsInputs()[0] != take.getResult() ||
      rf.fold.getDpsInits()[0] != rf.chunks.getRegionIterArgs()[0] ||
      body->getTerminator()->getOperand(0) != rf.fold->getResult(0) ||
      rf.fold.getNumLoops() != 1 ||
      rf.fold.getIteratorTypesArray()[0] != utils::IteratorType::reduction)
    return std::nullopt;
  auto maps = rf.fold.getIndexingMapsArray();
  if (!maps[0].isIdentity() || maps[1].getNumResults() != 0)
    return std::nullopt;
  auto chunkType = dyn_cast<RankedTensorType>(c.give.getValue().getType());
  auto takeType = dyn_cast<RankedTensorType>(take.getResult().getType());
  if (!chunkType || !takeType || chunkType.getRank() != 1 ||
      takeType.getRank() != 1 ||
      chunkType.getElementType() != takeType.getElementType() ||
      chunkType.getDimSize(0) != b1->step || takeType.getDimSize(0) != b0->step)
    return std::nullopt;
  // Nothing else in the compute stage takes or gives but the one send of
  // the statistic after the chunk loop.
  WriteToFifoOp give;
  bool other = false;
  rf.compute.walk([&](Operation *op) {
    if (isa<ReadFromFifoOp>(op) && op != take)
      other = true;
    if (auto w = dyn_cast<WriteToFifoOp>(op)) {
      other |= give || w->getParentOp() != rf.chunks->getParentOp();
      give = w;
    }
  });
  if (other || !give)
    return std::nullopt;
  rf.result = give.getSlot().getDefiningOp();
  // The drain writes the statistic once a row.
  SmallVector<DataTransferOp> drainTransfers;
  rf.drain.walk([&](DataTransferOp t) { drainTransfers.push_back(t); });
  if (drainTransfers.size() != 1 ||
      drainTransfers[0].getSrc() != give.getSlot() || !rf.result ||
      !isa<PrivateOp>(rf.result))
    return std::nullopt;
  auto drainNest = chunkNest(drainTransfers[0], rf.drain);
  if (!drainNest || drainNest->size() != computeNest->size() ||
      !sameSpace(*drainNest, *computeNest))
    return std::nullopt;
  rf.drainRow = drainNest->back();
  // Their row's ops copied into ours use only constants of their stages,
  // and the drain's row holds only the statistic's write.
  if (!onlyConstantsFromStage(rf.chunks->getParentOp(), rf.compute) ||
      !onlyConstantsFromStage(rf.drainRow, rf.drain) ||
      drainTransfers[0]->getParentOp() != rf.drainRow)
    return std::nullopt;
  std::optional<SmallVector<Operation *>> needed =
      neededBetween(rf.pipeline, ic.pipeline);
  if (!needed)
    return std::nullopt;
  rf.needed = std::move(*needed);
  return rf;
}

/// Erases the carried view's tile and the view when nothing reads or
/// writes them any more.
static void eraseUnusedView(Operation *tile, Operation *view) {
  if (tile && tile->use_empty())
    tile->erase();
  if (view && view != tile && view->use_empty())
    view->erase();
}

/// Folds each kept chunk into the row statistic in the compute stage, in
/// place of sending it: the chunk loop carries the fold's accumulator, the
/// statistic is made and sent once a row as the folding pipeline did, the
/// drain writes it where that pipeline's did, and that pipeline goes.
static void reduceInPlace(Interchange &ic, RowFold &rf) {
  for (Operation *op : rf.needed)
    op->moveBefore(ic.pipeline);
  CarriedChunk &c = ic.chunks.front();
  Operation *chunkSlot = c.write.getSrc().getDefiningOp();
  Operation *tile = c.write.getDst().getDefiningOp();
  Operation *view = carriedViewOf(c.write.getDst());
  // Compute: the chunk loop carries the accumulator.
  scf::ForOp chunks = ic.computeChunks;
  Operation *theirRow = rf.chunks->getParentOp();
  OpBuilder b(chunks);
  IRMapping map;
  map.map(cast<scf::ForOp>(theirRow).getInductionVar(),
          cast<scf::ForOp>(chunks->getParentOp()).getInductionVar());
  // What their row does before the chunk loop (the accumulator's start).
  for (Operation &op : *rf.chunks->getBlock()) {
    if (&op == rf.chunks)
      break;
    cloneWithConstants(&op, rf.compute, theirRow, b, map);
  }
  Value init = map.lookupOrDefault(rf.chunks.getInitArgs()[0]);
  auto carried = scf::ForOp::create(b, chunks.getLoc(), chunks.getLowerBound(),
                                    chunks.getUpperBound(), chunks.getStep(),
                                    ValueRange{init});
  carried.setUnsignedCmp(chunks.getUnsignedCmp());
  Block *inner = carried.getBody();
  inner->clear(); // no terminator when it carries values; the body's comes
  inner->getOperations().splice(inner->end(),
                                chunks.getBody()->getOperations());
  chunks.getInductionVar().replaceAllUsesWith(carried.getInductionVar());
  chunks.erase();
  ic.computeChunks = carried;
  // The chunk folded in place of the send.
  OpBuilder in(c.give);
  map.map(rf.fold.getDpsInputs()[0], c.give.getValue());
  map.map(rf.chunks.getRegionIterArgs()[0], carried.getRegionIterArgs()[0]);
  Operation *fold = cloneWithConstants(rf.fold, rf.compute, theirRow, in, map);
  Operation *yield = inner->getTerminator();
  yield->setOperands(fold->getResults());
  c.give.erase();
  // What their row does after the chunk loop: make and send the statistic.
  map.map(rf.chunks.getResult(0), carried.getResult(0));
  b.setInsertionPointAfter(carried);
  for (Operation &op : llvm::make_range(std::next(Block::iterator(rf.chunks)),
                                        rf.chunks->getBlock()->end())) {
    if (op.hasTrait<OpTrait::IsTerminator>())
      break;
    cloneWithConstants(&op, rf.compute, theirRow, b, map);
  }

  // Drain: the statistic in place of the chunks.
  scf::ForOp drainRow = cast<scf::ForOp>(ic.drainChunks->getParentOp());
  OpBuilder d(ic.drainChunks);
  IRMapping dmap;
  dmap.map(rf.drainRow.getInductionVar(), drainRow.getInductionVar());
  for (Operation &op : rf.drainRow.getBody()->without_terminator())
    cloneWithConstants(&op, rf.drain, rf.drainRow, d, dmap);
  ic.drainChunks.erase();

  // The statistic's slot moves over; the chunk's slot and their pipeline go.
  rf.result->moveBefore(chunkSlot);
  chunkSlot->erase();
  rf.pipeline.erase();
  eraseUnusedView(tile, view);
}

namespace {
/// The pipeline after an interchanged one keeping a carried scalar that
/// only copies it into another scratchpad view (the splat of Triton's
/// carried sum stored per row: ktdf-store-stats-after-loop's element).
struct ScalarCopy {
  PipelineOp pipeline;
  DataTransferOp write; // the drain's write of the copy
  SmallVector<Operation *> needed;
};
} // namespace

/// The position `index` of the one-trip nest `nest` names: a constant, or a
/// loop's lower bound; none for anything else.
static std::optional<int64_t> fixedPosition(Value index,
                                            ArrayRef<scf::ForOp> nest) {
  for (scf::ForOp loop : nest)
    if (index == loop.getInductionVar())
      return getConstantIntValue(loop.getLowerBound());
  return getConstantIntValue(index);
}

static std::optional<ScalarCopy> findScalarCopy(Interchange &ic) {
  std::optional<NextReader> next = findNextReader(ic);
  if (!next)
    return std::nullopt;
  CarriedChunk &c = ic.chunks.front();
  auto ourNest = chunkNest(c.write, ic.drain);
  auto readNest = chunkNest(next->read, next->feed);
  if (!holdsOneElement(carriedViewOf(c.write.getDst())) || !ourNest ||
      !oneTrip(*ourNest) || !readNest || !oneTrip(*readNest))
    return std::nullopt;
  // The compute stage sends what it takes, once.
  SmallVector<ReadFromFifoOp> takes;
  SmallVector<WriteToFifoOp> gives;
  next->compute.walk([&](ReadFromFifoOp t) { takes.push_back(t); });
  next->compute.walk([&](WriteToFifoOp w) { gives.push_back(w); });
  if (takes.size() != 1 || gives.size() != 1 ||
      takes[0].getSlot() != next->read.getDst() ||
      gives[0].getValue() != takes[0].getResult())
    return std::nullopt;
  auto takeNest = chunkNest(takes[0], next->compute);
  auto giveNest = chunkNest(gives[0], next->compute);
  if (!takeNest || !oneTrip(*takeNest) || !giveNest || !oneTrip(*giveNest))
    return std::nullopt;
  // The drain writes it once into a scratchpad view's tile, through a slot
  // of our drain's type.
  SmallVector<DataTransferOp> writes;
  next->drain.walk([&](DataTransferOp t) { writes.push_back(t); });
  if (writes.size() != 1 || writes[0].getSrc() != gives[0].getSlot() ||
      writes[0].getSrc().getType() != c.write.getSrc().getType() ||
      !isa<ktdp::AccessTileType>(writes[0].getDst().getType()))
    return std::nullopt;
  auto writeNest = chunkNest(writes[0], next->drain);
  if (!writeNest || !oneTrip(*writeNest) ||
      llvm::any_of(writes[0].getDstIndices(), [&](Value index) {
        return !fixedPosition(index, *writeNest);
      }))
    return std::nullopt;
  std::optional<SmallVector<Operation *>> needed =
      neededBetween(next->pipeline, ic.pipeline);
  if (!needed)
    return std::nullopt;
  return ScalarCopy{next->pipeline, writes[0], std::move(*needed)};
}

/// Our drain writes the kept scalar where the copy wrote it; the copying
/// pipeline and the carried view go.
static void writeInPlace(Interchange &ic, ScalarCopy &copy) {
  for (Operation *op : copy.needed)
    op->moveBefore(ic.pipeline);
  CarriedChunk &c = ic.chunks.front();
  Operation *tile = c.write.getDst().getDefiningOp();
  Operation *view = carriedViewOf(c.write.getDst());
  auto writeNest =
      *chunkNest(copy.write, copy.write->getParentOfType<StageOp>());
  OpBuilder b(c.write);
  SmallVector<Value> indices;
  for (Value index : copy.write.getDstIndices())
    indices.push_back(arith::ConstantIndexOp::create(
        b, copy.write.getLoc(), *fixedPosition(index, writeNest)));
  SmallVector<Value> old(c.write.getDstIndices());
  c.write.getDstMutable().assign(copy.write.getDst());
  c.write.getDstIndicesMutable().assign(indices);
  eraseUnusedPositions(old);
  copy.pipeline.erase();
  eraseUnusedView(tile, view);
}

void mlir::ktdf::carried::foldKeptChunkIntoRow(Interchange &ic) {
  if (auto rf = findRowFold(ic))
    reduceInPlace(ic, *rf);
  else if (auto copy = findScalarCopy(ic))
    writeInPlace(ic, *copy);
}
