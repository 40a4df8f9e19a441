//===- RegionChannels.cpp - Channels between pipelines sharing memory ----===//
//
// This file collects the sync channels that order stages of different
// pipelines touching the same memory: scratchpad (ct_local) views whose
// bytes may meet, one of them writing, or a tensor in device memory one
// reads and the other writes. Each goes from the earlier stage to the
// later one. Its
// receiver waits once per execution of the sender, or, when the later stage
// follows the loops that run the sender and nothing else in those loops
// needs that wait, takes all their tokens just before it, running the
// loops' other stages ahead of the sender.
//
//===----------------------------------------------------------------------===//

#include "ProgramBuilder.h"

#include "ktflow/Analysis/MemoryTensors.h"
#include "ktflow/Dialect/KTDF/Transforms/Passes.h"
#include "ktflow/Dialect/KTDF/Transforms/SplitProductColumns.h"
#include "ktflow/Dialect/KTDP/IR/KTDP.h"
#include "ktflow/Dialect/KTDP/IR/ScratchpadView.h"

#include "llvm/ADT/DenseSet.h"

using namespace mlir;
using namespace mlir::ktdf;
using namespace mlir::ktdf::lowering;

namespace {
/// The memory a stage's transfers touch that other pipelines' stages may
/// also touch: the kernel's scratchpad (ct_local) views, and tensors in
/// device memory.
struct MemoryTouches {
  bool scratchpad = false;
  /// The scratchpad views it reads and writes; an all-reduce touches views
  /// it does not name (`allViews`: counted as writing every view).
  SmallVector<ktdp::ConstructMemoryViewOp> viewReads, viewWrites;
  bool allViews = false;
  llvm::DenseSet<ktflow::DeviceTensor> deviceReads, deviceWrites;
  /// Whether it reads / writes an access tile in memory neither of the
  /// above names (readsWhatStageWrites counts it as any memory).
  bool unknownReads = false, unknownWrites = false;
};
} // namespace

static void addTransferTouches(Operation *root, MemoryTouches &touches);

static MemoryTouches touchesOf(StageOp stage) {
  MemoryTouches touches;
  // An all-reduce combines the partial in its view in place. A tile copy
  // reads its source view and writes its destination view, on this tile
  // and (remotely) on the consumers: per tile, the copy stage ends once
  // what it sent has left and what it receives has landed
  // (TileCopyLowering.cpp), so a channel from or to it on that tile orders
  // the stages touching either view there.
  if (getAllReduce(stage))
    touches.scratchpad = touches.allViews = true;
  for (TileCopyOp copy : getTileCopies(stage)) {
    auto source = copy.getSource().getDefiningOp<ktdp::ConstructMemoryViewOp>();
    auto dest = copy.getDest().getDefiningOp<ktdp::ConstructMemoryViewOp>();
    touches.scratchpad = true;
    touches.allViews |= !source || !dest;
    if (source && dest) {
      touches.viewReads.push_back(source);
      touches.viewWrites.push_back(dest);
    }
  }
  addTransferTouches(stage, touches);
  return touches;
}

/// Adds what the transfers in `root` touch to `touches`.
static void addTransferTouches(Operation *root, MemoryTouches &touches) {
  root->walk([&](DataTransferOp op) {
    for (auto [end, isDst] : {std::make_pair(op.getSrc(), false),
                              std::make_pair(op.getDst(), true)}) {
      if (!isa<ktdp::AccessTileType>(end.getType()))
        continue;
      if (auto tensor = ktflow::getDeviceTensor(end)) {
        (isDst ? touches.deviceWrites : touches.deviceReads).insert(*tensor);
        continue;
      }
      if (isScratchpadTile(end)) {
        touches.scratchpad = true;
        // A tile on no view of its own may touch any.
        if (auto view = ktdp::getAccessTileView(end))
          (isDst ? touches.viewWrites : touches.viewReads).push_back(view);
        else
          touches.allViews = true;
        continue;
      }
      (isDst ? touches.unknownWrites : touches.unknownReads) = true;
    }
  });
}

/// Whether one of two stages reads a tensor in device memory the other
/// writes.
static bool shareDeviceTensor(const MemoryTouches &first,
                              const MemoryTouches &later) {
  auto meets = [](const llvm::DenseSet<ktflow::DeviceTensor> &a,
                  const llvm::DenseSet<ktflow::DeviceTensor> &b) {
    return llvm::any_of(
        a, [&](const ktflow::DeviceTensor &t) { return b.contains(t); });
  };
  return meets(first.deviceWrites, later.deviceReads) ||
         meets(first.deviceReads, later.deviceWrites);
}

/// Whether two scratchpad views may share bytes: all but views of one
/// memory at known bytes that do not meet.
static bool mayShareBytes(ktdp::ConstructMemoryViewOp a,
                          ktdp::ConstructMemoryViewOp b) {
  auto memory = [](ktdp::ConstructMemoryViewOp view) {
    return view->getAttrOfType<StringAttr>("ktdf.memory");
  };
  // A literal address counts elements from the start of the lane's region,
  // as TransferLowering.cpp places it.
  auto x = ktdp::getLiteralByteSpan(a), y = ktdp::getLiteralByteSpan(b);
  return a == b || !memory(a) || memory(a) != memory(b) || !x || !y ||
         std::max(x->first, y->first) < std::min(x->second, y->second);
}

/// Whether one of two stages writes scratchpad views the other touches,
/// views that may share bytes (any view, for an all-reduce). Stages whose
/// views share no byte cannot race, whatever else the scratchpad holds.
static bool shareScratchpad(const MemoryTouches &a, const MemoryTouches &b) {
  // Whether `writer` writes what `other` touches.
  auto overwrites = [](const MemoryTouches &writer,
                       const MemoryTouches &other) {
    if (writer.allViews)
      return other.scratchpad;
    if (other.allViews)
      return !writer.viewWrites.empty();
    return llvm::any_of(writer.viewWrites, [&](auto written) {
      auto meets = [&](auto view) { return mayShareBytes(written, view); };
      return llvm::any_of(other.viewReads, meets) ||
             llvm::any_of(other.viewWrites, meets);
    });
  };
  return overwrites(a, b) || overwrites(b, a);
}

/// Whether two stages touch the same memory, one of them writing: views
/// that may share bytes, or a tensor in device memory.
static bool conflicts(const MemoryTouches &a, const MemoryTouches &b) {
  return shareScratchpad(a, b) || shareDeviceTensor(a, b);
}

/// Whether a stage touching `later` after one touching `first` must wait
/// for it, and the channel's name: one writes scratchpad views that may
/// share bytes with the other's ("local"), or one reads a device tensor the
/// other writes ("memory"; ktdf-check-supported accepts such a pair only
/// when it is ordered within an execution: a reload of a tile an earlier
/// group stored, or a store over a tile an earlier group loaded).
static std::optional<StringRef> orderingOf(const MemoryTouches &first,
                                           const MemoryTouches &later) {
  if (shareScratchpad(first, later))
    return StringRef("local");
  if (shareDeviceTensor(first, later))
    return StringRef("memory");
  return std::nullopt;
}

/// Whether every stage inside `loops` (an op holding the pipeline of `ch`'s
/// sender) that touches memory the sender touches, one of them writing,
/// stays ordered after the sender's earlier executions without `ch`'s
/// receiver waiting on the sender each time: it runs on the sender's unit
/// (program order), in a later pipeline (a region channel of its own), in
/// the sender's pipeline behind a carried view's channel from the sender,
/// or on a unit other than the receiver's that takes another region channel
/// from the sender. That channel's receiver runs such a stage, so it is not
/// deferred itself and takes its token in every execution, before the
/// stage's next one: the SwiGLU's gate feed reads the handover views the
/// up projections' drain rewrites on the next trip, and the store unit,
/// which waits for the feed each trip, orders them for the DMA engine.
static bool orderedWithoutWaiting(const Channel &ch,
                                  ArrayRef<PipelineInfo> pipelines,
                                  Operation *loops) {
  StageOp sender = ch.from;
  MemoryTouches sent = touchesOf(sender);
  auto infoOf = [&](Operation *pipeline) -> const PipelineInfo & {
    return *llvm::find_if(pipelines, [&](const PipelineInfo &info) {
      return info.op == pipeline;
    });
  };
  const PipelineInfo &own = infoOf(sender->getParentOp());
  auto waitsEachExecution = [&](StageOp stage) {
    return !KernelLowering::onSameUnit(stage, ch.to) &&
           llvm::any_of(own.regionChannels, [&](const Channel &other) {
             return other.from == sender &&
                    KernelLowering::onSameUnit(other.to, stage);
           });
  };
  bool ordered = true;
  loops->walk([&](StageOp stage) {
    if (stage == sender || KernelLowering::onSameUnit(stage, sender) ||
        !conflicts(sent, touchesOf(stage)) || waitsEachExecution(stage))
      return;
    const PipelineInfo &other = infoOf(stage->getParentOp());
    if (&other == &own)
      ordered &= llvm::any_of(own.channels, [&](const Channel &carried) {
        return carried.from == sender && carried.to == stage &&
               carried.copies == 1;
      });
    else
      ordered &= other.index > own.index;
  });
  return ordered;
}

/// Lets the receiver of `ch` take its tokens once, after the loops that
/// run the sender, when the later stage is after those loops (a row's
/// running sums read back after its key loop) and nothing else in the
/// loops needs the receiver to wait (orderedWithoutWaiting).
static void deferAfterLoops(Channel &ch, ArrayRef<PipelineInfo> pipelines) {
  Operation *from = ch.from->getParentOp(), *to = ch.to->getParentOp();
  Block *common = from->getBlock();
  while (common && !common->findAncestorOpInBlock(*to))
    common =
        common->getParentOp() ? common->getParentOp()->getBlock() : nullptr;
  if (!common)
    return;
  Operation *outer = common->findAncestorOpInBlock(*from);
  Operation *later = common->findAncestorOpInBlock(*to);
  if (outer == from || outer == later || !outer->isBeforeInBlock(later))
    return;
  SmallVector<scf::ForOp> loops;
  for (Operation *op = from->getParentOp(); op; op = op->getParentOp()) {
    auto loop = dyn_cast<scf::ForOp>(op);
    if (!loop)
      return;
    loops.insert(loops.begin(), loop);
    if (op == outer)
      break;
  }
  if (!orderedWithoutWaiting(ch, pipelines, outer))
    return;
  ch.sendLoops = std::move(loops);
  ch.receiveBefore = later;
}

/// The top-level transfers of transfer stage `stage` that touch the
/// scratchpad, each writing (`written`; else reading) one tile of a view
/// of its own and touching no other scratchpad tile, and those views in
/// order; false when another transfer of the stage touches the scratchpad.
static bool viewsOneByOne(StageOp stage, bool written,
                          SmallVector<Operation *> &ops,
                          SmallVector<Operation *> &views) {
  if (stage.isCompute() || getAllReduce(stage) || getTileCopy(stage))
    return false;
  bool ok = true;
  stage.walk([&](DataTransferOp op) {
    Value mine = written ? op.getDst() : op.getSrc();
    Value other = written ? op.getSrc() : op.getDst();
    bool touches =
        isa<ktdp::AccessTileType>(mine.getType()) && isScratchpadTile(mine);
    if (isa<ktdp::AccessTileType>(other.getType()) && isScratchpadTile(other))
      ok = false;
    if (!touches)
      return;
    Operation *view = ktdp::getAccessTileView(mine);
    if (op->getParentOp() != stage || !view || llvm::is_contained(views, view))
      ok = false;
    ops.push_back(op);
    views.push_back(view);
  });
  return ok && views.size() >= 2;
}

/// One token per view for `ch` (Channel::viewWrites), when it orders
/// scratchpad views only, its sender and receiver are transfer stages of
/// pipelines of one block (not per instance), and the sender writes, one
/// transfer each, the views the receiver then reads one transfer each, in
/// the same order.
static void tokensPerView(Channel &ch) {
  auto sender = ch.from->getParentOfType<PipelineOp>();
  auto receiver = ch.to->getParentOfType<PipelineOp>();
  if (!StringRef(ch.base).starts_with("local") || ch.receiveBefore ||
      sender->getBlock() != receiver->getBlock() || sender.getPerInstance() ||
      receiver.getPerInstance())
    return;
  SmallVector<Operation *> writes, written, reads, read;
  if (!viewsOneByOne(ch.from, /*written=*/true, writes, written) ||
      !viewsOneByOne(ch.to, /*written=*/false, reads, read) || written != read)
    return;
  ch.viewWrites.assign(writes.begin(), writes.end());
  ch.viewReads.assign(reads.begin(), reads.end());
}

bool lowering::stagesConflict(StageOp a, StageOp b) {
  return conflicts(touchesOf(a), touchesOf(b));
}

/// Whether `writer` writes a tensor in device memory `other` touches,
/// two literal addresses counted as overlapping (nothing here knows their
/// regions' extents). Views at different kernel arguments are different
/// tensors, as for every other ordering of device memory (MemoryTensors.h).
static bool mayOverwriteTensor(const MemoryTouches &writer,
                               const MemoryTouches &other) {
  auto meets = [&](const llvm::DenseSet<ktflow::DeviceTensor> &touched) {
    return llvm::any_of(writer.deviceWrites, [&](const auto &w) {
      return llvm::any_of(touched, [&](const auto &t) {
        return w == t || (!w.first && !t.first);
      });
    });
  };
  return meets(other.deviceReads) || meets(other.deviceWrites);
}

/// Whether `writer` may write memory `other` touches, a tile of unknown
/// memory on either side counted as any memory.
static bool mayOverwrite(const MemoryTouches &writer,
                         const MemoryTouches &other) {
  bool writes = writer.unknownWrites || writer.allViews ||
                !writer.viewWrites.empty() || !writer.deviceWrites.empty();
  bool touches = other.scratchpad || other.unknownReads ||
                 other.unknownWrites || !other.deviceReads.empty() ||
                 !other.deviceWrites.empty();
  return (writer.unknownWrites && touches) ||
         (writes && (other.unknownReads || other.unknownWrites)) ||
         mayOverwriteTensor(writer, other) || shareScratchpad(writer, other);
}

bool lowering::stagesMayConflict(StageOp a, StageOp b) {
  MemoryTouches x = touchesOf(a), y = touchesOf(b);
  return mayOverwrite(x, y) || mayOverwrite(y, x);
}

bool lowering::touchesWhatStageTouches(Operation *op, StageOp stage) {
  MemoryTouches touches;
  addTransferTouches(op, touches);
  return conflicts(touchesOf(stage), touches);
}

void KernelLowering::collectRegionChannels() {
  // Stages of different pipelines that touch the same memory, one of them
  // writing, are ordered by a channel from the earlier to the later one.
  unsigned r = 0;
  for (size_t i = 0; i < pipelines.size(); ++i)
    for (auto first : pipelines[i].op.getBody().front().getOps<StageOp>()) {
      MemoryTouches firstTouches = touchesOf(first);
      for (size_t j = i + 1; j < pipelines.size(); ++j)
        for (auto later : pipelines[j].op.getBody().front().getOps<StageOp>())
          if (!onSameUnit(first, later))
            if (auto kind = orderingOf(firstTouches, touchesOf(later)))
              pipelines[i].regionChannels.push_back(
                  {first, later, 0, kind->str() + std::to_string(r++)});
    }
  // Deferred once all are known: whether a receiver may skip its waits in
  // the loops depends on the sender's other channels.
  for (PipelineInfo &info : pipelines)
    for (Channel &ch : info.regionChannels) {
      deferAfterLoops(ch, pipelines);
      tokensPerView(ch);
      ch.acrossLanes = llvm::any_of(
          touchesOf(ch.from).viewWrites, [](ktdp::ConstructMemoryViewOp view) {
            return view->hasAttr(kLanesSharedViewAttrName);
          });
    }
}

void ProgramBuilder::emitRegionToken(Location loc, const Channel &ch,
                                     const LaneInstance &li, bool send) {
  OpBuilder &b = *builder;
  std::string own = KernelLowering::perLane(ch.base, li);
  if (send)
    dfir::SyncSendOp::create(b, loc, own);
  else
    dfir::SyncRecvOp::create(b, loc, own);
  if (!ch.acrossLanes)
    return;
  if (send)
    dfir::SyncSendOp::create(
        b, loc,
        KernelLowering::perLane(acrossLanesOf(ch.base), otherLaneOf(li)));
  else
    dfir::SyncRecvOp::create(
        b, loc, KernelLowering::perLane(acrossLanesOf(ch.base), li));
}
