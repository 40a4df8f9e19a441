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

#include "StreamPlan.h"

#include "ktflow/Dialect/KTDF/Transforms/Passes.h"
#include "ktflow/Scheduling/CostModel.h"
#include "ktflow/Scheduling/ScheduleTarget.h"

#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/IRMapping.h"
#include "llvm/ADT/SetVector.h"

namespace mlir::ktdf {
#define GEN_PASS_DEF_KTDFTILESTREAMS
#include "ktflow/Dialect/KTDF/Transforms/Passes.h.inc"
} // namespace mlir::ktdf

using namespace mlir;
using namespace mlir::ktdf;
using namespace mlir::ktdf::detail;

namespace {
/// The reads, reductions and writes of each pass.
struct PassContents {
  SmallVector<ReadFromFifoOp> reads;
  SmallVector<linalg::GenericOp> reductions;
  SmallVector<WriteToFifoOp> writes;
  llvm::SetVector<Operation *> streamOps;
};

class StreamTiler {
public:
  StreamTiler(const ktflow::sched::ScheduleTarget &target, PipelineOp pipeline,
              int64_t fixedChunk, bool useCostModel)
      : target(target), pipeline(pipeline), fixedChunk(fixedChunk),
        useCostModel(useCostModel), b(pipeline.getContext()) {}

  LogicalResult run() {
    for (auto stage : pipeline.getBody().front().getOps<StageOp>()) {
      if (stage.isApplicable(UnitRole::scratchpad_load))
        feed = stage;
      else if (stage.isApplicable(UnitRole::vector_compute))
        compute = stage;
      else if (stage.isApplicable(UnitRole::scratchpad_store))
        drain = stage;
    }
    if (!feed || !compute || !drain)
      return pipeline.emitError("pipeline has no feed, compute and drain "
                                "stages; run --ktdf-route-transfers first");
    FailureOr<StreamPlan> built = StreamPlan::build(compute);
    if (failed(built))
      return failure();
    plan = std::move(*built);
    if (failed(chooseWidth()) || failed(findBuffers()))
      return failure();
    planPasses();
    retypeSlots();
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

  LogicalResult chooseWidth() {
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
    int64_t elemBytes = 1;
    for (ReadFromFifoOp read : plan.reads)
      elemBytes = std::max<int64_t>(
          elemBytes, (cast<ShapedType>(read.getType()).getElementTypeBitWidth() + 7) / 8);
    const ktflow::sched::Hop &feedHop = lane.inbound.hops.back();
    int64_t granule = 0;
    for (auto dp : model.getIncoming(feedHop.unit))
      for (int64_t g : model.getDatapath(dp).spec.transferGranularity)
        granule = std::max(granule, g / elemBytes);
    if (granule == 0 && !plan.reads.empty())
      granule = target
                    .getSimdLanes(lane, cast<ShapedType>(plan.reads.front().getType())
                                            .getElementType())
                    .value_or(1);
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
      for (Block &block : op->getRegions().front())
        for (Operation &inner : block.without_terminator()) {
          Type t = inner.getNumResults() ? inner.getResult(0).getType()
                                         : Type();
          auto cls = isa_and_present<math::ExpOp, math::TanhOp, math::LogOp,
                                     math::SqrtOp, math::RsqrtOp, math::ErfOp>(
                         &inner)
                         ? ktdf_arch::OpClass::Transcendental
                         : ktdf_arch::OpClass::Elementwise;
          query.opRates.push_back(
              t ? unit.getThroughput(cls, t).value_or(1) : 1);
        }
    }
    double bytes = 0;
    for (ReadFromFifoOp read : plan.reads)
      bytes += cast<ShapedType>(read.getType()).getElementTypeBitWidth() / 8.0;
    query.fifoBytesPerElement = bytes;
    query.fifoBandwidth = model.getDatapath(*feedHop.fifo).spec.bandwidth;
    width = ktflow::sched::chooseChunk(query);
    return success();
  }

  /// The buffer each read slot is fed from and each written slot drains to.
  LogicalResult findBuffers() {
    for (auto transfer : feed.getBody().front().getOps<DataTransferOp>()) {
      if (!isa<MemRefType>(transfer.getSrc().getType()))
        return feed.emitError("feeding the compute unit straight from an "
                              "access tile is not supported yet");
      source[transfer.getDst()] = transfer.getSrc();
    }
    for (auto transfer : drain.getBody().front().getOps<DataTransferOp>()) {
      if (!isa<MemRefType>(transfer.getDst().getType()))
        return drain.emitError("draining the compute unit straight into an "
                               "access tile is not supported yet");
      source[transfer.getSrc()] = transfer.getDst();
    }
    for (ReadFromFifoOp read : plan.reads)
      if (!source.count(read.getSlot()))
        return read.emitError("no feed transfer fills this slot");
    for (WriteToFifoOp write : plan.writes) {
      if (!source.count(write.getSlot()))
        return write.emitError("no drain transfer empties this slot");
      auto buffer = cast<MemRefType>(source[write.getSlot()].getType());
      if (!plan.isStreamed(write.getValue()) && buffer.getRank() > 1)
        return write.emitError("per-row outputs of tiles with more than two "
                               "dimensions are not supported yet");
    }
    return success();
  }

  void planPasses() {
    if (plan.columnMajor)
      return;
    passes.resize(plan.numPasses);
    for (auto [op, role] : plan.roles)
      if (role == OpRole::RowReduction)
        passes[plan.passOf(op->getResult(0)) - 1].reductions.push_back(op);
    for (WriteToFifoOp write : plan.writes)
      if (plan.isStreamed(write.getValue()))
        passes[plan.passOf(write.getValue())].writes.push_back(write);
    for (PassContents &pass : passes) {
      SmallVector<Value> worklist;
      for (auto op : pass.reductions)
        for (Value v : op.getDpsInputs())
          worklist.push_back(v);
      for (auto write : pass.writes)
        worklist.push_back(write.getValue());
      llvm::SmallPtrSet<Operation *, 16> needed;
      while (!worklist.empty()) {
        Value v = worklist.pop_back_val();
        Operation *def = v.getDefiningOp();
        if (!def || !plan.isStreamed(v) || !needed.insert(def).second)
          continue;
        for (Value operand : def->getOperands())
          worklist.push_back(operand);
      }
      for (ReadFromFifoOp read : plan.reads)
        if (needed.contains(read))
          pass.reads.push_back(read);
      for (auto [op, role] : plan.roles)
        if (role == OpRole::Stream && needed.contains(op))
          pass.streamOps.insert(op);
    }
  }

  void retypeSlots() {
    for (ReadFromFifoOp read : plan.reads)
      retype(read.getSlot(), plan.isStreamed(read.getResult()) ? width : 1);
    for (WriteToFifoOp write : plan.writes)
      retype(write.getSlot(), plan.isStreamed(write.getValue()) ? width : 1);
  }

  void retype(Value slot, int64_t elements) {
    auto type = cast<FifoSlotType>(slot.getType());
    slot.setType(FifoSlotType::get(type.getContext(), type.getSrc(),
                                   type.getDst(), {elements},
                                   type.getElementType()));
  }

  //===--------------------------------------------------------------------===//
  // The compute stage
  //===--------------------------------------------------------------------===//

  Value index(int64_t v) {
    return arith::ConstantIndexOp::create(b, compute.getLoc(), v);
  }

  /// Replaces `stage`'s body with a fresh block and positions `b` in it.
  Block *freshBody(StageOp stage) {
    Block *old = &stage.getBody().front();
    Block *body = new Block();
    stage.getBody().push_front(body);
    b.setInsertionPointToStart(body);
    return old;
  }

  /// A chunk (rank 1, `width` elements) or row value (rank 0) of type T.
  Type chunkType(Value v) {
    auto type = cast<RankedTensorType>(v.getType());
    if (plan.isStreamed(v))
      return RankedTensorType::get({width}, type.getElementType());
    return RankedTensorType::get({}, type.getElementType());
  }

  /// The operand `v` of a generic as its chunk or row form; splat
  /// constants are rebuilt at the right shape.
  Value lookup(Value v, IRMapping &map) {
    if (Value mapped = map.lookupOrNull(v))
      return mapped;
    if (auto empty = v.getDefiningOp<tensor::EmptyOp>()) {
      auto type = cast<RankedTensorType>(chunkType(v));
      Value fresh = tensor::EmptyOp::create(b, empty.getLoc(), type.getShape(),
                                            type.getElementType());
      map.map(v, fresh);
      return fresh;
    }
    auto cst = v.getDefiningOp<arith::ConstantOp>();
    auto dense = cst ? dyn_cast<SplatElementsAttr>(cst.getValue()) : nullptr;
    if (!dense)
      return v;
    auto type = cast<RankedTensorType>(chunkType(v));
    Value rebuilt = arith::ConstantOp::create(
        b, cst.getLoc(), type,
        SplatElementsAttr::get(type, dense.getSplatValue<Attribute>()));
    map.map(v, rebuilt);
    return rebuilt;
  }

  /// Emits `op` over one chunk (Stream, RowReduction) or one row (RowOp).
  SmallVector<Value> emitOp(linalg::GenericOp op, OpRole role, IRMapping &map,
                            ValueRange accumulators = {}) {
    MLIRContext *ctx = op.getContext();
    unsigned loops = role == OpRole::RowOp ? 0 : 1;
    AffineMap chunkMap = AffineMap::getMultiDimIdentityMap(loops, ctx);
    AffineMap scalarMap = AffineMap::get(loops, 0, ctx);
    SmallVector<Value> inputs, outputs;
    SmallVector<AffineMap> maps;
    for (Value v : op.getDpsInputs()) {
      inputs.push_back(lookup(v, map));
      bool chunked = isa<RankedTensorType>(v.getType()) && plan.isStreamed(v);
      maps.push_back(chunked ? chunkMap : scalarMap);
    }
    if (role == OpRole::RowReduction || role == OpRole::ColReduction) {
      // Row reductions fold the chunk into one value; column reductions
      // fold each row's chunk into a chunk of per-column accumulators.
      outputs.append(accumulators.begin(), accumulators.end());
      maps.append(outputs.size(),
                  role == OpRole::RowReduction ? scalarMap : chunkMap);
    } else {
      for (Value init : op.getDpsInits()) {
        auto type = cast<RankedTensorType>(chunkType(op.getTiedOpResult(
            op.getDpsInitOperand(outputs.size()))));
        outputs.push_back(tensor::EmptyOp::create(
            b, op.getLoc(), type.getShape(), type.getElementType()));
        maps.push_back(loops ? chunkMap : scalarMap);
        (void)init;
      }
    }
    SmallVector<utils::IteratorType> iterators(
        loops, role == OpRole::RowReduction ? utils::IteratorType::reduction
                                            : utils::IteratorType::parallel);
    SmallVector<Type> resultTypes;
    for (Value out : outputs)
      resultTypes.push_back(out.getType());
    auto tiled = linalg::GenericOp::create(b, op.getLoc(), resultTypes, inputs,
                                           outputs, maps, iterators);
    IRMapping bodyMap = map;
    op.getRegion().cloneInto(&tiled.getRegion(), bodyMap);
    for (auto [old, now] : llvm::zip(op.getResults(), tiled.getResults()))
      map.map(old, now);
    return SmallVector<Value>(tiled.getResults());
  }

  void emitRowOps(int availableAt, IRMapping &map) {
    for (auto [op, role] : plan.roles)
      if (role == OpRole::RowOp && plan.passOf(op->getResult(0)) == availableAt)
        emitOp(op, role, map);
  }

  void buildCompute() {
    Block *old = freshBody(compute);
    Location loc = compute.getLoc();
    IRMapping base;
    for (Operation &op : *old)
      if (isa<arith::ConstantOp>(op) &&
          !isa<RankedTensorType>(op.getResult(0).getType()))
        base.map(op.getResult(0), b.clone(op)->getResult(0));
    Value c0 = index(0), c1 = index(1), rows = index(plan.rows),
          cols = index(plan.cols), step = index(width);
    if (plan.columnMajor) {
      buildColumnMajorCompute(base, old);
      return;
    }
    scf::ForOp::create(b, loc, c0, rows, c1, ValueRange{},
                       [&](OpBuilder &, Location, Value, ValueRange) {
      IRMapping rowMap = base;
      // Values read once per row come first, as the feed sends them.
      for (ReadFromFifoOp read : plan.reads)
        if (!plan.isStreamed(read.getResult()))
          rowMap.map(read.getResult(),
                     ReadFromFifoOp::create(b, read.getLoc(),
                                            chunkType(read.getResult()),
                                            read.getSlot()));
      emitRowOps(0, rowMap);
      for (size_t p = 0; p < passes.size(); ++p) {
        PassContents &pass = passes[p];
        SmallVector<Value> inits;
        for (auto op : pass.reductions)
          for (Value init : op.getDpsInits())
            inits.push_back(lookup(init, rowMap));
        auto chunks = scf::ForOp::create(
            b, loc, c0, cols, step, inits,
            [&](OpBuilder &, Location, Value, ValueRange accs) {
          IRMapping chunkMap = rowMap;
          for (ReadFromFifoOp read : pass.reads)
            chunkMap.map(read.getResult(),
                         ReadFromFifoOp::create(b, read.getLoc(),
                                                chunkType(read.getResult()),
                                                read.getSlot()));
          for (Operation *op : pass.streamOps)
            emitOp(cast<linalg::GenericOp>(op), OpRole::Stream, chunkMap);
          SmallVector<Value> next;
          unsigned a = 0;
          for (auto op : pass.reductions) {
            unsigned n = op.getNumDpsInits();
            SmallVector<Value> results = emitOp(op, OpRole::RowReduction,
                                                chunkMap, accs.slice(a, n));
            next.append(results);
            a += n;
          }
          for (WriteToFifoOp write : pass.writes)
            WriteToFifoOp::create(b, write.getLoc(),
                                  chunkMap.lookup(write.getValue()),
                                  write.getSlot());
          scf::YieldOp::create(b, loc, next);
        });
        unsigned r = 0;
        for (auto op : pass.reductions)
          for (Value result : op->getResults())
            rowMap.map(result, chunks.getResult(r++));
        emitRowOps(p + 1, rowMap);
      }
      for (WriteToFifoOp write : plan.writes)
        if (!plan.isStreamed(write.getValue()))
          WriteToFifoOp::create(b, write.getLoc(),
                                lookup(write.getValue(), rowMap),
                                write.getSlot());
      scf::YieldOp::create(b, loc);
    });
    old->dropAllDefinedValueUses();
    old->erase();
  }

  /// Column reductions: each chunk of columns goes down the rows,
  ///   for c { per-column values; for r { row chunk, fold }; results }.
  void buildColumnMajorCompute(IRMapping &base, Block *old) {
    Location loc = compute.getLoc();
    Value c0 = index(0), c1 = index(1), rows = index(plan.rows),
          cols = index(plan.cols), step = index(width);
    // What depends on a column reduction's result comes after the rows.
    llvm::SmallPtrSet<Operation *, 8> after;
    for (auto [op, role] : plan.roles) {
      bool late = role == OpRole::ColReduction;
      for (Value v : op->getOperands())
        if (Operation *def = v.getDefiningOp(); def && after.contains(def))
          late = true;
      if (late)
        after.insert(op);
    }
    auto inRows = [&](Operation *op) {
      return llvm::any_of(op->getResults(), [&](Value v) {
        return plan.getKind(v) == Kind::Tile;
      });
    };
    scf::ForOp::create(b, loc, c0, cols, step, ValueRange{},
                       [&](OpBuilder &, Location, Value, ValueRange) {
      IRMapping chunkMap = base;
      for (ReadFromFifoOp read : plan.reads)
        if (plan.getKind(read.getResult()) != Kind::Tile)
          chunkMap.map(read.getResult(),
                       ReadFromFifoOp::create(b, read.getLoc(),
                                              chunkType(read.getResult()),
                                              read.getSlot()));
      for (auto [op, role] : plan.roles)
        if (!after.contains(op) && !inRows(op))
          emitOp(op, role, chunkMap);
      SmallVector<Value> inits;
      for (auto [op, role] : plan.roles)
        if (role == OpRole::ColReduction)
          for (Value init : op.getDpsInits())
            inits.push_back(lookup(init, chunkMap));
      auto down = scf::ForOp::create(
          b, loc, c0, rows, c1, inits,
          [&](OpBuilder &, Location, Value, ValueRange accs) {
        IRMapping rowMap = chunkMap;
        for (ReadFromFifoOp read : plan.reads)
          if (plan.getKind(read.getResult()) == Kind::Tile)
            rowMap.map(read.getResult(),
                       ReadFromFifoOp::create(b, read.getLoc(),
                                              chunkType(read.getResult()),
                                              read.getSlot()));
        SmallVector<Value> next;
        unsigned a = 0;
        for (auto [op, role] : plan.roles) {
          if (role == OpRole::ColReduction) {
            unsigned n = op.getNumDpsInits();
            next.append(emitOp(op, role, rowMap, accs.slice(a, n)));
            a += n;
          } else if (inRows(op)) {
            emitOp(op, role, rowMap);
          }
        }
        for (WriteToFifoOp write : plan.writes)
          if (plan.getKind(write.getValue()) == Kind::Tile)
            WriteToFifoOp::create(b, write.getLoc(),
                                  rowMap.lookup(write.getValue()),
                                  write.getSlot());
        scf::YieldOp::create(b, loc, next);
      });
      unsigned r = 0;
      for (auto [op, role] : plan.roles)
        if (role == OpRole::ColReduction)
          for (Value result : op->getResults())
            chunkMap.map(result, down.getResult(r++));
      for (auto [op, role] : plan.roles)
        if (after.contains(op) && role != OpRole::ColReduction)
          emitOp(op, role, chunkMap);
      for (WriteToFifoOp write : plan.writes)
        if (plan.getKind(write.getValue()) != Kind::Tile)
          WriteToFifoOp::create(b, write.getLoc(),
                                lookup(write.getValue(), chunkMap),
                                write.getSlot());
      scf::YieldOp::create(b, loc);
    });
    old->dropAllDefinedValueUses();
    old->erase();
  }

  /// The feed or drain of a column-major stage: per chunk of columns, the
  /// per-column transfers around the rows' transfers, in the compute's
  /// order.
  void buildColumnMajorTransfers(StageOp stage, bool isFeed) {
    Block *old = freshBody(stage);
    Location loc = stage.getLoc();
    Value c0 = index(0), c1 = index(1), rows = index(plan.rows),
          cols = index(plan.cols), step = index(width);
    auto move = [&](Value slot, Location at, SmallVector<Value> indices) {
      Value buffer = source.lookup(slot);
      if (isFeed)
        DataTransferOp::create(b, at, buffer, indices, slot, ValueRange{});
      else
        DataTransferOp::create(b, at, slot, ValueRange{}, buffer, indices);
    };
    auto perColumn = [&](Value slot, Value value, Location at, Value c) {
      Value buffer = source.lookup(slot);
      if (!plan.isStreamed(value))
        move(slot, at, rowIndex(buffer, c));
      else
        move(slot, at, {c});
    };
    scf::ForOp::create(b, loc, c0, cols, step, ValueRange{},
                       [&](OpBuilder &, Location, Value c, ValueRange) {
      if (isFeed)
        for (ReadFromFifoOp read : plan.reads)
          if (plan.getKind(read.getResult()) != Kind::Tile)
            perColumn(read.getSlot(), read.getResult(), read.getLoc(), c);
      bool perRow =
          isFeed ? llvm::any_of(plan.reads,
                                [&](ReadFromFifoOp read) {
                                  return plan.getKind(read.getResult()) ==
                                         Kind::Tile;
                                })
                 : llvm::any_of(plan.writes, [&](WriteToFifoOp write) {
                     return plan.getKind(write.getValue()) == Kind::Tile;
                   });
      if (perRow)
      scf::ForOp::create(b, loc, c0, rows, c1, ValueRange{},
                         [&](OpBuilder &, Location, Value r, ValueRange) {
        if (isFeed) {
          for (ReadFromFifoOp read : plan.reads)
            if (plan.getKind(read.getResult()) == Kind::Tile)
              move(read.getSlot(), read.getLoc(),
                   chunkIndices(source.lookup(read.getSlot()), r, c));
        } else {
          for (WriteToFifoOp write : plan.writes)
            if (plan.getKind(write.getValue()) == Kind::Tile)
              move(write.getSlot(), write.getLoc(),
                   chunkIndices(source.lookup(write.getSlot()), r, c));
        }
        scf::YieldOp::create(b, loc);
      });
      if (!isFeed)
        for (WriteToFifoOp write : plan.writes)
          if (plan.getKind(write.getValue()) != Kind::Tile)
            perColumn(write.getSlot(), write.getValue(), write.getLoc(), c);
      scf::YieldOp::create(b, loc);
    });
    old->dropAllDefinedValueUses();
    old->erase();
  }

  //===--------------------------------------------------------------------===//
  // Feed and drain
  //===--------------------------------------------------------------------===//

  /// Indices of the chunk at row `r`, column `c` of `buffer`.
  SmallVector<Value> chunkIndices(Value buffer, Value r, Value c) {
    if (cast<MemRefType>(buffer.getType()).getRank() == 1)
      return {c};
    return {r, c};
  }

  /// Indices of row `r` of a per-row buffer; the origin of a one-element
  /// (scalar) buffer, the same for every row.
  SmallVector<Value> rowIndex(Value buffer, Value r) {
    auto type = cast<MemRefType>(buffer.getType());
    if (type.getNumElements() == 1)
      return SmallVector<Value>(type.getRank(), index(0));
    return {r};
  }

  /// Builds `for r { head(r); for each pass { for c { body(pass, r, c) } };
  /// tail(r) }`.
  void buildRowLoops(StageOp stage, function_ref<void(Value)> head,
                     function_ref<bool(const PassContents &)> hasWork,
                     function_ref<void(const PassContents &, Value, Value)> body,
                     function_ref<void(Value)> tail) {
    Block *old = freshBody(stage);
    Location loc = stage.getLoc();
    Value c0 = index(0), c1 = index(1), rows = index(plan.rows),
          cols = index(plan.cols), step = index(width);
    scf::ForOp::create(b, loc, c0, rows, c1, ValueRange{},
                       [&](OpBuilder &, Location, Value r, ValueRange) {
      head(r);
      for (const PassContents &pass : passes) {
        if (!hasWork(pass))
          continue;
        scf::ForOp::create(b, loc, c0, cols, step, ValueRange{},
                           [&](OpBuilder &, Location, Value c, ValueRange) {
          body(pass, r, c);
          scf::YieldOp::create(b, loc);
        });
      }
      tail(r);
      scf::YieldOp::create(b, loc);
    });
    old->dropAllDefinedValueUses();
    old->erase();
  }

  void buildFeed() {
    if (plan.columnMajor)
      return buildColumnMajorTransfers(feed, /*isFeed=*/true);
    buildRowLoops(
        feed,
        [&](Value r) {
          for (ReadFromFifoOp read : plan.reads) {
            if (plan.isStreamed(read.getResult()))
              continue;
            Value buffer = source.lookup(read.getSlot());
            DataTransferOp::create(b, read.getLoc(), buffer, rowIndex(buffer, r),
                                   read.getSlot(), ValueRange{});
          }
        },
        [](const PassContents &p) { return !p.reads.empty(); },
        [&](const PassContents &pass, Value r, Value c) {
          for (ReadFromFifoOp read : pass.reads) {
            Value buffer = source.lookup(read.getSlot());
            DataTransferOp::create(b, read.getLoc(), buffer,
                                   chunkIndices(buffer, r, c), read.getSlot(),
                                   ValueRange{});
          }
        },
        [](Value) {});
  }

  void buildDrain() {
    if (plan.columnMajor)
      return buildColumnMajorTransfers(drain, /*isFeed=*/false);
    buildRowLoops(
        drain, [](Value) {},
        [](const PassContents &p) { return !p.writes.empty(); },
        [&](const PassContents &pass, Value r, Value c) {
          for (WriteToFifoOp write : pass.writes) {
            Value buffer = source.lookup(write.getSlot());
            DataTransferOp::create(b, write.getLoc(), write.getSlot(),
                                   ValueRange{}, buffer,
                                   chunkIndices(buffer, r, c));
          }
        },
        [&](Value r) {
          for (WriteToFifoOp write : plan.writes) {
            if (plan.isStreamed(write.getValue()))
              continue;
            Value buffer = source.lookup(write.getSlot());
            DataTransferOp::create(b, write.getLoc(), write.getSlot(),
                                   ValueRange{}, buffer, rowIndex(buffer, r));
          }
        });
  }

  const ktflow::sched::ScheduleTarget &target;
  PipelineOp pipeline;
  int64_t fixedChunk;
  bool useCostModel;
  OpBuilder b;
  StageOp feed, compute, drain;
  StreamPlan plan;
  int64_t width = 1;
  SmallVector<PassContents> passes;
  /// Read slot -> the buffer feeding it; written slot -> the buffer it
  /// drains into.
  llvm::DenseMap<Value, Value> source;
};

struct TileStreamsPass : public ktdf::impl::KTDFTileStreamsBase<TileStreamsPass> {
  using Base::Base;
  void runOnOperation() override {
    auto target = ktflow::sched::ScheduleTarget::get(getOperation());
    if (failed(target))
      return signalPassFailure();
    SmallVector<PipelineOp> pipelines;
    getOperation().walk([&](PipelineOp p) { pipelines.push_back(p); });
    for (PipelineOp pipeline : pipelines)
      if (failed(StreamTiler(**target, pipeline, chunk, useCostModel).run()))
        return signalPassFailure();
  }
};
} // namespace
