//===- OwnRowStores.cpp - Each part stores its own rows of a sum ---------===//
//
// ktdf-split-wide-reductions cuts a one-point kernel's contraction into P
// parts whose f32 partials an all-reduce sums. A value computed from the
// sum and only stored (the product rounded to f16) was stored by part 0
// alone, every part holding the whole sum: the ring's all-gather then
// moved every chunk to every part for one store. Each part storing its own
// rows of the value needs only the chunk a reduce-scatter leaves it
// (swiglu_ffn on mesh_device: the f16 rounding and store of 8x64 on one
// part, then 1 row on each of 8). The reduce is marked `ktdf.scatter` so
// ktdf-lower-inter-tile drops the all-gather; the kernel stays a valid
// KTIR kernel either way (every tile still gets the whole result, and
// reads a slice of it).
//
//===----------------------------------------------------------------------===//

#include "OwnRowStores.h"
#include "TileSlices.h"

#include "ktflow/Dialect/KTDF/IR/ScatterAttr.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/IRMapping.h"

using namespace mlir;
using namespace mlir::ktdf;

/// A splat tensor constant: an operand the rows of a value can share.
static bool isSplatConstant(Value value) {
  auto constant = value.getDefiningOp<arith::ConstantOp>();
  return constant && isa<SplatElementsAttr>(constant.getValue()) &&
         isa<RankedTensorType>(constant.getType());
}

/// The inter_tile_reduce whose result `value` computes through element-wise
/// ops of it and splat constants (`chain`, from `value` back), each value
/// on the way used once, or null.
static ktdp::InterTileReduceOp reducedThrough(Value value,
                                              SmallVector<Operation *> &chain) {
  for (;;) {
    if (!value.hasOneUse())
      return {};
    if (auto reduce = value.getDefiningOp<ktdp::InterTileReduceOp>())
      return reduce->getNumResults() == 1 ? reduce : nullptr;
    Operation *op = value.getDefiningOp();
    if (!op || op->getNumResults() != 1 || op->getNumRegions() != 0 ||
        !OpTrait::hasElementwiseMappableTraits(op))
      return {};
    Value next;
    for (Value operand : op->getOperands()) {
      if (isSplatConstant(operand))
        continue;
      if (next)
        return {};
      next = operand;
    }
    if (!next)
      return {};
    chain.push_back(op);
    value = next;
  }
}

bool mlir::ktdf::storeOwnRows(OpBuilder &b, ktdp::StoreOp store, Value part,
                              int64_t parts) {
  SmallVector<Operation *> chain;
  ktdp::InterTileReduceOp reduce = reducedThrough(store.getDataTile(), chain);
  auto tile =
      store.getAccessTile().getDefiningOp<ktdp::ConstructAccessTileOp>();
  if (!reduce || !tile)
    return false;
  Value sum = reduce.getResult(0);
  auto type = dyn_cast<RankedTensorType>(sum.getType());
  auto stored = cast<RankedTensorType>(store.getDataTile().getType());
  if (!type || !type.hasStaticShape() || type.getRank() < 1 ||
      type.getDimSize(0) % parts != 0 ||
      cast<ktdp::AccessTileType>(tile.getType()).getShape() !=
          stored.getShape())
    return false;
  int64_t rows = type.getDimSize(0) / parts;
  Location loc = store.getLoc();
  b.setInsertionPoint(store);
  Value first = arith::MulIOp::create(
      b, loc, part, arith::ConstantIndexOp::create(b, loc, rows));
  int64_t rank = type.getRank();
  SmallVector<OpFoldResult> offsets(rank, b.getIndexAttr(0));
  offsets[0] = first;
  SmallVector<OpFoldResult> sizes;
  for (int64_t d = 0; d < rank; ++d)
    sizes.push_back(b.getIndexAttr(d == 0 ? rows : type.getDimSize(d)));
  SmallVector<OpFoldResult> strides(rank, b.getIndexAttr(1));
  Value value =
      tensor::ExtractSliceOp::create(b, loc, sum, offsets, sizes, strides);
  // The chain again on the rows: its ops are element-wise, its constants
  // splats.
  auto rowsOf = [&](Type t) {
    auto shaped = cast<RankedTensorType>(t);
    SmallVector<int64_t> shape(shaped.getShape());
    shape[0] = rows;
    return shaped.clone(shape);
  };
  for (Operation *op : llvm::reverse(chain)) {
    IRMapping map;
    for (Value operand : op->getOperands()) {
      if (!isSplatConstant(operand)) {
        map.map(operand, value);
        continue;
      }
      auto constant = operand.getDefiningOp<arith::ConstantOp>();
      auto splat = cast<SplatElementsAttr>(constant.getValue());
      auto rowType = rowsOf(constant.getType());
      map.map(operand, arith::ConstantOp::create(
                           b, constant.getLoc(),
                           DenseElementsAttr::get(
                               rowType, splat.getSplatValue<Attribute>())));
    }
    Operation *rowOp = b.clone(*op, map);
    rowOp->getResult(0).setType(rowsOf(op->getResult(0).getType()));
    value = rowOp->getResult(0);
  }
  store.getDataTileMutable().assign(value);
  store.getAccessTileMutable().assign(
      buildDimSlice(b, tile.getResult(), 0, first, rows));
  for (Operation *op : chain) {
    SmallVector<Value> operands(op->getOperands());
    op->erase();
    for (Value operand : operands)
      if (Operation *def = operand.getDefiningOp();
          def && def->use_empty() && isSplatConstant(operand))
        def->erase();
  }
  if (tile->use_empty())
    tile.erase();
  setScattered(reduce);
  return true;
}
