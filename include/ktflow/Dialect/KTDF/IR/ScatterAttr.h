//===- ScatterAttr.h - Tiles that keep their own chunk ----------*- C++ -*-===//
//
// `ktdf.scatter` is a discardable unit attribute of the KTDF dialect
// (KTDFDialect.td), set on two ops:
//
// * on a `ktdf.all_reduce`: afterwards the c-th tile each group lists
//   holds chunk c of the combined partial (elements [c N/P, (c + 1) N/P) of
//   the view, N its elements, P the group's tiles, which must divide N) and
//   the rest of its view is unspecified: a ring reduce-scatter without the
//   all-gather. One ring (no `rings = 2`); its verifier checks both.
// * on a `ktdp.inter_tile_reduce` (set by ktdf-split-wide-reductions): a
//   promise that each tile reads the result only through
//   `tensor.extract_slice`s of its own rows, rows [m R/P, (m + 1) R/P) of
//   the first dimension (R), m the tile's position in its group in
//   ascending tile order (of the result, or of its expand_shape back to
//   the shape a partial was collapsed from). The interpreter ignores it
//   (every tile still gets the whole result); ktdf-lower-inter-tile may
//   then exchange the partial as a reduce-scatter, and exchanges it whole
//   when the reads are not such slices.
//
//===----------------------------------------------------------------------===//

#ifndef KTFLOW_DIALECT_KTDF_IR_SCATTERATTR_H
#define KTFLOW_DIALECT_KTDF_IR_SCATTERATTR_H

#include "ktflow/Dialect/KTDF/IR/KTDF.h"

namespace mlir::ktdf {

/// The attribute's name.
inline constexpr llvm::StringLiteral kScatterAttrName =
    KTDFDialect::ScatterAttrHelper::getNameStr();

/// Whether `op` carries `ktdf.scatter`.
inline bool isScattered(Operation *op) {
  return op->hasAttrOfType<UnitAttr>(kScatterAttrName);
}

/// Sets `ktdf.scatter` on `op`.
inline void setScattered(Operation *op) {
  op->setAttr(kScatterAttrName, UnitAttr::get(op->getContext()));
}

} // namespace mlir::ktdf

#endif // KTFLOW_DIALECT_KTDF_IR_SCATTERATTR_H
