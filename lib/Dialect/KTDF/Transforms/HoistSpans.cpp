//===- HoistSpans.cpp - Row spans and repeated loads ----------------------===//
//
// This file finds the row spans and repeated loads
// --ktdf-hoist-invariant-transfers keeps in the scratchpad (see
// HoistCandidates.cpp for what each is), within the lane's span budget.
//
//===----------------------------------------------------------------------===//

#include "HoistCandidates.h"

#include "ColumnBlocks.h"

#include "ktflow/Dialect/KTDF/Transforms/TileBounds.h"
#include "ktflow/Dialect/KTDP/Utils/IntegerSetAnalysis.h"
#include "ktflow/Support/ElementBytes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "llvm/Support/CheckedArithmetic.h"

#include <numeric>

using namespace mlir;
using namespace mlir::ktdf;
using namespace mlir::ktdf::hoisting;

/// Whether every reader of `c`'s buffer but its load feeds the compute
/// unit, chunk by chunk.
static bool readIntoSlots(Candidate &c) {
  auto rank = cast<MemRefType>(c.buffer.getType()).getRank();
  return llvm::all_of(c.buffer->getUses(), [&](OpOperand &use) {
    if (use.getOwner() == c.transfer.getOperation())
      return true;
    auto read = dyn_cast<DataTransferOp>(use.getOwner());
    return read && read.getSrc() == c.buffer &&
           read.getSrcIndices().size() == static_cast<size_t>(rank) &&
           isa<FifoSlotType>(read.getDst().getType()) && !read.getRows();
  });
}

/// Whether each read of `c`'s buffer (of several rows) takes a window of
/// one row: the stream planner reads a 16x32 tile in chunks of 64 elements,
/// two rows each, which in a wider span's rows are not its elements.
static bool readsWithinRows(Candidate &c) {
  ArrayRef<int64_t> shape = cast<MemRefType>(c.buffer.getType()).getShape();
  int64_t rows = 1;
  for (int64_t d : shape.drop_back())
    rows *= d;
  if (rows == 1)
    return true;
  return llvm::all_of(c.buffer->getUses(), [&](OpOperand &use) {
    auto read = dyn_cast<DataTransferOp>(use.getOwner());
    if (!read || read == c.transfer)
      return true;
    auto slot = cast<FifoSlotType>(read.getDst().getType());
    return !slot.getShape().empty() && slot.getShape().back() <= shape.back();
  });
}

/// A positive number every value `v` takes is a multiple of (0: `v` is 0),
/// from constants through sums, differences, products, clamps and selects:
/// the loops ktdf-merge-column-blocks splits a run-time loop into start at
/// `(%t / 4) * 512`.
static int64_t knownMultiple(Value v, int depth = 0) {
  if (std::optional<int64_t> c = getConstantIntValue(v))
    return *c < 0 ? -*c : *c;
  Operation *def = v.getDefiningOp();
  if (!def || depth > 16)
    return 1;
  auto operand = [&](unsigned i) {
    return knownMultiple(def->getOperand(i), depth + 1);
  };
  if (isa<arith::MulIOp>(def)) {
    int64_t a = operand(0), b = operand(1);
    if (a == 0 || b == 0)
      return 0;
    std::optional<int64_t> product = llvm::checkedMul(a, b);
    return product ? *product : std::max(a, b);
  }
  if (isa<arith::AddIOp, arith::SubIOp, arith::MinSIOp, arith::MaxSIOp,
          arith::MinUIOp, arith::MaxUIOp>(def))
    return std::gcd(operand(0), operand(1));
  if (isa<arith::SelectOp>(def))
    return std::gcd(operand(1), operand(2));
  return 1;
}

/// The row span of a load its loop slides along the last dimension of its
/// view: the tile's last coordinate is the loop's induction variable
/// (from a constant >= 0 by a constant step, or from a value known not to
/// be negative by the tile's width: the loops of wider blocks
/// ktdf-merge-column-blocks splits a loop of run-time trips into start
/// where the previous one stops), nothing else about it changes
/// in the loop, the loop walks the whole view (or an unknown number of
/// trips), and the buffer is only read into FIFO slots, block by block.
static std::optional<Span> spanOf(Candidate &c) {
  auto slider = dyn_cast<scf::ForOp>(c.stage->getParentOp()->getParentOp());
  auto tile = c.transfer.getSrc().getDefiningOp<ktdp::ConstructAccessTileOp>();
  auto bufferType = dyn_cast<MemRefType>(c.buffer.getType());
  if (!slider || !tile || !bufferType || c.transfer.getRows() ||
      !c.transfer.getSrcIndices().empty() ||
      !c.transfer.getDstIndices().empty() ||
      !tile.getAccessTileOrder().isIdentity())
    return std::nullopt;
  auto viewType = dyn_cast<MemRefType>(tile.getBase().getType());
  auto tileType = cast<ShapedType>(tile.getType());
  std::optional<int64_t> lb = getConstantIntValue(slider.getLowerBound());
  std::optional<int64_t> step = getConstantIntValue(slider.getStep());
  // A lower bound computed at run time, where the blocks are adjacent.
  if (!lb && step == tileType.getShape().back())
    lb = lowerBoundOf(slider.getLowerBound());
  AffineMap map = tile.getBaseMap();
  if (!viewType || !viewType.hasStaticShape() || !lb || *lb < 0 || !step ||
      *step <= 0 || map.getNumResults() != viewType.getRank() ||
      tileType.getShape() != bufferType.getShape())
    return std::nullopt;
  auto last = dyn_cast<AffineDimExpr>(map.getResults().back());
  if (!last ||
      tile.getIndices()[last.getPosition()] != slider.getInductionVar())
    return std::nullopt;
  unsigned dim = last.getPosition();
  for (AffineExpr e : map.getResults().drop_back())
    if (e.isFunctionOfDim(dim))
      return std::nullopt;
  for (OpOperand &operand : tile->getOpOperands())
    if (operand.get() != slider.getInductionVar() &&
        !isInvariant(operand.get(), slider))
      return std::nullopt;
  int64_t extent = viewType.getShape().back();
  // (Constant trips come with a constant lower bound, its own bound.)
  std::optional<int64_t> trips = tripCount(slider);
  if ((trips && (*trips <= 1 || *lb + *trips * *step < extent)) ||
      writtenIn(slider, ktdp::getAccessTileView(c.transfer.getSrc()), true))
    return std::nullopt;
  if (!readIntoSlots(c) || !readsWithinRows(c))
    return std::nullopt;
  // A block past the view reads a tile of zeros past it, but for a loop of
  // wider blocks that never starts past it (ktdf-merge-column-blocks).
  int64_t width = extent + tileType.getShape().back();
  if (auto end =
          slider->getAttrOfType<IntegerAttr>(column_blocks::kBlocksEndAttrName))
    width = std::max(extent, end.getInt());
  // Nor for a loop whose end is bounded below the view's (row_center_dyn's
  // `min(N, 1024)`): its last block starts at the last multiple of its
  // offsets' common factor below that bound.
  std::optional<int64_t> ub = upperBoundOf(slider.getUpperBound());
  int64_t factor = std::gcd(knownMultiple(slider.getLowerBound()), *step);
  if (ub && *ub >= 1 && factor > 0)
    width = std::min(width,
                     (*ub - 1) / factor * factor + tileType.getShape().back());
  return Span{slider, tile, dim, extent, width};
}

/// `type` (a tile, tensor or buffer shape) without its last dimension.
static ArrayRef<int64_t> leading(Type type) {
  return cast<ShapedType>(type).getShape().drop_back();
}

/// Bytes of one copy of `c`'s span `width` elements wide.
static int64_t spanBytes(Candidate &c, int64_t width) {
  auto type = cast<MemRefType>(c.buffer.getType());
  return type.getNumElements() / type.getShape().back() * width *
         ktflow::bytesPerElement(type.getElementType());
}

/// Whether `sharer`'s buffer is `c`'s but for its width, in the same memory.
static bool sameBuffers(Candidate &c, Candidate &sharer) {
  auto a = cast<MemRefType>(c.buffer.getType());
  auto b = cast<MemRefType>(sharer.buffer.getType());
  return a == b || (a.getElementType() == b.getElementType() &&
                    leading(a) == leading(b) &&
                    getBufferMemoryKind(a) == getBufferMemoryKind(b));
}

/// Opens the lane's span budget for the memory `c`'s buffer is in (a
/// quarter of the lane's share of it); false when the device has no such
/// memory.
static bool openBudget(Candidate &c,
                       const ktflow::sched::ScheduleTarget &target,
                       llvm::StringMap<int64_t> &budget) {
  StringRef kind = getBufferMemoryKind(cast<MemRefType>(c.buffer.getType()));
  std::optional<ktflow::device::NodeId> node =
      target.getModel().findByKind(kind);
  if (!node)
    return false;
  if (!budget.count(kind))
    budget[kind] = target.getMemoryTree().getCapacity(*node) /
                   static_cast<int64_t>(target.getLanes().size()) / 4;
  return true;
}

/// Whether a span of `bytes` (one copy) fits what is left of the lane's
/// share of the scratchpad its buffer is in; takes it from `budget` (what
/// `c` already took, if anything, goes back first: a span widened for a
/// wider sharer).
static bool takeBudget(Candidate &c, int64_t bytes,
                       const ktflow::sched::ScheduleTarget &target,
                       llvm::StringMap<int64_t> &budget) {
  if (!openBudget(c, target, budget))
    return false;
  StringRef kind = getBufferMemoryKind(cast<MemRefType>(c.buffer.getType()));
  if (bytes - c.bytes > budget[kind])
    return false;
  budget[kind] -= bytes - c.bytes;
  c.bytes = bytes;
  c.kind = kind;
  return true;
}

/// Whether `c`'s span is as wide as `sharer`'s (its blocks wider: a block
/// past the view reads a tile of zeros as wide), or can be made so within
/// the budget.
static bool widenSpan(Candidate &c, Candidate &sharer,
                      const ktflow::sched::ScheduleTarget &target,
                      llvm::StringMap<int64_t> &budget) {
  int64_t width = sharer.span->width;
  if (width <= c.span->width)
    return true;
  if (!takeBudget(c, spanBytes(c, width), target, budget))
    return false;
  c.span->width = width;
  return true;
}

/// Whether `tile`'s set is the box of its shape from 0.
static bool wholeBox(ktdp::ConstructAccessTileOp tile) {
  IntegerSet set = tile.getAccessTileSet();
  if (set.getNumSymbols() != 0 || !ktdp::isBoxShaped(set))
    return false;
  FailureOr<ktdp::IntegerBox> box = ktdp::getBoundingBox(set, {});
  return succeeded(box) &&
         box->getExtents() ==
             SmallVector<int64_t>(
                 cast<ShapedType>(tile.getType()).getShape()) &&
         llvm::all_of(box->lower, [](int64_t l) { return l == 0; });
}

/// Whether two row spans load the same rows of the same view from the same
/// block, in blocks of the same width or whole boxes of different widths
/// (the loops of wider blocks ktdf-merge-column-blocks splits a loop into).
static bool sameSpan(Span a, Span b) {
  ktdp::ConstructAccessTileOp ta = a.tile, tb = b.tile;
  bool sameBlocks = ta.getType() == tb.getType() &&
                    ta.getAccessTileSet() == tb.getAccessTileSet();
  bool boxes = leading(ta.getType()) == leading(tb.getType()) && wholeBox(ta) &&
               wholeBox(tb);
  if (a.slider->getBlock() != b.slider->getBlock() || a.dim != b.dim ||
      ta.getBase() != tb.getBase() || !(sameBlocks || boxes) ||
      ta.getBaseMap() != tb.getBaseMap() ||
      ta.getSymbolOperands() != tb.getSymbolOperands())
    return false;
  for (auto [i, pair] :
       llvm::enumerate(llvm::zip(ta.getIndices(), tb.getIndices())))
    if (i != a.dim && std::get<0>(pair) != std::get<1>(pair))
      return false;
  return true;
}

SmallVector<Candidate>
hoisting::analyseSpans(ArrayRef<PipelineOp> pipelines, bool leaveGrid,
                       const ktflow::sched::ScheduleTarget &target,
                       llvm::StringMap<int64_t> &budget) {
  SmallVector<Candidate> spans;
  for (PipelineOp pipeline : pipelines)
    for (StageOp stage : pipeline.getBody().front().getOps<StageOp>()) {
      std::optional<Candidate> c = loadOf(stage, pipeline);
      if (!c || analyse(stage, pipeline, leaveGrid, target.getNumCores()))
        continue;
      c->span = spanOf(*c);
      if (!c->span)
        continue;
      auto *same = llvm::find_if(spans, [&](Candidate &other) {
        return sameSpan(*other.span, *c->span);
      });
      auto view = ktdp::getAccessTileView(c->transfer.getSrc());
      if (same != spans.end()) {
        // Nothing between the loops may write the data either.
        if (!writtenIn(c->span->slider->getParentOp(), view, true) &&
            sameBuffers(*same, *c) && widenSpan(*same, *c, target, budget))
          same->sharers.push_back(*c);
        continue;
      }
      if (!takeBudget(*c, spanBytes(*c, c->span->width), target, budget))
        continue;
      bool repeats = true;
      SmallVector<Value> needs;
      for (OpOperand &operand : c->span->tile->getOpOperands())
        if (operand.get() != c->span->slider.getInductionVar())
          needs.push_back(operand.get());
      Operation *outer =
          outermostScope(c->span->slider->getParentOp(), needs, view, leaveGrid,
                         target.getNumCores(), /*sameMemory=*/true, repeats);
      c->scope = outer ? outer : c->span->slider.getOperation();
      spans.push_back(std::move(*c));
    }
  return spans;
}

/// Whether an op from `first` to `last` (siblings, both included) may write
/// the tensor `view` is on.
static bool writtenBetween(Operation *first, Operation *last,
                           ktdp::ConstructMemoryViewOp view) {
  for (Operation *op = first;; op = op->getNextNode()) {
    if (writtenIn(op, view, /*sameMemory=*/true))
      return true;
    if (op == last)
      return false;
  }
}

/// Whether `c` loads its whole tile into its whole buffer, which only the
/// compute unit's feed reads: another load of that tile can read it.
static bool wholeTileLoad(Candidate &c) {
  return !c.transfer.getRows() && c.transfer.getSrcIndices().empty() &&
         c.transfer.getDstIndices().empty() && readIntoSlots(c);
}

SmallVector<Candidate>
hoisting::analyseRepeats(ArrayRef<PipelineOp> pipelines,
                         const DenseSet<Operation *> &taken,
                         const ktflow::sched::ScheduleTarget &target,
                         llvm::StringMap<int64_t> &budget) {
  SmallVector<Candidate> repeats;
  DenseSet<Operation *> shared;
  for (size_t i = 0; i < pipelines.size(); ++i) {
    PipelineOp pipeline = pipelines[i];
    for (StageOp stage : pipeline.getBody().front().getOps<StageOp>()) {
      std::optional<Candidate> c = loadOf(stage, pipeline);
      if (!c || taken.contains(stage) || shared.contains(stage) ||
          !wholeTileLoad(*c))
        continue;
      auto view = ktdp::getAccessTileView(c->transfer.getSrc());
      for (PipelineOp later : pipelines.drop_front(i + 1)) {
        if (later->getBlock() != pipeline->getBlock() ||
            writtenBetween(pipeline, later, view))
          continue;
        for (StageOp other : later.getBody().front().getOps<StageOp>()) {
          std::optional<Candidate> o = loadOf(other, later);
          if (o && !taken.contains(other) && !shared.contains(other) &&
              o->transfer.getSrc() == c->transfer.getSrc() &&
              o->buffer.getType() == c->buffer.getType() && wholeTileLoad(*o))
            c->sharers.push_back(*o);
        }
      }
      auto type = cast<MemRefType>(c->buffer.getType());
      if (c->sharers.empty() ||
          !takeBudget(*c,
                      type.getNumElements() *
                          ktflow::bytesPerElement(type.getElementType()),
                      target, budget))
        continue;
      for (Candidate &sharer : c->sharers)
        shared.insert(sharer.stage);
      c->scope = pipeline;
      repeats.push_back(std::move(*c));
    }
  }
  return repeats;
}

bool hoisting::sizeInvariant(Candidate &c,
                             const ktflow::sched::ScheduleTarget &target,
                             llvm::StringMap<int64_t> &budget) {
  if (c.span || !c.sharers.empty() || !openBudget(c, target, budget))
    return false;
  auto type = cast<MemRefType>(c.buffer.getType());
  c.bytes =
      type.getNumElements() * ktflow::bytesPerElement(type.getElementType());
  c.kind = getBufferMemoryKind(type);
  return true;
}
