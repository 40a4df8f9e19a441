//===- MergeColumnBlocks.cpp - A column-block loop becomes one wide block ===//
//
// This file implements --ktdf-merge-column-blocks. Triton walks a row in
// BLOCK_SIZE column blocks: `scf.for %i = 0 to 4` loading `X[%row, %i * 128]`
// (or the offset carried in iter_args, Triton's pointer increment),
// computing element-wise and storing the block. The scheduler gives every
// block its own pipeline execution, and the executions of a loop's body do
// not overlap with the next row's: each 256-byte block went load -> compute ->
// store alone, paying the DMA latency once per block (a carried offset made
// it worse: ktdf-unroll-carried-loops turned the four blocks into four
// pipelines, one after another). When the blocks are adjacent along the last
// dimension and the body is element-wise, the loop is the same computation
// as one block N times as wide: the pass replaces it by its first trip with
// every tile, load, store and tensor widened, which the scheduler streams
// and overlaps across rows like a row loaded whole.
//
//===----------------------------------------------------------------------===//

#include "ColumnBlocks.h"
#include "IndexAnalysis.h"
#include "OutputSlices.h"
#include "ktflow/Dialect/KTDF/Transforms/Passes.h"
#include "ktflow/Dialect/KTDF/Transforms/TileBounds.h"
#include "ktflow/Dialect/KTDP/IR/KTDP.h"
#include "ktflow/Dialect/KTDP/Utils/IntegerSetAnalysis.h"
#include "ktflow/Dialect/KTDP/Utils/LaunchGrid.h"
#include "ktflow/Scheduler/ScheduleTarget.h"
#include "ktflow/Scheduler/ScheduleTargetPass.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace mlir::ktdf {
#define GEN_PASS_DEF_KTDFMERGECOLUMNBLOCKS
#include "ktflow/Dialect/KTDF/Transforms/Passes.h.inc"
} // namespace mlir::ktdf

using namespace mlir;
using namespace mlir::ktdf;
using mlir::ktdp::getBoundingBox;
using mlir::ktdp::getBoxSet;
using mlir::ktdp::IntegerBox;
using mlir::ktdp::isBoxShaped;

using namespace mlir::ktdf::column_blocks;

/// Whether `v` is defined in `loop` (its induction variable and carried
/// values included).
static bool definedIn(Value v, scf::ForOp loop) {
  return loop.getRegion().isAncestor(v.getParentRegion());
}

/// `k` if `yielded` is `arg + k` for a constant k (Triton's pointer
/// increment), none otherwise.
static std::optional<int64_t> inductionStep(Value yielded, Value arg) {
  auto add = yielded.getDefiningOp<arith::AddIOp>();
  if (!add)
    return std::nullopt;
  for (int i = 0; i < 2; ++i) {
    APInt k;
    if (add->getOperand(i) == arg &&
        matchPattern(add->getOperand(1 - i), m_ConstantInt(&k)))
      return k.getSExtValue();
  }
  return std::nullopt;
}

/// How far result `r` of `tile`'s anchor moves per trip of `loop`: through
/// the induction variable and through every carried index.
static std::optional<int64_t> movePerTrip(ktdp::ConstructAccessTileOp tile,
                                          unsigned r, scf::ForOp loop,
                                          const ColumnBlockLoop &plan) {
  auto viaIv = anchorCoefficient(tile, r, loop.getInductionVar());
  if (!viaIv)
    return std::nullopt;
  int64_t total = *viaIv * plan.step;
  for (auto [arg, k] : llvm::zip(loop.getRegionIterArgs(), plan.carriedSteps)) {
    auto viaArg = anchorCoefficient(tile, r, arg);
    if (!viaArg)
      return std::nullopt;
    total += *viaArg * k;
  }
  return total;
}

/// Whether a tile or tensor of `shape` is a block of `plan`: of its block
/// shape, or of any shape as wide with `anyShape`.
static bool fitsBlock(ArrayRef<int64_t> shape, const ColumnBlockLoop &plan) {
  if (!plan.anyShape)
    return shape == ArrayRef<int64_t>(plan.blockShape);
  return !shape.empty() && shape.back() == plan.blockShape.back();
}

/// Whether `op` reshapes a block (with `anyShape`) by adding or dropping
/// unit dimensions before its last one, which stays last: a weight block
/// `tensor<128xf16>` expanded into `tensor<1x128xf16>`.
static bool isBlockReshape(Operation *op, const ColumnBlockLoop &plan) {
  auto reshape = [&](RankedTensorType wide, RankedTensorType narrow,
                     ArrayRef<ReassociationIndices> groups) {
    if (!plan.anyShape || !fitsBlock(wide.getShape(), plan) ||
        !fitsBlock(narrow.getShape(), plan) || groups.empty())
      return false;
    const ReassociationIndices &lastGroup = groups.back();
    return lastGroup.back() == wide.getRank() - 1 &&
           llvm::all_of(ArrayRef(lastGroup).drop_back(),
                        [&](int64_t d) { return wide.getDimSize(d) == 1; });
  };
  if (auto expand = dyn_cast<tensor::ExpandShapeOp>(op))
    return reshape(expand.getResultType(), expand.getSrcType(),
                   expand.getReassociationIndices());
  if (auto collapse = dyn_cast<tensor::CollapseShapeOp>(op))
    return reshape(collapse.getSrcType(), collapse.getResultType(),
                   collapse.getReassociationIndices());
  return false;
}

/// Whether `tile` is a box from its anchor in identity order whose anchor
/// moves by exactly its width along the last dimension each trip and stays
/// put along the others: the trips' tiles are adjacent column blocks.
static bool isColumnBlock(ktdp::ConstructAccessTileOp tile, scf::ForOp loop,
                          ColumnBlockLoop &plan) {
  if (!tile.getBase().getDefiningOp<ktdp::ConstructMemoryViewOp>() ||
      definedIn(tile.getBase(), loop) || !tile.getSymbolOperands().empty() ||
      !tile.getAccessTileOrder().isIdentity())
    return false;
  auto shape = cast<ktdp::AccessTileType>(tile.getType()).getShape();
  IntegerSet set = tile.getAccessTileSet();
  if (set.getNumSymbols() != 0 || !isBoxShaped(set))
    return false;
  FailureOr<IntegerBox> box = getBoundingBox(set, {});
  if (failed(box) || box->getExtents() != SmallVector<int64_t>(shape) ||
      llvm::any_of(box->lower, [](int64_t l) { return l != 0; }))
    return false;
  if (plan.blockShape.empty())
    plan.blockShape.assign(shape.begin(), shape.end());
  if (!fitsBlock(shape, plan))
    return false;
  unsigned last = tile.getBaseMap().getNumResults() - 1;
  if (last + 1 != shape.size())
    return false;
  for (unsigned r = 0; r <= last; ++r) {
    auto move = movePerTrip(tile, r, loop, plan);
    if (!move || *move != (r == last ? shape.back() : 0))
      return false;
  }
  // The blocks the view holds along its last dimension.
  auto view = tile.getBase().getDefiningOp<ktdp::ConstructMemoryViewOp>();
  std::optional<int64_t> extent;
  if (last + 1 == view.getStaticSizes().size())
    extent = staticViewExtent(view, last);
  if (!extent) {
    plan.viewsBounded = false;
    plan.blocksInViews.reset();
  } else if (plan.viewsBounded) {
    int64_t blocks = llvm::divideCeil(*extent, shape.back());
    plan.blocksInViews =
        std::max(blocks, plan.blocksInViews.value_or(int64_t(0)));
  }
  return true;
}

/// Whether `v`, a tensor a body op reads, has the block shape and comes from
/// the body or is a splat (a constant or `tensor.splat`) the pass can widen.
static bool isWidenableTensor(Value v, scf::ForOp loop,
                              const ColumnBlockLoop &plan) {
  auto type = dyn_cast<RankedTensorType>(v.getType());
  if (!type || !fitsBlock(type.getShape(), plan))
    return false;
  if (definedIn(v, loop))
    return v.getDefiningOp() != nullptr;
  DenseElementsAttr dense;
  if (matchPattern(v, m_Constant(&dense)))
    return dense.isSplat();
  auto splat = v.getDefiningOp<tensor::SplatOp>();
  return splat && splat.getDynamicSizes().empty();
}

/// The constant lower bound, step and carried index steps of `loop`, a
/// signed loop of positive step; its trip count when its upper bound is a
/// constant too.
static std::optional<ColumnBlockLoop> planBounds(scf::ForOp loop) {
  APInt lb, ub, step;
  if (loop.getUnsignedCmp() ||
      !matchPattern(loop.getLowerBound(), m_ConstantInt(&lb)) ||
      !matchPattern(loop.getStep(), m_ConstantInt(&step)) ||
      !step.isStrictlyPositive())
    return std::nullopt;
  ColumnBlockLoop plan;
  plan.lowerBound = lb.getSExtValue();
  plan.step = step.getSExtValue();
  if (matchPattern(loop.getUpperBound(), m_ConstantInt(&ub))) {
    if (ub.sle(lb))
      return std::nullopt;
    int64_t span = ub.getSExtValue() - plan.lowerBound;
    plan.trips = (span + plan.step - 1) / plan.step;
  }
  // Every carried value is an index advancing by a constant each trip, or
  // one nothing reads (in the body or after the loop).
  auto yield = cast<scf::YieldOp>(loop.getBody()->getTerminator());
  for (auto [arg, yielded, result] : llvm::zip(
           loop.getRegionIterArgs(), yield.getOperands(), loop.getResults())) {
    auto k = arg.use_empty() && result.use_empty()
                 ? std::optional<int64_t>(0)
                 : inductionStep(yielded, arg);
    if (!arg.getType().isIndex() || !k)
      return std::nullopt;
    plan.carriedSteps.push_back(*k);
  }
  return plan;
}

bool column_blocks::planBody(scf::ForOp loop, ColumnBlockLoop &plan) {
  // The body: index arithmetic, column-block tiles, their loads and
  // stores, and element-wise arithmetic on block tensors.
  SmallVector<ktdp::ConstructAccessTileOp> loaded, stored;
  for (Operation &op : loop.getBody()->without_terminator()) {
    if (op.getNumRegions() != 0)
      return false;
    if (auto tile = dyn_cast<ktdp::ConstructAccessTileOp>(op)) {
      if (!isColumnBlock(tile, loop, plan))
        return false;
      continue;
    }
    auto tileOf = [](Value t) {
      return t.getDefiningOp<ktdp::ConstructAccessTileOp>();
    };
    if (auto load = dyn_cast<ktdp::LoadOp>(op)) {
      auto tile = tileOf(load.getAccessTile());
      if (!tile || !definedIn(tile, loop))
        return false;
      loaded.push_back(tile);
      continue;
    }
    if (auto store = dyn_cast<ktdp::StoreOp>(op)) {
      auto tile = tileOf(store.getAccessTile());
      if (!tile || !definedIn(tile, loop) ||
          !isWidenableTensor(store.getDataTile(), loop, plan))
        return false;
      stored.push_back(tile);
      continue;
    }
    bool tensors =
        llvm::any_of(op.getOperandTypes(), llvm::IsaPred<TensorType>) ||
        llvm::any_of(op.getResultTypes(), llvm::IsaPred<TensorType>);
    if (!tensors) {
      // Index arithmetic: cloned at the first trip.
      if (!isPure(&op))
        return false;
      continue;
    }
    DenseElementsAttr dense;
    if (op.hasTrait<OpTrait::ConstantLike>() &&
        matchPattern(op.getResult(0), m_Constant(&dense)) && dense.isSplat() &&
        isWidenableTensor(op.getResult(0), loop, plan))
      continue;
    if (auto splat = dyn_cast<tensor::SplatOp>(op)) {
      // The splatted scalar must be the same on every trip.
      if (definedIn(splat.getInput(), loop) ||
          !isWidenableTensor(splat, loop, plan))
        return false;
      continue;
    }
    if (!isBlockReshape(&op, plan) &&
        (!OpTrait::hasElementwiseMappableTraits(&op) || !isPure(&op)))
      return false;
    for (Value v : op.getOperands())
      if (!isWidenableTensor(v, loop, plan))
        return false;
    for (Value v : op.getResults())
      if (!isWidenableTensor(v, loop, plan))
        return false;
  }
  if (stored.empty() || plan.blockShape.empty())
    return false;

  // Merged, all blocks are loaded before any is stored and each store
  // writes all its blocks at once: a view (or another view of its memory)
  // that one tile stores may be read only at that very tile (an in-place
  // update), and stored by no other tile (whose blocks would overlap the
  // first's a trip apart, landing in another order).
  auto memoryOf = [](ktdp::ConstructAccessTileOp tile) {
    return tile.getBase()
        .getDefiningOp<ktdp::ConstructMemoryViewOp>()
        .getOffset();
  };
  auto sameTile = [](ktdp::ConstructAccessTileOp a,
                     ktdp::ConstructAccessTileOp b) {
    return a == b ||
           (a.getBase() == b.getBase() && a.getIndices() == b.getIndices() &&
            a.getBaseMap() == b.getBaseMap());
  };
  for (auto store : stored) {
    for (auto load : loaded)
      if (memoryOf(store) == memoryOf(load) && !sameTile(store, load))
        return false;
    for (auto other : stored)
      if (other != store && memoryOf(store) == memoryOf(other))
        return false;
  }
  return true;
}

int64_t column_blocks::widestBlockBytes(scf::ForOp loop) {
  int64_t widest = 0;
  loop.getBody()->walk([&](Operation *op) {
    for (Type t : op->getResultTypes())
      if (auto tensor = dyn_cast<RankedTensorType>(t))
        widest = std::max<int64_t>(
            widest, tensor.getNumElements() *
                        llvm::divideCeil(tensor.getElementTypeBitWidth(), 8));
  });
  return widest;
}

/// The plan for `loop` if it is a column-block loop of constant trips the
/// pass merges into one block of at most `maxBytes` per tensor.
static std::optional<ColumnBlockLoop> planMerge(scf::ForOp loop,
                                                int64_t maxBytes) {
  std::optional<ColumnBlockLoop> plan = planBounds(loop);
  if (!plan || plan->trips < 2 || plan->trips > kMaxUnrolledTrips ||
      !planBody(loop, *plan))
    return std::nullopt;
  if (plan->trips * widestBlockBytes(loop) > maxBytes)
    return std::nullopt;
  return plan;
}

/// The plan for `loop` if it is a column-block loop whose trip count is
/// known only at run time, carrying nothing.
static std::optional<ColumnBlockLoop> planRuntimeSplit(scf::ForOp loop) {
  std::optional<ColumnBlockLoop> plan = planBounds(loop);
  if (!plan || plan->trips != 0 || loop.getNumRegionIterArgs() != 0)
    return std::nullopt;
  plan->anyShape = true;
  if (!planBody(loop, *plan))
    return std::nullopt;
  return plan;
}

/// `type` (a tensor or access tile of the block shape) with its last
/// dimension `trips` times as wide.
static Type widen(Type type, int64_t trips) {
  if (auto tensor = dyn_cast<RankedTensorType>(type)) {
    SmallVector<int64_t> shape(tensor.getShape());
    shape.back() *= trips;
    return tensor.clone(shape);
  }
  auto tile = cast<ktdp::AccessTileType>(type);
  SmallVector<int64_t> shape(tile.getShape());
  shape.back() *= trips;
  return ktdp::AccessTileType::get(shape, tile.getElementType());
}

/// The splat `v` (a constant or a `tensor.splat`) `trips` times as wide,
/// built at `b`.
static Value wideSplat(OpBuilder &b, Value v, int64_t trips) {
  auto type = cast<RankedTensorType>(widen(v.getType(), trips));
  DenseElementsAttr dense;
  if (matchPattern(v, m_Constant(&dense)))
    return arith::ConstantOp::create(
        b, v.getLoc(),
        DenseElementsAttr::get(type, dense.getSplatValue<Attribute>()));
  return tensor::SplatOp::create(b, v.getLoc(), type,
                                 v.getDefiningOp<tensor::SplatOp>().getInput());
}

void column_blocks::widenBody(OpBuilder &b, scf::ForOp loop, IRMapping &mapping,
                              int64_t factor) {
  auto widened = [&](Value v) -> Value {
    if (Value mapped = mapping.lookupOrNull(v))
      return mapped;
    // A splat from outside the loop, widened once, next to it.
    OpBuilder outside(v.getDefiningOp());
    outside.setInsertionPointAfter(v.getDefiningOp());
    Value wide = wideSplat(outside, v, factor);
    mapping.map(v, wide);
    return wide;
  };
  for (Operation &op : loop.getBody()->without_terminator()) {
    bool tensors =
        llvm::any_of(op.getOperandTypes(), llvm::IsaPred<TensorType>) ||
        llvm::any_of(op.getResultTypes(),
                     llvm::IsaPred<TensorType, ktdp::AccessTileType>);
    if (!tensors) {
      b.clone(op, mapping);
      continue;
    }
    if (isa<tensor::ExpandShapeOp, tensor::CollapseShapeOp>(op)) {
      // Rebuilt: an expansion's static output shape is an attribute.
      auto type =
          cast<RankedTensorType>(widen(op.getResult(0).getType(), factor));
      Value src = widened(op.getOperand(0));
      Value wide;
      if (auto expand = dyn_cast<tensor::ExpandShapeOp>(op))
        wide = tensor::ExpandShapeOp::create(b, op.getLoc(), type, src,
                                             expand.getReassociationIndices());
      else
        wide = tensor::CollapseShapeOp::create(
            b, op.getLoc(), type, src,
            cast<tensor::CollapseShapeOp>(op).getReassociationIndices());
      mapping.map(op.getResult(0), wide);
      continue;
    }
    if (auto tile = dyn_cast<ktdp::ConstructAccessTileOp>(op)) {
      Type type = widen(tile.getType(), factor);
      auto set = getBoxSet(cast<ktdp::AccessTileType>(type).getShape(),
                           b.getContext());
      Operation *wide = b.clone(op, mapping);
      wide->getResult(0).setType(type);
      cast<ktdp::ConstructAccessTileOp>(wide).setAccessTileSet(set);
      continue;
    }
    for (Value v : op.getOperands())
      if (isa<TensorType>(v.getType()))
        widened(v);
    DenseElementsAttr dense;
    if (matchPattern(&op, m_Constant(&dense))) {
      mapping.map(op.getResult(0), wideSplat(b, op.getResult(0), factor));
      continue;
    }
    Operation *wide = b.clone(op, mapping);
    for (Value r : wide->getResults())
      r.setType(widen(r.getType(), factor));
  }
}

/// Replaces `loop` by its first trip with every block widened.
static void merge(scf::ForOp loop, const ColumnBlockLoop &plan) {
  OpBuilder b(loop);
  Location loc = loop.getLoc();
  IRMapping mapping;
  mapping.map(loop.getInductionVar(), loop.getLowerBound());
  mapping.map(loop.getRegionIterArgs(), loop.getInitArgs());
  widenBody(b, loop, mapping, plan.trips);
  // The carried indices after the last trip.
  for (auto [result, init, k] :
       llvm::zip(loop.getResults(), loop.getInitArgs(), plan.carriedSteps)) {
    Value total = arith::ConstantIndexOp::create(b, loc, plan.trips * k);
    result.replaceAllUsesWith(arith::AddIOp::create(b, loc, init, total));
  }
  loop.erase();
}

namespace {
struct MergeColumnBlocksPass
    : public ktflow::sched::WithScheduleTarget<
          ktdf::impl::KTDFMergeColumnBlocksBase<MergeColumnBlocksPass>> {
  using Base::Base;

  void runOnOperation() override {
    const ktflow::sched::ScheduleTarget *target = requireScheduleTarget();
    if (!target)
      return;
    SmallVector<std::pair<scf::ForOp, ColumnBlockLoop>> merges, splits;
    for (auto [func, grid] : gridKernels(getOperation())) {
      // With fewer grid points than lanes, ktdf-spread-iterations spreads
      // the blocks over the idle lanes (spyre_like's 64 lanes for 16 rows
      // at a time: 390 cycles for four 1x128 blocks, 426 for one 1x512).
      // It does not spread a loop of run-time trips.
      bool spread = ktdp::getNumTiles(grid) < target->getNumLaneInstances(true);
      func.walk([&](scf::ForOp loop) {
        if (!spread)
          if (auto plan = planMerge(loop, maxBlockBytes))
            merges.push_back({loop, *plan});
        if (auto plan = planRuntimeSplit(loop))
          splits.push_back({loop, *plan});
      });
    }
    // A merged or split loop holds no loop, so no merge touches another.
    for (auto &[loop, plan] : merges)
      merge(loop, plan);
    for (auto &[loop, plan] : splits)
      splitRuntimeLoop(loop, plan, maxBlockBytes);
  }
};
} // namespace
