//===- InterTileLegality.h - Legality of inter-tile communication -*- C++ -*-=//
//
// This file declares the inter-tile rules of --ktir-check-legality.
//
//===----------------------------------------------------------------------===//

#ifndef KTFLOW_LIB_DIALECT_KTDP_TRANSFORMS_INTERTILELEGALITY_H
#define KTFLOW_LIB_DIALECT_KTDP_TRANSFORMS_INTERTILELEGALITY_H

#include "mlir/IR/BuiltinOps.h"

namespace mlir::ktdp {

/// Reports every violation of the inter-tile rules in `module` and fails if
/// there is one.
LogicalResult checkInterTileCommunication(ModuleOp module);

} // namespace mlir::ktdp

#endif // KTFLOW_LIB_DIALECT_KTDP_TRANSFORMS_INTERTILELEGALITY_H
