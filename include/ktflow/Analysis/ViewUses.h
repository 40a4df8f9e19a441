//===- ViewUses.h - The uses of a tensor's memory views ---------*- C++ -*-===//
//
// This file declares the walk the analyses of a tensor argument share from
// the memory views built on it to the ops that use them: a view passes
// through construct_distributed_memory_view and into the callees it is
// passed to, and reaches access tiles (direct and indirect) and anything
// else that takes it.
//
//===----------------------------------------------------------------------===//

#ifndef KTFLOW_ANALYSIS_VIEWUSES_H
#define KTFLOW_ANALYSIS_VIEWUSES_H

#include "mlir/IR/Value.h"
#include "llvm/ADT/STLFunctionalExtras.h"

namespace ktflow {

/// Calls `visit` on every use of `views` and of the views made from them,
/// once each: the results of construct_distributed_memory_view and the
/// arguments of callees with a body are followed, not visited (a call to a
/// function without a body is visited: the view escapes there).
void forEachViewUse(llvm::ArrayRef<mlir::Value> views,
                    llvm::function_ref<void(mlir::OpOperand &)> visit);

} // namespace ktflow

#endif // KTFLOW_ANALYSIS_VIEWUSES_H
