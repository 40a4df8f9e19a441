//===- IterationOrder.cpp - Two pipelines' stages run by iteration -------===//
//
// An unrolled loop whose products a second pipeline of the block reads
// through scratchpad views, one token per view (RegionChannels.cpp,
// tokensPerView: a paged attention's scores, page by page): a unit that
// runs stages of both pipelines (the DMA engine's K and V page loads, the
// feed's transfers) runs them in iteration order, the first pipeline's
// transfers of iteration j, then the second's, instead of all of the
// first's then all of the second's. A transfer's iteration follows from
// the dataflow: the first pipeline's transfers by the one view whose
// product they feed (those feeding all products come first), the
// second's by the latest view their first use depends on; a load by the
// transfer that reads its buffer.
//
// The unit's program for the two pipelines is emitted as usual with marks
// where each stage and each of its top-level transfers start
// (markSegment), then its segments are merged by iteration. Index
// arithmetic moves first; an order that would use a value before it is
// defined is left as emitted.
//
// A unit several lanes share (a core's DMA engine serving both corelets)
// emitted each pipeline lane by lane: lane 0's K pages, lane 1's, then the
// V pages, so both lanes' softmax waited for all K pages. Where the lanes
// walked together run every point (emitLanesByIteration), it emits both
// pipelines for every lane with marks naming the lane, and the segments are
// merged by iteration, then pipeline, then lane: K_j and V_j for each lane
// in turn (a page shared by the lanes, SharedLoads.cpp, goes once).
//
//===----------------------------------------------------------------------===//

#include "ProgramBuilder.h"

#include "ktflow/Dialect/KTDF/IR/KTDF.h"

#include "mlir/Interfaces/SideEffectInterfaces.h"

#include <map>

using namespace mlir;
using namespace mlir::ktdf;
using namespace mlir::ktdf::lowering;

/// The channel carrying a token per view from `first` to a later
/// pipeline of its block, or null.
static const Channel *viewChannel(const PipelineInfo &first) {
  for (const Channel &ch : first.regionChannels)
    if (!ch.viewWrites.empty())
      return &ch;
  return nullptr;
}

PipelineOp ProgramBuilder::iterationPartner(PipelineOp pipeline) {
  const Channel *ch = viewChannel(kernel.infoOf(pipeline));
  if (!ch || pipeline.getPerInstance())
    return {};
  auto second = ch->to->getParentOfType<PipelineOp>();
  // The next pipeline of the block, nothing this unit runs in between.
  for (Operation *op = pipeline->getNextNode(); op; op = op->getNextNode()) {
    if (op == second.getOperation())
      return second;
    if (isa<PipelineOp, scf::ForOp>(op))
      return {};
  }
  return {};
}

void ProgramBuilder::markSegment(SegmentMark::Kind kind, Operation *item) {
  if (!segmentMarks)
    return;
  Block *block = builder->getInsertionBlock();
  if (builder->getInsertionPoint() != block->end())
    kind = SegmentMark::Broken;
  segmentMarks->push_back({kind, block,
                           block->empty() ? nullptr : &block->back(),
                           segmentPipe, item, segmentLane});
}

/// Every transfer of `p` writing (`dst`) or reading `v`.
static SmallVector<DataTransferOp> transfersOf(PipelineOp p, Value v,
                                               bool dst) {
  SmallVector<DataTransferOp> found;
  p.walk([&](DataTransferOp t) {
    if ((dst ? t.getDst() : t.getSrc()) == v)
      found.push_back(t);
  });
  return found;
}

/// The top-level ops of `body` whose results `op` (or an op nested in it)
/// uses.
static SmallVector<Operation *> operandsIn(Operation &op, Block &body) {
  SmallVector<Operation *> defs;
  op.walk([&](Operation *inner) {
    for (Value v : inner->getOperands())
      if (Operation *def = v.getDefiningOp())
        if (Operation *top = body.findAncestorOpInBlock(*def))
          if (top != &op)
            defs.push_back(top);
  });
  return defs;
}

/// The iteration of each transfer of `first` and `second` (-1: before
/// every iteration), from the views of `ch`.
static DenseMap<Operation *, int64_t>
iterations(const Channel &ch, PipelineOp first, PipelineOp second) {
  DenseMap<Operation *, int64_t> iter;
  for (auto [k, op] : llvm::enumerate(ch.viewReads))
    iter[op] = k;
  // The second pipeline's compute: the latest view each op depends on; a
  // FIFO read takes that of its earliest use.
  second.walk([&](StageOp stage) {
    if (!stage.isCompute())
      return;
    Block &body = stage.getBody().front();
    DenseMap<Operation *, int64_t> dep;
    for (Operation &op : body) {
      int64_t d = -1;
      if (auto read = dyn_cast<ReadFromFifoOp>(op))
        for (DataTransferOp t : transfersOf(second, read.getSlot(), true))
          d = std::max(d, iter.lookup_or(t, -1));
      for (Operation *def : operandsIn(op, body))
        d = std::max(d, dep.lookup_or(def, -1));
      dep[&op] = d;
    }
    for (auto read : body.getOps<ReadFromFifoOp>())
      for (DataTransferOp t : transfersOf(second, read.getSlot(), true)) {
        if (iter.count(t))
          continue;
        int64_t k = INT64_MAX;
        for (Operation *user : read->getUsers())
          if (Operation *top = body.findAncestorOpInBlock(*user))
            if (dep.lookup_or(top, -1) >= 0)
              k = std::min(k, dep.lookup(top));
        if (k != INT64_MAX)
          iter[t] = k;
      }
  });
  // The first pipeline's compute: the views each FIFO read reaches.
  DenseMap<Value, int64_t> viewOfSlot;
  for (auto [k, op] : llvm::enumerate(ch.viewWrites))
    if (auto t = dyn_cast<DataTransferOp>(op))
      viewOfSlot[t.getSrc()] = k;
  first.walk([&](StageOp stage) {
    if (!stage.isCompute())
      return;
    Block &body = stage.getBody().front();
    DenseMap<Operation *, SmallVector<int64_t, 1>> reaches;
    for (auto write : body.getOps<WriteToFifoOp>()) {
      auto it = viewOfSlot.find(write.getSlot());
      Operation *def = write.getValue().getDefiningOp();
      if (it == viewOfSlot.end() || !def)
        continue;
      SmallVector<Operation *> work{body.findAncestorOpInBlock(*def)};
      DenseSet<Operation *> seen;
      while (!work.empty()) {
        Operation *op = work.pop_back_val();
        if (!op || !seen.insert(op).second)
          continue;
        if (isa<ReadFromFifoOp>(op))
          reaches[op].push_back(it->second);
        llvm::append_range(work, operandsIn(*op, body));
      }
    }
    for (auto &[op, views] : reaches)
      for (DataTransferOp t :
           transfersOf(first, cast<ReadFromFifoOp>(op).getSlot(), true))
        iter[t] = views.size() == 1 ? views.front() : -1;
  });
  // A load takes the iteration of the transfer reading its buffer.
  for (PipelineOp p : {first, second})
    p.walk([&](DataTransferOp t) {
      if (iter.count(t))
        return;
      for (DataTransferOp reader : transfersOf(p, t.getDst(), false))
        if (iter.count(reader))
          iter[t] = iter.lookup(reader);
    });
  return iter;
}

/// Whether every op of `ops` (in order) comes after the ops of the list
/// defining its operands.
static bool definedBeforeUse(ArrayRef<Operation *> ops) {
  DenseSet<Operation *> in(ops.begin(), ops.end()), seen;
  for (Operation *op : ops) {
    bool ok = true;
    op->walk([&](Operation *inner) {
      for (Value v : inner->getOperands()) {
        Operation *def = v.getDefiningOp();
        while (def && !in.count(def))
          def = def->getParentOp();
        if (def && def != op && !seen.count(def))
          ok = false;
      }
    });
    if (!ok)
      return false;
    seen.insert(op);
  }
  return true;
}

void ProgramBuilder::orderByIteration(Block *block, Operation *before,
                                      PipelineOp first, PipelineOp second,
                                      ArrayRef<SegmentMark> marks) {
  const Channel *ch = viewChannel(kernel.infoOf(first));
  if (!ch || marks.empty() ||
      llvm::any_of(
          marks,
          [](const SegmentMark &m) { return m.kind == SegmentMark::Broken; }) ||
      llvm::none_of(marks, [](auto &m) { return m.pipe == 0; }) ||
      llvm::none_of(marks, [](auto &m) { return m.pipe == 1; }))
    return;
  DenseMap<Operation *, int64_t> iter = iterations(*ch, first, second);
  // Each mark's iteration: its item's, else (a stage's start) the next
  // mark's of the pipeline, else (a stage's end) the previous one's.
  size_t n = marks.size();
  SmallVector<std::optional<int64_t>> key(n);
  for (size_t i = 0; i < n; ++i)
    if (marks[i].kind == SegmentMark::Prologue)
      key[i] = -1;
    else if (marks[i].kind == SegmentMark::Item && iter.count(marks[i].item))
      key[i] = iter.lookup(marks[i].item);
  for (size_t i = n; i-- > 0;)
    if (!key[i] && marks[i].kind == SegmentMark::Start)
      for (size_t j = i + 1; j < n && !key[i]; ++j)
        if (marks[j].pipe == marks[i].pipe)
          key[i] = key[j];
  for (size_t i = 0; i < n; ++i)
    if (!key[i])
      for (size_t j = i; j-- > 0 && !key[i];)
        if (marks[j].pipe == marks[i].pipe)
          key[i] = key[j];
  // The segments: the ops after one mark's op, up to the next mark's.
  SmallVector<Operation *> original;
  for (Operation *op = before ? before->getNextNode() : &block->front(); op;
       op = op->getNextNode())
    original.push_back(op);
  SmallVector<size_t> starts;
  for (const SegmentMark &m : marks) {
    size_t at = m.after == before
                    ? 0
                    : llvm::find(original, m.after) - original.begin() + 1;
    if (m.block != block || at > original.size())
      return;
    starts.push_back(at);
  }
  starts.push_back(original.size());
  SmallVector<Operation *> order, pure;
  DenseSet<Operation *> hoisted;
  // Index arithmetic first, where its operands allow.
  for (Operation *op : original)
    if (op->getNumRegions() == 0 && op->getNumResults() > 0 && isPure(op) &&
        llvm::all_of(op->getOperands(), [&](Value v) {
          Operation *def = v.getDefiningOp();
          return !def || hoisted.count(def) ||
                 !llvm::is_contained(original, def);
        })) {
      hoisted.insert(op);
      order.push_back(op);
    }
  auto append = [&](size_t from, size_t to) {
    for (size_t i = from; i < to; ++i)
      if (!hoisted.count(original[i]))
        order.push_back(original[i]);
  };
  append(0, starts.front());
  // One stream of segments per pipeline and lane, in the emitted order;
  // merged by iteration, then pipeline, then lane.
  std::map<std::pair<int, int>, SmallVector<size_t>> streams;
  for (size_t i = 0; i < n; ++i)
    streams[{marks[i].pipe, marks[i].lane}].push_back(i);
  SmallVector<std::pair<ArrayRef<size_t>, size_t>> heads;
  for (auto &[id, segs] : streams)
    heads.push_back({segs, 0});
  bool interleaved = false;
  size_t last = 0;
  for (size_t taken = 0; taken < n; ++taken) {
    std::pair<ArrayRef<size_t>, size_t> *next = nullptr;
    for (auto &head : heads)
      if (head.second < head.first.size() &&
          (!next || key[head.first[head.second]].value_or(-1) <
                        key[next->first[next->second]].value_or(-1)))
        next = &head;
    size_t i = next->first[next->second++];
    interleaved |= taken > 0 && i < last;
    last = i;
    append(starts[i], starts[i + 1]);
  }
  if (!interleaved || order.size() != original.size() ||
      !definedBeforeUse(order))
    return;
  for (Operation *op : order)
    op->moveBefore(block, block->end());
}

FailureOr<bool>
ProgramBuilder::emitLanesByIteration(PipelineOp first, PipelineOp second,
                                     ArrayRef<LaneWalk *> runs) {
  Block *into = builder->getInsertionBlock();
  if (runs.size() < 2 || builder->getInsertionPoint() != into->end() ||
      iterationPartner(first) != second ||
      llvm::any_of(runs, [&](LaneWalk *lane) {
        return lane->active || !runsIn(second, *lane->li) ||
               loadsAfterFirstTrip(first, *lane->li) ||
               loadsAfterFirstTrip(second, *lane->li);
      }))
    return false;
  Operation *before = into->empty() ? nullptr : &into->back();
  SmallVector<SegmentMark> marks;
  segmentMarks = &marks;
  LogicalResult result = success();
  for (int pipe : {0, 1}) {
    PipelineOp pipeline = pipe ? second : first;
    segmentPipe = pipe;
    for (auto [k, lane] : llvm::enumerate(runs)) {
      // What a lane's pipeline emits before its first stage goes before
      // every iteration; so do the tokens freeing the buffers loaded for
      // both lanes (SharedLoads.cpp).
      segmentLane = k;
      markSegment(SegmentMark::Prologue);
      if (k == 0 && failed(emitSharedLoadWaits(pipeline, runs)))
        result = failure();
      IRMapping map = lane->map;
      if (failed(emitOp(*pipeline, map, lane->executions, *lane->li)))
        result = failure();
    }
    sharedTurns.clear();
  }
  segmentMarks = nullptr;
  segmentPipe = segmentLane = 0;
  if (failed(result))
    return failure();
  orderByIteration(into, before, first, second, marks);
  return true;
}
