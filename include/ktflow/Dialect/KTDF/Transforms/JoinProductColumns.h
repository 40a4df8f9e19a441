//===- JoinProductColumns.h - Two products of one left operand as one ----===//
//
// This file declares --ktdf-join-product-columns (JoinProductColumns.cpp):
// where a matrix stage multiplies one left operand by two right operands
// (loaded from device memory, from zero) whose columns together fit one
// block of the matrix unit's n, the two products become one: both right
// operands load into the column halves of one buffer, the unit multiplies
// once, and the result drains into one handover view whose column windows
// the later pipelines read (a SwiGLU's X.[W1|W3]; docs/scheduler.md). The
// pass is declared here rather than in Passes.td, whose regeneration
// recompiles every pass.
//
//===----------------------------------------------------------------------===//

#ifndef KTFLOW_DIALECT_KTDF_TRANSFORMS_JOINPRODUCTCOLUMNS_H
#define KTFLOW_DIALECT_KTDF_TRANSFORMS_JOINPRODUCTCOLUMNS_H

#include "mlir/Pass/Pass.h"

#include <memory>

namespace mlir::ktdf {

/// The pass, on a module.
std::unique_ptr<Pass> createKTDFJoinProductColumns();

/// Registers it with the pass registry (ktflow-opt).
void registerKTDFJoinProductColumns();

} // namespace mlir::ktdf

#endif // KTFLOW_DIALECT_KTDF_TRANSFORMS_JOINPRODUCTCOLUMNS_H
