//===- ScratchpadViews.cpp - Scratchpad views the scheduler adds ----------===//
//
// This file implements the placement and construction of the `ct_local`
// views the scheduler adds to a kernel: loop-carried tensors
// (ktdf-carry-in-scratchpad) and the partials of inter-tile reductions
// (ktdf-lower-inter-tile), each at a literal address past the kernel's own
// scratchpad views, 256-byte aligned.
//
//===----------------------------------------------------------------------===//

#include "ScratchpadViews.h"

#include "ktflow/Dialect/KTDP/IR/KTDP.h"
#include "ktflow/Dialect/KTDP/IR/ScratchpadView.h"
#include "ktflow/Dialect/KTDP/Utils/IntegerSetAnalysis.h"
#include "ktflow/Support/ElementBytes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IntegerSet.h"
#include "mlir/IR/Matchers.h"

using namespace mlir;
using namespace mlir::ktdf;

std::optional<int64_t>
mlir::ktdf::getLiteralScratchpadEnd(ktdp::ConstructMemoryViewOp view) {
  if (!ktdp::isScratchpadView(view))
    return std::nullopt;
  if (std::optional<std::pair<int64_t, int64_t>> span =
          ktdp::getLiteralByteSpan(view))
    return span->second;
  return std::nullopt;
}

ScratchpadCursor::ScratchpadCursor(func::FuncOp func) {
  func.walk([&](ktdp::ConstructMemoryViewOp view) {
    if (std::optional<int64_t> end = getLiteralScratchpadEnd(view))
      bytes = std::max(bytes, *end);
  });
}

int64_t ScratchpadCursor::allocate(RankedTensorType type) {
  int64_t esize = ktflow::bytesPerElement(type.getElementType());
  int64_t at = (bytes + kAlign - 1) / kAlign * kAlign;
  bytes = at + type.getNumElements() * esize;
  return at / esize;
}

Value mlir::ktdf::createScratchpadTile(func::FuncOp func,
                                       ScratchpadCursor &cursor,
                                       RankedTensorType type, Location loc,
                                       StringRef marker) {
  MLIRContext *ctx = func.getContext();
  OpBuilder b = OpBuilder::atBlockBegin(&func.front());
  auto space = ktdp::MemorySpaceAttr::get(ctx, ktdp::MemoryKind::ct_local, 0);
  auto memref = MemRefType::get(type.getShape(), type.getElementType(),
                                MemRefLayoutAttrInterface(), space);
  SmallVector<int64_t> strides(type.getRank(), 1);
  for (int64_t d = type.getRank() - 2; d >= 0; --d)
    strides[d] = strides[d + 1] * type.getDimSize(d + 1);
  Value address = arith::ConstantIndexOp::create(b, loc, cursor.allocate(type));
  IntegerSet box = ktdp::getBoxSet(type.getShape(), ctx);
  auto view = ktdp::ConstructMemoryViewOp::create(
      b, loc, memref, address, ValueRange{}, ValueRange{},
      b.getDenseI64ArrayAttr(type.getShape()), b.getDenseI64ArrayAttr(strides),
      space, IntegerSetAttr::get(box));
  view->setAttr(marker, b.getUnitAttr());
  SmallVector<AffineExpr> origin(type.getRank(), getAffineConstantExpr(0, ctx));
  auto tileType = ktdp::AccessTileType::get(ctx, type.getShape());
  return ktdp::ConstructAccessTileOp::create(
      b, loc, tileType, view, ValueRange{}, ValueRange{},
      AffineMapAttr::get(
          AffineMap::get(0, 0, ArrayRef<AffineExpr>(origin), ctx)),
      IntegerSetAttr::get(box),
      AffineMapAttr::get(
          AffineMap::getMultiDimIdentityMap(type.getRank(), ctx)));
}

std::optional<std::pair<int64_t, int64_t>>
mlir::ktdf::getLiteralElementRange(ktdp::ConstructMemoryViewOp view) {
  std::optional<std::pair<int64_t, int64_t>> span =
      ktdp::getLiteralByteSpan(view);
  if (!span || span->first == span->second)
    return std::nullopt;
  int64_t bytes = ktflow::bytesPerElement(
      cast<MemRefType>(view.getType()).getElementType());
  return std::make_pair(span->first / bytes, span->second / bytes - 1);
}

bool mlir::ktdf::loadsRunUniformly(Operation *op) {
  WalkResult result = op->walk([&](ktdp::LoadOp load) {
    for (Operation *p = load->getParentOp(); p && p != op->getParentOp();
         p = p->getParentOp()) {
      auto loop = dyn_cast<scf::ForOp>(p);
      if (p != load && !loop)
        return WalkResult::interrupt();
      if (loop && (!matchPattern(loop.getLowerBound(), m_Constant()) ||
                   !matchPattern(loop.getUpperBound(), m_Constant()) ||
                   !matchPattern(loop.getStep(), m_Constant())))
        return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  return !result.wasInterrupted();
}

Value mlir::ktdf::createTileCopy(Operation *before, Operation *store,
                                 RankedTensorType type, IntegerSet producers,
                                 IntegerSet consumers, IntegerSet dependency,
                                 function_ref<Value(OpBuilder &)> partial) {
  MLIRContext *ctx = before->getContext();
  Location loc = before->getLoc();
  // One group holding every tile.
  IntegerSet groups = IntegerSet::get(1, 0, {getAffineDimExpr(0, ctx)}, {true});
  auto future =
      ktdp::TileFutureType::get(ctx, {type}, IntegerSetAttr::get(groups));
  OpBuilder b(before);
  if (store)
    b.setInsertionPointAfter(store);
  auto produce = ktdp::InterTileProduceOp::create(
      b, loc, future, IntegerSetAttr::get(producers));
  Block *body = b.createBlock(&produce.getBody());
  body->addArgument(b.getIndexType(), loc);
  ktdp::YieldPartialOp::create(b, loc, ValueRange{partial(b)});
  b.setInsertionPoint(before);
  auto consume = ktdp::InterTileConsumeOp::create(
      b, loc, TypeRange{type}, produce.getFuture(),
      IntegerSetAttr::get(consumers),
      dependency ? IntegerSetAttr::get(dependency) : IntegerSetAttr());
  return consume.getResult(0);
}

IntegerSet mlir::ktdf::everyTileSet(int64_t numTiles, MLIRContext *ctx) {
  AffineExpr i = getAffineDimExpr(0, ctx), g = getAffineSymbolExpr(0, ctx);
  return IntegerSet::get(1, 1, {i, numTiles - 1 - i, g}, {false, false, true});
}

void mlir::ktdf::replaceLoadByTileCopy(
    ktdp::LoadOp load, Operation *store, IntegerSet producers,
    IntegerSet consumers, IntegerSet dependency,
    function_ref<Value(OpBuilder &)> partial) {
  load.getResult().replaceAllUsesWith(
      createTileCopy(load, store, cast<RankedTensorType>(load.getType()),
                     producers, consumers, dependency, partial));
}
