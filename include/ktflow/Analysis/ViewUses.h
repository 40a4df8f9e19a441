//===- ViewUses.h - The uses of a tensor's memory views ---------*- C++ -*-===//
//
// This file declares the walk the analyses of a tensor argument share from
// the memory views built on it to the ops that use them: a view passes
// through construct_distributed_memory_view, into the callees it is passed
// to and out of the helpers that return it, and reaches access tiles (direct
// and indirect) and anything else that takes it.
//
//===----------------------------------------------------------------------===//

#ifndef KTFLOW_ANALYSIS_VIEWUSES_H
#define KTFLOW_ANALYSIS_VIEWUSES_H

#include "mlir/IR/Value.h"
#include "llvm/ADT/STLFunctionalExtras.h"

namespace ktflow {

/// Calls `visit` on every use of `views` and of the views made from them,
/// once each: the results of construct_distributed_memory_view, the
/// arguments of callees with a body and the results of the calls of a
/// helper that returns a view are followed, not visited (a call to a
/// function without a body is visited: the view escapes there, and so is
/// the return of a function nothing calls).
void forEachViewUse(llvm::ArrayRef<mlir::Value> views,
                    llvm::function_ref<void(mlir::OpOperand &)> visit);

/// The same walk from an access tile, which calls and returns carry as
/// they carry views: `visit` sees the loads and stores through it (and
/// whatever else it escapes to).
inline void
forEachAccessTileUse(mlir::Value tile,
                     llvm::function_ref<void(mlir::OpOperand &)> visit) {
  forEachViewUse(tile, visit);
}

} // namespace ktflow

#endif // KTFLOW_ANALYSIS_VIEWUSES_H
