//===- TransposeIdioms.cpp - Transposes as permuted accesses --------------===//
//
// This file implements TransposeIdioms.h: the check of a linalg.transpose
// the scheduler compiles as permuted access tiles, and the rewrite that
// moves the permutation into the tiles of the loads that feed it or of
// the stores it feeds.
//
//===----------------------------------------------------------------------===//

#include "TransposeIdioms.h"
#include "ShapeIdioms.h"

#include "ktflow/Dialect/KTDP/IR/KTDP.h"
#include "ktflow/Dialect/KTDP/IR/ScratchpadView.h"
#include "ktflow/Dialect/KTDP/Utils/IntegerSetAnalysis.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/ReshapeOpsUtils.h"
#include "mlir/IR/Matchers.h"

using namespace mlir;
using namespace mlir::ktdf;

/// Why the transfers of `tile` cannot move it with a permuted order.
static std::optional<std::string> whyNotPermutable(Value tileValue) {
  // A gather lands each point at its place in the permuted tile
  // (IndirectTiles.h, bufferStrides); ktdf-check-supported refuses, at the
  // tile, a permuted gather whose runs may leave their view.
  if (auto indirect =
          tileValue.getDefiningOp<ktdp::ConstructIndirectAccessTileOp>()) {
    if (!indirect.getVariablesSpaceOrder().isPermutation())
      return std::string("its indirect tile's order is not a permutation");
    return std::nullopt;
  }
  auto tile = tileValue.getDefiningOp<ktdp::ConstructAccessTileOp>();
  if (!tile)
    return std::string("its tile is not an access tile");
  auto view = ktdp::getAccessTileView(tileValue);
  if (!view || ktdp::isScratchpadView(view))
    return std::string("its tile is not in device memory (only a DMA "
                       "transposes)");
  // A tile that may leave its view is clamped to it and, loaded, reads 0
  // past it, in its permuted order as in its own (DmaLowering.cpp).
  if (!tile.getAccessTileOrder().isPermutation())
    return std::string("its tile's order is not a permutation");
  return std::nullopt;
}

/// `type` with its dimensions permuted: dimension i of the result is
/// dimension perm[i] of `type`.
static RankedTensorType permuted(RankedTensorType type,
                                 ArrayRef<int64_t> perm) {
  SmallVector<int64_t> shape;
  for (int64_t p : perm)
    shape.push_back(type.getDimSize(p));
  return RankedTensorType::get(shape, type.getElementType());
}

/// Why `v` is not computed element-wise from permutable loads.
static std::optional<std::string> whyNotPermutableValue(Value v,
                                                        unsigned depth = 0) {
  if (depth > 16)
    return std::string("its input is computed by too long a chain");
  Operation *def = v.getDefiningOp();
  if (!def)
    return std::string("its input is not computed in the kernel");
  if (auto load = dyn_cast<ktdp::LoadOp>(def)) {
    if (auto why = whyNotPermutable(load.getAccessTile()))
      return "its input is loaded, but " + *why;
    return std::nullopt;
  }
  DenseElementsAttr dense;
  if (matchPattern(v, m_Constant(&dense)) && dense.isSplat())
    return std::nullopt;
  if (isa<tensor::EmptyOp>(def))
    return std::nullopt;
  // A reshape that only drops or adds unit dimensions (a 1x16x1x128 page
  // of a 4-d cache collapsed to 16x128) permutes with its source.
  if (isUnitReshape(def))
    return whyNotPermutableValue(def->getOperand(0), depth + 1);
  if (def->hasTrait<OpTrait::Elementwise>() && def->getNumResults() == 1 &&
      def->getNumRegions() == 0) {
    for (Value operand : def->getOperands())
      if (isa<RankedTensorType>(operand.getType()))
        if (auto why = whyNotPermutableValue(operand, depth + 1))
          return why;
    return std::nullopt;
  }
  return "its input is computed by '" + def->getName().getStringRef().str() +
         "', not element-wise from loads";
}

/// Whether every use of `transpose` is a store through a permutable tile.
static bool onlyStored(linalg::TransposeOp transpose) {
  Value result = transpose->getResult(0);
  if (result.use_empty())
    return false;
  return llvm::all_of(result.getUses(), [](OpOperand &use) {
    auto store = dyn_cast<ktdp::StoreOp>(use.getOwner());
    return store && use.getOperandNumber() == 0 &&
           !whyNotPermutable(store.getAccessTile());
  });
}

std::optional<std::string>
mlir::ktdf::whyNotPermutedAccess(linalg::TransposeOp transpose) {
  if (!transpose.hasPureTensorSemantics() ||
      !cast<RankedTensorType>(transpose.getInput().getType()).hasStaticShape())
    return std::string("a transpose of a static tensor");
  if (onlyStored(transpose))
    return std::nullopt;
  if (auto why = whyNotPermutableValue(transpose.getInput()))
    return "its input must be computed element-wise from loads of tiles in "
           "device memory, or its only uses be stores (here " +
           *why + ")";
  return std::nullopt;
}

/// A copy of `tile` whose order is `order`, typed with `shape`.
static Value withOrder(OpBuilder &b, ktdp::ConstructAccessTileOp tile,
                       AffineMap order, ArrayRef<int64_t> shape) {
  return ktdp::ConstructAccessTileOp::create(
      b, tile.getLoc(), ktdp::AccessTileType::get(tile.getContext(), shape),
      tile.getBase(), tile.getIndices(), tile.getSymbolOperands(),
      tile.getBaseMapAttr(), tile.getAccessTileSetAttr(),
      AffineMapAttr::get(order));
}

/// A copy of the gather `tile` whose tile dimension i walks what its
/// dimension perm[i] walked, typed with `shape`.
static Value permutedIndirect(OpBuilder &b,
                              ktdp::ConstructIndirectAccessTileOp tile,
                              ArrayRef<int64_t> perm, ArrayRef<int64_t> shape) {
  AffineMap order = tile.getVariablesSpaceOrder();
  SmallVector<unsigned> dims;
  for (int64_t p : perm)
    dims.push_back(order.getDimPosition(p));
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointAfter(tile);
  auto copy = cast<ktdp::ConstructIndirectAccessTileOp>(b.clone(*tile));
  copy.setVariablesSpaceOrder(
      AffineMap::getPermutationMap(dims, b.getContext()));
  copy.getResult().setType(ktdp::AccessTileType::get(b.getContext(), shape));
  return copy.getResult();
}

/// The permutation of `source`'s dimensions that, followed by the unit
/// reshape of `source` to `result`, gives `result` transposed by `perm`:
/// the non-unit dimensions move as their images in `result` do, the unit
/// dimensions stay.
static SmallVector<int64_t> liftThroughUnitReshape(RankedTensorType source,
                                                   RankedTensorType result,
                                                   ArrayRef<int64_t> perm) {
  SmallVector<int64_t> sourceDims, resultIndex(result.getRank(), -1);
  for (int64_t d = 0; d < source.getRank(); ++d)
    if (source.getDimSize(d) != 1)
      sourceDims.push_back(d);
  for (int64_t d = 0, k = 0; d < result.getRank(); ++d)
    if (result.getDimSize(d) != 1)
      resultIndex[d] = k++;
  SmallVector<int64_t> lifted =
      llvm::to_vector(llvm::seq<int64_t>(0, source.getRank()));
  unsigned next = 0;
  for (int64_t p : perm)
    if (resultIndex[p] >= 0)
      lifted[sourceDims[next++]] = sourceDims[resultIndex[p]];
  return lifted;
}

/// `v` reshaped to `type` (the same extents other than 1, in order).
static Value reshaped(OpBuilder &b, Location loc, Value v,
                      RankedTensorType type) {
  auto sourceType = cast<RankedTensorType>(v.getType());
  if (sourceType == type)
    return v;
  auto groups = getReassociationIndicesForReshape(sourceType, type);
  assert(groups && "a unit reshape has a reassociation");
  if (sourceType.getRank() > type.getRank())
    return tensor::CollapseShapeOp::create(b, loc, type, v, *groups);
  return tensor::ExpandShapeOp::create(b, loc, type, v, *groups);
}

/// `v` transposed by `perm`, recomputed from loads of permuted tiles
/// (whyNotPermutableValue holds).
static Value permute(PatternRewriter &rewriter, Value v,
                     ArrayRef<int64_t> perm) {
  auto type = cast<RankedTensorType>(v.getType());
  RankedTensorType resultType = permuted(type, perm);
  Operation *def = v.getDefiningOp();
  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPointAfter(def);
  Location loc = def->getLoc();
  if (auto load = dyn_cast<ktdp::LoadOp>(def)) {
    if (auto indirect =
            load.getAccessTile()
                .getDefiningOp<ktdp::ConstructIndirectAccessTileOp>())
      return ktdp::LoadOp::create(rewriter, loc, resultType,
                                  permutedIndirect(rewriter, indirect, perm,
                                                   resultType.getShape()))
          .getResult();
    auto tile =
        load.getAccessTile().getDefiningOp<ktdp::ConstructAccessTileOp>();
    // Loaded dimension k is the view's dimension order[k]; transposed
    // dimension i is loaded dimension perm[i].
    AffineMap order = tile.getAccessTileOrder();
    SmallVector<unsigned> dims;
    for (int64_t p : perm)
      dims.push_back(order.getDimPosition(p));
    AffineMap newOrder =
        AffineMap::getPermutationMap(dims, rewriter.getContext());
    rewriter.setInsertionPointAfter(tile);
    Value newTile = withOrder(rewriter, tile, newOrder, resultType.getShape());
    rewriter.setInsertionPoint(load);
    return ktdp::LoadOp::create(rewriter, loc, resultType, newTile).getResult();
  }
  DenseElementsAttr dense;
  if (matchPattern(v, m_Constant(&dense)))
    return arith::ConstantOp::create(rewriter, loc, resultType,
                                     dense.reshape(resultType));
  if (isa<tensor::EmptyOp>(def))
    return tensor::EmptyOp::create(rewriter, loc, resultType.getShape(),
                                   resultType.getElementType());
  if (isUnitReshape(def)) {
    Value source = def->getOperand(0);
    auto sourceType = cast<RankedTensorType>(source.getType());
    Value permutedSource = permute(
        rewriter, source, liftThroughUnitReshape(sourceType, type, perm));
    rewriter.setInsertionPointAfter(def);
    return reshaped(rewriter, loc, permutedSource, resultType);
  }
  SmallVector<Value> operands;
  for (Value operand : def->getOperands())
    operands.push_back(isa<RankedTensorType>(operand.getType())
                           ? permute(rewriter, operand, perm)
                           : operand);
  rewriter.setInsertionPointAfter(def);
  OperationState state(loc, def->getName(), operands, TypeRange{resultType},
                       def->getAttrs());
  return rewriter.create(state)->getResult(0);
}

namespace {
struct TransposeIntoAccesses : OpRewritePattern<linalg::TransposeOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(linalg::TransposeOp transpose,
                                PatternRewriter &rewriter) const override {
    if (whyNotPermutedAccess(transpose))
      return failure();
    ArrayRef<int64_t> perm = transpose.getPermutation();
    if (onlyStored(transpose)) {
      // Stored dimension i is the input's dimension perm[i] and the view's
      // dimension order[i]: the input's dimension j goes to the view's
      // dimension order[inverse[j]].
      SmallVector<int64_t> inverse(perm.size());
      for (auto [i, p] : llvm::enumerate(perm))
        inverse[p] = i;
      Value input = transpose.getInput();
      auto inputType = cast<RankedTensorType>(input.getType());
      for (OpOperand &use :
           llvm::make_early_inc_range(transpose->getResult(0).getUses())) {
        auto store = cast<ktdp::StoreOp>(use.getOwner());
        auto tile =
            store.getAccessTile().getDefiningOp<ktdp::ConstructAccessTileOp>();
        AffineMap order = tile.getAccessTileOrder();
        SmallVector<unsigned> dims;
        for (int64_t j = 0; j < static_cast<int64_t>(perm.size()); ++j)
          dims.push_back(order.getDimPosition(inverse[j]));
        rewriter.setInsertionPoint(store);
        Value newTile = withOrder(
            rewriter, tile, AffineMap::getPermutationMap(dims, getContext()),
            inputType.getShape());
        rewriter.replaceOpWithNewOp<ktdp::StoreOp>(store, input, newTile);
      }
      rewriter.eraseOp(transpose);
      return success();
    }
    rewriter.replaceOp(transpose,
                       permute(rewriter, transpose.getInput(), perm));
    return success();
  }
};
} // namespace

void mlir::ktdf::populatePermutedAccessPatterns(RewritePatternSet &patterns) {
  patterns.add<TransposeIntoAccesses>(patterns.getContext());
}
