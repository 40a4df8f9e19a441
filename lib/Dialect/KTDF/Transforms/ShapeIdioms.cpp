//===- ShapeIdioms.cpp - Reshapes and dot products the scheduler folds ----===//
//
// This file implements the recognisers and rewrites of ShapeIdioms.h: unit
// reshapes become linalg.generic copies whose indexing maps carry the
// reshape (element-wise fusion folds them into their neighbours), and a
// row's dot product with itself becomes the f32-accumulated row reduction
// of x * x the reference interpreter computes for that matmul
// (docs/interpreter.md: products of 16-bit inputs exact in f32, the sum
// rounded once to the output type, then added into the output).
//
//===----------------------------------------------------------------------===//

#include "ShapeIdioms.h"

#include "ktflow/Dialect/KTDP/IR/KTDP.h"
#include "ktflow/Dialect/KTDP/Utils/IntegerSetAnalysis.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Matchers.h"
#include "llvm/ADT/SmallBitVector.h"

using namespace mlir;
using namespace mlir::ktdf;

/// The extents of `shape` other than 1.
static SmallVector<int64_t> nonUnitExtents(ArrayRef<int64_t> shape) {
  return llvm::filter_to_vector(shape, [](int64_t e) { return e != 1; });
}

bool mlir::ktdf::isUnitReshape(Operation *op) {
  if (!isa_and_present<tensor::CollapseShapeOp, tensor::ExpandShapeOp>(op))
    return false;
  auto source = cast<RankedTensorType>(op->getOperand(0).getType());
  auto result = cast<RankedTensorType>(op->getResult(0).getType());
  return source.hasStaticShape() && result.hasStaticShape() &&
         nonUnitExtents(source.getShape()) == nonUnitExtents(result.getShape());
}

Value mlir::ktdf::matchRowSumOfSquares(linalg::MatmulOp matmul) {
  if (matmul.getInputs().size() != 2 || matmul.getOutputs().size() != 1 ||
      !matmul.hasPureTensorSemantics())
    return nullptr;
  // Default indexing maps only (no broadcast or transposed operands).
  if (matmul.hasUserDefinedMaps())
    return nullptr;
  Value x = matmul.getInputs()[0];
  auto transpose = matmul.getInputs()[1].getDefiningOp<linalg::TransposeOp>();
  if (!transpose || transpose.getInput() != x ||
      transpose.getPermutation() != ArrayRef<int64_t>{1, 0})
    return nullptr;
  auto xType = cast<RankedTensorType>(x.getType());
  auto outType = cast<RankedTensorType>(matmul.getOutputs()[0].getType());
  if (!xType.hasStaticShape() || xType.getRank() != 2 ||
      xType.getDimSize(0) != 1 || outType.getShape() != ArrayRef<int64_t>{1, 1})
    return nullptr;
  // Floats up to 32 bits: the products and the sum are then f32 values.
  auto in = dyn_cast<FloatType>(xType.getElementType());
  auto out = dyn_cast<FloatType>(outType.getElementType());
  if (!in || !out || in.getWidth() > 32 || out.getWidth() > 32)
    return nullptr;
  return x;
}

bool mlir::ktdf::onlyFeedsRowSumsOfSquares(linalg::TransposeOp transpose) {
  if (transpose->use_empty())
    return false;
  for (OpOperand &use : transpose->getResult(0).getUses()) {
    auto matmul = dyn_cast<linalg::MatmulOp>(use.getOwner());
    if (!matmul || use.getOperandNumber() != 1 || !matchRowSumOfSquares(matmul))
      return false;
  }
  return true;
}

bool mlir::ktdf::isPositiveZero(Value v) {
  if (auto fill = v.getDefiningOp<linalg::FillOp>())
    v = fill.getInputs()[0];
  APFloat value(0.0);
  if (matchPattern(v, m_ConstantFloat(&value)))
    return value.isPosZero();
  DenseElementsAttr dense;
  if (matchPattern(v, m_Constant(&dense)) && dense.isSplat() &&
      isa<FloatType>(dense.getElementType()))
    return dense.getSplatValue<APFloat>().isPosZero();
  return false;
}

void mlir::ktdf::replaceWithCopy(PatternRewriter &rewriter, Operation *op,
                                 Value source, AffineMap read) {
  auto type = cast<RankedTensorType>(op->getResult(0).getType());
  AffineMap write =
      AffineMap::getMultiDimIdentityMap(type.getRank(), rewriter.getContext());
  Value init = tensor::EmptyOp::create(rewriter, op->getLoc(), type.getShape(),
                                       type.getElementType());
  SmallVector<utils::IteratorType> iterators(type.getRank(),
                                             utils::IteratorType::parallel);
  rewriter.replaceOpWithNewOp<linalg::GenericOp>(
      op, type, ValueRange{source}, ValueRange{init},
      ArrayRef<AffineMap>{read, write}, iterators,
      [](OpBuilder &b, Location l, ValueRange args) {
        linalg::YieldOp::create(b, l, args.front());
      });
}

/// The bounding box of `set` when it is a box with its corner at the
/// origin (every dimension from 0).
static FailureOr<ktdp::IntegerBox> boxFromOrigin(IntegerSet set) {
  auto box = ktdp::getBoundingBox(set, {});
  if (failed(box) || !ktdp::isBoxShaped(set) ||
      llvm::any_of(box->lower, [](int64_t l) { return l != 0; }))
    return failure();
  return box;
}

/// The tile dimensions a unit collapse from `source` to `result` keeps,
/// matching the result's extents in order; the others must be 1.
static FailureOr<SmallVector<unsigned>>
keptByUnitCollapse(ArrayRef<int64_t> source, ArrayRef<int64_t> result) {
  SmallVector<unsigned> kept;
  for (unsigned i = 0, j = 0; i < source.size(); ++i) {
    if (j < result.size() && source[i] == result[j]) {
      kept.push_back(i);
      ++j;
    } else if (source[i] != 1) {
      return failure();
    }
  }
  if (kept.size() != result.size())
    return failure();
  return kept;
}

namespace {
/// A unit reshape as a copy: the result's loops, reading the source at the
/// result dimension holding each of its non-unit dimensions and at 0 in
/// the others.
template <typename ReshapeOp>
struct UnitReshapeToGeneric : OpRewritePattern<ReshapeOp> {
  using OpRewritePattern<ReshapeOp>::OpRewritePattern;

  LogicalResult matchAndRewrite(ReshapeOp op,
                                PatternRewriter &rewriter) const override {
    if (!isUnitReshape(op))
      return failure();
    MLIRContext *ctx = rewriter.getContext();
    auto source = cast<RankedTensorType>(op.getSrc().getType());
    auto type = cast<RankedTensorType>(op.getType());
    SmallVector<int64_t> nonUnitDims;
    for (auto [d, extent] : llvm::enumerate(type.getShape()))
      if (extent != 1)
        nonUnitDims.push_back(d);
    SmallVector<AffineExpr> reads;
    unsigned next = 0;
    for (int64_t extent : source.getShape())
      reads.push_back(extent == 1 ? getAffineConstantExpr(0, ctx)
                                  : getAffineDimExpr(nonUnitDims[next++], ctx));
    replaceWithCopy(rewriter, op, op.getSrc(),
                    AffineMap::get(type.getRank(), 0, reads, ctx));
    return success();
  }
};

/// collapse_shape(load(gather)) that only drops unit dimensions: the load
/// of the same gather without the variables those dimensions walk (each
/// ranging over {0}, read as 0 in the subscripts). A page of a 4-d paged
/// cache, gathered 1x16x1x128 and collapsed to 16x128, is then a 16x128
/// gather, the shape its matrix product or compute reads, instead of a
/// copy that drops the unit dimensions.
struct UnitCollapseOfGather : OpRewritePattern<tensor::CollapseShapeOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(tensor::CollapseShapeOp collapse,
                                PatternRewriter &rewriter) const override {
    auto load = collapse.getSrc().getDefiningOp<ktdp::LoadOp>();
    auto tile = load ? load.getAccessTile()
                           .getDefiningOp<ktdp::ConstructIndirectAccessTileOp>()
                     : nullptr;
    if (!tile || !isUnitReshape(collapse) || !load->hasOneUse() ||
        !tile->hasOneUse() || !tile.getSymbolOperands().empty() ||
        !tile.getVariablesSpaceOrder().isPermutation())
      return failure();
    auto box = boxFromOrigin(tile.getVariablesSpaceSet());
    if (failed(box))
      return failure();
    // Tile dimensions kept, matching the result's extents in order.
    ArrayRef<int64_t> source = collapse.getSrcType().getShape();
    ArrayRef<int64_t> result = collapse.getResultType().getShape();
    auto keptDims = keptByUnitCollapse(source, result);
    if (failed(keptDims))
      return failure();
    SmallVector<unsigned> kept = *keptDims;
    // Variables kept (in their numbering) and their new positions.
    AffineMap order = tile.getVariablesSpaceOrder();
    unsigned numVars = order.getNumDims();
    llvm::SmallBitVector keptVar(numVars);
    for (unsigned k : kept)
      keptVar.set(order.getDimPosition(k));
    SmallVector<int64_t> newIndex(numVars, -1), extents;
    for (unsigned v = 0, n = 0; v < numVars; ++v)
      if (keptVar[v]) {
        newIndex[v] = n++;
        extents.push_back(box->getExtents()[v]);
      }
    MLIRContext *ctx = getContext();
    unsigned numCaptured = tile.getCapturedVariables().size();
    SmallVector<AffineExpr> replacements;
    for (unsigned c = 0; c < numCaptured; ++c)
      replacements.push_back(getAffineDimExpr(c, ctx));
    for (unsigned v = 0; v < numVars; ++v)
      replacements.push_back(
          keptVar[v] ? getAffineDimExpr(numCaptured + newIndex[v], ctx)
                     : getAffineConstantExpr(0, ctx));
    SmallVector<Attribute> maps;
    for (Attribute map : tile.getPerDimSubscriptMaps())
      maps.push_back(AffineMapAttr::get(
          cast<AffineMapAttr>(map).getValue().replaceDimsAndSymbols(
              replacements, {}, numCaptured + extents.size(), 0)));
    SmallVector<unsigned> newOrder;
    for (unsigned k : kept)
      newOrder.push_back(newIndex[order.getDimPosition(k)]);

    rewriter.setInsertionPoint(tile);
    auto reduced =
        cast<ktdp::ConstructIndirectAccessTileOp>(rewriter.clone(*tile));
    Block &body = reduced.getBody().front();
    for (int v = static_cast<int>(numVars) - 1; v >= 0; --v)
      if (!keptVar[v])
        body.eraseArgument(v);
    reduced.setPerDimSubscriptMapsAttr(rewriter.getArrayAttr(maps));
    reduced.setVariablesSpaceSet(ktdp::getBoxSet(extents, ctx));
    reduced.setVariablesSpaceOrder(AffineMap::getPermutationMap(newOrder, ctx));
    reduced.getResult().setType(ktdp::AccessTileType::get(ctx, result));
    rewriter.replaceOpWithNewOp<ktdp::LoadOp>(
        collapse, collapse.getResultType(), reduced.getResult());
    rewriter.eraseOp(load);
    rewriter.eraseOp(tile);
    return success();
  }
};

} // namespace

/// The tile of a direct view `tile` (of `shape`, whose unit dimensions a
/// reshape to `unitless` drops or adds) through a view with each such
/// dimension merged into its inner neighbour, where the view dimension it
/// walks is contiguous with that one (stride = inner stride x inner size),
/// at the merged anchor; null where the tile is not of that form.
static ktdp::ConstructAccessTileOp
mergedUnitTile(PatternRewriter &rewriter, ktdp::ConstructAccessTileOp tile,
               ArrayRef<int64_t> shape, ArrayRef<int64_t> unitless) {
  auto view = tile.getBase().getDefiningOp<ktdp::ConstructMemoryViewOp>();
  if (!view || !tile->hasOneUse() || !tile.getSymbolOperands().empty() ||
      !tile.getAccessTileOrder().isPermutation() || !view.getSizes().empty() ||
      !view.getStrides().empty())
    return {};
  ArrayRef<int64_t> sizes = view.getStaticSizes();
  ArrayRef<int64_t> strides = view.getStaticStrides();
  unsigned rank = sizes.size();
  // The view holds the box of its sizes, the tile a box from its anchor.
  auto viewBox = boxFromOrigin(view.getCoordinateSet());
  auto box = boxFromOrigin(tile.getAccessTileSet());
  if (failed(viewBox) || failed(box) ||
      viewBox->getExtents() != SmallVector<int64_t>(sizes))
    return {};
  auto kept = keptByUnitCollapse(shape, unitless);
  if (failed(kept))
    return {};
  AffineMap order = tile.getAccessTileOrder();
  llvm::SmallBitVector keptDim(rank);
  for (unsigned k : *kept)
    keptDim.set(order.getDimPosition(k));
  // Groups of view dimensions, innermost first: a kept dimension starts
  // one, a dropped one joins the group inside it when contiguous with it.
  SmallVector<int64_t> group(rank, -1);
  SmallVector<int64_t> groupSize, groupStride;
  for (int v = static_cast<int>(rank) - 1; v >= 0; --v) {
    if (keptDim[v]) {
      group[v] = groupSize.size();
      groupSize.push_back(sizes[v]);
      groupStride.push_back(strides[v]);
      continue;
    }
    if (groupSize.empty() ||
        strides[v] != groupStride.back() * groupSize.back())
      return {};
    group[v] = groupSize.size() - 1;
    groupSize.back() *= sizes[v];
  }
  unsigned newRank = groupSize.size();
  auto index = [&](int64_t g) { return newRank - 1 - g; };
  // The merged anchor: each dimension's coordinate times the size of the
  // dimensions inside it in its group.
  MLIRContext *ctx = tile.getContext();
  AffineMap base = tile.getBaseMap();
  SmallVector<AffineExpr> anchor(newRank, getAffineConstantExpr(0, ctx));
  SmallVector<int64_t> inner(newRank, 1);
  SmallVector<int64_t> extents(newRank, 1);
  for (int v = static_cast<int>(rank) - 1; v >= 0; --v) {
    unsigned g = index(group[v]);
    anchor[g] = anchor[g] + base.getResult(v) * inner[g];
    inner[g] *= sizes[v];
    if (keptDim[v])
      extents[g] = box->getExtents()[v];
  }
  SmallVector<unsigned> newOrder;
  for (unsigned k : *kept)
    newOrder.push_back(index(group[order.getDimPosition(k)]));
  SmallVector<int64_t> newSizes(newRank), newStrides(newRank);
  for (unsigned g = 0; g < newRank; ++g) {
    newSizes[index(g)] = groupSize[g];
    newStrides[index(g)] = groupStride[g];
  }

  rewriter.setInsertionPoint(tile);
  auto memref = cast<MemRefType>(view.getType());
  auto merged = ktdp::ConstructMemoryViewOp::create(
      rewriter, view.getLoc(),
      MemRefType::get(newSizes, memref.getElementType(),
                      MemRefLayoutAttrInterface(), memref.getMemorySpace()),
      view.getOffset(), ValueRange{}, ValueRange{},
      rewriter.getDenseI64ArrayAttr(newSizes),
      rewriter.getDenseI64ArrayAttr(newStrides), view.getMemorySpace(),
      IntegerSetAttr::get(ktdp::getBoxSet(newSizes, ctx)));
  merged->setDiscardableAttrs(view->getDiscardableAttrDictionary());
  SmallVector<int64_t> reducedShape;
  for (unsigned g : newOrder)
    reducedShape.push_back(extents[g]);
  return ktdp::ConstructAccessTileOp::create(
      rewriter, tile.getLoc(), ktdp::AccessTileType::get(ctx, reducedShape),
      merged, tile.getIndices(), ValueRange{},
      AffineMapAttr::get(
          AffineMap::get(base.getNumDims(), base.getNumSymbols(), anchor, ctx)),
      IntegerSetAttr::get(ktdp::getBoxSet(extents, ctx)),
      AffineMapAttr::get(AffineMap::getPermutationMap(newOrder, ctx)));
}

/// Erases `tile`, its access replaced, and its view if nothing else reads
/// it.
static void eraseUnusedTile(PatternRewriter &rewriter,
                            ktdp::ConstructAccessTileOp tile) {
  auto view = tile.getBase().getDefiningOp<ktdp::ConstructMemoryViewOp>();
  rewriter.eraseOp(tile);
  if (view->use_empty())
    rewriter.eraseOp(view);
}

namespace {
/// collapse_shape(load(tile of a view)) that only drops unit dimensions:
/// the load of the merged tile (mergedUnitTile). A 1x8x128 tile of a
/// 4x64x128 view, collapsed to 8x128, is then an 8x128 tile of the 256x128
/// view, the shape its matrix product reads, instead of a copy that drops
/// the unit dimension.
struct UnitCollapseOfLoad : OpRewritePattern<tensor::CollapseShapeOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(tensor::CollapseShapeOp collapse,
                                PatternRewriter &rewriter) const override {
    auto load = collapse.getSrc().getDefiningOp<ktdp::LoadOp>();
    auto tile =
        load ? load.getAccessTile().getDefiningOp<ktdp::ConstructAccessTileOp>()
             : nullptr;
    if (!tile || !isUnitReshape(collapse) || !load->hasOneUse())
      return failure();
    ktdp::ConstructAccessTileOp reduced =
        mergedUnitTile(rewriter, tile, collapse.getSrcType().getShape(),
                       collapse.getResultType().getShape());
    if (!reduced)
      return failure();
    rewriter.replaceOpWithNewOp<ktdp::LoadOp>(
        collapse, collapse.getResultType(), reduced.getResult());
    rewriter.eraseOp(load);
    eraseUnusedTile(rewriter, tile);
    return success();
  }
};

/// store(expand_shape(x), tile of a view) that only adds unit dimensions:
/// the store of x to the merged tile, as UnitCollapseOfLoad loads one (the
/// field guide's 8x128 output expanded to a 1x8x128 block of a 3-d view).
struct UnitExpandOfStore : OpRewritePattern<ktdp::StoreOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(ktdp::StoreOp store,
                                PatternRewriter &rewriter) const override {
    auto expand = store.getDataTile().getDefiningOp<tensor::ExpandShapeOp>();
    auto tile =
        store.getAccessTile().getDefiningOp<ktdp::ConstructAccessTileOp>();
    if (!expand || !tile || !isUnitReshape(expand))
      return failure();
    ktdp::ConstructAccessTileOp reduced =
        mergedUnitTile(rewriter, tile, expand.getResultType().getShape(),
                       expand.getSrcType().getShape());
    if (!reduced)
      return failure();
    rewriter.replaceOpWithNewOp<ktdp::StoreOp>(store, expand.getSrc(),
                                               reduced.getResult());
    if (expand->use_empty())
      rewriter.eraseOp(expand);
    eraseUnusedTile(rewriter, tile);
    return success();
  }
};

/// matmul(x, transpose(x)) into a 1x1 output O: the row reduction
/// S = sum_k f32(x_k) * f32(x_k) from 0 in f32 (exact products of 16-bit
/// inputs, as the interpreter's matmul), rounded once to O's type,
/// expanded to 1x1 and added into O unless O is +0.
struct RowSumOfSquares : OpRewritePattern<linalg::MatmulOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(linalg::MatmulOp matmul,
                                PatternRewriter &rewriter) const override {
    Value x = matchRowSumOfSquares(matmul);
    if (!x)
      return failure();
    MLIRContext *ctx = rewriter.getContext();
    Location loc = matmul.getLoc();
    Value output = matmul.getOutputs()[0];
    auto outType = cast<RankedTensorType>(output.getType());
    Type f32 = Float32Type::get(ctx);
    Value zero = arith::ConstantOp::create(rewriter, loc, f32,
                                           rewriter.getF32FloatAttr(0.0));
    Value empty = tensor::EmptyOp::create(rewriter, loc, {1}, f32);
    Value init =
        linalg::FillOp::create(rewriter, loc, zero, empty).getResult(0);
    AffineMap whole = AffineMap::getMultiDimIdentityMap(2, ctx);
    AffineMap row = AffineMap::get(2, 0, getAffineDimExpr(0, ctx), ctx);
    Value sum =
        linalg::GenericOp::create(
            rewriter, loc, init.getType(), ValueRange{x}, ValueRange{init},
            ArrayRef<AffineMap>{whole, row},
            ArrayRef<utils::IteratorType>{utils::IteratorType::parallel,
                                          utils::IteratorType::reduction},
            [&](OpBuilder &b, Location l, ValueRange args) {
              Value v = args[0];
              if (v.getType() != f32)
                v = arith::ExtFOp::create(b, l, f32, v);
              Value square = arith::MulFOp::create(b, l, v, v);
              Value acc = arith::AddFOp::create(b, l, square, args[1]);
              linalg::YieldOp::create(b, l, acc);
            })
            .getResult(0);
    Type element = outType.getElementType();
    if (element != f32)
      sum = arith::TruncFOp::create(rewriter, loc,
                                    RankedTensorType::get({1}, element), sum);
    Value product = tensor::ExpandShapeOp::create(
        rewriter, loc, outType, sum, ArrayRef<ReassociationIndices>{{0, 1}});
    if (!isPositiveZero(output))
      product = arith::AddFOp::create(rewriter, loc, output, product);
    rewriter.replaceOp(matmul, product);
    return success();
  }
};
} // namespace

void mlir::ktdf::populateUnitReshapePatterns(RewritePatternSet &patterns) {
  patterns.add<UnitReshapeToGeneric<tensor::CollapseShapeOp>,
               UnitReshapeToGeneric<tensor::ExpandShapeOp>>(
      patterns.getContext());
}

void mlir::ktdf::populateUnitCollapseOfGatherPatterns(
    RewritePatternSet &patterns) {
  patterns.add<UnitCollapseOfGather, UnitCollapseOfLoad>(patterns.getContext());
}

void mlir::ktdf::populateUnitTilePatterns(RewritePatternSet &patterns) {
  patterns.add<UnitCollapseOfLoad, UnitExpandOfStore>(patterns.getContext());
}

void mlir::ktdf::populateRowSumOfSquaresPatterns(RewritePatternSet &patterns) {
  patterns.add<RowSumOfSquares>(patterns.getContext());
}
