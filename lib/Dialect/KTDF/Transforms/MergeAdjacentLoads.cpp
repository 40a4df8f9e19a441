//===- MergeAdjacentLoads.cpp - Side-by-side tiles move as one -----------===//
//
// This file implements --ktdf-merge-adjacent-loads. A pipeline whose DMA
// engine loads several tiles lying side by side along the last dimension
// of one view, each into a buffer of its own that one stage (the feed)
// reads, loads them as one wide tile into one wide buffer, the feed reading
// each former buffer's window of it. Triton's column-block loop carrying a
// running sum (`acc += X[r, 128k : 128(k+1)]`, unrolled by
// ktdf-unroll-carried-loops) is the case that asked for it: its four
// 256-byte blocks were four transfers of one execution, and sample_device's
// load engine, shared by a core's two lanes, keeps four in flight, so each
// row's blocks filled all its slots for a whole device-memory latency. The
// compute stage and every rounding stay as they were: only the transfers
// and the feed's addresses change.
//
// A feed whose chunk spans whole rows of a narrow tile (RoPE's two 8x16
// halves of X, read in chunks of 4 rows of 16) reads the rows of its chunk
// out of the wide buffer as a column block: its slot takes the block's
// shape (4x16; the load unit moves it as rows a buffer row apart) and the
// compute unit still takes the slot's elements as one flat chunk.
//
// Dually, where the engine that stores to device memory is shared, the DMA
// store stages that each move a whole buffer the drain fills in windows
// to side-by-side tiles become one stage storing one wide buffer (RoPE's
// two output halves): the drain writes each chunk as a column block of it.
//
//===----------------------------------------------------------------------===//

#include "IndexAnalysis.h"

#include "ktflow/Dialect/KTDF/Transforms/Passes.h"
#include "ktflow/Dialect/KTDP/IR/KTDP.h"
#include "ktflow/Dialect/KTDP/Utils/IntegerSetAnalysis.h"
#include "ktflow/Scheduler/ScheduleTarget.h"
#include "ktflow/Scheduler/ScheduleTargetPass.h"
#include "ktflow/Support/ElementBytes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Matchers.h"

namespace mlir::ktdf {
#define GEN_PASS_DEF_KTDFMERGEADJACENTLOADS
#include "ktflow/Dialect/KTDF/Transforms/Passes.h.inc"
} // namespace mlir::ktdf

using namespace mlir;
using namespace mlir::ktdf;

namespace {
/// An index expression `constant + sum of coefficient * value`.
struct LinearIndex {
  int64_t constant = 0;
  SmallVector<std::pair<Value, int64_t>> terms;
};

/// A DMA load (store) stage the pass may merge: its one transfer, the
/// tile it loads (stores) and the buffer it fills (empties), the tile's
/// anchor as linear indices, and the stage that reads (writes) the buffer.
struct ColumnLoad {
  StageOp stage;
  DataTransferOp transfer;
  ktdp::ConstructAccessTileOp tile;
  PrivateOp buffer;
  SmallVector<LinearIndex> anchor;
  StageOp partner;
};

/// The buffer end of a window access (a transfer between a buffer and a
/// slot): the source of a read by the feed, the destination of a write by
/// the drain.
struct WindowEnd {
  bool store;
  Value buffer(DataTransferOp t) const {
    return store ? t.getDst() : t.getSrc();
  }
  Value other(DataTransferOp t) const {
    return store ? t.getSrc() : t.getDst();
  }
  OperandRange indices(DataTransferOp t) const {
    return store ? t.getDstIndices() : t.getSrcIndices();
  }
  MutableOperandRange bufferMutable(DataTransferOp t) const {
    return store ? t.getDstMutable() : t.getSrcMutable();
  }
  MutableOperandRange indicesMutable(DataTransferOp t) const {
    return store ? t.getDstIndicesMutable() : t.getSrcIndicesMutable();
  }
};
} // namespace

/// `v` as a constant plus a value (null when `v` is a constant): folds a
/// constant operand of an `arith.addi`.
static std::pair<Value, int64_t> splitConstant(Value v) {
  APInt k;
  if (matchPattern(v, m_ConstantInt(&k)))
    return {nullptr, k.getSExtValue()};
  if (auto add = v.getDefiningOp<arith::AddIOp>())
    for (int i = 0; i < 2; ++i)
      if (matchPattern(add->getOperand(1 - i), m_ConstantInt(&k)))
        return {add->getOperand(i), k.getSExtValue()};
  return {v, 0};
}

/// The anchor of `tile` as linear indices, when its base map is affine in
/// its indices.
static std::optional<SmallVector<LinearIndex>>
linearAnchor(ktdp::ConstructAccessTileOp tile) {
  AffineMap map = tile.getBaseMap();
  ValueRange indices = tile.getIndices();
  if (map.getNumSymbols() != 0 || map.getNumDims() != indices.size())
    return std::nullopt;
  SmallVector<LinearIndex> anchor;
  for (AffineExpr expr : map.getResults()) {
    auto affine = affineCoefficients(expr, indices.size());
    if (!affine)
      return std::nullopt;
    LinearIndex linear;
    linear.constant = affine->first;
    for (auto [index, coefficient] : llvm::zip(indices, affine->second)) {
      if (coefficient == 0)
        continue;
      std::pair<Value, int64_t> split = splitConstant(index);
      linear.constant += coefficient * split.second;
      if (!split.first)
        continue;
      auto *same = llvm::find_if(
          linear.terms, [&](auto &t) { return t.first == split.first; });
      if (same != linear.terms.end())
        same->second += coefficient;
      else
        linear.terms.push_back({split.first, coefficient});
    }
    llvm::erase_if(linear.terms, [](auto &t) { return t.second == 0; });
    anchor.push_back(std::move(linear));
  }
  return anchor;
}

/// Whether `a` and `b` differ by a constant (their terms are the same).
static bool sameTerms(const LinearIndex &a, const LinearIndex &b) {
  if (a.terms.size() != b.terms.size())
    return false;
  return llvm::all_of(a.terms,
                      [&](auto &t) { return llvm::is_contained(b.terms, t); });
}

/// Whether index `v` is 0 wherever it is used: the constant, or the
/// variable of a loop whose one trip starts at 0.
static bool alwaysZero(Value v) {
  APInt k;
  if (matchPattern(v, m_ConstantInt(&k)))
    return k.isZero();
  auto loop = scf::getForInductionVarOwner(v);
  if (!loop)
    return false;
  std::optional<int64_t> lb = getConstantIntValue(loop.getLowerBound());
  std::optional<int64_t> ub = getConstantIntValue(loop.getUpperBound());
  std::optional<int64_t> step = getConstantIntValue(loop.getStep());
  return lb == 0 && ub && step && *ub <= *step;
}

/// The rows of `width` that `read`'s chunk spans, when it is a run of
/// whole rows of a two-dimensional buffer from column 0 into (out of) a
/// flat slot of its own (the compute unit only reads or writes it): the
/// feed (drain) can move them out of (into) a wider buffer as a column
/// block. 0 otherwise.
static int64_t rowsOfChunk(DataTransferOp read, int64_t width, WindowEnd end) {
  Value other = end.other(read);
  auto slot = dyn_cast<FifoSlotType>(other.getType());
  auto buffer = cast<MemRefType>(end.buffer(read).getType());
  if (!slot || slot.getShape().size() != 1 || buffer.getRank() != 2 ||
      slot.getShape()[0] <= width || slot.getShape()[0] % width != 0 ||
      !alwaysZero(end.indices(read).back()) ||
      !other.getDefiningOp<PrivateOp>())
    return 0;
  for (Operation *user : other.getUsers())
    if (user != read &&
        !(end.store ? isa<WriteToFifoOp>(user) : isa<ReadFromFifoOp>(user)))
      return 0;
  return slot.getShape()[0] / width;
}

/// The reads of `buffer` besides `load`: transfers out of it at indices of
/// every dimension, all in one stage of `buffer`'s pipeline, each a block no
/// wider than a row of `width` that divides it, or a chunk of whole rows
/// (rowsOfChunk); any other block spanning rows would span other windows
/// once the buffer is wider. Empty: none or another use.
static SmallVector<DataTransferOp> windowReads(PrivateOp buffer,
                                               DataTransferOp load,
                                               int64_t width, WindowEnd end) {
  SmallVector<DataTransferOp> reads;
  StageOp reader;
  auto type = cast<MemRefType>(buffer.getType());
  for (OpOperand &use : buffer.getResult().getUses()) {
    if (use.getOwner() == load)
      continue;
    auto read = dyn_cast<DataTransferOp>(use.getOwner());
    if (!read || end.buffer(read) != buffer.getResult() ||
        end.other(read) == buffer.getResult() ||
        llvm::is_contained(read.getStagedIndices(), buffer.getResult()) ||
        end.indices(read).size() != static_cast<size_t>(type.getRank()) ||
        read.getRows())
      return {};
    SmallVector<int64_t> block = read.getBlockShape();
    if (block.empty() || ((block.back() > width || width % block.back() != 0) &&
                          !rowsOfChunk(read, width, end)))
      return {};
    auto stage = read->getParentOfType<StageOp>();
    if (!stage || (reader && stage != reader))
      return {};
    reader = stage;
    reads.push_back(read);
  }
  return reads;
}

/// `stage` as a mergeable load, if it is one: a DMA load stage whose one
/// transfer moves a box tile of identity order, starting at its anchor, of
/// a memory view into a whole private buffer of the tile's shape, which
/// one stage reads in windows; its one token goes to that stage. As a
/// mergeable store (`end.store`): a DMA store stage moving such a buffer,
/// which one stage writes in windows, to such a tile, after that stage
/// (its one token in) and before nothing (no token out).
static std::optional<ColumnLoad> asColumnLoad(StageOp stage, WindowEnd end) {
  bool kind = end.store ? stage.isApplicable(UnitRole::dma_store) &&
                              stage.getDependsIn().size() == 1 &&
                              stage.getNumResults() == 0
                        : stage.isApplicable(UnitRole::dma_load) &&
                              stage.getDependsIn().empty() &&
                              stage.getNumResults() == 1;
  if (!kind || !stage->getDiscardableAttrDictionary().empty())
    return std::nullopt;
  DataTransferOp transfer;
  for (Operation &op : stage.getBody().front()) {
    auto t = dyn_cast<DataTransferOp>(op);
    if (!t || transfer)
      return std::nullopt;
    transfer = t;
  }
  if (!transfer || !transfer.getSrcIndices().empty() ||
      !transfer.getDstIndices().empty() || transfer.getRows() ||
      !transfer.getStagedIndices().empty() ||
      !transfer->getDiscardableAttrDictionary().empty())
    return std::nullopt;
  // The DMA's ends are the other way round: a load fills the buffer.
  auto tile = (end.store ? transfer.getDst() : transfer.getSrc())
                  .getDefiningOp<ktdp::ConstructAccessTileOp>();
  auto buffer = (end.store ? transfer.getSrc() : transfer.getDst())
                    .getDefiningOp<PrivateOp>();
  if (!tile || !buffer || buffer.getOffset() || buffer.getExported() ||
      !buffer->getDiscardableAttrDictionary().empty() ||
      buffer->getParentOp() != stage->getParentOp() ||
      !tile.getBase().getDefiningOp<ktdp::ConstructMemoryViewOp>() ||
      !tile.getSymbolOperands().empty() ||
      !tile.getAccessTileOrder().isIdentity())
    return std::nullopt;
  auto type = dyn_cast<MemRefType>(buffer.getType());
  ArrayRef<int64_t> shape =
      cast<ktdp::AccessTileType>(tile.getType()).getShape();
  IntegerSet set = tile.getAccessTileSet();
  if (!type || !type.hasStaticShape() || type.getShape() != shape ||
      !type.getLayout().isIdentity() || set.getNumSymbols() != 0 ||
      !ktdp::isBoxShaped(set) ||
      tile.getBaseMap().getNumResults() != shape.size())
    return std::nullopt;
  FailureOr<ktdp::IntegerBox> box = ktdp::getBoundingBox(set, {});
  if (failed(box) || box->getExtents() != SmallVector<int64_t>(shape) ||
      llvm::any_of(box->lower, [](int64_t l) { return l != 0; }))
    return std::nullopt;
  // The token goes to the one stage that reads the buffer (comes from the
  // one that writes it).
  SmallVector<DataTransferOp> reads =
      windowReads(buffer, transfer, type.getShape().back(), end);
  if (reads.empty())
    return std::nullopt;
  auto partner = reads.front()->getParentOfType<StageOp>();
  Value token = end.store ? stage.getDependsIn().front() : stage.getResult(0);
  if (end.store ? token.getDefiningOp() != partner
                : !token.hasOneUse() ||
                      token.getUses().begin()->getOwner() != partner)
    return std::nullopt;
  auto anchor = linearAnchor(tile);
  if (!anchor)
    return std::nullopt;
  return ColumnLoad{stage, transfer, tile, buffer, std::move(*anchor), partner};
}

/// How far `b`'s tile starts after `a`'s along the last dimension, when
/// both move tiles of the same view, shape and element type on the same
/// unit to the same reader (from the same writer) and start at the same
/// place along the others.
static std::optional<int64_t> columnOffset(ColumnLoad &a, ColumnLoad &b) {
  if (a.tile.getBase() != b.tile.getBase() ||
      a.tile.getType() != b.tile.getType() ||
      a.buffer.getType() != b.buffer.getType() ||
      a.stage.getUnitAttr() != b.stage.getUnitAttr() ||
      a.stage.getApplicableUnits() != b.stage.getApplicableUnits() ||
      a.partner != b.partner)
    return std::nullopt;
  size_t last = a.anchor.size() - 1;
  for (size_t r = 0; r <= last; ++r)
    if (!sameTerms(a.anchor[r], b.anchor[r]) ||
        (r < last && a.anchor[r].constant != b.anchor[r].constant))
      return std::nullopt;
  return b.anchor[last].constant - a.anchor[last].constant;
}

/// `type` (a memref or access tile) with its last dimension `n` times as
/// wide.
static Type widen(Type type, int64_t n) {
  if (auto memref = dyn_cast<MemRefType>(type)) {
    SmallVector<int64_t> shape(memref.getShape());
    shape.back() *= n;
    return MemRefType::get(shape, memref.getElementType(), AffineMap(),
                           memref.getMemorySpace());
  }
  auto tile = cast<ktdp::AccessTileType>(type);
  SmallVector<int64_t> shape(tile.getShape());
  shape.back() *= n;
  return ktdp::AccessTileType::get(shape, tile.getElementType());
}

/// Merges `run` (loads of adjacent tiles, from the leftmost): the first
/// stage in the pipeline loads the wide tile into a wide buffer, the
/// reader reads each former buffer's window of it, the others go (stores:
/// the writer writes the windows, the first stage stores the wide tile).
static void mergeRun(MutableArrayRef<ColumnLoad> run, WindowEnd end) {
  int64_t n = run.size();
  int64_t width =
      cast<MemRefType>(run.front().buffer.getType()).getShape().back();
  ColumnLoad *first = &run.front();
  for (ColumnLoad &load : run)
    if (load.stage->isBeforeInBlock(first->stage))
      first = &load;
  ColumnLoad *bufferFirst = &run.front();
  for (ColumnLoad &load : run)
    if (load.buffer->isBeforeInBlock(bufferFirst->buffer))
      bufferFirst = &load;

  // The wide tile, next to the leftmost tile (its indices are defined
  // there), and the wide buffer, where the first buffer was.
  ktdp::ConstructAccessTileOp left = run.front().tile;
  OpBuilder b(left);
  b.setInsertionPointAfter(left);
  auto wideTile = cast<ktdp::ConstructAccessTileOp>(b.clone(*left));
  Type tileType = widen(left.getType(), n);
  wideTile.getResult().setType(cast<ktdp::AccessTileType>(tileType));
  wideTile.setAccessTileSet(ktdp::getBoxSet(
      cast<ktdp::AccessTileType>(tileType).getShape(), b.getContext()));
  b.setInsertionPoint(bufferFirst->buffer);
  auto wideBuffer =
      PrivateOp::create(b, bufferFirst->buffer.getLoc(),
                        widen(bufferFirst->buffer.getType(), n), IntegerAttr());

  // The reads: window k of the wide buffer; a chunk of whole rows becomes
  // a column block of them at column k * width.
  for (auto [k, load] : llvm::enumerate(run)) {
    for (DataTransferOp read :
         windowReads(load.buffer, load.transfer, width, end)) {
      SmallVector<Value> indices(end.indices(read));
      OpBuilder rb(read);
      if (int64_t rows = rowsOfChunk(read, width, end)) {
        auto slot = cast<FifoSlotType>(end.other(read).getType());
        end.other(read).setType(FifoSlotType::get(
            slot.getContext(), slot.getSrc(), slot.getDst(),
            SmallVector<int64_t>{rows, width}, slot.getElementType()));
        indices.back() =
            arith::ConstantIndexOp::create(rb, read.getLoc(), k * width);
      } else if (k != 0) {
        Value shift =
            arith::ConstantIndexOp::create(rb, read.getLoc(), k * width);
        indices.back() =
            arith::AddIOp::create(rb, read.getLoc(), indices.back(), shift);
      }
      end.bufferMutable(read).assign(wideBuffer.getResult());
      end.indicesMutable(read).assign(indices);
    }
  }

  // One load stage, one token for the reader (one store stage after the
  // writer, whose token it already takes).
  (end.store ? first->transfer.getSrcMutable()
             : first->transfer.getDstMutable())
      .assign(wideBuffer.getResult());
  (end.store ? first->transfer.getDstMutable()
             : first->transfer.getSrcMutable())
      .assign(wideTile.getResult());
  if (!end.store) {
    Value token = first->stage.getResult(0);
    SmallVector<Value> dependsIn;
    for (Value in : first->partner.getDependsIn()) {
      bool merged = llvm::any_of(
          run, [&](ColumnLoad &l) { return l.stage.getResult(0) == in; });
      Value kept = merged ? token : in;
      if (!llvm::is_contained(dependsIn, kept))
        dependsIn.push_back(kept);
    }
    first->partner.getDependsInMutable().assign(dependsIn);
  }
  for (ColumnLoad &load : run) {
    if (&load != first)
      load.stage.erase();
    load.buffer.erase();
  }
  for (ColumnLoad &load : run)
    if (load.tile.use_empty())
      load.tile.erase();
}

/// Merges the adjacent-tile loads (stores) of `pipeline`, each merged tile
/// at most `maxBytes` and made of at least `minBlocks` tiles.
static void mergePipeline(PipelineOp pipeline, int64_t maxBytes,
                          int64_t minBlocks, WindowEnd end) {
  SmallVector<ColumnLoad> loads;
  for (auto stage : pipeline.getBody().front().getOps<StageOp>())
    if (auto load = asColumnLoad(stage, end))
      loads.push_back(std::move(*load));
  // Group loads whose tiles differ only along the last dimension; within
  // a group, runs of tiles each starting where the previous one ends.
  SmallVector<bool> used(loads.size(), false);
  SmallVector<SmallVector<ColumnLoad>> runs;
  for (size_t i = 0; i < loads.size(); ++i) {
    if (used[i])
      continue;
    SmallVector<std::pair<int64_t, size_t>> group = {{0, i}};
    for (size_t j = i + 1; j < loads.size(); ++j)
      if (!used[j])
        if (auto offset = columnOffset(loads[i], loads[j]))
          group.push_back({*offset, j});
    llvm::sort(group);
    auto type = cast<MemRefType>(loads[i].buffer.getType());
    int64_t width = type.getShape().back();
    int64_t bytes =
        type.getNumElements() * ktflow::bytesPerElement(type.getElementType());
    SmallVector<ColumnLoad> run;
    int64_t next = 0;
    // Stores: a row of blocks too wide for one store stays as it was, not
    // cut into pieces (each would wait for the drain of its last block).
    bool cut = false;
    auto flush = [&] {
      if (run.size() > 1 && static_cast<int64_t>(run.size()) >= minBlocks &&
          !(end.store && cut))
        runs.push_back(run);
      run.clear();
    };
    for (auto [offset, j] : group) {
      bool adjacent = !run.empty() && offset == next;
      bool fits = static_cast<int64_t>(run.size() + 1) * bytes <= maxBytes;
      if (!adjacent || !fits) {
        cut = cut || adjacent;
        flush();
        cut = cut && adjacent;
      }
      run.push_back(loads[j]);
      used[j] = true;
      next = offset + width;
    }
    flush();
  }
  for (auto &run : runs)
    mergeRun(run, end);
}

namespace {
struct MergeAdjacentLoadsPass
    : public ktflow::sched::WithScheduleTarget<
          ktdf::impl::KTDFMergeAdjacentLoadsBase<MergeAdjacentLoadsPass>> {
  using Base::Base;

  void runOnOperation() override {
    const ktflow::sched::ScheduleTarget *target = requireScheduleTarget();
    if (!target)
      return;
    // Only rows of at least as many blocks as a lane's share of the
    // engine's slots: that is where the separate transfers held a lane's
    // slots for a whole latency (sample_device, 4 slots for 2 lanes). On
    // spyre_like's DMA_IN (8 slots for 2 lanes) rows of 2 or 3 blocks ran
    // slower merged (layernorm_bf16_rows 494 -> 509 cycles).
    // A lane with a load engine of its own (mesh_device: 4 slots) is held
    // up the same way by a row of 4 blocks: row_block_sum's rows of four
    // 256-byte blocks were one 86-cycle round each, 505 -> 346 cycles
    // merged.
    for (bool store : {false, true}) {
      std::optional<Engine> engine = dmaEngine(*target, store);
      bool own = engine && engine->lanes <= 1;
      if (!engine || (!allEngines && own && store))
        continue;
      int64_t minBlocks = llvm::divideCeil(engine->slots, engine->lanes);
      // A merged store waits for the drain's last window where the blocks'
      // stores started as each was drained: only a store moved within one
      // latency (bandwidth x latency of the route, 6,848 bytes on
      // sample_device) gains; rmsnorm_256x4096's four 2 KiB blocks a row
      // ran 16 cycles slower as one 8 KiB store. On a load engine of its
      // own, the same bound: a row longer than a latency keeps the engine
      // busy anyway, and merged its feed waits for the last block instead
      // of starting on the first (rmsnorm_256x4096's 8 KiB rows on
      // mesh_device: 10,711 -> 10,903 cycles merged).
      int64_t cap = store || (own && !allEngines)
                        ? std::min(maxBytes.getValue(), engine->window)
                        : maxBytes.getValue();
      getOperation()->walk([&](PipelineOp pipeline) {
        mergePipeline(pipeline, cap, minBlocks, WindowEnd{store});
      });
    }
  }

  /// The engine that loads a lane's tiles from device memory (stores them
  /// there): the lanes of a core one instance serves, the transfers it
  /// keeps in flight and the bytes its route moves in one latency.
  struct Engine {
    int64_t lanes;
    int64_t slots;
    int64_t window;
  };
  static std::optional<Engine> dmaEngine(const ktflow::sched::ScheduleTarget &t,
                                         bool store) {
    if (t.getLanes().empty())
      return std::nullopt;
    const auto &lane = t.getLanes().front();
    const ktflow::sched::HopChain &chain = store ? lane.outbound : lane.inbound;
    const auto &hops = chain.hops;
    if (hops.empty())
      return std::nullopt;
    const ktflow::sched::Hop &dma = store ? hops.back() : hops.front();
    if (dma.kind != ktflow::sched::Hop::Dma)
      return std::nullopt;
    const ktflow::device::DeviceModel &model = t.getModel();
    const auto &unit = model.getNode(dma.unit).unit;
    int64_t slots = unit ? std::max<int64_t>(unit->maxOutstanding, 1) : 1;
    auto window = static_cast<int64_t>(
        chain.route.bandwidth * static_cast<double>(chain.route.latency));
    return Engine{t.getLanesPerInstance(dma.unit), slots, window};
  }
};
} // namespace
