//===- DuplicateStores.cpp - One tile stores what every tile stores -------===//
//
// This file finds, before the programs are built, the pipelines of the
// grid's body that every tile runs to store the same data at the same
// place of device memory, and runs their transfers and compute on one tile
// (PipelineInfo::workTiles; the other tiles keep their synchronisation, so
// every channel's tokens still balance). realworld/lx_resident_copy.mlir's
// tiles each stored the whole 24 KiB output: on mesh_device tile 1's DMA
// engine was busy 594 of its 605 cycles, and each tile first received the
// other's part only to store it.
//
// A pipeline stores duplicates when it sits in the grid's body, exports
// nothing, holds no copy, all-reduce or gather, writes only device memory
// and reads only what every tile holds alike: device memory nothing in the
// kernel writes, or the destination of a tile copy after it whose every
// tile receives (or keeps) one sender's resident part (partCopies,
// ResidentCopies.cpp) or the kept destination it sends
// (KeptCopySources.cpp); and every value it takes from outside is the same
// on every tile (nothing reads the grid point or the tile id). What it
// stores nothing in the kernel reads, and nothing else writes bytes of it:
// the other stores into the tensor are such pipelines too, into boxes of a
// dense view that do not meet.
//
// The tile (assignDuplicateStores, before the pipelines are collected): a
// copy's sender for a pipeline reading what the copy moved (it holds the
// data without the copy), else the tile with the fewest bytes to store so
// far (largest first), or, for one DMA of device rows, pieces of it for
// the tiles with the fewest (DuplicateStoreSplits.cpp). A copy whose
// receivers no longer read its destination then skips them (`sources`
// -1), so the senders send nothing to them and the fill of a kept
// destination no tile reads is left out.
//
//===----------------------------------------------------------------------===//

#include "DuplicateStores.h"

#include "ktflow/Dialect/KTDF/Transforms/Passes.h"
#include "ktflow/Dialect/KTDP/IR/ScratchpadView.h"
#include "ktflow/Dialect/KTDP/Utils/IntegerSetAnalysis.h"
#include "ktflow/Support/ElementBytes.h"

#include "mlir/IR/Matchers.h"

using namespace mlir;
using namespace mlir::ktdf;
using namespace mlir::ktdf::lowering;

namespace {
/// Whether values of the grid's body are the same on every tile.
class GridInvariance {
public:
  explicit GridInvariance(ParallelOp parallel) : parallel(parallel) {}

  bool holds(Value v) {
    if (auto it = memo.find(v); it != memo.end())
      return it->second;
    memo[v] = false; // A cycle through loop-carried values is not invariant.
    bool result = compute(v);
    memo[v] = result;
    return result;
  }

private:
  bool compute(Value v) {
    if (auto arg = dyn_cast<BlockArgument>(v)) {
      Operation *owner = arg.getOwner()->getParentOp();
      if (!parallel->isAncestor(owner) || owner == parallel.getOperation())
        return owner != parallel.getOperation();
      // A loop's induction variable over bounds every tile shares.
      auto loop = dyn_cast<scf::ForOp>(owner);
      return loop && arg == loop.getInductionVar() &&
             holds(loop.getLowerBound()) && holds(loop.getUpperBound()) &&
             holds(loop.getStep());
    }
    Operation *op = v.getDefiningOp();
    if (!parallel->isAncestor(op))
      return true;
    return !isa<ktdp::GetComputeTileIdOp>(op) && op->getNumRegions() == 0 &&
           isMemoryEffectFree(op) &&
           llvm::all_of(op->getOperands(), [&](Value x) { return holds(x); });
  }

  ParallelOp parallel;
  llvm::DenseMap<Value, bool> memo;
};

} // namespace

/// Whether device memory views `a` and `b` may share bytes: views at
/// literal addresses of one memory whose spans meet, views at one launch
/// argument, or any other pair but two distinct arguments.
static bool mayAlias(ktdp::ConstructMemoryViewOp a,
                     ktdp::ConstructMemoryViewOp b) {
  if (a == b)
    return true;
  auto x = ktdp::getLiteralByteSpan(a), y = ktdp::getLiteralByteSpan(b);
  APInt lit;
  if (x && y && matchPattern(a.getOffset(), m_ConstantInt(&lit)) &&
      matchPattern(b.getOffset(), m_ConstantInt(&lit)))
    return a->getAttr("ktdf.memory") != b->getAttr("ktdf.memory") ||
           std::max(x->first, y->first) < std::min(x->second, y->second);
  auto p = dyn_cast<BlockArgument>(a.getOffset());
  auto q = dyn_cast<BlockArgument>(b.getOffset());
  return !p || !q || p == q;
}

/// The box of view coordinates access tile `tile` spans: its set's
/// bounding box offset by its anchor, when both are constant.
static std::optional<ktdp::IntegerBox> boxOf(Value tile) {
  auto access = tile.getDefiningOp<ktdp::ConstructAccessTileOp>();
  if (!access)
    return std::nullopt;
  MLIRContext *ctx = access.getContext();
  SmallVector<AffineExpr> dims, syms;
  SmallVector<int64_t> symbols;
  for (auto [operands, exprs] :
       {std::make_pair(access.getIndices(), &dims),
        std::make_pair(access.getSymbolOperands(), &syms)})
    for (Value v : operands) {
      APInt c;
      if (!matchPattern(v, m_ConstantInt(&c)))
        return std::nullopt;
      exprs->push_back(getAffineConstantExpr(c.getSExtValue(), ctx));
      if (exprs == &syms)
        symbols.push_back(c.getSExtValue());
    }
  auto box = ktdp::getBoundingBox(access.getAccessTileSet(), symbols);
  AffineMap anchor = access.getBaseMap();
  if (failed(box) || anchor.getNumResults() != box->lower.size())
    return std::nullopt;
  for (auto [d, e] : llvm::enumerate(anchor.getResults())) {
    auto c = dyn_cast<AffineConstantExpr>(
        simplifyAffineExpr(e.replaceDimsAndSymbols(dims, syms), 0, 0));
    if (!c)
      return std::nullopt;
    box->lower[d] += c.getValue();
    box->upper[d] += c.getValue();
  }
  return *box;
}

/// Whether stores `a` and `b` write no byte in common: views that share
/// none, or boxes of one dense view that do not meet.
static bool disjoint(DuplicateStore a, DuplicateStore b) {
  if (!mayAlias(a.view, b.view))
    return true;
  if (a.view != b.view || !isDenseRowMajor(a.view))
    return false;
  auto x = boxOf(a.op.getDst()), y = boxOf(b.op.getDst());
  if (!x || !y || x->lower.size() != y->lower.size())
    return false;
  for (size_t d = 0; d < x->lower.size(); ++d)
    if (x->upper[d] < y->lower[d] || y->upper[d] < x->lower[d])
      return true;
  return false;
}

/// The tile every receiver of `copy` holds the data of, when they all hold
/// one sender's: a copy of a resident part kept alike (`parts`), or one
/// that sends the destination its sender keeps.
static std::optional<int64_t>
uniformSender(TileCopyOp copy,
              const llvm::DenseMap<Operation *, Operation *> &parts) {
  if (!copy.getStoredLocally() ||
      (!parts.contains(copy) && copy.getSource() != copy.getDest()))
    return std::nullopt;
  std::optional<int64_t> sender;
  for (int64_t p : copy.getSources()) {
    if (p < 0)
      continue;
    if (sender && *sender != p)
      return std::nullopt;
    sender = p;
  }
  return sender;
}

/// The tile copy whose destination `view` is, if one.
static TileCopyOp copyInto(ktdp::ConstructMemoryViewOp view) {
  for (Operation *user : view->getUsers())
    if (auto copy = dyn_cast<TileCopyOp>(user);
        copy && copy.getDest() == view.getResult())
      return copy;
  return {};
}

SmallVector<Duplicate> lowering::findDuplicates(KernelLowering &kernel) {
  ParallelOp parallel = kernel.parallel;
  int64_t tiles = parallel.getNumPoints();
  if (tiles < 2)
    return {};
  for (int64_t t = 0; t < tiles; ++t)
    if (!kernel.laneOfTile(t))
      return {};
  bool gathers = false;
  parallel.walk([&](IndDataTransferOp) { gathers = true; });
  if (gathers)
    return {};
  // Every device memory view the kernel reads or writes, with the writes.
  SmallVector<ktdp::ConstructMemoryViewOp> reads;
  SmallVector<DuplicateStore> writes;
  bool unknown = false;
  parallel.walk([&](DataTransferOp op) {
    for (auto [end, isSrc] : {std::make_pair(op.getSrc(), true),
                              std::make_pair(op.getDst(), false)}) {
      if (!isa<ktdp::AccessTileType>(end.getType()))
        continue;
      auto view = ktdp::getAccessTileView(end);
      if (!view) {
        unknown = true;
        continue;
      }
      if (ktdp::isScratchpadView(view))
        continue;
      if (isSrc)
        reads.push_back(view);
      else
        writes.push_back({op, view});
    }
  });
  if (unknown)
    return {};

  GridInvariance invariant(parallel);
  SmallVector<Duplicate> duplicates;
  SmallVector<PipelineOp> pipelines;
  parallel.walk([&](PipelineOp p) { pipelines.push_back(p); });
  for (auto [order, pipeline] : llvm::enumerate(pipelines)) {
    if (pipeline->getParentOp() != parallel.getOperation() ||
        pipeline->getNumResults() != 0)
      continue;
    Duplicate dup;
    dup.op = pipeline;
    dup.order = order;
    bool ok = true;
    pipeline.walk([&](Operation *op) {
      if (isa<TileCopyOp, AllReduceOp>(op))
        ok = false;
      for (Value operand : op->getOperands()) {
        Operation *def = operand.getDefiningOp();
        if (!def)
          def = cast<BlockArgument>(operand).getOwner()->getParentOp();
        if (!pipeline->isAncestor(def) && !invariant.holds(operand))
          ok = false;
      }
      auto transfer = dyn_cast<DataTransferOp>(op);
      if (!transfer)
        return;
      if (isa<ktdp::AccessTileType>(transfer.getDst().getType())) {
        auto view = ktdp::getAccessTileView(transfer.getDst());
        if (!view || ktdp::isScratchpadView(view)) {
          ok = false;
          return;
        }
        dup.stores.push_back({transfer, view});
        auto type = cast<ktdp::AccessTileType>(transfer.getDst().getType());
        dup.bytes += type.getNumElements() *
                     ktflow::bytesPerElement(
                         cast<MemRefType>(view.getType()).getElementType());
      }
      if (!isa<ktdp::AccessTileType>(transfer.getSrc().getType()))
        return;
      auto view = ktdp::getAccessTileView(transfer.getSrc());
      if (!view) {
        ok = false;
        return;
      }
      if (!ktdp::isScratchpadView(view)) {
        // Device memory nothing in the kernel writes.
        ok &= llvm::none_of(writes, [&](const DuplicateStore &w) {
          return mayAlias(w.view, view);
        });
        return;
      }
      // What a copy before the pipeline left alike on every tile, which
      // nothing writes after the copy.
      TileCopyOp copy = copyInto(view);
      Operation *copyPipeline =
          copy ? copy->getParentOfType<PipelineOp>() : nullptr;
      if (!copy || !uniformSender(copy, kernel.partCopies) || !copyPipeline ||
          copyPipeline->getBlock() != pipeline->getBlock() ||
          !copyPipeline->isBeforeInBlock(pipeline)) {
        ok = false;
        return;
      }
      // Its writers: the fill that writes a resident part's kept copy
      // from the part (before the pipeline), or for a copy sending its
      // kept destination the fills before the copy.
      Operation *partFill = kernel.partCopies.lookup(copy);
      parallel.walk([&](DataTransferOp other) {
        auto dst = isa<ktdp::AccessTileType>(other.getDst().getType())
                       ? ktdp::getAccessTileView(other.getDst())
                       : ktdp::ConstructMemoryViewOp();
        if (dst != view)
          return;
        Operation *writer = other->getParentOfType<PipelineOp>();
        Operation *before = kernel.partCopies.count(copy)
                                ? pipeline.getOperation()
                                : copyPipeline;
        if (!writer || writer->getBlock() != before->getBlock() ||
            !writer->isBeforeInBlock(before) ||
            (kernel.partCopies.count(copy) && writer != partFill))
          ok = false;
      });
      if (!llvm::is_contained(dup.copies, copy))
        dup.copies.push_back(copy);
    });
    if (ok && !dup.stores.empty())
      duplicates.push_back(std::move(dup));
  }

  // What a duplicate stores nothing reads, and every other write of bytes
  // it may store is another duplicate's, into bytes that do not meet.
  auto isDuplicate = [&](DataTransferOp op) {
    return llvm::any_of(duplicates, [&](const Duplicate &d) {
      return llvm::any_of(d.stores,
                          [&](const DuplicateStore &s) { return s.op == op; });
    });
  };
  llvm::erase_if(duplicates, [&](const Duplicate &d) {
    return llvm::any_of(d.stores, [&](const DuplicateStore &s) {
      return llvm::any_of(reads,
                          [&](auto view) { return mayAlias(view, s.view); }) ||
             llvm::any_of(writes, [&](const DuplicateStore &w) {
               return w.op != s.op && (!isDuplicate(w.op) || !disjoint(w, s));
             });
    });
  });
  return duplicates;
}

void KernelLowering::assignDuplicateStores() {
  SmallVector<Duplicate> duplicates = findDuplicates(*this);
  if (duplicates.empty())
    return;
  // A pipeline reading what a copy moved stores on the copy's sender; the
  // others, largest first, on the tile with the fewest bytes so far, or
  // cut into pieces for the tiles with the fewest (device rows).
  SmallVector<int64_t> load(parallel.getNumPoints(), 0);
  SmallVector<Duplicate *> rest;
  for (Duplicate &d : duplicates) {
    for (TileCopyOp copy : d.copies)
      if (!llvm::is_contained(duplicateCopies, copy.getOperation()))
        duplicateCopies.push_back(copy);
    if (d.copies.empty()) {
      rest.push_back(&d);
      continue;
    }
    int64_t tile = *uniformSender(d.copies.front(), partCopies);
    duplicateTiles[d.op] = tile;
    load[tile] += d.bytes;
  }
  llvm::sort(rest, [](const Duplicate *a, const Duplicate *b) {
    return std::make_pair(-a->bytes, a->order) <
           std::make_pair(-b->bytes, b->order);
  });
  for (Duplicate *d : rest) {
    auto pieces = splitDuplicateRows(*d, load);
    if (pieces.empty()) {
      int64_t tile = llvm::min_element(load) - load.begin();
      duplicateTiles[d->op] = tile;
      load[tile] += d->bytes;
      continue;
    }
    for (auto [piece, tile] : pieces)
      duplicateTiles[piece] = tile;
  }
}

void KernelLowering::collectDuplicateStores() {
  if (duplicateTiles.empty())
    return;
  for (PipelineInfo &info : pipelines)
    if (auto it = duplicateTiles.find(info.op); it != duplicateTiles.end()) {
      info.workTiles.emplace();
      info.workTiles->insert(it->second);
    }

  // A copy whose destination only duplicates read skips the tiles that no
  // longer read it.
  for (Operation *op : duplicateCopies) {
    auto copy = cast<TileCopyOp>(op);
    auto dest = copy.getDest().getDefiningOp<ktdp::ConstructMemoryViewOp>();
    llvm::SmallDenseSet<int64_t> readers;
    bool everyTile = false;
    parallel.walk([&](DataTransferOp transfer) {
      if (!isa<ktdp::AccessTileType>(transfer.getSrc().getType()) ||
          ktdp::getAccessTileView(transfer.getSrc()) != dest)
        return;
      auto pipeline = transfer->getParentOfType<PipelineOp>();
      if (!pipeline || !infoOf(pipeline).workTiles)
        everyTile = true;
      else
        readers.insert(infoOf(pipeline).workTiles->begin(),
                       infoOf(pipeline).workTiles->end());
    });
    // Read otherwise than by transfers (another copy sends it on).
    bool otherUse = llvm::any_of(dest->getUsers(), [&](Operation *user) {
      return user != copy.getOperation() &&
             !isa<ktdp::ConstructAccessTileOp>(user);
    });
    if (everyTile || otherUse)
      continue;
    SmallVector<int64_t> sources(copy.getSources());
    for (auto [c, p] : llvm::enumerate(sources))
      if (!readers.contains(static_cast<int64_t>(c)))
        p = -1;
    copy.setSources(sources);
  }
}
