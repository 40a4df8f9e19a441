//===- JoinProductColumns.cpp - Two products of one left operand as one ---===//
//
// This file implements --ktdf-join-product-columns. A SwiGLU's hidden
// columns cut over mesh_device's tiles leave each tile 8 columns of W1 and
// 8 of W3: its matrix stage multiplies the same 8x64 X by two 64x8 right
// operands, each product 31 fill cycles and 16 waves of 8 on the 16x16x4
// engine (159 cycles), where the engine's block is 16 columns wide and
// multiplies X.[W1|W3] in the same 16 waves.
//
// Where a matrix stage's two products share their left operand and their
// right operands' columns together fit one block of the unit's n, they
// become one product: both right operands load (each by its own DMA, from
// its own tensor) into the column halves of one buffer, the feed moves it
// whole, the unit multiplies once from zero and the drain writes the
// result into one handover view; the later transfers that read each
// result read its column window of that view instead. The engine's
// columns are independent and each column's sum runs over the same K in
// the same order, so every element is the kernel's bit for bit.
//
// It must not apply where the operands differ (a different left operand,
// a product accumulating onto a value other than zero), where the
// columns need more than one block (spyre_like's 8-wide engine: 8 + 8
// columns take two blocks either way), where a right operand's tile may
// leave its view (its DMA would be masked and its fills zero a whole
// buffer), or where a result goes anywhere but whole into a handover
// view only transfers read.
//
//===----------------------------------------------------------------------===//

#include "ProductTransfers.h"
#include "ScratchpadViews.h"
#include "TileSlices.h"

#include "ktflow/Dialect/KTDF/IR/KTDF.h"
#include "ktflow/Dialect/KTDF/Transforms/MatrixStages.h"
#include "ktflow/Dialect/KTDF/Transforms/MergedLoads.h"
#include "ktflow/Dialect/KTDF/Transforms/Passes.h"
#include "ktflow/Dialect/KTDF/Transforms/RowBlocks.h"
#include "ktflow/Dialect/KTDF/Transforms/TileBounds.h"
#include "ktflow/Dialect/KTDP/IR/KTDP.h"
#include "ktflow/Dialect/KTDP/IR/ScratchpadView.h"
#include "ktflow/Scheduler/ScheduleTarget.h"
#include "ktflow/Scheduler/ScheduleTargetPass.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Matchers.h"

namespace mlir::ktdf {
#define GEN_PASS_DEF_KTDFJOINPRODUCTCOLUMNS
#include "ktflow/Dialect/KTDF/Transforms/Passes.h.inc"
} // namespace mlir::ktdf

using namespace mlir;
using namespace mlir::ktdf;

namespace {
/// One product of a matrix stage with the transfers around it: the load
/// and feed of its right operand and the drain of its result into a whole
/// handover view.
struct Product {
  linalg::MatmulOp matmul;
  DataTransferOp load, feed, drain;
  ktdp::ConstructAccessTileOp tile;
  ktdp::ConstructMemoryViewOp view;

  Value left() { return matmul.getInputs()[0]; }
  RankedTensorType right() {
    return cast<RankedTensorType>(matmul.getInputs()[1].getType());
  }
  RankedTensorType result() {
    return cast<RankedTensorType>(matmul.getResult(0).getType());
  }
};
} // namespace

/// Whether `v` is all zeros: a splat zero constant, or a fill yielding a
/// zero constant.
static bool isZeroInit(Value v) {
  if (auto constant = v.getDefiningOp<arith::ConstantOp>()) {
    auto dense = dyn_cast<DenseElementsAttr>(constant.getValue());
    if (!dense || !dense.isSplat())
      return false;
    if (isa<FloatType>(dense.getElementType()))
      return dense.getSplatValue<APFloat>().isPosZero();
    return dense.getSplatValue<APInt>().isZero();
  }
  if (auto splat = v.getDefiningOp<tensor::SplatOp>())
    return matchPattern(splat.getInput(), m_PosZeroFloat()) ||
           matchPattern(splat.getInput(), m_Zero());
  auto fill = v.getDefiningOp<linalg::GenericOp>();
  if (!fill || llvm::any_of(fill.getDpsInputs(), [](Value in) {
        return isa<ShapedType>(in.getType());
      }))
    return false;
  Value yielded = fill.getBody()->getTerminator()->getOperand(0);
  return matchPattern(yielded, m_PosZeroFloat()) ||
         matchPattern(yielded, m_Zero());
}

/// Whether `tile` is anchored at its view's origin.
static bool atOrigin(ktdp::ConstructAccessTileOp tile) {
  return tile.getIndices().empty() &&
         llvm::all_of(tile.getBaseMap().getResults(), [](AffineExpr e) {
           auto c = dyn_cast<AffineConstantExpr>(e);
           return c && c.getValue() == 0;
         });
}

/// `matmul` with its transfers when it qualifies: a 2-d product from zero
/// whose right operand is loaded whole from a tile that stays inside its
/// view, and whose result drains whole into a handover view that only
/// transfers read.
static std::optional<Product> productOf(linalg::MatmulOp matmul) {
  Product p{matmul, {}, {}, {}, {}, {}};
  if (p.right().getRank() != 2 || !matmul->hasOneUse() ||
      !isZeroInit(matmul.getOutputs()[0]))
    return std::nullopt;
  p.feed = feedOf(matmul.getInputs()[1]);
  p.load = bufferLoadOf(p.feed);
  if (!p.load)
    return std::nullopt;
  // A load in row blocks or merged over executions moves more than the
  // tile (ktdf-row-blocks).
  Operation *stage = p.load->getParentOp();
  auto source = p.load.getSrc().getDefiningOp<ktdp::ConstructAccessTileOp>();
  if (!source || !source.getAccessTileOrder().isIdentity() ||
      mayLeaveView(source) || stage->hasAttr(kRowBlocksAttrName) ||
      stage->hasAttr(kMergedExecutionsAttrName))
    return std::nullopt;
  auto write = dyn_cast<WriteToFifoOp>(*matmul->getUsers().begin());
  if (!write || !(p.drain = onlyTransfer(write.getSlot(), /*isDst=*/false)) ||
      !p.drain.getDstIndices().empty())
    return std::nullopt;
  p.tile = p.drain.getDst().getDefiningOp<ktdp::ConstructAccessTileOp>();
  p.view = p.tile ? ktdp::getAccessTileView(p.tile.getResult()) : nullptr;
  if (!p.view || !ktdp::isScratchpadView(p.view) || !isHandoverView(p.view) ||
      !atOrigin(p.tile) || !ktdp::getLiteralByteSpan(p.view) ||
      !p.view->hasOneUse())
    return std::nullopt;
  ArrayRef<int64_t> shape = p.result().getShape();
  if (cast<MemRefType>(p.view.getType()).getShape() != shape ||
      cast<ktdp::AccessTileType>(p.tile.getType()).getShape() != shape ||
      p.view.getStaticStrides() != ArrayRef<int64_t>{shape[1], 1} ||
      !llvm::all_of(p.tile->getUsers(),
                    [](Operation *user) { return isa<DataTransferOp>(user); }))
    return std::nullopt;
  return p;
}

/// Whether `a` and `b` may become one product on an engine of `block`:
/// one left operand, right operands and results of the same types but
/// their columns, the columns together at most one block, their buffers
/// and views alike.
static bool joinable(Product &a, Product &b,
                     const ktflow::machine::MatrixShape &block) {
  auto sameButColumns = [](RankedTensorType x, RankedTensorType y) {
    return x.getElementType() == y.getElementType() &&
           x.getDimSize(0) == y.getDimSize(0);
  };
  auto bufferA = cast<MemRefType>(a.load.getDst().getType());
  auto bufferB = cast<MemRefType>(b.load.getDst().getType());
  return a.left() == b.left() && sameButColumns(a.right(), b.right()) &&
         sameButColumns(a.result(), b.result()) &&
         a.right().getDimSize(1) + b.right().getDimSize(1) <=
             static_cast<int64_t>(block.n) &&
         bufferA.getMemorySpace() == bufferB.getMemorySpace() &&
         a.load.getDst().getDefiningOp()->getParentOp() ==
             b.load.getDst().getDefiningOp()->getParentOp() &&
         a.view->getAttr("ktdf.memory") == b.view->getAttr("ktdf.memory") &&
         cast<MemRefType>(a.view.getType()).getMemorySpace() ==
             cast<MemRefType>(b.view.getType()).getMemorySpace();
}

/// The products of the matrix stage `stage` paired for joining, in order.
static SmallVector<std::pair<Product, Product>>
pairsOf(StageOp stage, const ktflow::machine::MatrixShape &block) {
  SmallVector<Product> products;
  for (auto matmul : stage.getBody().front().getOps<linalg::MatmulOp>())
    if (std::optional<Product> p = productOf(matmul))
      products.push_back(*p);
  SmallVector<std::pair<Product, Product>> pairs;
  SmallVector<bool> taken(products.size(), false);
  for (size_t i = 0; i < products.size(); ++i)
    for (size_t j = i + 1; j < products.size() && !taken[i]; ++j)
      if (!taken[j] && joinable(products[i], products[j], block)) {
        taken[i] = taken[j] = true;
        pairs.push_back({products[i], products[j]});
      }
  return pairs;
}

/// Moves `load`'s tile into `buffer` from column `column` on.
static void loadAtColumn(DataTransferOp load, Value buffer, int64_t column) {
  OpBuilder b(load);
  Value zero = arith::ConstantIndexOp::create(b, load.getLoc(), 0);
  Value at = arith::ConstantIndexOp::create(b, load.getLoc(), column);
  load.getDstMutable().assign(buffer);
  load.getDstIndicesMutable().assign(ValueRange{zero, at});
}

/// Erases `op` and then the ops defining its operands that are left
/// unused, when they have no other effect.
static void eraseWithOperands(Operation *op) {
  SmallVector<Value> operands(op->getOperands());
  op->erase();
  for (Value v : operands) {
    Operation *def = v.getDefiningOp();
    if (def && def->use_empty() && isMemoryEffectFree(def))
      eraseWithOperands(def);
  }
}

/// Joins `b` into `a`: `a`'s buffer holds both right operands side by
/// side, its product multiplies them at once from zero into a new view,
/// whose column windows replace the two results' views.
static void join(Product &a, Product &b,
                 const ktflow::machine::MatrixShape &block, double rate,
                 ScratchpadCursor &cursor) {
  int64_t depth = a.right().getDimSize(0);
  int64_t first = a.right().getDimSize(1), second = b.right().getDimSize(1);
  int64_t columns = first + second, rows = a.result().getDimSize(0);
  Type element = a.result().getElementType();
  // The right operands, side by side in `a`'s buffer.
  Value buffer = a.load.getDst();
  retype(buffer, {depth, columns});
  loadAtColumn(a.load, buffer, 0);
  loadAtColumn(b.load, buffer, first);
  retype(a.feed.getDst(), {depth, columns});
  retype(a.matmul.getInputs()[1], {depth, columns});
  // One product from zero.
  OpBuilder builder(a.matmul);
  auto joined = RankedTensorType::get({rows, columns}, element);
  Value zero = arith::ConstantOp::create(
      builder, a.matmul.getLoc(),
      DenseElementsAttr::get(joined, builder.getZeroAttr(element)));
  Value oldInit = a.matmul.getOutputs()[0];
  a.matmul.getDpsInitsMutable()[0].assign(zero);
  if (Operation *def = oldInit.getDefiningOp(); def && def->use_empty())
    eraseWithOperands(def);
  retype(a.matmul.getResult(0), {rows, columns});
  a.matmul->setAttr("ktdf.matrix_waves",
                    builder.getI64IntegerAttr(ktflow::machine::matrixWaves(
                        block, rows, columns, depth)));
  a.matmul->setAttr(
      "ktdf.matrix_cycles",
      builder.getI64IntegerAttr(ktflow::machine::matrixProductCycles(
          block, rate, rows, columns, depth)));
  retype(cast<WriteToFifoOp>(*a.matmul->getUsers().begin()).getSlot(),
         {rows, columns});
  // One view for both results, each read through its column window.
  builder.setInsertionPoint(a.view);
  int64_t address = cursor.allocate(joined);
  Value whole = wholeViewTile(builder, a.view, address, {rows, columns});
  auto window = [&](int64_t column, int64_t width) {
    MLIRContext *ctx = builder.getContext();
    AffineMap corner = AffineMap::get(
        0, 0,
        {getAffineConstantExpr(0, ctx), getAffineConstantExpr(column, ctx)},
        ctx);
    return buildBoxTile(builder, whole, ValueRange{}, corner, {rows, width});
  };
  a.drain.getDstMutable().assign(whole);
  a.tile.getResult().replaceAllUsesWith(window(0, first));
  b.drain.erase();
  b.tile.getResult().replaceAllUsesWith(window(first, second));
  // What only `b` used.
  auto write = cast<WriteToFifoOp>(*b.matmul->getUsers().begin());
  Value bOut = write.getSlot(), bIn = b.feed.getDst(),
        bBuffer = b.feed.getSrc();
  Value bInit = b.matmul.getOutputs()[0];
  Operation *bRead = b.matmul.getInputs()[1].getDefiningOp();
  write.erase();
  b.matmul.erase();
  bRead->erase();
  if (Operation *def = bInit.getDefiningOp(); def && def->use_empty())
    eraseWithOperands(def);
  b.feed.erase();
  for (Value v : {bOut, bIn, bBuffer})
    if (v.use_empty())
      v.getDefiningOp()->erase();
  for (Product *p : {&a, &b}) {
    p->tile.erase();
    eraseWithOperands(p->view);
  }
}

namespace {
struct JoinProductColumnsPass
    : public ktflow::sched::WithScheduleTarget<
          ktdf::impl::KTDFJoinProductColumnsBase<JoinProductColumnsPass>> {
  using Base::Base;

  void runOnOperation() override {
    bool products = false;
    getOperation().walk([&](linalg::MatmulOp) { products = true; });
    if (!products)
      return markAllAnalysesPreserved();
    const ktflow::sched::ScheduleTarget *target = requireScheduleTarget();
    if (!target)
      return;
    for (auto func : getOperation().getOps<func::FuncOp>()) {
      ScratchpadCursor cursor(func);
      SmallVector<StageOp> stages;
      func.walk([&](StageOp stage) { stages.push_back(stage); });
      for (StageOp stage : stages)
        runOn(stage, *target, cursor);
    }
  }

  void runOn(StageOp stage, const ktflow::sched::ScheduleTarget &target,
             ScratchpadCursor &cursor) {
    const ktdf_arch::UnitSpec *spec = matrixUnitOf(stage, target);
    if (!spec)
      return;
    ktflow::machine::MatrixShape block = matrixBlockOf(*spec);
    for (auto &[a, b] : pairsOf(stage, block))
      if (std::optional<double> rate = matrixRate(a.matmul, *spec))
        join(a, b, block, *rate, cursor);
  }
};
} // namespace
