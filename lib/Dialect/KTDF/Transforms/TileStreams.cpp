//===- TileStreams.cpp - Compute, feed and drain stages in chunks ---------===//
//
// This file implements --ktdf-tile-streams. After routing, a pipeline's
// compute stage still works on whole tiles. Here it becomes
//
//   for each row r:
//     row values known before any pass (initial values of reductions)
//     for each pass p:
//       for each chunk c of the row (iter_args: reductions of pass p):
//         read the chunks of the inputs pass p needs, compute, fold the
//         chunk into the reductions, write the outputs of pass p
//       row values that pass p made known
//     write the per-row outputs
//
// with every linalg.generic rewritten over one chunk (a 1-d tensor of W
// elements) or over a row value (a 0-d tensor). The feed and drain stages
// get the same loops, one transfer per slot read or written, so each FIFO
// carries its entries in exactly the order the compute unit consumes them.
//
//===----------------------------------------------------------------------===//

#include "StreamTiler.h"

#include "ktflow/Device/ComputeOpClass.h"
#include "ktflow/Dialect/KTDF/Transforms/MatrixStages.h"
#include "ktflow/Dialect/KTDF/Transforms/Passes.h"
#include "ktflow/Dialect/KTDP/IR/KTDP.h"
#include "ktflow/Scheduler/CostModel.h"
#include "ktflow/Scheduler/ScheduleTargetPass.h"
#include "ktflow/Support/ElementBytes.h"

#include "llvm/ADT/SmallBitVector.h"

namespace mlir::ktdf {
#define GEN_PASS_DEF_KTDFTILESTREAMS
#include "ktflow/Dialect/KTDF/Transforms/Passes.h.inc"
} // namespace mlir::ktdf

using namespace mlir;
using namespace mlir::ktdf;
using namespace mlir::ktdf::detail;

//===----------------------------------------------------------------------===//
// Decisions
//===----------------------------------------------------------------------===//

FailureOr<PipelineStages>
mlir::ktdf::detail::findPipelineStages(PipelineOp pipeline) {
  PipelineStages stages;
  for (auto stage : pipeline.getBody().front().getOps<StageOp>()) {
    if (stage.isApplicable(UnitRole::scratchpad_load))
      stages.feed = stage;
    else if (stage.isCompute())
      stages.compute = stage;
    else if (stage.isApplicable(UnitRole::scratchpad_store))
      stages.drain = stage;
  }
  if (!stages.feed || !stages.compute || !stages.drain)
    return pipeline.emitError("pipeline has no feed, compute and drain "
                              "stages; run --ktdf-route-transfers first");
  return stages;
}

/// Whether the compute lowering folds each chunk of the row reduction `op`
/// into its accumulator. A sum of products of widened 16-bit values
/// accumulates in f32 as it goes (ktdf-to-dfir's dot products, where the
/// unit's multiply-accumulate rate is the faster), with no fold.
static bool foldsEachChunk(Operation *op) {
  if (op->getNumResults() != 1 || op->getNumRegions() != 1 ||
      !getElementTypeOrSelf(op->getResult(0).getType()).isF32())
    return true;
  Block &body = op->getRegion(0).front();
  auto add = body.getTerminator()->getOperand(0).getDefiningOp<arith::AddFOp>();
  if (!add)
    return true;
  auto widened = [](Value v) {
    auto ext = v.getDefiningOp<arith::ExtFOp>();
    return ext && getElementTypeOrSelf(ext.getIn().getType())
                          .getIntOrFloatBitWidth() == 16;
  };
  for (Value term : {add.getLhs(), add.getRhs()})
    if (auto mul = term.getDefiningOp<arith::MulFOp>())
      if (widened(mul.getLhs()) && widened(mul.getRhs()))
        return false;
  return true;
}

LogicalResult StreamTiler::chooseWidth() {
  int64_t cols = plan.cols;
  if (fixedChunk > 0) {
    if (cols % fixedChunk != 0)
      return compute.emitError("chunk of ")
             << fixedChunk << " elements does not divide a row of "
             << cols;
    width = fixedChunk;
    return success();
  }
  const ktflow::sched::Lane &lane = target.getLanes().front();
  const ktflow::device::DeviceModel &model = target.getModel();
  // A stick: the granularity of the datapath that feeds the load unit,
  // in elements of the widest slot, else the unit's SIMD width.
  // A stage that reads nothing (a constant written out) takes the
  // element type of what it writes.
  SmallVector<ShapedType> ends;
  for (ReadFromFifoOp read : plan.reads)
    ends.push_back(cast<ShapedType>(read.getType()));
  if (ends.empty())
    for (WriteToFifoOp write : plan.writes)
      ends.push_back(cast<ShapedType>(write.getValue().getType()));
  int64_t elemBytes = 1;
  for (ShapedType end : ends)
    elemBytes = std::max<int64_t>(
        elemBytes, ktflow::bytesPerElement(end.getElementType()));
  const ktflow::sched::Hop &feedHop = lane.inbound.hops.back();
  int64_t granule = 0;
  for (auto dp : model.getIncoming(feedHop.unit))
    for (int64_t g : model.getDatapath(dp).spec.transferGranularity)
      granule = std::max(granule, g / elemBytes);
  if (granule == 0 && !ends.empty())
    granule =
        target.getSimdLanes(lane, ends.front().getElementType()).value_or(1);
  ktflow::sched::ChunkQuery query;
  query.cols = cols;
  query.granule = std::max<int64_t>(granule, 1);
  if (!useCostModel) {
    width = std::gcd(cols, query.granule);
    if (cols < query.granule)
      width = cols;
    return success();
  }
  const auto &unit = *model.getNode(lane.compute).unit;
  for (auto [op, role] : plan.roles) {
    if (role == OpRole::RowOp)
      continue;
    if (role == OpRole::RowReduction && foldsEachChunk(op))
      ++query.rowReductions;
    for (Block &block : op->getRegions().front())
      for (Operation &inner : block.without_terminator()) {
        Type t;
        auto cls = ktflow::device::getComputeOpClass(&inner, t, &unit);
        query.opRates.push_back(
            t ? unit.getThroughput(cls, t).value_or(1) : 1);
      }
  }
  // A running sum carried in a scratchpad view (read and written by this
  // pipeline) stays in the compute unit across the loop's trips
  // (ktdf-keep-carried-chunks): its reads cross no FIFO, and the row
  // reduction that follows the loop folds each kept chunk where it ends (a
  // reduce and an accumulate), so every chunk costs one fold more. Counted
  // as a plain FIFO read, every width tied and the narrowest won: on
  // mesh_device 32 folds a row where 8 do.
  llvm::SmallPtrSet<Operation *, 2> written;
  for (WriteToFifoOp write : plan.writes)
    if (Operation *view = carriedViewOf(write.getSlot());
        view && plan.isStreamed(write.getValue()))
      written.insert(view);
  double bytes = 0;
  for (ReadFromFifoOp read : plan.reads) {
    if (plan.isStreamed(read.getResult()) &&
        written.contains(carriedViewOf(read.getSlot()))) {
      ++query.rowReductions;
      continue;
    }
    bytes += cast<ShapedType>(read.getType()).getElementTypeBitWidth() / 8.0;
  }
  query.fifoBytesPerElement = bytes;
  for (WriteToFifoOp write : plan.writes)
    if (plan.isStreamed(write.getValue()))
      query.drainBytesPerElement += cast<ShapedType>(write.getValue().getType())
                                        .getElementTypeBitWidth() /
                                    8.0;
  query.fifoBandwidth = model.getDatapath(*feedHop.fifo).spec.bandwidth;
  width = ktflow::sched::chooseChunk(query);
  if (chunkScale == 0)
    joinRows(query, unit);
  // The tuner (`--tune`) tries widths next to the cost model's: a power of
  // two times it that still divides the row in whole sticks.
  int64_t scaled = chunkScale >= 0
                       ? width << std::min<int64_t>(chunkScale, 16)
                       : width >> std::min<int64_t>(-chunkScale, 16);
  if (scaled >= query.granule && scaled % query.granule == 0 &&
      cols % scaled == 0)
    width = scaled;
  return success();
}

/// A row narrower than the compute unit's widest issue leaves lanes idle
/// in every op of its chunk (a truncf of 32 elements is a whole cycle of 64
/// f16 lanes). Where the stage is element-wise on whole tiles only and
/// every tile is a dense rows x columns buffer, consecutive rows are
/// consecutive elements, so a chunk may span `rowsPerChunk` rows: the row
/// loops step by k, each row of the plan k x columns wide, and the feed and
/// drain move each chunk from the first of its rows. The cost model picks k
/// among the divisors of the rows whose chunk the unit takes in one issue
/// (ties to the fewer rows).
void StreamTiler::joinRows(ktflow::sched::ChunkQuery query,
                           const ktdf_arch::UnitSpec &unit) {
  if (width != plan.cols || plan.rows < 2 || plan.columnMajor ||
      plan.tileShape.size() != 2 || !unit.simd)
    return;
  int64_t maxLanes = 0;
  for (auto [type, lanes] : unit.simd->lanes)
    maxLanes = std::max(maxLanes, lanes);
  if (2 * plan.cols > maxLanes)
    return;
  if (llvm::any_of(plan.roles,
                   [](auto entry) { return entry.second != OpRole::Stream; }))
    return;
  auto isDenseTile = [&](Value slot, Value v) {
    auto buffer = dyn_cast<MemRefType>(source.lookup(slot).getType());
    return plan.getKind(v) == Kind::Tile && buffer &&
           buffer.getLayout().isIdentity() &&
           buffer.getShape() == ArrayRef<int64_t>(plan.tileShape);
  };
  for (ReadFromFifoOp read : plan.reads)
    if (!isDenseTile(read.getSlot(), read.getResult()))
      return;
  for (WriteToFifoOp write : plan.writes)
    if (!isDenseTile(write.getSlot(), write.getValue()))
      return;
  int64_t cols = plan.cols, best = 1;
  query.cols = cols;
  double bestPerRow = ktflow::sched::estimateRowCycles(query, cols);
  for (int64_t k = 2; k * cols <= maxLanes; ++k) {
    if (plan.rows % k != 0)
      continue;
    query.cols = k * cols;
    double perRow = ktflow::sched::estimateRowCycles(query, k * cols) / k;
    if (perRow < bestPerRow) {
      best = k;
      bestPerRow = perRow;
    }
  }
  rowsPerChunk = best;
  plan.cols *= best;
  width = plan.cols;
}

/// The buffer each read slot is fed from and each written slot drains to.
LogicalResult StreamTiler::findBuffers() {
  // Sources and destinations are buffers, or access tiles the load and
  // store units reach directly (a scratchpad view the kernel manages).
  auto shapeOf = [](Value end) -> std::optional<ShapedType> {
    if (auto m = dyn_cast<MemRefType>(end.getType()))
      return cast<ShapedType>(m);
    if (auto t = dyn_cast<ktdp::AccessTileType>(end.getType());
        t && t.getRank() <= 2)
      return cast<ShapedType>(t);
    return std::nullopt;
  };
  for (auto transfer : feed.getBody().front().getOps<DataTransferOp>()) {
    if (!shapeOf(transfer.getSrc()))
      return feed.emitError("the compute unit can only be fed from a buffer "
                            "or an access tile of rank 1 or 2");
    source[transfer.getDst()] = transfer.getSrc();
  }
  for (auto transfer : drain.getBody().front().getOps<DataTransferOp>()) {
    if (!shapeOf(transfer.getDst()))
      return drain.emitError("the compute unit can only drain into a buffer "
                             "or an access tile of rank 1 or 2");
    source[transfer.getSrc()] = transfer.getDst();
  }
  for (ReadFromFifoOp read : plan.reads)
    if (!source.count(read.getSlot()))
      return read.emitError("no feed transfer fills this slot");
  for (WriteToFifoOp write : plan.writes) {
    if (!source.count(write.getSlot()))
      return write.emitError("no drain transfer empties this slot");
    auto buffer = cast<ShapedType>(source[write.getSlot()].getType());
    if (!plan.isStreamed(write.getValue()) && buffer.getRank() > 1)
      return write.emitError("per-row outputs of tiles with more than two "
                             "dimensions are not supported yet");
  }
  return success();
}

Operation *StreamTiler::carriedViewOf(Value slot) const {
  Value end = source.lookup(slot);
  if (!end || !isa<ktdp::AccessTileType>(end.getType()))
    return nullptr;
  auto view = ktdp::getAccessTileView(end);
  return isCarriedView(view) ? view.getOperation() : nullptr;
}

LogicalResult StreamTiler::checkCarriedRewrites() {
  for (size_t p = 0; p < passes.size(); ++p)
    for (WriteToFifoOp write : passes[p].writes)
      if (Operation *view = carriedViewOf(write.getSlot()))
        for (size_t q = p + 1; q < passes.size(); ++q)
          for (ReadFromFifoOp read : passes[q].reads)
            if (carriedViewOf(read.getSlot()) == view) {
              InFlightDiagnostic diag = read.emitError(
                  "the value a loop carries is read again in a later pass "
                  "over the row (after a reduction) than the one that "
                  "writes its next value; the scratchpad holding it is "
                  "rewritten in place, so this is not supported yet");
              diag.attachNote(write.getLoc()) << "written here";
              return diag;
            }
  return success();
}

void StreamTiler::retypeSlots() {
  for (ReadFromFifoOp read : plan.reads)
    retype(read.getSlot(), plan.isStreamed(read.getResult()) ? width : 1);
  for (WriteToFifoOp write : plan.writes)
    retype(write.getSlot(), plan.isStreamed(write.getValue()) ? width : 1);
}

void StreamTiler::retype(Value slot, int64_t elements) {
  auto type = cast<FifoSlotType>(slot.getType());
  slot.setType(FifoSlotType::get(type.getContext(), type.getSrc(),
                                 type.getDst(), {elements},
                                 type.getElementType()));
}

/// Drops from the reads of `compute` the unit dimensions (but the last)
/// that every generic reading them reads at 0: a unit reshape folded into
/// the maps (a 1x16x1x128 page of a 4-d cache collapsed to 16x128, a
/// 1x8x128 block of a 3-d view to 8x128). The buffer behind the slot is
/// already rows x columns (ktdf-route-transfers), so the slot carries the
/// same elements in the same order; the stage then sees the tile at the
/// rank its ops compute on.
static void squeezeUnitReads(StageOp compute) {
  for (auto read :
       llvm::to_vector(compute.getBody().front().getOps<ReadFromFifoOp>())) {
    auto type = cast<RankedTensorType>(read.getType());
    Value slot = read.getSlot();
    if (type.getRank() <= 2 || !slot.hasNUses(2))
      continue;
    llvm::SmallBitVector drop(type.getRank());
    for (int64_t d = 0; d + 1 < type.getRank(); ++d)
      drop[d] = type.getDimSize(d) == 1;
    for (OpOperand &use : read->getUses()) {
      auto generic = dyn_cast<linalg::GenericOp>(use.getOwner());
      if (!generic || !generic.isDpsInput(&use)) {
        drop.reset();
        break;
      }
      AffineMap map = generic.getMatchingIndexingMap(&use);
      for (int64_t d : drop.set_bits()) {
        auto c = dyn_cast<AffineConstantExpr>(map.getResult(d));
        if (!c || c.getValue() != 0)
          drop.reset(d);
      }
    }
    if (drop.none())
      continue;
    SmallVector<int64_t> shape;
    for (int64_t d = 0; d < type.getRank(); ++d)
      if (!drop[d])
        shape.push_back(type.getDimSize(d));
    auto slotType = cast<FifoSlotType>(slot.getType());
    slot.setType(FifoSlotType::get(slotType.getContext(), slotType.getSrc(),
                                   slotType.getDst(), shape,
                                   slotType.getElementType()));
    read.getResult().setType(
        RankedTensorType::get(shape, type.getElementType()));
    for (OpOperand &use : read->getUses()) {
      auto generic = cast<linalg::GenericOp>(use.getOwner());
      SmallVector<AffineMap> maps = generic.getIndexingMapsArray();
      AffineMap &map = maps[use.getOperandNumber()];
      map = map.dropResults(drop);
      generic.setIndexingMapsAttr(
          Builder(generic.getContext()).getAffineMapArrayAttr(maps));
    }
  }
}

/// The write-side twin of squeezeUnitReads: a tile written by a generic
/// whose output reads the unit dimensions (but the last) at 0 or through a
/// loop of extent 1 no input reads (a 8x128 result expanded to 1x8x128
/// before its store) is written without them, the generic without those
/// loops.
static void squeezeUnitWrites(StageOp compute) {
  for (auto write :
       llvm::to_vector(compute.getBody().front().getOps<WriteToFifoOp>())) {
    auto type = cast<RankedTensorType>(write.getValue().getType());
    Value slot = write.getSlot();
    auto generic = write.getValue().getDefiningOp<linalg::GenericOp>();
    if (type.getRank() <= 2 || !slot.hasNUses(2) || !generic ||
        generic->getNumResults() != 1 || !write.getValue().hasOneUse() ||
        !generic.getDpsInits()[0].getDefiningOp<tensor::EmptyOp>() ||
        !generic.getBody()->getOps<linalg::IndexOp>().empty())
      continue;
    AffineMap out = generic.getIndexingMapsArray().back();
    SmallVector<int64_t> ranges = generic.getStaticLoopRanges();
    llvm::SmallBitVector dropResults(type.getRank()),
        dropLoops(generic.getNumLoops());
    for (int64_t d = 0; d + 1 < type.getRank(); ++d) {
      if (type.getDimSize(d) != 1)
        continue;
      AffineExpr e = out.getResult(d);
      if (auto c = dyn_cast<AffineConstantExpr>(e); c && c.getValue() == 0) {
        dropResults.set(d);
        continue;
      }
      auto dim = dyn_cast<AffineDimExpr>(e);
      if (!dim || ranges[dim.getPosition()] != 1)
        continue;
      unsigned loop = dim.getPosition();
      bool readElsewhere = false;
      for (auto [i, map] : llvm::enumerate(generic.getIndexingMapsArray()))
        for (auto [r, expr] : llvm::enumerate(map.getResults()))
          if ((i + 1 != generic->getNumOperands() ||
               static_cast<int64_t>(r) != d) &&
              expr.isFunctionOfDim(loop))
            readElsewhere = true;
      if (readElsewhere)
        continue;
      dropResults.set(d);
      dropLoops.set(loop);
    }
    if (dropResults.none())
      continue;
    SmallVector<int64_t> shape;
    for (int64_t d = 0; d < type.getRank(); ++d)
      if (!dropResults[d])
        shape.push_back(type.getDimSize(d));
    auto newType = RankedTensorType::get(shape, type.getElementType());
    SmallVector<AffineMap> maps = generic.getIndexingMapsArray();
    maps.back() = maps.back().dropResults(dropResults);
    for (AffineMap &map : maps)
      map = projectDims(map, dropLoops, /*compressDimsFlag=*/true);
    SmallVector<utils::IteratorType> iterators;
    for (auto [loop, it] : llvm::enumerate(generic.getIteratorTypesArray()))
      if (!dropLoops[loop])
        iterators.push_back(it);
    OpBuilder b(generic);
    Value init = tensor::EmptyOp::create(b, generic.getLoc(), shape,
                                         type.getElementType());
    auto squeezed = linalg::GenericOp::create(
        b, generic.getLoc(), TypeRange{newType}, generic.getDpsInputs(),
        ValueRange{init}, maps, iterators);
    squeezed.getRegion().takeBody(generic.getRegion());
    auto slotType = cast<FifoSlotType>(slot.getType());
    slot.setType(FifoSlotType::get(slotType.getContext(), slotType.getSrc(),
                                   slotType.getDst(), shape,
                                   slotType.getElementType()));
    write.getValueMutable().assign(squeezed.getResult(0));
    Value oldInit = generic.getDpsInits()[0];
    generic.erase();
    if (oldInit.use_empty())
      oldInit.getDefiningOp()->erase();
  }
}

namespace {

struct TileStreamsPass : public ktflow::sched::WithScheduleTarget<
                             ktdf::impl::KTDFTileStreamsBase<TileStreamsPass>> {
  using Base::Base;
  void runOnOperation() override {
    const ktflow::sched::ScheduleTarget *target = requireScheduleTarget();
    if (!target)
      return;
    SmallVector<PipelineOp> pipelines;
    getOperation().walk([&](PipelineOp p) { pipelines.push_back(p); });
    for (PipelineOp pipeline : pipelines) {
      // A DMA-only copy (ktdf-route-transfers) has no compute to stream.
      if (llvm::none_of(pipeline.getBody().front().getOps<StageOp>(),
                        [](StageOp s) { return s.isCompute(); }))
        continue;
      for (auto stage : pipeline.getBody().front().getOps<StageOp>())
        if (stage.isCompute()) {
          squeezeUnitReads(stage);
          squeezeUnitWrites(stage);
        }
      if (failed(hasMatrixStage(pipeline)
                     ? tileMatrixStage(*target, pipeline)
                     : StreamTiler(*target, pipeline, chunk, useCostModel,
                                   chunkScale)
                           .run()))
        return signalPassFailure();
    }
  }
};
} // namespace
