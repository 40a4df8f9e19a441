//===- KTDP.h - The ktdp dialect --------------------------------*- C++ -*-===//
//
// This file declares the ktdp dialect, its attributes, types and operations.
// Include it to use any part of ktdp.
//
//===----------------------------------------------------------------------===//

#ifndef KTFLOW_DIALECT_KTDP_IR_KTDP_H
#define KTFLOW_DIALECT_KTDP_IR_KTDP_H

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/IntegerSet.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"

#include "ktflow/Dialect/KTDP/IR/KTDPDialect.h.inc"
#include "ktflow/Dialect/KTDP/IR/KTDPEnums.h.inc"
#include "ktflow/Dialect/KTDP/IR/KTDPAttrInterfaces.h.inc"

#define GET_ATTRDEF_CLASSES
#include "ktflow/Dialect/KTDP/IR/KTDPAttrs.h.inc"

#define GET_TYPEDEF_CLASSES
#include "ktflow/Dialect/KTDP/IR/KTDPTypes.h.inc"

#define GET_OP_CLASSES
#include "ktflow/Dialect/KTDP/IR/KTDPOps.h.inc"

namespace mlir::ktdp {

/// A memory space normalised from either published spelling.
struct NormalizedMemorySpace {
  MemoryKind kind = MemoryKind::global;
  /// The owning compute tile of a ct_local memory, when the source names it.
  std::optional<int64_t> computeTileId;
};

/// Normalises a memory-space attribute (op attribute or memref memory space).
/// Returns std::nullopt for attributes that are not ktdp memory spaces.
std::optional<NormalizedMemorySpace> normalizeMemorySpace(Attribute attr);

/// The memory view an access tile (a `construct_access_tile` result) is
/// built on; null for any other value or base.
ConstructMemoryViewOp getAccessTileView(Value accessTile);

} // namespace mlir::ktdp

#endif // KTFLOW_DIALECT_KTDP_IR_KTDP_H
