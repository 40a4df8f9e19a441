//===- SpanReach.h - Where a clipped row span needs zeros -------*- C++ -*-===//
//
// This file names the attribute ktdf-hoist-invariant-transfers puts on the
// access tile of a row span whose load it clips to the columns its loops
// reach at run time (HoistSpanReach.cpp), which the DMA lowering reads
// (DmaWindow.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef KTFLOW_DIALECT_KTDF_TRANSFORMS_SPANREACH_H
#define KTFLOW_DIALECT_KTDF_TRANSFORMS_SPANREACH_H

#include "llvm/ADT/StringRef.h"

namespace mlir::ktdf {

/// The integer attribute on a row span's access tile whose load stops
/// where its loops' blocks end (a view clipped at a run-time size): the
/// columns its DMA leaves out before this one are never read, so a load
/// zeroes only those from here on (past the view, where a block past its
/// end reads zeros).
constexpr llvm::StringLiteral kZeroFromAttrName = "ktdf.zero_from";

} // namespace mlir::ktdf

#endif // KTFLOW_DIALECT_KTDF_TRANSFORMS_SPANREACH_H
