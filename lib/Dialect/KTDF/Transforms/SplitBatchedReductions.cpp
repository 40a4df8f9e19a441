//===- SplitBatchedReductions.cpp - One column reduction per batch --------===//
//
// This file implements --ktdf-split-batched-reductions. The stream planner
// reduces the columns of a tile only when every leading dimension is
// reduced (or of extent 1, which ktdf-generalize drops): a 2x16x64 tile
// summed over its rows, its two batches kept, is refused. Each batch is a
// column reduction of its own, so the pass cuts the reduction along the
// outermost kept leading dimension into one reduction per index of it, on
// a window of the input each (tensor.extract_slice), and joins the results
// with tensor.concat; ktdf-lift-slices, which runs next, then loads each
// window alone and stores each result where it lands. Only reductions whose
// input that pass slices (isSliceable) and whose result is stored are cut,
// so what is left is refused as before.
//
//===----------------------------------------------------------------------===//

#include "LiftSlices.h"

#include "ktflow/Dialect/KTDF/Transforms/Passes.h"
#include "ktflow/Dialect/KTDP/IR/KTDP.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/IRMapping.h"

namespace mlir::ktdf {
#define GEN_PASS_DEF_KTDFSPLITBATCHEDREDUCTIONS
#include "ktflow/Dialect/KTDF/Transforms/Passes.h.inc"
} // namespace mlir::ktdf

using namespace mlir;
using namespace mlir::ktdf;

/// The outermost dimension of `reduce`'s input that it keeps, that is not
/// its innermost and whose extent is more than 1, when it reduces columns
/// (not the innermost dimension) of a loaded tile into a stored result.
static std::optional<int64_t> batchDimension(linalg::ReduceOp reduce) {
  if (reduce.getInputs().size() != 1 || reduce.getInits().size() != 1)
    return std::nullopt;
  auto type = cast<RankedTensorType>(reduce.getInputs()[0].getType());
  ArrayRef<int64_t> reduced = reduce.getDimensions();
  int64_t rank = type.getRank();
  if (rank < 3 || !type.hasStaticShape() ||
      llvm::is_contained(reduced, rank - 1) ||
      !isSliceable(reduce.getInputs()[0]))
    return std::nullopt;
  auto fill = reduce.getInits()[0].getDefiningOp<linalg::FillOp>();
  Value result = reduce.getResult(0);
  if (!fill || !result.hasOneUse() || !isa<ktdp::StoreOp>(*result.user_begin()))
    return std::nullopt;
  for (int64_t d = 0; d < rank - 1; ++d)
    if (!llvm::is_contained(reduced, d) && type.getDimSize(d) > 1)
      return d;
  return std::nullopt;
}

/// `reduce` as one reduction per index of the input's dimension `batch`,
/// joined by tensor.concat.
static void splitReduction(linalg::ReduceOp reduce, int64_t batch) {
  OpBuilder b(reduce);
  Location loc = reduce.getLoc();
  Value input = reduce.getInputs()[0];
  auto inputType = cast<RankedTensorType>(input.getType());
  auto resultType = cast<RankedTensorType>(reduce.getResult(0).getType());
  // The result keeps `batch` at its position among the kept dimensions.
  int64_t resultBatch = batch;
  for (int64_t d : reduce.getDimensions())
    resultBatch -= d < batch;
  auto fill = reduce.getInits()[0].getDefiningOp<linalg::FillOp>();
  SmallVector<int64_t> inputShape(inputType.getShape());
  inputShape[batch] = 1;
  SmallVector<int64_t> resultShape(resultType.getShape());
  resultShape[resultBatch] = 1;
  auto pieceType =
      RankedTensorType::get(resultShape, resultType.getElementType());
  SmallVector<Value> pieces;
  for (int64_t i = 0; i < inputType.getDimSize(batch); ++i) {
    SmallVector<OpFoldResult> offsets(inputType.getRank(), b.getIndexAttr(0));
    offsets[batch] = b.getIndexAttr(i);
    SmallVector<OpFoldResult> sizes,
        strides(inputType.getRank(), b.getIndexAttr(1));
    for (int64_t extent : inputShape)
      sizes.push_back(b.getIndexAttr(extent));
    Value window = tensor::ExtractSliceOp::create(
        b, loc, RankedTensorType::get(inputShape, inputType.getElementType()),
        input, offsets, sizes, strides);
    Value empty = tensor::EmptyOp::create(b, loc, resultShape,
                                          resultType.getElementType());
    Value init =
        linalg::FillOp::create(b, loc, fill.getInputs()[0], empty).getResult(0);
    IRMapping map;
    map.map(input, window);
    map.map(reduce.getInits()[0], init);
    Operation *piece = b.clone(*reduce, map);
    piece->getResult(0).setType(pieceType);
    pieces.push_back(piece->getResult(0));
  }
  Value joined = tensor::ConcatOp::create(b, loc, resultBatch, pieces);
  reduce.getResult(0).replaceAllUsesWith(joined);
  reduce.erase();
  if (fill->use_empty())
    fill.erase();
}

namespace {
struct SplitBatchedReductionsPass
    : public ktdf::impl::KTDFSplitBatchedReductionsBase<
          SplitBatchedReductionsPass> {
  void runOnOperation() override {
    SmallVector<std::pair<linalg::ReduceOp, int64_t>> batched;
    getOperation().walk([&](linalg::ReduceOp reduce) {
      if (std::optional<int64_t> batch = batchDimension(reduce))
        batched.push_back({reduce, *batch});
    });
    for (auto [reduce, batch] : batched)
      splitReduction(reduce, batch);
  }
};
} // namespace
