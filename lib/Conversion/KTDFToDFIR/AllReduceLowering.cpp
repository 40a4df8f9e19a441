//===- AllReduceLowering.cpp - Ring all-reduces in unit programs ----------===//
//
// This file lowers the stages of an all-reduce pipeline
// (ktdf-schedule-all-reduce) for one tile: its part of a ring
// reduce-scatter, then all-gather, over the tiles of its group in the
// order their cores take round the interconnect (ringRankOfCore), as
// bench/allreduce.py writes it by hand. The
// partial of P tiles is cut into P chunks of ceil(elements / P), each
// moved as `pieces` pieces with a token each, so one piece crosses the ring
// while the previous one is combined.
//
// Tile i (position in the ring; next n, previous p) sends chunk i - k at
// reduce-scatter step k into slot k of n's received view (remote_dma, then
// a `sent` token to n's load unit); its load unit streams each arriving
// piece with its own piece of the same chunk into the vector unit, which
// combines received ⊕ own, and the store unit writes the result over its
// own piece (an `added` token back to the send unit, which forwards that
// chunk at the next step). After P - 1 steps tile i holds chunk i + 1
// combined over the group; all-gather step k forwards chunk i + 1 - k into
// n's partial view (a `gathered` token to n's send unit). Chunk c is thus
// folded starting at position c: ((x_c ⊕ x_{c+1}) ⊕ ...) ⊕ x_{c-1}, positions
// mod P, each step rounded to the element type; the interpreter folds
// every element from tile 0 up, so the results differ by the order of the
// fold (docs/scheduler.md, docs/interpreter.md §9). A `ktdf.scatter`
// all-reduce stops after the reduce-scatter, and numbers its chunks so
// that the c-th tile its group lists ends with chunk c of the partial
// (ringChunks): position i holds the ring's chunk i + 1, so that chunk is
// the partial's chunk of the tile at position i. With `rings = 2` each
// half of the partial is such a ring (its own chunks and received slots),
// the first half's all-gather sent between the second half's
// reduce-scatter pieces; the fold order within each half is the above.
//
//===----------------------------------------------------------------------===//

#include "ProgramBuilder.h"

#include "ktflow/Dialect/KTDF/IR/ScatterAttr.h"
#include "ktflow/Dialect/KTDF/Transforms/Passes.h"
#include "ktflow/Support/ElementBytes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Matchers.h"

#include <functional>

using namespace mlir;
using namespace mlir::ktdf;
using namespace mlir::ktdf::lowering;

AllReduceOp mlir::ktdf::lowering::getAllReduce(StageOp stage) {
  auto ops = stage.getBody().front().getOps<AllReduceOp>();
  return ops.empty() ? AllReduceOp() : *ops.begin();
}

std::string mlir::ktdf::lowering::ringSync(unsigned index, StringRef what,
                                           const LaneInstance &li) {
  return KernelLowering::perLane(("p" + Twine(index) + "_" + what).str(), li);
}

int64_t mlir::ktdf::lowering::tileOfPoint(int64_t point,
                                          ArrayRef<int64_t> extents) {
  SmallVector<int64_t> coords(extents.size());
  for (int64_t d = extents.size() - 1; d >= 0; --d) {
    coords[d] = point % extents[d];
    point /= extents[d];
  }
  int64_t tile = 0;
  for (int64_t d = extents.size() - 1; d >= 0; --d)
    tile = tile * extents[d] + coords[d];
  return tile;
}

/// Where `core` lies on a cycle through every core of a `dims[0]` x
/// `dims[1]` mesh (dims fastest first) whose steps are one hop each: along
/// row 0, back through rows 1.. in columns 1.. (a snake), then down column
/// 0 home. That needs an even number of rows; with an odd number of rows
/// and an even number of columns, the same with rows and columns swapped;
/// with both odd no such cycle exists and the plain snake (closing step
/// longer) is taken.
static int64_t meshCycleRank(int64_t core, ArrayRef<int64_t> dims) {
  int64_t x = core % dims[0], y = core / dims[0] % dims[1];
  int64_t cols = dims[0], rows = dims[1];
  if (rows % 2 != 0 && cols % 2 == 0) {
    std::swap(x, y);
    std::swap(cols, rows);
  }
  if (rows % 2 != 0 || cols < 2)
    return y * cols + (y % 2 == 0 ? x : cols - 1 - x);
  if (y == 0)
    return x;
  if (x == 0) // Column 0 on the way home, from row rows - 1 down to 1.
    return cols + (rows - 1) * (cols - 1) + (rows - 1 - y);
  int64_t along = y % 2 != 0 ? cols - 1 - x : x - 1;
  return cols + (y - 1) * (cols - 1) + along;
}

int64_t KernelLowering::ringRankOfCore(int64_t core) const {
  for (const auto &entry : target.getRoofline().getInterconnects()) {
    const ktdf_arch::InterconnectSpec &spec = entry.second.spec;
    if (spec.topology == ktdf_arch::Topology::Mesh && spec.dims.size() == 2)
      return meshCycleRank(core, spec.dims);
  }
  return core; // A ring's own order; any order on a crossbar.
}

FailureOr<KernelLowering::RingPlace>
KernelLowering::ringOf(AllReduceOp op, const LaneInstance &li) const {
  ArrayRef<int64_t> extents = ParallelOp(parallel).getExtents();
  if (li.count != 1)
    return op.emitError("an all-reduce needs one tile per lane; lane ")
           << li.lane << " of core " << li.core << " runs " << li.count;
  int64_t tile = tileOfPoint(li.start, extents);
  for (ArrayRef<int64_t> group : op.getMembers()) {
    if (!llvm::is_contained(group, tile))
      continue;
    RingPlace place;
    const LaneInstance *self = nullptr;
    for (int64_t member : group) {
      int64_t point = pointOfTile(member, extents);
      auto it = llvm::find_if(instances, [&](const LaneInstance &other) {
        return other.start == point && other.count == 1;
      });
      if (it == instances.end())
        return op.emitError("tile ") << member << " runs on no lane";
      if (member == tile)
        self = &*it;
      place.members.push_back(&*it);
    }
    // The ring visits the cores in the order of a cycle through all of
    // them, so its steps together take at most that cycle's hops.
    llvm::stable_sort(
        place.members, [&](const LaneInstance *a, const LaneInstance *b) {
          return ringRankOfCore(a->core) < ringRankOfCore(b->core);
        });
    place.index = llvm::find(place.members, self) - place.members.begin();
    return place;
  }
  return op.emitError("tile ") << tile << " is in no group of the all-reduce";
}

int64_t KernelLowering::fifoEntryOf(Value slot, const LaneInstance &li) const {
  auto type = cast<FifoSlotType>(slot.getType());
  auto it = fifos.find({nodeInstance(type.getSrc().getValue(), li),
                        nodeInstance(type.getDst().getValue(), li)});
  return it == fifos.end() ? type.getSizeInBytes() : it->second.second;
}

namespace {
/// The stages of an all-reduce pipeline, by name; feed and drain per lane
/// (kLaneOffsetAttr).
struct RingStages {
  StageOp send;
  SmallVector<StageOp, 2> feed, drain;
  explicit RingStages(PipelineOp pipeline) {
    for (auto stage : pipeline.getBody().front().getOps<StageOp>()) {
      StringRef name = stage.getName();
      if (name == "send")
        send = stage;
      if (name != "feed" && name != "drain")
        continue;
      auto offset = stage->getAttrOfType<IntegerAttr>(kLaneOffsetAttr);
      size_t lane = offset ? offset.getInt() : 0;
      auto &list = name == "feed" ? feed : drain;
      if (list.size() <= lane)
        list.resize(lane + 1);
      list[lane] = stage;
    }
  }
};

/// Where the pieces of `rings` P-tile rings lie, in elements of the
/// partial: ring r covers the r-th of `rings` equal parts of it, cut into
/// P chunks.
struct RingLayout {
  int64_t elements, rings, members, part, chunk, piece, bytes;
  RingLayout(AllReduceOp op, int64_t members)
      : elements(op.getNumElements()), rings(op.getRings().value_or(1)),
        members(members), part((elements + rings - 1) / rings),
        chunk((part + members - 1) / members),
        piece((chunk + op.getPieces().value_or(1) - 1) /
              op.getPieces().value_or(1)),
        bytes(ktflow::bytesPerElement(
            cast<MemRefType>(op.getPartial().getType()).getElementType())) {}

  /// The first element of chunk `c` of ring `r`.
  int64_t chunkStart(int64_t r, int64_t c) const {
    return r * part + c * chunk;
  }
  /// The first element of received slot `k` of ring `r`: each ring has its
  /// own P - 1 slots, so the second ring's pieces may arrive while the
  /// first's are still being combined.
  int64_t slotStart(int64_t r, int64_t k) const {
    return (r * (members - 1) + k) * chunk;
  }
  /// Pieces (element offset within the chunk, length) of chunk `c` of ring
  /// `r`, only those holding elements; every tile computes the same list.
  SmallVector<std::pair<int64_t, int64_t>> piecesOf(int64_t r,
                                                    int64_t c) const {
    int64_t begin = chunkStart(r, c);
    int64_t end = std::min({elements, (r + 1) * part, begin + chunk});
    int64_t length = std::max<int64_t>(0, end - begin);
    SmallVector<std::pair<int64_t, int64_t>> list;
    for (int64_t at = 0; at < length; at += piece)
      list.push_back({at, std::min(piece, length - at)});
    return list;
  }
  int64_t mod(int64_t v) const { return ((v % members) + members) % members; }
};

} // namespace

/// The partial's chunk behind each chunk of the ring's numbering (the
/// ring's chunk c + 1 ends on position c): itself, or, for a reduce-scatter
/// (ScatterAttr.h), the position in its group's list of the tile at c,
/// the chunk that tile keeps.
static SmallVector<int64_t> ringChunks(AllReduceOp op,
                                       ArrayRef<const LaneInstance *> members,
                                       ArrayRef<int64_t> extents) {
  int64_t count = members.size();
  SmallVector<int64_t> chunks = llvm::to_vector(llvm::seq<int64_t>(count));
  if (!isScattered(op))
    return chunks;
  for (Attribute group : op.getGroups()) {
    ArrayRef<int64_t> listed = cast<DenseI64ArrayAttr>(group).asArrayRef();
    for (auto [c, member] : llvm::enumerate(members)) {
      const auto *it = llvm::find(listed, tileOfPoint(member->start, extents));
      if (it == listed.end())
        break;
      chunks[(c + 1) % count] = it - listed.begin();
    }
  }
  return chunks;
}

std::pair<Value, std::string>
mlir::ktdf::lowering::scratchpadViewBase(OpBuilder &b, Location loc,
                                         KernelLowering &kernel, Value view,
                                         const LaneInstance &li) {
  auto op = view.getDefiningOp<ktdp::ConstructMemoryViewOp>();
  auto kind = op->getAttrOfType<StringAttr>("ktdf.memory");
  APInt literal;
  (void)matchPattern(op.getOffset(), m_ConstantInt(&literal));
  int64_t esize =
      ktflow::bytesPerElement(cast<MemRefType>(op.getType()).getElementType());
  Value base = dfir::AddressOp::create(
      b, loc, b.getIndexType(), KernelLowering::localOf(kind.getValue(), li));
  base = arith::AddIOp::create(
      b, loc, base,
      arith::ConstantIndexOp::create(b, loc, literal.getSExtValue() * esize));
  return {base, kernel.memoryOf(kind.getValue(), li)};
}
void KernelLowering::declareRingSyncs(OpBuilder &b, const PipelineInfo &info,
                                      const LaneInstance &li) {
  RingStages stages(info.op);
  if (!stages.send || !getAllReduce(stages.send))
    return; // Not an all-reduce (a tile copy has a send stage too).
  auto place = ringOf(getAllReduce(stages.send), li);
  if (failed(place) || place->members.size() < 2)
    return;
  const LaneInstance &next =
      *place->members[(place->index + 1) % place->members.size()];
  Location loc = PipelineOp(info.op).getLoc();
  // Per combining lane: pieces sent to the next tile's lane, pieces added
  // back to this tile's send unit, and that lane's FIFOs (the first lane's
  // are the pipeline's own).
  for (auto [lane, feed] : llvm::enumerate(stages.feed)) {
    LaneInstance shifted = onLane(li, lane);
    dfir::SyncOp::create(b, loc, ringSync(info.index, "sent", shifted),
                         unitOf(stages.send, li), unitOf(feed, next));
    dfir::SyncOp::create(b, loc, ringSync(info.index, "added", shifted),
                         unitOf(stages.drain[lane], li),
                         unitOf(stages.send, li));
    if (lane == 0)
      continue;
    for (auto priv : PipelineOp(info.op).getBody().front().getOps<PrivateOp>())
      if (auto type = dyn_cast<FifoSlotType>(priv.getType())) {
        auto &entry = fifos[{nodeInstance(type.getSrc().getValue(), shifted),
                             nodeInstance(type.getDst().getValue(), shifted)}];
        if (entry.first.empty())
          entry.first = "fifo" + std::to_string(fifos.size() - 1);
        entry.second = std::max(entry.second, type.getSizeInBytes());
      }
  }
  if (!isScattered(getAllReduce(stages.send)))
    dfir::SyncOp::create(b, loc, ringSync(info.index, "gathered", li),
                         unitOf(stages.send, li), unitOf(stages.send, next));
}

LogicalResult ProgramBuilder::emitAllReduce(StageOp stage, AllReduceOp op,
                                            const LaneInstance &li) {
  OpBuilder &b = *builder;
  Location loc = op.getLoc();
  auto place = kernel.ringOf(op, li);
  if (failed(place))
    return failure();
  int64_t P = place->members.size();
  if (P < 2)
    return success(); // A group of one: its partial is the result.
  auto pipeline = cast<PipelineOp>(stage->getParentOp());
  unsigned index = kernel.infoOf(pipeline).index;
  RingLayout layout(op, P);
  SmallVector<int64_t> chunks =
      ringChunks(op, place->members, ParallelOp(kernel.parallel).getExtents());
  int64_t i = place->index;
  const LaneInstance &next = *place->members[layout.mod(i + 1)];
  const LaneInstance &prev = *place->members[layout.mod(i - 1)];
  auto [own, mem] = scratchpadViewBase(b, loc, kernel, op.getPartial(), li);
  auto [received, recvMem] =
      scratchpadViewBase(b, loc, kernel, op.getReceived(), li);
  auto at = [&](Value base, int64_t elements) {
    return arith::AddIOp::create(b, loc, base,
                                 constant(elements * layout.bytes))
        .getResult();
  };
  auto sync = [&](StringRef what, const LaneInstance &of, bool send) {
    std::string name = ringSync(index, what, of);
    if (send)
      dfir::SyncSendOp::create(b, loc, name);
    else
      dfir::SyncRecvOp::create(b, loc, name);
  };
  StringRef name = stage.getName();
  // Piece j of every chunk is combined on lane j mod `lanes` of the core.
  int64_t lanes = op.getLanes().value_or(1);
  auto laneOf = [&](const LaneInstance &of, size_t piece) {
    return KernelLowering::onLane(of, piece % lanes);
  };
  if (name == "send") {
    auto [nextOwn, nextMem] =
        scratchpadViewBase(b, loc, kernel, op.getPartial(), next);
    auto [nextReceived, nextRecvMem] =
        scratchpadViewBase(b, loc, kernel, op.getReceived(), next);
    (void)nextRecvMem;
    // The send unit's program as a list of pieces per phase, each emitted
    // by a callback: ring r's reduce-scatter is interleaved piece by piece
    // with ring r - 1's all-gather, so the data mover forwards the first
    // ring's sums while the vector unit combines the second ring's pieces.
    // The tokens of both rings share one counting channel each; every unit
    // consumes them in the order they are produced (ring 0's, then ring
    // 1's), so the counts match.
    // Plain copies: lambdas do not capture structured bindings in C++17.
    Value ownBase = own, nextOwnBase = nextOwn, nextReceivedBase = nextReceived;
    std::string memName = mem, nextMemName = nextMem;
    using Emit = std::function<void()>;
    auto reduceScatter = [&](int64_t r) {
      SmallVector<Emit> list;
      // Step k sends chunk i - k into slot k of the next tile.
      for (int64_t k = 0; k + 1 < P; ++k) {
        int64_t c = chunks[layout.mod(i - k)];
        for (auto [j, piece] : llvm::enumerate(layout.piecesOf(r, c)))
          list.push_back([&, r, k, c, j = j, piece = piece] {
            auto [offset, length] = piece;
            if (k > 0)
              sync("added", laneOf(li, j), false);
            dfir::RemoteDmaOp::create(
                b, loc, constant(length * layout.bytes), memName,
                at(ownBase, layout.chunkStart(r, c) + offset), nextMemName,
                at(nextReceivedBase, layout.slotStart(r, k) + offset), Value(),
                Value(), Value());
            sync("sent", laneOf(li, j), true);
          });
      }
      return list;
    };
    auto allGather = [&](int64_t r) {
      SmallVector<Emit> list;
      // Step k forwards the combined chunk i + 1 - k, once every piece of
      // chunk i + 1 is combined here.
      for (int64_t k = 0; k + 1 < P; ++k) {
        int64_t c = layout.mod(i + 1 - k);
        for (auto [j, piece] : llvm::enumerate(layout.piecesOf(r, c)))
          list.push_back([&, r, k, c, j = j, piece = piece] {
            auto [offset, length] = piece;
            if (k == 0 && j == 0)
              for (size_t m = 0; m < layout.piecesOf(r, c).size(); ++m)
                sync("added", laneOf(li, m), false);
            if (k > 0)
              sync("gathered", prev, false);
            int64_t element = layout.chunkStart(r, c) + offset;
            dfir::RemoteDmaOp::create(b, loc, constant(length * layout.bytes),
                                      memName, at(ownBase, element),
                                      nextMemName, at(nextOwnBase, element),
                                      Value(), Value(), Value());
            sync("gathered", li, true);
          });
      }
      list.push_back([&, r] {
        for (size_t j = 0; j < layout.piecesOf(r, layout.mod(i + 2)).size();
             ++j)
          sync("gathered", prev, false);
      });
      return list;
    };
    if (isScattered(op)) {
      // The stage ends once this tile's own chunk is combined, as an
      // all-gather's first step would wait.
      for (const Emit &emit : reduceScatter(0))
        emit();
      int64_t own = chunks[layout.mod(i + 1)];
      for (size_t j = 0; j < layout.piecesOf(0, own).size(); ++j)
        sync("added", laneOf(li, j), false);
      return success();
    }
    SmallVector<Emit> gathering;
    for (int64_t r = 0; r < layout.rings; ++r) {
      SmallVector<Emit> reducing = reduceScatter(r);
      for (size_t n = 0; n < std::max(reducing.size(), gathering.size()); ++n) {
        if (n < reducing.size())
          reducing[n]();
        if (n < gathering.size())
          gathering[n]();
      }
      gathering = allGather(r);
    }
    for (const Emit &emit : gathering)
      emit();
    return success();
  }
  // The pieces this tile combines: at step k, chunk p - k, which the
  // previous tile sent into slot k.
  // The slots in declaration order: feed -> combine, then combine -> drain.
  SmallVector<Value, 2> slots;
  for (auto priv : pipeline.getBody().front().getOps<PrivateOp>())
    if (isa<FifoSlotType>(priv.getType()))
      slots.push_back(priv.getResult());
  if (slots.size() != 2)
    return pipeline.emitError("an all-reduce pipeline has two FIFO slots");
  Value in = slots[0], out = slots[1];
  // This stage's lane: its units, FIFOs and tokens; the views stay li's.
  auto laneOffset = stage->getAttrOfType<IntegerAttr>(kLaneOffsetAttr);
  int64_t lane = laneOffset ? laneOffset.getInt() : 0;
  LaneInstance here = KernelLowering::onLane(li, lane);
  int64_t entry =
      std::min(kernel.fifoEntryOf(in, here), kernel.fifoEntryOf(out, here));
  int64_t perEntry = std::max<int64_t>(1, entry / layout.bytes);
  Type element = cast<MemRefType>(op.getPartial().getType()).getElementType();
  auto fifo = [&](Value slot) {
    return FlatSymbolRefAttr::get(b.getContext(), kernel.fifoOf(slot, here));
  };
  for (int64_t r = 0; r < layout.rings; ++r) {
    for (int64_t k = 0; k + 1 < P; ++k) {
      int64_t c = chunks[layout.mod(i - 1 - k)];
      for (auto [j, piece] : llvm::enumerate(layout.piecesOf(r, c))) {
        if (static_cast<int64_t>(j) % lanes != lane)
          continue;
        auto [offset, length] = piece;
        int64_t mine = layout.chunkStart(r, c) + offset;
        int64_t theirs = layout.slotStart(r, k) + offset;
        if (name == "drain") {
          dfir::StoreOp::create(b, loc, fifo(out), b.getStringAttr(mem),
                                at(own, mine), constant(length * layout.bytes));
          sync("added", here, true);
          continue;
        }
        if (name == "feed")
          sync("sent", KernelLowering::onLane(prev, lane), false);
        for (int64_t e = 0; e < length; e += perEntry) {
          int64_t n = std::min(perEntry, length - e);
          if (name == "feed") {
            dfir::LoadOp::create(b, loc, fifo(in), b.getStringAttr(recvMem),
                                 at(received, theirs + e),
                                 constant(n * layout.bytes));
            dfir::LoadOp::create(b, loc, fifo(in), b.getStringAttr(mem),
                                 at(own, mine + e), constant(n * layout.bytes));
            continue;
          }
          auto vector = VectorType::get({n}, element);
          Value lhs = dfir::RecvOp::create(b, loc, vector, fifo(in));
          Value rhs = dfir::RecvOp::create(b, loc, vector, fifo(in));
          auto map = dfir::MapOp::create(b, loc, vector, ValueRange{lhs, rhs});
          {
            OpBuilder::InsertionGuard guard(b);
            Block *block = b.createBlock(&map.getBody());
            Value a = block->addArgument(element, loc);
            Value r = block->addArgument(element, loc);
            OperationState state(loc, op.getCombiner(), ValueRange{a, r},
                                 TypeRange{element});
            Value combined = b.create(state)->getResult(0);
            dfir::YieldOp::create(b, loc, combined);
          }
          dfir::SendOp::create(b, loc, fifo(out), map.getResult());
        }
      }
    }
  }
  return success();
}
