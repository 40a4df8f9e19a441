//===- PointRowGathers.cpp - Gathers of a grid point's rows ---------------===//
//
// This file implements the gathers a PointRowPlan cuts with its row tiles
// (MergeGridPoints.h): an indirect tile whose first variable walks the
// point's rows through its subscripts, the row origin captured in them
// (indexed_add's `%TABLE[ind(%IDX[%r0 + %d0]), (%col0 + %d1)]`, r0 = 16 *
// gx). Row d0 of the gathered tensor reads index entry r0 + d0, so rows
// [k * R', (k + 1) * R') of it are the gather of the same subscripts with
// d0 replaced by k * R' + d0: a part reads only its rows' index entries.
// Such a gather is bound by its index reads (one device-memory round trip
// each, ~150 cycles on spyre_like, against 64 bytes of row), which the
// parts spread over the DMA engines of the lanes they run on.
//
//===----------------------------------------------------------------------===//

#include "IndexAnalysis.h"
#include "MergeGridPoints.h"
#include "SplitGathers.h"

#include "ktflow/Dialect/KTDP/IR/KTDP.h"
#include "ktflow/Dialect/KTDP/Utils/IntegerSetAnalysis.h"

#include "llvm/Support/FormatVariadic.h"

using namespace mlir;
using namespace mlir::ktdf;

/// Whether `expr` is a sum of constant multiples of its dimensions and a
/// constant: a floordiv or mod (rows sharing an index, a page's) is not,
/// and affineCoefficients would read its slope at the origin only.
static bool isLinear(AffineExpr expr) {
  bool linear = true;
  expr.walk([&](AffineExpr e) {
    linear &= e.getKind() != AffineExprKind::FloorDiv &&
              e.getKind() != AffineExprKind::CeilDiv &&
              e.getKind() != AffineExprKind::Mod;
  });
  return linear && expr.isPureAffine();
}

std::optional<std::string>
mlir::ktdf::whyNotRowGather(ktdp::ConstructIndirectAccessTileOp tile, Value id,
                            int64_t rows) {
  if (!tile.getSymbolOperands().empty())
    return std::string("its subscripts have symbols");
  IntegerSet space = tile.getVariablesSpaceSet();
  FailureOr<ktdp::IntegerBox> box = ktdp::getBoundingBox(space, {});
  if (!tile.getVariablesSpaceOrder().isIdentity() ||
      !ktdp::isBoxShaped(space) || failed(box) ||
      llvm::any_of(box->lower, [](int64_t l) { return l != 0; }))
    return std::string(
        "its variable space is not a box from 0 in identity order");
  if (box->getExtents().front() != rows)
    return llvm::formatv("its first variable walks {0} rows, not the point's "
                         "{1}",
                         box->getExtents().front(), rows)
        .str();
  if (llvm::any_of(tile->getUsers(),
                   [](Operation *user) { return !isa<ktdp::LoadOp>(user); }))
    return std::string("it is not only loaded (a scatter's parts could write "
                       "a row twice in another order)");
  // How far each captured value moves per point.
  SmallVector<int64_t> perPoint;
  for (Value captured : tile.getCapturedVariables()) {
    std::optional<int64_t> c = coefficient(captured, id);
    if (!c)
      return std::string("a captured value is not linear in the tile id");
    perPoint.push_back(*c);
  }
  unsigned row = perPoint.size(), dims = row + box->getExtents().size();
  bool walksRows = false;
  for (Attribute attr : tile.getPerDimSubscriptMaps())
    for (AffineExpr expr : cast<AffineMapAttr>(attr).getValue().getResults()) {
      auto affine = affineCoefficients(expr, dims);
      if (!isLinear(expr) || !affine)
        return std::string("a subscript is not linear (rows sharing an "
                           "index would read it again in each part)");
      int64_t moves = 0;
      for (auto [c, move] : llvm::zip(affine->second, perPoint))
        moves += c * move;
      // The row variable steps one row of a subscript that moves the
      // point's rows per point; any other stays where it is.
      int64_t step = affine->second[row];
      if (step != 0 && (step != 1 || moves != rows))
        return llvm::formatv("a subscript steps {0} per row and {1} per "
                             "point, not 1 and the point's {2} rows",
                             step, moves, rows)
            .str();
      if (step == 0 && moves != 0)
        return std::string("a subscript the rows do not walk moves with the "
                           "tile id");
      walksRows |= step != 0;
    }
  if (!walksRows)
    return std::string("no subscript walks its first variable");
  return std::nullopt;
}

Value mlir::ktdf::sliceRowGather(OpBuilder &b,
                                 ktdp::ConstructIndirectAccessTileOp tile,
                                 Value offset, int64_t rows) {
  MLIRContext *ctx = tile.getContext();
  auto source =
      cast<ktdp::ConstructIndirectAccessTileOp>(b.clone(*tile.getOperation()));
  // The offset is captured after the tile's values and moves the row
  // variable; the variables keep their places.
  unsigned variables = source.getVariablesSpaceSet().getNumDims();
  offsetGatherVariables(source, offset,
                        llvm::to_vector(llvm::seq<unsigned>(0, variables)),
                        variables);
  SmallVector<int64_t> shape(
      cast<ktdp::AccessTileType>(source.getType()).getShape());
  shape.front() = rows;
  source.setVariablesSpaceSetAttr(
      IntegerSetAttr::get(ktdp::getBoxSet(shape, ctx)));
  source.getResult().setType(ktdp::AccessTileType::get(ctx, shape));
  return source.getResult();
}
