//===- WidenInvariantColumns.cpp - Widen a lane's invariant columns once --===//
//
// This file implements --ktdf-widen-invariant-columns. A buffer that a
// `per_instance` pipeline exports (a layernorm's W and B, loaded once per
// lane) and that a compute stage widens to f32 chunk by chunk on every row
// (ktdf-tile-streams keeps the widened columns in the compute unit only
// where it can hold them, StreamKeep.cpp hoistColumns) is widened once per
// lane instead: a second `per_instance` pipeline feeds the buffer's chunks
// to the compute unit, which extends them and sends them to the drain,
// which stores them into an f32 buffer it exports. The rows' feed reads
// the f32 chunks in place of the f16 ones and the compute stage drops its
// extensions: the same values, bit-identical results. The feed moves twice
// the bytes of those chunks, so this applies only where the compute unit
// spends more cycles on extending a chunk than the feed's FIFO on the
// extra bytes, and where the lane's scratchpad holds the f32 buffer.
//
//===----------------------------------------------------------------------===//

#include "ktflow/Device/ComputeOpClass.h"
#include "ktflow/Dialect/KTDF/Transforms/Passes.h"
#include "ktflow/Scheduler/ScheduleTarget.h"
#include "ktflow/Scheduler/ScheduleTargetPass.h"
#include "ktflow/Support/ElementBytes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/IRMapping.h"
#include "llvm/ADT/MapVector.h"

#include <cmath>

namespace mlir::ktdf {
#define GEN_PASS_DEF_KTDFWIDENINVARIANTCOLUMNS
#include "ktflow/Dialect/KTDF/Transforms/Passes.h.inc"
} // namespace mlir::ktdf

using namespace mlir;
using namespace mlir::ktdf;
using ktflow::sched::ScheduleTarget;

namespace {
/// One read of a column chunk and the element-wise extension that is its
/// only use.
struct Widening {
  ReadFromFifoOp read;
  linalg::GenericOp extend;
};

/// An exported buffer whose every reader feeds chunks the compute unit
/// only extends: the slots that carry them and their reads.
struct Column {
  Value buffer;
  Type wide;
  int64_t chunk = 0;
  StringAttr feedUnit;
  SmallVector<PrivateOp> slots;
  SmallVector<DataTransferOp> feeds;
  SmallVector<Widening> widenings;
};
} // namespace

/// `op` is an element-wise generic of one input that only extends it to a
/// wider float (arith.extf verifies wider) and yields that.
static bool isExtension(linalg::GenericOp op) {
  if (op.getNumDpsInputs() != 1 || op.getNumDpsInits() != 1 ||
      op.getNumLoops() != 1 || !op.isAllParallelLoops() ||
      !llvm::all_of(op.getIndexingMapsArray(),
                    [](AffineMap m) { return m.isIdentity(); }))
    return false;
  Block &body = op.getRegion().front();
  auto extf = dyn_cast<arith::ExtFOp>(body.front());
  return body.getOperations().size() == 2 && extf &&
         extf.getIn() == body.getArgument(0) &&
         body.getTerminator()->getOperand(0) == extf.getResult();
}

/// The stage holding `op`, and whether a loop inside that stage repeats
/// it within one execution.
static std::pair<StageOp, bool> stageOf(Operation *op) {
  bool repeated = false;
  for (Operation *p = op->getParentOp(); p; p = p->getParentOp()) {
    if (auto stage = dyn_cast<StageOp>(p))
      return {stage, repeated};
    repeated |= isa<scf::ForOp>(p);
  }
  return {StageOp(), false};
}

/// The readers of export `index` of `pipeline` when all of them qualify
/// and the export lives in memory of `kind`.
static std::optional<Column> analyse(PipelineOp pipeline, unsigned index,
                                     StringRef computeUnit, StringRef kind) {
  Column c;
  c.buffer = pipeline.getResult(index);
  auto type = cast<MemRefType>(c.buffer.getType());
  if (type.getRank() != 1 || !isa<FloatType>(type.getElementType()) ||
      getBufferMemoryKind(type) != kind)
    return std::nullopt;
  llvm::SetVector<Operation *> slots;
  for (Operation *user : c.buffer.getUsers()) {
    auto feed = dyn_cast<DataTransferOp>(user);
    auto slot = feed ? feed.getDst().getDefiningOp<PrivateOp>() : PrivateOp();
    if (!feed || feed.getSrc() != c.buffer || !slot ||
        !isa<FifoSlotType>(slot.getType()))
      return std::nullopt;
    c.feeds.push_back(feed);
    slots.insert(slot);
  }
  for (Operation *op : slots) {
    auto slot = cast<PrivateOp>(op);
    auto slotType = cast<FifoSlotType>(slot.getType());
    if (slotType.getShape().size() != 1 || slotType.getDst() != computeUnit ||
        (c.feedUnit && c.feedUnit != slotType.getSrc()))
      return std::nullopt;
    if (c.chunk && c.chunk != slotType.getShape()[0])
      return std::nullopt;
    c.feedUnit = slotType.getSrc();
    c.chunk = slotType.getShape()[0];
    if (c.chunk <= 0 || type.getNumElements() % c.chunk != 0)
      return std::nullopt;
    for (Operation *user : slot.getResult().getUsers()) {
      if (auto feed = dyn_cast<DataTransferOp>(user)) {
        if (feed.getSrc() != c.buffer)
          return std::nullopt;
        continue;
      }
      auto read = dyn_cast<ReadFromFifoOp>(user);
      if (!read || !read->hasOneUse())
        return std::nullopt;
      auto extend = dyn_cast<linalg::GenericOp>(*read->user_begin());
      // Reads the compute unit makes once an execution hold the column
      // already (hoistColumns); only per-row extensions gain.
      if (!extend || extend.getDpsInputs()[0] != read.getResult() ||
          !isExtension(extend) || !stageOf(read).second)
        return std::nullopt;
      Type wide = getElementTypeOrSelf(extend.getResult(0).getType());
      if (c.wide && c.wide != wide)
        return std::nullopt;
      c.wide = wide;
      c.widenings.push_back({read, extend});
    }
    c.slots.push_back(slot);
  }
  if (c.widenings.empty())
    return std::nullopt;
  return c;
}

namespace {
struct WidenInvariantColumnsPass
    : public ktflow::sched::WithScheduleTarget<
          ktdf::impl::KTDFWidenInvariantColumnsBase<
              WidenInvariantColumnsPass>> {
  void runOnOperation() override {
    const ktflow::sched::ScheduleTarget *target = requireScheduleTarget();
    if (!target)
      return;
    const auto &model = target->getModel();
    const ktflow::sched::Lane &lane = target->getLanes().front();
    std::optional<ktflow::sched::Hop> feed, drain;
    for (const ktflow::sched::Hop &hop : lane.inbound.hops)
      if (hop.kind == ktflow::sched::Hop::Feed)
        feed = hop;
    for (const ktflow::sched::Hop &hop : lane.outbound.hops)
      if (hop.kind == ktflow::sched::Hop::Drain)
        drain = hop;
    // The widened buffers go in the drain's memory and the rows' feed
    // reads them: one memory.
    if (!feed || !drain || !feed->fifo || !drain->to || feed->from != drain->to)
      return;
    StringRef kind = model.getNode(*drain->to).getKind();
    Env env{*target, *feed, *drain};
    getOperation().walk([&](func::FuncOp func) {
      SmallVector<PipelineOp> exporting;
      func.walk([&](PipelineOp p) {
        if (p.getPerInstance() && p->getNumResults() > 0)
          exporting.push_back(p);
      });
      for (PipelineOp p : exporting) {
        SmallVector<Column> columns;
        for (unsigned i = 0; i < p->getNumResults(); ++i)
          if (auto c = analyse(p, i, model.getNode(lane.compute).name, kind))
            // One feed stage moves every column: through one unit.
            if (pays(env, *c) &&
                (columns.empty() || c->feedUnit == columns.front().feedUnit))
              columns.push_back(std::move(*c));
        if (!columns.empty() && fits(env, func, columns))
          widen(env, p, columns);
      }
    });
  }

  struct Env {
    const ScheduleTarget &target;
    ktflow::sched::Hop feed, drain;
  };

  /// The compute unit's cycles extending a chunk against the feed FIFO's
  /// cycles for the bytes the wider chunk adds.
  static bool pays(const Env &env, const Column &c) {
    const auto &model = env.target.getModel();
    const auto &unit =
        *model.getNode(env.target.getLanes().front().compute).unit;
    linalg::GenericOp extension = c.widenings.front().extend;
    Operation &ext = extension.getRegion().front().front();
    Type t;
    auto cls = ktflow::device::getComputeOpClass(&ext, t, &unit);
    double rate = t ? unit.getThroughput(cls, t).value_or(1) : 1;
    double extend = std::ceil(c.chunk / std::max(rate, 1e-9));
    auto narrow = cast<MemRefType>(c.buffer.getType()).getElementType();
    double extra =
        c.chunk *
        (c.wide.getIntOrFloatBitWidth() - narrow.getIntOrFloatBitWidth()) / 8.0;
    double fifo =
        std::max(model.getDatapath(*env.feed.fifo).spec.bandwidth, 1.0);
    return extend > std::ceil(extra / fifo);
  }

  /// The lane's buffers in the drain's memory, with the widened ones, fit
  /// its share of that memory.
  static bool fits(const Env &env, func::FuncOp func,
                   ArrayRef<Column> columns) {
    const auto &model = env.target.getModel();
    StringRef kind = model.getNode(*env.drain.to).getKind();
    auto bytesOf = [](MemRefType type) {
      return type.getNumElements() *
             ktflow::bytesPerElement(type.getElementType());
    };
    int64_t used = 0;
    func.walk([&](PipelineOp p) {
      for (auto priv : p.getBody().front().getOps<PrivateOp>())
        if (auto type = dyn_cast<MemRefType>(priv.getType());
            type && getBufferMemoryKind(type) == kind)
          used += bytesOf(type) * p.getNumCopies();
    });
    for (const Column &c : columns)
      used += cast<MemRefType>(c.buffer.getType()).getNumElements() *
              ktflow::bytesPerElement(c.wide);
    int64_t lanes = env.target.getLanes().size();
    int64_t sharing =
        model.getInstancesPerCore(*env.drain.to) >= lanes ? 1 : lanes;
    return used * sharing <=
           env.target.getMemoryTree().getCapacity(*env.drain.to);
  }

  /// Adds the pipeline that widens `columns` once per lane after `p` and
  /// points their readers at its exports.
  static void widen(const Env &env, PipelineOp p,
                    MutableArrayRef<Column> columns) {
    const auto &model = env.target.getModel();
    MLIRContext *ctx = p.getContext();
    Location loc = p.getLoc();
    OpBuilder b(ctx);
    b.setInsertionPointAfter(p);
    StringRef kind = model.getNode(*env.drain.to).getKind();
    StringAttr computeUnit = b.getStringAttr(
        model.getNode(env.target.getLanes().front().compute).name);
    StringAttr drainUnit = b.getStringAttr(model.getNode(env.drain.unit).name);
    SmallVector<Type> types;
    for (Column &c : columns)
      types.push_back(getBufferType(
          cast<MemRefType>(c.buffer.getType()).getShape(), c.wide, kind));
    auto widened = PipelineOp::create(b, loc, types, b.getI64IntegerAttr(1),
                                      b.getUnitAttr());
    b.createBlock(&widened.getBody());
    struct Slots {
      Value buffer, in, out;
    };
    SmallVector<Slots> slots;
    for (auto [i, c] : llvm::enumerate(columns)) {
      Type narrow = cast<MemRefType>(c.buffer.getType()).getElementType();
      auto buffer = PrivateOp::create(b, loc, types[i], IntegerAttr());
      buffer.setExportedAttr(b.getI64IntegerAttr(i));
      auto in = PrivateOp::create(
          b, loc,
          FifoSlotType::get(ctx, c.feedUnit, computeUnit, {c.chunk}, narrow),
          IntegerAttr());
      auto out = PrivateOp::create(
          b, loc,
          FifoSlotType::get(ctx, computeUnit, drainUnit, {c.chunk}, c.wide),
          IntegerAttr());
      slots.push_back({buffer, in, out});
    }
    // Each stage walks every column's chunks in the same order.
    auto stage = [&](StringRef name, Value after, UnitRole role,
                     StringAttr unit, auto body) {
      SmallVector<Value> deps;
      SmallVector<Type> tokens;
      if (after)
        deps.push_back(after);
      if (role != UnitRole::scratchpad_store)
        tokens.push_back(TokenType::get(ctx));
      auto created =
          StageOp::create(b, loc, tokens, b.getStringAttr(name), deps,
                          b.getArrayAttr({UnitRoleAttr::get(ctx, role)}), unit);
      OpBuilder::InsertionGuard guard(b);
      b.createBlock(&created.getBody());
      Value zero = arith::ConstantIndexOp::create(b, loc, 0);
      for (auto [c, s] : llvm::zip(columns, slots)) {
        Value end = arith::ConstantIndexOp::create(
            b, loc, cast<MemRefType>(c.buffer.getType()).getNumElements());
        Value step = arith::ConstantIndexOp::create(b, loc, c.chunk);
        auto loop = scf::ForOp::create(b, loc, zero, end, step);
        OpBuilder::InsertionGuard inner(b);
        b.setInsertionPointToStart(loop.getBody());
        body(c, s, loop.getInductionVar());
      }
      return tokens.empty() ? Value() : created.getResult(0);
    };
    Value fed = stage(
        "feed", Value(), UnitRole::scratchpad_load, columns.front().feedUnit,
        [&](Column &c, Slots &s, Value at) {
          DataTransferOp::create(b, loc, c.buffer, at, s.in, ValueRange{});
        });
    Value computed = stage(
        "compute", fed, UnitRole::vector_compute, computeUnit,
        [&](Column &c, Slots &s, Value) {
          linalg::GenericOp like = c.widenings.front().extend;
          auto narrow = cast<FifoSlotType>(s.in.getType());
          Value chunk = ReadFromFifoOp::create(
              b, loc, RankedTensorType::get({c.chunk}, narrow.getElementType()),
              s.in);
          Value init = tensor::EmptyOp::create(
              b, loc, ArrayRef<int64_t>{c.chunk}, c.wide);
          IRMapping map;
          map.map(like.getDpsInputs()[0], chunk);
          map.map(like.getDpsInits()[0], init);
          Operation *extended = b.clone(*like, map);
          WriteToFifoOp::create(b, loc, extended->getResult(0), s.out);
        });
    stage("drain", computed, UnitRole::scratchpad_store, drainUnit,
          [&](Column &, Slots &s, Value at) {
            DataTransferOp::create(b, loc, s.out, ValueRange{}, s.buffer, at);
          });

    // The rows read the widened chunks and extend nothing.
    for (auto [i, c] : llvm::enumerate(columns)) {
      for (PrivateOp slot : c.slots) {
        auto type = cast<FifoSlotType>(slot.getType());
        slot.getResult().setType(FifoSlotType::get(
            ctx, type.getSrc(), type.getDst(), type.getShape(), c.wide));
      }
      for (DataTransferOp feed : c.feeds)
        feed.getSrcMutable().assign(widened.getResult(i));
      for (Widening &w : c.widenings) {
        w.read.getResult().setType(w.extend.getResult(0).getType());
        w.extend.getResult(0).replaceAllUsesWith(w.read.getResult());
        Value init = w.extend.getDpsInits()[0];
        w.extend.erase();
        if (Operation *def = init.getDefiningOp(); def && def->use_empty())
          def->erase();
      }
    }
  }
};
} // namespace
