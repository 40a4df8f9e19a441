//===- ResidentCopies.cpp - Tile copies straight out of resident parts ----===//
//
// This file rewrites, before a kernel's programs are built, the fills of a
// tile copy's views that only pass a scratchpad part holding data from
// before the kernel (ResidentParts.cpp: the own `ct_local` view at a
// literal address, which nothing in the kernel writes) unchanged into the
// copy's views: a feed of the whole part, a compute stage that writes each
// chunk it reads, a drain into the views over the same chunk loops. The
// fill cost the part's tile its load, vector and store units (on
// spyre_like 64 stores of 4 cycles for realworld/lx_resident_copy.mlir's
// two parts, done at cycles 263 and 328), and the copy's data mover waited
// for it before sending. Instead:
//
//   * a copy's source view the fill writes: the copy sends the part
//     itself (TileCopyLowering.cpp remote-DMAs it, a row per row of the
//     part where its rows are further apart than the destination's), so
//     it starts at once;
//   * a `stored_locally` destination the fill writes, when the part has its
//     layout (sizes and strides), or its sizes with rows further apart
//     (readsInPlace): the tiles that keep their own copy read the part in
//     place wherever the kernel reads the destination
//     (TransferEmitter::tileAddress, rows at the part's pitch), and no tile
//     writes it but the copy. On mesh_device lx_resident_copy's tile 0
//     stored its column-major part (rows 64 elements apart) only after its
//     vector units had copied it densely: 39 cycles of its DMA engine.
//
// What else the fill writes it still writes, on the tiles that use it
// (collectCopyFills); a fill left with nothing to write is erased. A view
// read other than by its copy (the source) or by transfers (the kept
// destination) keeps its fill.
//
//===----------------------------------------------------------------------===//

#include "CopyPipelines.h"
#include "Lowering.h"

#include "ktflow/Dialect/KTDF/Transforms/Passes.h"
#include "ktflow/Dialect/KTDP/IR/KTDP.h"
#include "ktflow/Dialect/KTDP/IR/ScratchpadView.h"
#include "ktflow/Dialect/KTDP/Utils/IntegerSetAnalysis.h"

#include "mlir/Dialect/Utils/IndexingUtils.h"
#include "mlir/IR/Matchers.h"

using namespace mlir;
using namespace mlir::ktdf;
using namespace mlir::ktdf::lowering;

bool lowering::isDenseRowMajor(ktdp::ConstructMemoryViewOp view) {
  if (!view.getStrides().empty() ||
      ShapedType::isDynamicShape(view.getStaticSizes()))
    return false;
  return view.getStaticStrides() ==
         ArrayRef<int64_t>(computeSuffixProduct(view.getStaticSizes()));
}

/// Whether a remote DMA moves `view`'s elements, in its order, into a dense
/// view of its shape: dense itself, or rows of contiguous elements.
static bool movesAsRows(ktdp::ConstructMemoryViewOp view) {
  if (isDenseRowMajor(view))
    return true;
  ArrayRef<int64_t> sizes = view.getStaticSizes();
  ArrayRef<int64_t> strides = view.getStaticStrides();
  return view.getStrides().empty() && sizes.size() == 2 && strides[1] == 1 &&
         strides[0] >= sizes[1];
}

/// Whether the tiles keeping `view` read `part` in its place: the same
/// sizes, and the same strides or `view` dense row-major and `part` its
/// rows further apart (a 2-d box of a wider scratchpad block, as a column
/// half of a resident 64x64 block is). The transfers reading `view` then
/// move rows at the part's pitch: the load unit's chunks
/// (ProgramBuilder::emitTileChunk) and the DMA's buffer rows
/// (TileDma::bufPitch, resolveTileDma).
static bool readsInPlace(ktdp::ConstructMemoryViewOp view,
                         ktdp::ConstructMemoryViewOp part) {
  if (view.getStaticSizes() != part.getStaticSizes() ||
      !view.getStrides().empty() || !part.getStrides().empty())
    return false;
  return view.getStaticStrides() == part.getStaticStrides() ||
         (isDenseRowMajor(view) && part.getStaticSizes().size() == 2 &&
          movesAsRows(part));
}

ktdp::ConstructMemoryViewOp lowering::wholeViewOf(Value tile) {
  auto access = tile.getDefiningOp<ktdp::ConstructAccessTileOp>();
  auto view = ktdp::getAccessTileView(tile);
  // The anchor: the base map's results at operands that are all zero.
  auto zero = [](Value v) { return matchPattern(v, m_Zero()); };
  if (!access || !view || !llvm::all_of(access.getIndices(), zero) ||
      !llvm::all_of(access.getSymbolOperands(), zero) ||
      !access.getAccessTileOrder().isIdentity() ||
      !ktdp::isBoxShaped(access.getAccessTileSet()))
    return {};
  auto box = ktdp::getBoundingBox(access.getAccessTileSet(), {});
  AffineMap anchor = access.getBaseMap();
  AffineExpr zeroExpr = getAffineConstantExpr(0, anchor.getContext());
  SmallVector<AffineExpr> dims(anchor.getNumDims(), zeroExpr);
  SmallVector<AffineExpr> syms(anchor.getNumSymbols(), zeroExpr);
  if (failed(box) ||
      ArrayRef<int64_t>(box->getExtents()) != view.getStaticSizes() ||
      llvm::any_of(box->lower, [](int64_t lo) { return lo != 0; }) ||
      llvm::any_of(anchor.getResults(), [&](AffineExpr e) {
        auto c = dyn_cast<AffineConstantExpr>(
            simplifyAffineExpr(e.replaceDimsAndSymbols(dims, syms), 0, 0));
        return !c || c.getValue() != 0;
      }))
    return {};
  return view;
}

/// Whether `a` and `b` may share bytes: views of one memory whose literal
/// spans meet, or whose spans are unknown.
static bool mayMeet(ktdp::ConstructMemoryViewOp a,
                    ktdp::ConstructMemoryViewOp b) {
  auto x = ktdp::getLiteralByteSpan(a), y = ktdp::getLiteralByteSpan(b);
  return a == b || !x || !y ||
         a->getAttr("ktdf.memory") != b->getAttr("ktdf.memory") ||
         std::max(x->first, y->first) < std::min(x->second, y->second);
}

/// Whether anything in `func` may write the bytes of scratchpad view
/// `part`: a transfer into a scratchpad view that may meet it, a tile
/// copy's destination that may, or an all-reduce.
static bool writtenInKernel(func::FuncOp func,
                            ktdp::ConstructMemoryViewOp part) {
  auto meets = [&](Value view) {
    auto op = view.getDefiningOp<ktdp::ConstructMemoryViewOp>();
    return !op || (ktdp::isScratchpadView(op) && mayMeet(op, part));
  };
  WalkResult result = func.walk([&](Operation *op) {
    if (isa<AllReduceOp>(op))
      return WalkResult::interrupt();
    if (auto copy = dyn_cast<TileCopyOp>(op); copy && meets(copy.getDest()))
      return WalkResult::interrupt();
    auto transfer = dyn_cast<DataTransferOp>(op);
    if (!transfer || !isa<ktdp::AccessTileType>(transfer.getDst().getType()) ||
        !isScratchpadTile(transfer.getDst()))
      return WalkResult::advance();
    auto view = ktdp::getAccessTileView(transfer.getDst());
    return !view || meets(view) ? WalkResult::interrupt()
                                : WalkResult::advance();
  });
  return result.wasInterrupted();
}

/// The copies that send `view` (`sends`) and the one that keeps it as its
/// `stored_locally` destination (`keeps`), when those copies, the fill's
/// transfers `outs` into it and transfers reading it (`read`) are its only
/// users; false for any other use.
static bool copyUsesOf(ktdp::ConstructMemoryViewOp view,
                       ArrayRef<DataTransferOp> outs,
                       SmallVectorImpl<TileCopyOp> &sends, TileCopyOp &keeps,
                       bool &read) {
  read = false;
  for (Operation *user : view->getUsers()) {
    if (auto copy = dyn_cast<TileCopyOp>(user)) {
      if (copy.getSource() == view.getResult() &&
          copy.getDest() != view.getResult())
        sends.push_back(copy);
      else if (copy.getDest() == view.getResult() && !keeps &&
               copy.getStoredLocally())
        keeps = copy;
      else
        return false;
      continue;
    }
    if (!isa<ktdp::ConstructAccessTileOp>(user))
      return false;
    Value tile = user->getResult(0);
    for (Operation *other : user->getUsers()) {
      auto transfer = dyn_cast<DataTransferOp>(other);
      if (transfer && llvm::is_contained(outs, transfer) &&
          transfer.getSrc() != tile)
        continue;
      if (!transfer || transfer.getSrc() != tile || transfer.getDst() == tile)
        return false;
      read = true;
    }
  }
  return !sends.empty() || keeps;
}

void lowering::dropFillWrite(DataTransferOp out, StageOp compute) {
  Value slot = out.getSrc();
  out.erase();
  compute.walk([&](WriteToFifoOp write) {
    if (write->getOperand(1) == slot)
      write.erase();
  });
  if (slot.use_empty())
    slot.getDefiningOp()->erase();
}

/// Moves `fill`, which now writes only the `stored_locally` destinations
/// of `kept` that their copies keep (the part's layout differs from
/// theirs, so it is not read in place), after those copies: its tiles'
/// copies send the part at once instead of waiting for it (a copy stage
/// writing the destination on other tiles is ordered after every stage
/// writing it), and after the copy pipelines that follow them, when nothing
/// between touches the destinations.
static void fillAfterCopies(PipelineOp fill, ArrayRef<KeptFill> kept) {
  Operation *last = nullptr;
  llvm::SmallPtrSet<Operation *, 4> copies;
  for (auto [view, copy] : kept) {
    Operation *pipeline = copy->getParentOfType<PipelineOp>();
    if (!pipeline || pipeline->getBlock() != fill->getBlock() ||
        !fill->isBeforeInBlock(pipeline))
      return;
    copies.insert(pipeline);
    if (!last || last->isBeforeInBlock(pipeline))
      last = pipeline;
  }
  auto touches = [&](Operation *op) {
    WalkResult result = op->walk([&](Operation *inner) {
      for (Value operand : inner->getOperands()) {
        Operation *def = operand.getDefiningOp();
        for (auto [view, copy] : kept)
          if (def == view.getOperation() ||
              (isa_and_nonnull<ktdp::ConstructAccessTileOp>(def) &&
               ktdp::getAccessTileView(operand) == view))
            return WalkResult::interrupt();
      }
      return WalkResult::advance();
    });
    return result.wasInterrupted();
  };
  for (Operation *op = fill->getNextNode(); op != last; op = op->getNextNode())
    if (!copies.contains(op) && touches(op))
      return;
  // Past the copies right after them too, which then merge with them
  // (mergeAdjacentCopies).
  while (copyStageOf(nextEffectfulOp(last)) && !touches(nextEffectfulOp(last)))
    last = nextEffectfulOp(last);
  fill->moveAfter(last);
}

void KernelLowering::directResidentCopy(
    PipelineOp pipeline, SmallVectorImpl<LaterFill> &laterFills) {
  auto stages = llvm::to_vector(pipeline.getBody().front().getOps<StageOp>());
  if (pipeline->getNumResults() != 0 || stages.size() != 3 ||
      !passesChunksThrough(stages[1]))
    return;
  DataTransferOp in = onlyTransfer(stages[0]);
  if (!in || !isa<FifoSlotType>(in.getDst().getType()))
    return;
  ktdp::ConstructMemoryViewOp part = wholeViewOf(in.getSrc());
  APInt literal;
  if (!part || !ktdp::isScratchpadView(part) ||
      part->hasAttr(kExchangeViewAttrName) ||
      !matchPattern(part.getOffset(), m_ConstantInt(&literal)) ||
      !movesAsRows(part) || writtenInKernel(func, part))
    return;
  auto inLoops = chunkLoops(in, in.getSrcIndices(), stages[0]);
  SmallVector<DataTransferOp> outs;
  stages[2].walk([&](DataTransferOp op) { outs.push_back(op); });
  SmallVector<KeptFill> keptFills;
  // The copies sending the part, and those whose kept destination holds
  // it: read in place (null), or written by this fill from it.
  llvm::SmallPtrSet<Operation *, 2> sent;
  llvm::DenseMap<Operation *, Operation *> kept;
  for (DataTransferOp out : outs) {
    ktdp::ConstructMemoryViewOp view = wholeViewOf(out.getDst());
    if (!inLoops || !view || !view->hasAttr(kExchangeViewAttrName) ||
        !isa<FifoSlotType>(out.getSrc().getType()) ||
        cast<MemRefType>(view.getType()).getShape() !=
            cast<MemRefType>(part.getType()).getShape() ||
        cast<MemRefType>(view.getType()).getElementType() !=
            cast<MemRefType>(part.getType()).getElementType() ||
        chunkLoops(out, out.getDstIndices(), stages[2]) != inLoops)
      continue;
    SmallVector<TileCopyOp> sends;
    TileCopyOp keeps;
    bool read = false;
    if (!copyUsesOf(view, outs, sends, keeps, read))
      continue;
    // A kept destination read in place needs the part's layout, or rows
    // of it further apart (readsInPlace); a source read by a transfer is
    // read on the tiles that send it too.
    bool inPlace = readsInPlace(view, part);
    if (keeps && !inPlace && sends.empty())
      keptFills.push_back({view, keeps});
    if (keeps && (inPlace || sends.empty()))
      kept[keeps] = inPlace ? nullptr : pipeline.getOperation();
    if ((keeps && !inPlace) || (!keeps && read))
      continue;
    for (TileCopyOp copy : sends) {
      residentSources[copy] = part;
      sent.insert(copy);
    }
    if (keeps) {
      auto &[resident, tiles] = keptInPlace[view];
      resident = part;
      for (auto [c, p] : llvm::enumerate(keeps.getSources()))
        if (p == static_cast<int64_t>(c))
          tiles.insert(p);
    }
    dropFillWrite(out, stages[1]);
  }
  for (Operation *copy : sent)
    if (auto it = kept.find(copy); it != kept.end())
      partCopies[copy] = it->second;
  // A fill left writing nothing goes; one left writing only destinations
  // that their copies keep runs after those copies.
  size_t writes = 0;
  stages[2].walk([&](DataTransferOp) { ++writes; });
  if (writes == 0) {
    pipeline->dropAllReferences();
    pipeline.erase();
    return;
  }
  if (writes == keptFills.size())
    laterFills.push_back({pipeline, std::move(keptFills)});
}

void KernelLowering::directResidentCopies() {
  bool copies = false;
  func.walk([&](TileCopyOp) { copies = true; });
  if (!copies)
    return;
  SmallVector<PipelineOp> fills;
  func.walk([&](PipelineOp p) { fills.push_back(p); });
  // The fills left run after their copies once every fill is rewritten
  // (an erased one no longer separates two copies).
  SmallVector<LaterFill> laterFills;
  for (PipelineOp pipeline : fills)
    directResidentCopy(pipeline, laterFills);
  for (auto &[fill, kept] : laterFills)
    fillAfterCopies(fill, kept);
}

ktdp::ConstructMemoryViewOp
KernelLowering::viewOnTile(ktdp::ConstructMemoryViewOp view,
                           const LaneInstance &li) const {
  auto it = keptInPlace.find(view);
  if (it == keptInPlace.end() || li.count != 1 ||
      !it->second.second.contains(
          tileOfPoint(li.start, ParallelOp(parallel).getExtents())))
    return view;
  return it->second.first;
}
