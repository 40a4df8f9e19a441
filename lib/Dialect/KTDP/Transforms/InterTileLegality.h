//===- InterTileLegality.h - Legality of inter-tile communication -*- C++ -*-=//
//
// This file declares the inter-tile rules of --ktir-check-legality.
//
//===----------------------------------------------------------------------===//

#ifndef KTFLOW_LIB_DIALECT_KTDP_TRANSFORMS_INTERTILELEGALITY_H
#define KTFLOW_LIB_DIALECT_KTDP_TRANSFORMS_INTERTILELEGALITY_H

#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"

namespace mlir::ktdp {

/// The well-formed `grid` attributes of a module, by owning operation.
using GridMap = llvm::DenseMap<Operation *, llvm::SmallVector<int64_t>>;

/// Reports every violation of the inter-tile rules in `module` and fails if
/// there is one. Tile sets are enumerated over the kernels' `grids`.
LogicalResult checkInterTileCommunication(ModuleOp module,
                                          const GridMap &grids);

} // namespace mlir::ktdp

#endif // KTFLOW_LIB_DIALECT_KTDP_TRANSFORMS_INTERTILELEGALITY_H
