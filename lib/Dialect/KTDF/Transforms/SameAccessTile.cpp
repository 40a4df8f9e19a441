//===- SameAccessTile.cpp - Tiles that address the same elements ----------===//
//
// This file compares two access tiles by what they address rather than by
// their SSA values: ktdf-sink-into-loops clones the loads it sinks, and an
// unrolled loop repeats them, so equal tiles are often distinct ops.
//
//===----------------------------------------------------------------------===//

#include "SameAccessTile.h"

#include "ktflow/Dialect/KTDP/IR/KTDP.h"

#include "mlir/IR/AffineExpr.h"
#include "mlir/IR/Matchers.h"

using namespace mlir;

/// The same value, or constants of the same value.
static bool sameValue(Value a, Value b) {
  APInt x, y;
  return a == b || (matchPattern(a, m_ConstantInt(&x)) &&
                    matchPattern(b, m_ConstantInt(&y)) && x == y);
}

/// The anchor of `tile` as affine expressions of its indices, constant
/// indices folded in and the others numbered by their place in `dims`
/// (added on first use), so `%X[%r, 0]` and `%X[%r, %c0]` compare equal.
static SmallVector<AffineExpr> anchorOf(ktdp::ConstructAccessTileOp tile,
                                        SmallVector<Value> &dims) {
  MLIRContext *context = tile.getContext();
  SmallVector<AffineExpr> replacements;
  for (Value index : tile.getIndices()) {
    APInt constant;
    if (matchPattern(index, m_ConstantInt(&constant))) {
      replacements.push_back(
          getAffineConstantExpr(constant.getSExtValue(), context));
      continue;
    }
    auto it = llvm::find(dims, index);
    replacements.push_back(getAffineDimExpr(it - dims.begin(), context));
    if (it == dims.end())
      dims.push_back(index);
  }
  SmallVector<AffineExpr> anchor;
  for (AffineExpr expr : tile.getBaseMap().getResults())
    anchor.push_back(expr.replaceDims(replacements));
  return anchor;
}

bool mlir::ktdf::sameAccessTile(Value a, Value b) {
  if (a == b)
    return true;
  auto x = a.getDefiningOp<ktdp::ConstructAccessTileOp>();
  auto y = b.getDefiningOp<ktdp::ConstructAccessTileOp>();
  if (!x || !y || x.getBase() != y.getBase() || x.getType() != y.getType() ||
      x.getAccessTileSet() != y.getAccessTileSet() ||
      x.getAccessTileOrder() != y.getAccessTileOrder() ||
      x.getSymbolOperands().size() != y.getSymbolOperands().size())
    return false;
  for (auto [v, w] : llvm::zip(x.getSymbolOperands(), y.getSymbolOperands()))
    if (!sameValue(v, w))
      return false;
  SmallVector<Value> dims;
  SmallVector<AffineExpr> anchor = anchorOf(x, dims);
  return anchor == anchorOf(y, dims);
}
