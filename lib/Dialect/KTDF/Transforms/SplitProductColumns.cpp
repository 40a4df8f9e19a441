//===- SplitProductColumns.cpp - A product's columns over a core's lanes --===//
//
// This file implements --ktdf-split-product-columns. ktdf-split-point-rows
// puts the two halves of a grid point's R rows on the two lanes of a core
// (the halves the first grid dimension h, instances k and k + cores); a
// paged attention's lane then multiplies its R/2 = 4 query rows by each
// K^T page (128 x 16) on spyre_like's 8x8x8 engine, 4 rows padded to the
// engine's 8: 32 waves a page, 271 cycles, before the vector unit can
// start (docs/scheduler.md, "the columns split").
//
// Where a lane's rows are at most half the engine's m, the product has at
// least twice its n columns and both lanes multiply by the same right
// operand, each lane's engine instead multiplies the point's R rows by its
// half h of the right operand's N columns: ceil(R/m) x ceil(N/2n) x
// ceil(K/k) waves (16, 143 cycles). The halves are rejoined in the
// scratchpad's layout: the product's R x N block becomes a view both lanes
// share (`ktdf.lanes_shared`), lane h's drain writes columns [h N/2,
// (h + 1) N/2) of it and each lane's consumer reads its R/2 rows of it
// whole, as before. The consumers' ops do not change and each score is
// computed by the same products of the same operands (the engine's rows
// are independent), so the output is the kernel's bit for bit.
//
// The lowering loads the point's left rows once for the core (the tile no
// longer reads h: SharedLoads.cpp), moves the column half of the right
// operand's buffer and the drain's column block as rows of a wider pitch
// (TransferLowering.cpp), places the shared view in the core's first
// lane's region and has each drain signal the other lane's reader too
// (RegionChannels.cpp).
//
//===----------------------------------------------------------------------===//

#include "IndexAnalysis.h"
#include "ProductTransfers.h"
#include "TileSlices.h"

#include "ktflow/Dialect/KTDF/IR/KTDF.h"
#include "ktflow/Dialect/KTDF/Transforms/MatrixStages.h"
#include "ktflow/Dialect/KTDF/Transforms/Passes.h"
#include "ktflow/Dialect/KTDF/Transforms/RowBlocks.h"
#include "ktflow/Dialect/KTDF/Transforms/SplitProductColumns.h"
#include "ktflow/Dialect/KTDP/IR/KTDP.h"
#include "ktflow/Dialect/KTDP/IR/ScratchpadView.h"
#include "ktflow/Dialect/KTDP/Utils/IntegerSetAnalysis.h"
#include "ktflow/Machine/MatrixTiming.h"
#include "ktflow/Scheduler/ScheduleTarget.h"
#include "ktflow/Scheduler/ScheduleTargetPass.h"
#include "ktflow/Support/ElementBytes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/TypeUtilities.h"
#include "mlir/Pass/PassRegistry.h"

namespace mlir::ktdf {
#define GEN_PASS_DEF_KTDFSPLITPRODUCTCOLUMNS
#include "ktflow/Dialect/KTDF/Transforms/Passes.h.inc"
} // namespace mlir::ktdf

using namespace mlir;
using namespace mlir::ktdf;

namespace {
/// One product of the split stage: its right operand's feed, the drain of
/// its result into a scratchpad view and the later transfer reading it.
struct ColumnProduct {
  linalg::MatmulOp matmul;
  DataTransferOp rightFeed, drain, read;
  ktdp::ConstructMemoryViewOp view;
};

/// A compute stage whose products split, with the left operand's load and
/// feed.
struct ColumnSplit {
  DataTransferOp leftLoad, leftFeed;
  SmallVector<ColumnProduct> products;
  int64_t rows = 0, columns = 0;
};
} // namespace

/// Whether `v` reads `h` through the ops defining it.
static bool dependsOn(Value v, Value h) {
  SmallVector<Value> work{v};
  DenseSet<Value> seen;
  while (!work.empty()) {
    Value x = work.pop_back_val();
    if (x == h)
      return true;
    if (!seen.insert(x).second)
      continue;
    if (Operation *def = x.getDefiningOp())
      llvm::append_range(work, def->getOperands());
  }
  return false;
}

/// The scratchpad view (whole, at a literal address, row-major R x N) that
/// the result of a product of `stage` leaves to, through its slot.
static std::optional<ColumnProduct> productOf(linalg::MatmulOp matmul,
                                              Value h) {
  ColumnProduct p{matmul, feedOf(matmul.getInputs()[1]), {}, {}, {}};
  if (!p.rightFeed || !matmul->hasOneUse() || !fillOf(matmul.getOutputs()[0]))
    return std::nullopt;
  DataTransferOp rightLoad = bufferLoadOf(p.rightFeed);
  if (!rightLoad || dependsOn(rightLoad.getSrc(), h))
    return std::nullopt;
  auto write = dyn_cast<WriteToFifoOp>(*matmul->getUsers().begin());
  if (!write || !(p.drain = onlyTransfer(write.getSlot(), /*isDst=*/false)) ||
      !p.drain.getDstIndices().empty())
    return std::nullopt;
  Value tile = p.drain.getDst();
  auto tileOp = tile.getDefiningOp<ktdp::ConstructAccessTileOp>();
  p.view = tileOp ? ktdp::getAccessTileView(tile) : nullptr;
  if (!p.view || !ktdp::isScratchpadView(p.view) || !isHandoverView(p.view) ||
      !tileOp.getIndices().empty() || !ktdp::getLiteralByteSpan(p.view))
    return std::nullopt;
  auto type = cast<MemRefType>(p.view.getType());
  auto result = cast<RankedTensorType>(matmul.getResult(0).getType());
  if (type.getShape() != result.getShape() ||
      p.view.getStaticStrides() != ArrayRef<int64_t>{result.getDimSize(1), 1} ||
      !p.view->hasOneUse() || !tile.hasNUses(2))
    return std::nullopt;
  for (Operation *user : tile.getUsers())
    if (user != p.drain)
      p.read = dyn_cast<DataTransferOp>(user);
  if (!p.read || p.read.getSrc() != tile || !p.read.getSrcIndices().empty() ||
      p.read->getParentOfType<PipelineOp>() ==
          p.drain->getParentOfType<PipelineOp>())
    return std::nullopt;
  return p;
}

/// The products of matrix stage `compute` when they qualify: the same left
/// operand of R <= m/2 rows, loaded through a tile whose rows move R per
/// unit of `h`, times right operands of N >= 2n columns both lanes load
/// alike, each result left whole to a scratchpad view.
static std::optional<ColumnSplit>
planSplit(StageOp compute, Value h, const ktdf_arch::MatrixFeature &matrix) {
  ColumnSplit split;
  Value left;
  for (Operation &op : compute.getBody().front()) {
    if (isa<ReadFromFifoOp, WriteToFifoOp, tensor::EmptyOp>(op) ||
        op.hasTrait<OpTrait::ConstantLike>() ||
        op.hasTrait<OpTrait::IsTerminator>() ||
        (op.getNumResults() == 1 && fillOf(op.getResult(0))))
      continue;
    auto matmul = dyn_cast<linalg::MatmulOp>(op);
    if (!matmul)
      return std::nullopt;
    if (left && matmul.getInputs()[0] != left)
      return std::nullopt;
    left = matmul.getInputs()[0];
    std::optional<ColumnProduct> p = productOf(matmul, h);
    if (!p)
      return std::nullopt;
    split.products.push_back(*p);
  }
  if (split.products.empty())
    return std::nullopt;
  auto read = left.getDefiningOp<ReadFromFifoOp>();
  if (!read)
    return std::nullopt;
  split.leftFeed = onlyTransfer(read.getSlot(), /*isDst=*/true);
  split.leftLoad = bufferLoadOf(split.leftFeed);
  // A load in row blocks (ktdf-row-blocks) counts the rows it doubles.
  if (!split.leftLoad ||
      split.leftLoad->getParentOp()->hasAttr(kRowBlocksAttrName))
    return std::nullopt;
  auto tile =
      split.leftLoad.getSrc().getDefiningOp<ktdp::ConstructAccessTileOp>();
  auto type = cast<RankedTensorType>(left.getType());
  auto out = cast<RankedTensorType>(
      split.products.front().matmul.getResult(0).getType());
  split.rows = type.getDimSize(0);
  split.columns = out.getDimSize(1);
  if (!tile || !tile.getAccessTileOrder().isIdentity() || type.getRank() != 2 ||
      anchorCoefficient(tile, 0, h) != split.rows ||
      anchorCoefficient(tile, 1, h) != 0)
    return std::nullopt;
  // The rule, from the engine's shape: a lane's rows fill at most half its
  // m, and each lane's half of the columns at least its n.
  if (2 * split.rows > matrix.m || split.columns % 2 != 0 ||
      split.columns < 2 * matrix.n)
    return std::nullopt;
  for (ColumnProduct &p : split.products)
    if (cast<RankedTensorType>(p.matmul.getResult(0).getType()) != out)
      return std::nullopt;
  return split;
}

/// `v` cloned before `b`'s insertion point with `h` replaced by 0: the
/// first half's value.
static Value withoutHalf(OpBuilder &b, Value v, Value h, Value zero,
                         IRMapping &map) {
  if (v == h)
    return zero;
  Operation *def = v.getDefiningOp();
  if (!def || !dependsOn(v, h))
    return v;
  if (Value done = map.lookupOrNull(v))
    return done;
  for (Value operand : def->getOperands())
    map.map(operand, withoutHalf(b, operand, h, zero, map));
  Operation *clone = b.clone(*def, map);
  return clone->getResult(cast<OpResult>(v).getResultNumber());
}

/// A whole scratchpad view like `like`, of `shape` at element `address`,
/// shared by the core's lanes, and its tile.
static Value sharedViewTile(OpBuilder &b, ktdp::ConstructMemoryViewOp like,
                            int64_t address, ArrayRef<int64_t> shape) {
  Value tile = wholeViewTile(b, like, address, shape);
  ktdp::getAccessTileView(tile)->setAttr(kLanesSharedViewAttrName,
                                         b.getUnitAttr());
  return tile;
}

/// Rewrites the products of `split`: the point's rows times half `h` of
/// the columns, rejoined in views both lanes share.
static void splitColumns(ColumnSplit &split, Value h, ParallelOp parallel,
                         const ktflow::machine::MatrixShape &block,
                         double rate) {
  MLIRContext *ctx = parallel.getContext();
  Block &body = parallel.getBody().front();
  OpBuilder b = OpBuilder::atBlockBegin(&body);
  Location loc = parallel.getLoc();
  int64_t rows = split.rows, half = split.columns / 2;
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  Value column = arith::MulIOp::create(
      b, loc, h, arith::ConstantIndexOp::create(b, loc, half));
  Value row = arith::MulIOp::create(
      b, loc, h, arith::ConstantIndexOp::create(b, loc, rows));

  // The left operand: the point's 2R rows, the tile anchored at half 0.
  auto tile =
      split.leftLoad.getSrc().getDefiningOp<ktdp::ConstructAccessTileOp>();
  b.setInsertionPoint(tile);
  IRMapping map;
  SmallVector<Value> indices;
  for (Value index : tile.getIndices())
    indices.push_back(withoutHalf(b, index, h, zero, map));
  auto leftShape =
      llvm::to_vector(cast<ktdp::AccessTileType>(tile.getType()).getShape());
  leftShape[0] = 2 * rows;
  Value point = buildBoxTile(b, tile, indices, tile.getBaseMap(), leftShape);
  split.leftLoad.getSrcMutable().assign(point);
  if (tile->use_empty())
    tile.erase();
  retype(split.leftLoad.getDst(), leftShape);
  retype(split.leftFeed.getDst(), leftShape);
  Value left = split.products.front().matmul.getInputs()[0];
  retype(left, leftShape);

  for (ColumnProduct &p : split.products) {
    // The right operand: its half of the columns.
    Value right = p.matmul.getInputs()[1];
    int64_t depth = cast<RankedTensorType>(right.getType()).getDimSize(0);
    SmallVector<Value> corner{zero, column};
    p.rightFeed.getSrcIndicesMutable().assign(corner);
    retype(p.rightFeed.getDst(), {depth, half});
    retype(right, {depth, half});
    // The product and its initial value: 2R x N/2.
    auto fill = fillOf(p.matmul.getOutputs()[0]);
    b.setInsertionPoint(fill);
    auto element =
        cast<RankedTensorType>(fill.getResult(0).getType()).getElementType();
    Value empty = tensor::EmptyOp::create(
        b, loc, ArrayRef<int64_t>{2 * rows, half}, element);
    Value oldInit = fill.getDpsInits()[0];
    fill.getDpsInitsMutable()[0].assign(empty);
    if (oldInit.use_empty() && oldInit.getDefiningOp<tensor::EmptyOp>())
      oldInit.getDefiningOp()->erase();
    retype(fill.getResult(0), {2 * rows, half});
    retype(p.matmul.getResult(0), {2 * rows, half});
    p.matmul->setAttr("ktdf.matrix_waves",
                      b.getI64IntegerAttr(ktflow::machine::matrixWaves(
                          block, 2 * rows, half, depth)));
    p.matmul->setAttr("ktdf.matrix_cycles",
                      b.getI64IntegerAttr(ktflow::machine::matrixProductCycles(
                          block, rate, 2 * rows, half, depth)));
    auto write = cast<WriteToFifoOp>(*p.matmul->getUsers().begin());
    retype(write.getSlot(), {2 * rows, half});
    // The view: 2R x N, at twice its address (every handover view of the
    // kernel doubles), shared by the lanes.
    b.setInsertionPoint(p.view);
    int64_t address = 2 * ktdp::getLiteralByteSpan(p.view)->first /
                      ktflow::bytesPerElement(element);
    Value whole = sharedViewTile(b, p.view, address, {2 * rows, 2 * half});
    Value written = buildColumnSlice(b, whole, column, half);
    AffineMap rowMap = AffineMap::get(
        1, 0, {getAffineDimExpr(0, ctx), getAffineConstantExpr(0, ctx)}, ctx);
    Value read =
        buildBoxTile(b, whole, ValueRange{row}, rowMap, {rows, 2 * half});
    Value old = p.drain.getDst();
    p.drain.getDstMutable().assign(written);
    p.read.getSrcMutable().assign(read);
    old.getDefiningOp()->erase();
    Value oldAddress = p.view.getOffset();
    p.view.erase();
    if (oldAddress.use_empty())
      oldAddress.getDefiningOp()->erase();
    if (whole.use_empty())
      whole.getDefiningOp()->erase();
  }
}

/// The halves' grid dimension of `parallel` when each lane of a two-lane
/// core runs one point and the core's lanes run the halves of one point:
/// grid [2, ...] of 2 x cores points on as many instances.
static Value halvesOf(ParallelOp parallel,
                      const ktflow::sched::ScheduleTarget &target) {
  ArrayRef<int64_t> grid = parallel.getExtents();
  int64_t cores = target.getNumCores();
  if (target.getLanes().size() != 2 || grid.empty() || grid.front() != 2 ||
      parallel.getNumPoints() != 2 * cores ||
      static_cast<int64_t>(parallel.getNumInstances().value_or(0)) != 2 * cores)
    return nullptr;
  return parallel.getBody().front().getArgument(0);
}

/// Whether every scratchpad view of `func` is one of the products' views
/// (their addresses double: nothing else may sit among them).
static bool onlyProductViews(func::FuncOp func, ArrayRef<ColumnSplit> splits) {
  DenseSet<Operation *> views;
  for (const ColumnSplit &split : splits)
    for (const ColumnProduct &p : split.products)
      views.insert(p.view);
  return !func.walk([&](ktdp::ConstructMemoryViewOp view) {
                return ktdp::isScratchpadView(view) && !views.contains(view)
                           ? WalkResult::interrupt()
                           : WalkResult::advance();
              })
              .wasInterrupted();
}

namespace {
struct SplitProductColumnsPass
    : public ktflow::sched::WithScheduleTarget<
          ktdf::impl::KTDFSplitProductColumnsBase<SplitProductColumnsPass>> {
  using Base::Base;
  void runOnOperation() override {
    const ktflow::sched::ScheduleTarget *target = requireScheduleTarget();
    if (!target)
      return;
    getOperation().walk([&](func::FuncOp func) {
      func.walk([&](ParallelOp parallel) { runOn(func, parallel, *target); });
    });
  }

  void runOn(func::FuncOp func, ParallelOp parallel,
             const ktflow::sched::ScheduleTarget &target) {
    Value h = halvesOf(parallel, target);
    if (!h)
      return;
    SmallVector<ColumnSplit> splits;
    SmallVector<std::pair<ktflow::machine::MatrixShape, double>> engines;
    for (auto pipeline : parallel.getBody().front().getOps<PipelineOp>()) {
      if (pipeline.getPerInstance())
        continue;
      for (StageOp stage : pipeline.getBody().front().getOps<StageOp>()) {
        const ktdf_arch::UnitSpec *spec = matrixUnitOf(stage, target);
        if (!spec)
          continue;
        const auto &unit = *spec;
        std::optional<ColumnSplit> split = planSplit(stage, h, *unit.matrix);
        if (!split)
          continue;
        Type element = getElementTypeOrSelf(
            split->products.front().matmul.getInputs()[0].getType());
        std::optional<double> rate =
            unit.getThroughput(ktflow::machine::OpClass::Matrix, element);
        if (!rate)
          continue;
        splits.push_back(std::move(*split));
        engines.push_back({matrixBlockOf(unit), *rate});
      }
    }
    if (splits.empty() || !onlyProductViews(func, splits))
      return;
    for (auto [split, engine] : llvm::zip(splits, engines))
      splitColumns(split, h, parallel, engine.first, engine.second);
  }
};
} // namespace
