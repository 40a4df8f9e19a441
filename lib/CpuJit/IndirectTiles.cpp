//===- IndirectTiles.cpp - Indirect access tiles on the compiled tier -----===//
//
// This file lowers the coordinates of an indirect access tile: one
// subscript per base dimension over (captured values, variables), either
// an affine expression or the integer an index view holds at affine
// coordinates. The reads follow the interpreter (docs/interpreter.md §3):
// an index read outside the index view's coordinate_set, sizes or tensor,
// or a value outside the base view's coordinate bounds, is an error, which
// the loop nests of AccessLowering.cpp record in the status buffer.
//
//===----------------------------------------------------------------------===//

#include "TileLowering.h"

#include "ktflow/Dialect/KTDP/Utils/IntegerSetAnalysis.h"

#include "mlir/Dialect/Affine/Utils.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace ktflow::jit;

static Value indexConstant(OpBuilder &b, Location loc, int64_t v) {
  return arith::ConstantIndexOp::create(b, loc, v);
}

FailureOr<TileLowering>
ktflow::jit::lowerIndirectTile(ktdp::ConstructIndirectAccessTileOp op,
                               const DenseMap<Value, ViewLowering> &views,
                               std::string &why) {
  TileLowering tile;
  tile.indirect = true;
  ArrayAttr kinds = op.getPerDimSubscriptKinds();
  ArrayAttr maps = op.getPerDimSubscriptMaps();
  if (!op.getSymbolOperands().empty()) {
    why = "variables_space_sets with symbols are not lowered yet";
    return failure();
  }
  if (failed(shapeTile(tile, op.getBase(), op.getVariablesSpaceSet(),
                       op.getVariablesSpaceOrder(),
                       cast<ShapedType>(op.getType()), maps.size(), views,
                       why)))
    return failure();
  if (!tile.view->parts.empty()) {
    why = "indirect tiles over distributed views are not lowered yet";
    return failure();
  }
  if (tile.view->set.getNumSymbols() != 0) {
    why = "indirect tiles over views with dynamic sizes are not lowered yet";
    return failure();
  }
  FailureOr<ktdp::IntegerBox> bounds = ktdp::getBoundingBox(tile.view->set, {});
  if (failed(bounds)) {
    why = "an indirect tile over a view with an unbounded coordinate_set";
    return failure();
  }
  tile.baseLower = bounds->lower;
  tile.baseUpper = bounds->upper;
  tile.captured.assign(op.getCapturedVariables().begin(),
                       op.getCapturedVariables().end());
  unsigned numDims = tile.captured.size() + tile.perm.size();
  auto indexViews = op.getIndirectMemrefs();
  unsigned nextIndexView = 0;
  for (auto [kindAttr, mapAttr] : llvm::zip(kinds, maps)) {
    Subscript sub;
    sub.map = cast<AffineMapAttr>(mapAttr).getValue();
    bool indirect = cast<BoolAttr>(kindAttr).getValue();
    if (sub.map.getNumDims() != numDims || sub.map.getNumSymbols() != 0 ||
        (!indirect && sub.map.getNumResults() != 1)) {
      why = "an indirect tile subscript the interpreter rejects";
      return failure();
    }
    if (indirect) {
      auto it = nextIndexView < indexViews.size()
                    ? views.find(indexViews[nextIndexView++])
                    : views.end();
      if (it == views.end() || !it->second.parts.empty() ||
          !isa<IntegerType, IndexType>(
              cast<MemRefType>(it->second.bufferValue.getType())
                  .getElementType()) ||
          it->second.sizes.size() != sub.map.getNumResults()) {
        why = "an index view that is not an integer view of a tensor "
              "argument with one subscript per dimension";
        return failure();
      }
      sub.indexView = &it->second;
    }
    tile.subscripts.push_back(sub);
  }
  return tile;
}

SmallVector<Value>
ktflow::jit::emitIndirectCoordinates(OpBuilder &b, Location loc,
                                     const TileLowering &tile,
                                     ArrayRef<Value> point, Value &readable) {
  SmallVector<Value> dims(tile.captured);
  dims.append(point.begin(), point.end());
  readable = arith::ConstantIntOp::create(b, loc, 1, 1);
  SmallVector<Value> coord;
  for (auto [j, sub] : llvm::enumerate(tile.subscripts)) {
    SmallVector<Value> exprs;
    for (AffineExpr expr : sub.map.getResults())
      exprs.push_back(affine::expandAffineExpr(b, loc, expr, dims, {}));
    if (!sub.indexView) {
      coord.push_back(exprs.front());
      continue;
    }
    const ViewLowering &index = *sub.indexView;
    Value inIndexView =
        emitContains(b, loc, index.set, exprs, index.setSymbols);
    Value address, valid;
    emitViewAddress(b, loc, index, exprs, address, valid);
    Value ok = arith::AndIOp::create(b, loc, inIndexView, valid);
    auto read = scf::IfOp::create(
        b, loc, ok,
        [&](OpBuilder &then, Location l) {
          Value v = memref::LoadOp::create(then, l, index.bufferValue,
                                           ValueRange{address});
          scf::YieldOp::create(then, l,
                               Value(arith::IndexCastOp::create(
                                   then, l, then.getIndexType(), v)));
        },
        [&](OpBuilder &otherwise, Location l) {
          scf::YieldOp::create(otherwise, l, indexConstant(otherwise, l, 0));
        });
    Value value = read.getResult(0);
    Value inBounds = arith::AndIOp::create(
        b, loc,
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sge, value,
                              indexConstant(b, loc, tile.baseLower[j])),
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sle, value,
                              indexConstant(b, loc, tile.baseUpper[j])));
    readable = arith::AndIOp::create(
        b, loc, readable, arith::AndIOp::create(b, loc, ok, inBounds));
    coord.push_back(value);
  }
  return coord;
}
