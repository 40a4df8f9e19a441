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
// A bf16 buffer, which the unit holds in f32 (getHeldType), is widened
// after any pipeline exporting it, once per grid point too, and also
// where the rows' generic extends its element in the body (the f32
// computation ktdf-legalize-unit-types makes of a bf16 operation): the
// body then takes the f32 element in place of its extensions.
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
/// One read of a column chunk and the element-wise generic that is its
/// only use: either an extension of the chunk alone (`whole`), or a body
/// whose every use of the chunk's element is an arith.extf to the wide
/// type (a bf16 operation ktdf-legalize-unit-types computes in f32).
struct Widening {
  ReadFromFifoOp read;
  linalg::GenericOp extend;
  bool whole = false;
  unsigned input = 0;
  SmallVector<arith::ExtFOp, 2> extensions;
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
  SmallVector<Widening, 1> widenings;
  /// The compute unit holds the buffer's element type in `wide`
  /// (getHeldType: bf16 in f32): every chunk the feed sends it is extended
  /// however it is computed.
  bool held = false;
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

/// The extensions of input `input`'s element in `op`'s body, when they are
/// all its uses and extend it to one type.
static std::optional<SmallVector<arith::ExtFOp, 2>>
bodyExtensions(linalg::GenericOp op, unsigned input) {
  BlockArgument arg = op.getRegion().front().getArgument(input);
  SmallVector<arith::ExtFOp, 2> extensions;
  for (Operation *user : arg.getUsers()) {
    auto extf = dyn_cast<arith::ExtFOp>(user);
    if (!extf ||
        (!extensions.empty() && extf.getType() != extensions.front().getType()))
      return std::nullopt;
    extensions.push_back(extf);
  }
  if (extensions.empty())
    return std::nullopt;
  return extensions;
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
                                     StringRef computeUnit,
                                     const ktdf_arch::UnitSpec &unit,
                                     StringRef kind) {
  Column c;
  c.buffer = pipeline.getResult(index);
  auto type = cast<MemRefType>(c.buffer.getType());
  if (type.getRank() != 1 || !isa<FloatType>(type.getElementType()) ||
      getBufferMemoryKind(type) != kind)
    return std::nullopt;
  Type narrow = type.getElementType();
  c.held = ktflow::device::getHeldType(narrow, unit) != narrow;
  // A type the unit computes is widened once per lane only (measured: a
  // pipeline per grid point or a body's extensions of f16 gain nothing on
  // the shipped kernels, layernorm_tp2_rows loses 133 cycles on
  // mesh_device); one it holds wider, wherever it is loaded once.
  if (!c.held && !pipeline.getPerInstance())
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
      if (!extend || !stageOf(read).second)
        return std::nullopt;
      Widening w;
      w.read = read;
      w.extend = extend;
      OpOperand &use = *read.getResult().getUses().begin();
      if (!extend.isDpsInput(&use))
        return std::nullopt;
      w.input = use.getOperandNumber();
      w.whole = w.input == 0 && isExtension(extend);
      if (w.whole) {
        w.extensions.push_back(
            cast<arith::ExtFOp>(extend.getRegion().front().front()));
      } else if (auto extensions = bodyExtensions(extend, w.input);
                 c.held && extensions) {
        w.extensions = std::move(*extensions);
      } else {
        return std::nullopt;
      }
      Type wide = w.extensions.front().getType();
      if (c.wide && c.wide != wide)
        return std::nullopt;
      c.wide = wide;
      c.widenings.push_back(std::move(w));
    }
    c.slots.push_back(slot);
  }
  if (c.widenings.empty())
    return std::nullopt;
  return c;
}

/// `chunk` extended into `init` by a generic: a copy of `like`'s own when
/// it is an extension alone, else one of the body's extensions.
static Value extendChunk(OpBuilder &b, Widening &like, Value chunk,
                         Value init) {
  if (like.whole) {
    IRMapping map;
    map.map(like.extend.getDpsInputs()[0], chunk);
    map.map(like.extend.getDpsInits()[0], init);
    return b.clone(*like.extend, map)->getResult(0);
  }
  Location loc = like.extensions.front().getLoc();
  AffineMap id = b.getMultiDimIdentityMap(1);
  return linalg::GenericOp::create(
             b, loc, TypeRange{init.getType()}, ValueRange{chunk},
             ValueRange{init}, ArrayRef<AffineMap>{id, id},
             utils::IteratorType::parallel,
             [&](OpBuilder &nested, Location nestedLoc, ValueRange args) {
               Value wide = arith::ExtFOp::create(
                   nested, nestedLoc,
                   cast<RankedTensorType>(init.getType()).getElementType(),
                   args[0]);
               linalg::YieldOp::create(nested, nestedLoc, wide);
             })
      .getResult(0);
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
        if (p->getNumResults() > 0)
          exporting.push_back(p);
      });
      for (PipelineOp p : exporting) {
        SmallVector<Column, 1> columns;
        for (unsigned i = 0; i < p->getNumResults(); ++i)
          if (auto c = analyse(p, i, model.getNode(lane.compute).name,
                               *model.getNode(lane.compute).unit, kind))
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
    Type t;
    auto cls = ktflow::device::getComputeOpClass(
        c.widenings.front().extensions.front(), t, &unit);
    double rate = t ? unit.getThroughput(cls, t).value_or(1) : 1;
    double extend = std::ceil(c.chunk / std::max(rate, 1e-9));
    auto narrow = cast<MemRefType>(c.buffer.getType()).getElementType();
    double fifo =
        std::max(model.getDatapath(*env.feed.fifo).spec.bandwidth, 1.0);
    // The FIFO moves a chunk in whole cycles: a held type's wide chunk
    // costs what its cycles add to the narrow one's (none for 16 bf16 or
    // 16 f32 elements over 128 bytes a cycle).
    auto cycles = [&](Type element) {
      return std::ceil(c.chunk * element.getIntOrFloatBitWidth() / 8.0 / fifo);
    };
    if (c.held)
      return extend > cycles(c.wide) - cycles(narrow);
    double extra =
        c.chunk *
        (c.wide.getIntOrFloatBitWidth() - narrow.getIntOrFloatBitWidth()) / 8.0;
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
                                      p.getPerInstanceAttr());
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
          Widening &like = c.widenings.front();
          auto narrow = cast<FifoSlotType>(s.in.getType());
          Value chunk = ReadFromFifoOp::create(
              b, loc, RankedTensorType::get({c.chunk}, narrow.getElementType()),
              s.in);
          Value init = tensor::EmptyOp::create(
              b, loc, ArrayRef<int64_t>{c.chunk}, c.wide);
          WriteToFifoOp::create(b, loc, extendChunk(b, like, chunk, init),
                                s.out);
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
        auto chunkType = cast<RankedTensorType>(w.read.getType());
        w.read.getResult().setType(chunkType.clone(c.wide));
        if (!w.whole) {
          // The body reads the wide element its extensions computed.
          BlockArgument arg = w.extend.getRegion().front().getArgument(w.input);
          arg.setType(c.wide);
          for (arith::ExtFOp extf : w.extensions) {
            extf.replaceAllUsesWith(arg);
            extf.erase();
          }
          continue;
        }
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
